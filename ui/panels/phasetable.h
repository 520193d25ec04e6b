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

private:
    enum Column { Name, Duration, Skips, Drops, Stalls, SlowStarts, WakeupP99, Columns };
};

} // namespace latprobe
