#pragma once

#include "loadmanager.h"

#include <QWidget>

#include <vector>

namespace latprobe {

// ocbench's picture of fairness: one column per worker, its height the
// worker's progress relative to the most advanced one; each column's
// tooltip adds the CPU time the kernel gave that worker, since equal CPU
// with unequal columns means unequal CPUs, not an unfair scheduler. Painted in one go, so a group
// of hundreds costs no more than a group of two.
class WorkerBars : public QWidget
{
    Q_OBJECT
public:
    explicit WorkerBars(QWidget *parent = nullptr);

    void setWorkers(const std::vector<WorkerStatus> &workers, const QString &unit);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;

private:
    int workerAt(int x) const;

    std::vector<WorkerStatus> m_workers;
    QString m_unit;
    uint64_t m_max = 0;
};

} // namespace latprobe
