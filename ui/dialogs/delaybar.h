#pragma once

#include "missexplanation.h"

#include <QColor>
#include <QString>
#include <QWidget>

#include <vector>

namespace latprobe {

// One miss's window, from its period's start to the work done, as a bar
// split the way the trace split it: the timer's lateness, then who ran
// instead (each task, interrupt and softirq, the largest first), then the
// consumer's own running; lengths in proportion, each part labelled where
// it has room and named in its tooltip.
class DelayBar : public QWidget
{
    Q_OBJECT
public:
    explicit DelayBar(const MissExplanation &explanation, QWidget *parent = nullptr);

    struct Part
    {
        QString label; // "timer", "culprit[4242]", "irq virtio0", "itself"
        int64_t ns = 0;
        QColor color;
    };
    const std::vector<Part> &parts() const { return m_parts; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override; // tooltips per part

private:
    int partAt(int x) const;

    std::vector<Part> m_parts;
    int64_t m_totalNs = 0;
};

} // namespace latprobe
