#pragma once

#include "run.h"
#include "scenario.h"

#include <QObject>
#include <QString>

namespace latprobe {

class LiveSession;

// latprobe-gui --run-for S [--idle S] [--load KIND:N]... [--out FILE]: the
// same run as `latprobe run`, with the window open. The session plays the
// plan (idle lead-in, then the loads) from the run's start; when it ends, or
// a signal cancels it, the report goes to stdout, the run file is written
// and the exit status is `latprobe run`'s (concludeRun).
class UnattendedRun : public QObject
{
    Q_OBJECT
public:
    UnattendedRun(LiveSession &session, Scenario plan, QString out, QObject *parent = nullptr);

    // Once the probe measures.
    void start();
    // A signal: the run ends as interrupted.
    void interrupt();

signals:
    void finished(int exitCode);

private:
    void conclude(RunEnd end);

    LiveSession &m_session;
    Scenario m_plan;
    QString m_out;
    bool m_done = false;
};

} // namespace latprobe
