#pragma once

#include "loadmanager.h"

#include <QFrame>

class QLabel;
class QPushButton;

namespace latprobe {

class WorkerBars;

// A running load group: its name, Stop, one bar per worker, how fairly the
// workers progressed (CV %, Jain's index), how fairly the kernel gave them
// CPU time, and what they cost.
class LoadGroupView : public QFrame
{
    Q_OBJECT
public:
    LoadGroupView(const GroupStatus &status, QWidget *parent = nullptr);

    int groupId() const { return m_id; }
    void setStatus(const GroupStatus &status);
    void setStopping();
    QPushButton *stopButton() const { return m_stop; }

signals:
    void stopRequested(int id);

private:
    int m_id;
    QLabel *m_title;
    QPushButton *m_stop;
    WorkerBars *m_bars;
    QLabel *m_cv, *m_jain, *m_cpuCv, *m_cpu, *m_rate, *m_error;
};

} // namespace latprobe
