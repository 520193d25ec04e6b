#include "unattendedrun.h"

#include "livesession.h"

#include <spdlog/spdlog.h>

namespace latprobe {

UnattendedRun::UnattendedRun(LiveSession &session, Scenario plan, QString out, QObject *parent)
    : QObject(parent), m_session(session), m_plan(std::move(plan)), m_out(std::move(out))
{
    connect(&m_session, &LiveSession::scenarioFinished, this,
            [this](RunEnd end, bool) { conclude(end); });
}

void UnattendedRun::start()
{
    const QString refusal = m_session.startScenario(m_plan, true, true);
    if (!refusal.isEmpty()) {
        spdlog::error("{}", refusal.toStdString());
        m_done = true;
        emit finished(2);
    }
}

void UnattendedRun::interrupt()
{
    if (m_done)
        return;
    if (!m_session.view().scenarioRunning()) { // a signal before the probe started
        m_done = true;
        emit finished(130);
        return;
    }
    m_session.cancelScenario();
}

void UnattendedRun::conclude(RunEnd end)
{
    if (m_done)
        return;
    m_done = true;
    emit finished(m_session.concludeRun(end, m_out.toStdString()));
}

} // namespace latprobe
