#pragma once

#include "loadmanager.h"

#include <QFrame>

#include <cstddef>
#include <cstdint>

class QLabel;
class QPushButton;

namespace latprobe {

class WorkerBars;
class WorkerDistribution;

// A running load group: its name, Stop, one bar per worker (above
// kMaxBars workers, the distribution of their progress and CPU time
// instead), how fairly the workers progressed (CV %, Jain's index), how
// fairly the kernel gave them CPU time, and what they cost.
class LoadGroupView : public QFrame
{
    Q_OBJECT
public:
    // A few dozen bars still read one by one in a 500 px column; a hundred
    // are a comb.
    static constexpr size_t kMaxBars = 48;

    LoadGroupView(const GroupStatus &status, QWidget *parent = nullptr);

    int groupId() const { return m_id; }
    void setStatus(const GroupStatus &status);
    void setStopping();
    QPushButton *stopButton() const { return m_stop; }
    WorkerBars *bars() const { return m_bars; }
    WorkerDistribution *distribution() const { return m_distribution; }

signals:
    void stopRequested(int id);

private:
    int m_id;
    QLabel *m_title;
    QPushButton *m_stop;
    WorkerBars *m_bars;
    WorkerDistribution *m_distribution;
    int64_t m_sampledAt = -1; // of the figures shown
    QLabel *m_cv, *m_jain, *m_cpuCv, *m_cpu, *m_rate, *m_error;
};

} // namespace latprobe
