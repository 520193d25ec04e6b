#include "unattendedrun.h"

#include "livesession.h"
#include "realclock.h"
#include "report.h"
#include "runfile.h"

#include <QTimer>

#include <cstdio>

namespace latprobe {

UnattendedRun::UnattendedRun(LiveSession &session, std::vector<LoadSpec> loads, double idleS,
                             double runForS, QString out, QObject *parent)
    : QObject(parent), m_session(session), m_loads(std::move(loads)), m_idleS(idleS),
      m_runForS(runForS), m_out(std::move(out))
{
    connect(&m_session, &LiveSession::loadRefused, this,
            [this](const QString &kind, const QString &error) {
                std::fprintf(stderr, "latprobe-gui: %s: %s\n", qPrintable(kind), qPrintable(error));
                m_loadFailed = true;
                finish(QStringLiteral("load failed"));
            });
}

void UnattendedRun::start()
{
    // Timed from the probe's start, as `latprobe run` times its phases.
    const int64_t origin = m_session.runStart();
    const auto msUntil = [origin](double s) {
        const int64_t at = origin + static_cast<int64_t>(s * 1e9);
        return static_cast<int>(std::max<int64_t>(0, (at - RealClock::monotonicNow()) / 1000000));
    };
    if (!m_loads.empty() && m_idleS < m_runForS)
        QTimer::singleShot(msUntil(m_idleS), this, [this] {
            if (!m_done)
                m_session.startLoads(m_loads);
        });
    QTimer::singleShot(msUntil(m_runForS), this, [this] { finish(QStringLiteral("completed")); });
}

void UnattendedRun::finish(const QString &reason)
{
    if (m_done)
        return;
    m_done = true;
    if (!m_session.running() && !m_session.finished()) { // a signal before the probe started
        emit finished(130);
        return;
    }
    const bool interrupted = reason == QLatin1String("interrupted");
    Run run = m_session.finishRun(reason.toStdString());
    run.partial = reason != QLatin1String("completed");
    std::fputs(formatTextReport(run).c_str(), stdout);
    std::fflush(stdout);
    int code = interrupted ? 130 : m_loadFailed ? 1 : 0;
    if (!m_out.isEmpty()) {
        try {
            writeRunFile(run, m_out.toStdString());
            std::fprintf(stderr, "latprobe-gui: run written to %s\n", qPrintable(m_out));
        } catch (const RunFileError &e) {
            std::fprintf(stderr, "latprobe-gui: %s\n", e.what());
            code = 1;
        }
    }
    emit finished(code);
}

} // namespace latprobe
