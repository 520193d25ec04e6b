#pragma once

#include "loadstatus.h"

#include <QString>
#include <QWidget>

#include <vector>

namespace latprobe {

// How one figure spreads over a group's workers: its range, its median and
// which workers hold its ends, with a histogram of `bins` equal bins from
// the smallest value to the largest.
struct WorkerSpread
{
    int count = 0; // workers with a value
    double min = 0, median = 0, max = 0;
    int lowest = -1, highest = -1; // worker indices; -1: none
    std::vector<int> bins;
};

// `values[i]` is worker i's, NaN where it has none.
WorkerSpread spreadOf(const std::vector<double> &values, int bins);

// A figure in a few characters: 7.5, 950, 12.3 k, 4.5 M.
QString compactCount(double v);

// A group of more workers than one bar each can show readably: how their
// progress spreads and how the CPU time the kernel gave them spreads, each a
// histogram strip from its smallest value (left) to its largest (right),
// the median marked. Hovering an end names that worker (pid, progress, CPU
// time); hovering a bin, how many workers it holds. Painted in one go from
// the sampler's figures: a thousand workers cost what ten do.
class WorkerDistribution : public QWidget
{
    Q_OBJECT
public:
    explicit WorkerDistribution(QWidget *parent = nullptr);

    void setWorkers(const std::vector<WorkerStatus> &workers, const QString &unit);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    // What hovering at `pos` shows, "" for nothing (the tests' way in).
    QString toolTipAt(const QPoint &pos) const;
    const WorkerSpread &progressSpread() const { return m_progress; }
    const WorkerSpread &cpuSpread() const { return m_cpu; }
    // The strips' captions, as drawn.
    QString progressCaption() const;
    QString cpuCaption() const;

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    bool event(QEvent *event) override;

private:
    enum class Strip { Progress, Cpu };
    QRect stripRect(Strip strip) const;
    int binCount() const;
    void recompute();
    QString describeWorker(int index, const QString &role) const;
    void paintStrip(QPainter &p, Strip strip, const WorkerSpread &s, const QColor &colour,
                    const QString &caption) const;

    std::vector<WorkerStatus> m_workers;
    QString m_unit;
    WorkerSpread m_progress, m_cpu;
    int m_failed = 0;
};

} // namespace latprobe
