#pragma once

#include "phase.h"

#include <QTreeWidget>

#include <vector>

namespace latprobe {

// The run so far, a line per phase (a stretch with one set of loads, or
// since a reset): what the report will say, live. Phases before the last
// reset are greyed: the counters above no longer include them.
class PhaseTable : public QTreeWidget
{
    Q_OBJECT
public:
    explicit PhaseTable(QWidget *parent = nullptr);

    void setPhases(const std::vector<PhaseResult> &phases, double resetS);
    // The height that shows every phase without a scroll bar.
    int neededHeight() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    // Then a column per consumer with a summary figure (the consumer table's).
    // Variant: which an A/B's phase ran under, shown once a phase has one.
    enum Column { Name, Variant, Duration, FirstConsumer };
    const int m_columns;

    // Widens a figure's column to fit `text`; never narrows it while the
    // rows stand. Qt's ResizeToContents laid out every cell of the table
    // each time the running phase's time ticked (4 % of the idle window).
    void fitColumn(int column, const QString &text);
    void fitAllColumns();

    mutable int m_rowHeight = 0; // measured once per font
};

} // namespace latprobe
