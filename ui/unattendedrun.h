#pragma once

#include "loadspec.h"

#include <QObject>
#include <QString>

#include <vector>

namespace latprobe {

class LiveSession;

// latprobe-gui --run-for S [--idle S] [--load KIND:N]... [--out FILE]:
// the same run as `latprobe run`, with the window open. Loads start after
// the idle lead-in, the run ends after S seconds (or on a signal), the
// report goes to stdout and the run file is written.
class UnattendedRun : public QObject
{
    Q_OBJECT
public:
    UnattendedRun(LiveSession &session, std::vector<LoadSpec> loads, double idleS, double runForS,
                  QString out, QObject *parent = nullptr);

    void start();
    // Ends now; `reason` goes into the run ("completed", "interrupted").
    void finish(const QString &reason);
    bool done() const { return m_done; }

signals:
    void finished(int exitCode);

private:
    LiveSession &m_session;
    std::vector<LoadSpec> m_loads;
    double m_idleS, m_runForS;
    QString m_out;
    bool m_done = false;
    bool m_loadFailed = false;
};

} // namespace latprobe
