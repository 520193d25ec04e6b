#include "guiconsumer.h"

#include "realclock.h"

#include <QTimer>

namespace latprobe {

GuiConsumer::GuiConsumer(const ConsumerConfig &config, SpscRing<Sample> &ring, int64_t origin,
                         QObject *parent)
    : QObject(parent), m_config(config), m_ring(ring), m_timer(new QTimer(this)),
      m_next(origin + config.periodNs)
{
    m_timer->setSingleShot(true);
    m_timer->setTimerType(Qt::PreciseTimer);
    connect(m_timer, &QTimer::timeout, this, &GuiConsumer::onTimeout);
}

void GuiConsumer::start()
{
    // Resume on the grid, as if the periods while stopped had been served.
    const int64_t now = RealClock::monotonicNow();
    while (m_next < now)
        m_next += m_config.periodNs;
    scheduleNext();
}

void GuiConsumer::stop()
{
    m_timer->stop();
}

bool GuiConsumer::isActive() const
{
    return m_timer->isActive();
}

void GuiConsumer::scheduleNext()
{
    // Qt timers count whole milliseconds: round up, so the slot never runs
    // before its period starts, and measure from when it was really due. A
    // period that has already begun is due at its start.
    const int64_t now = RealClock::monotonicNow();
    const int64_t wait = m_next - now;
    const int64_t ms = wait > 0 ? (wait + 999'999) / 1'000'000 : 0;
    m_due = wait > 0 ? now + ms * 1'000'000 : m_next;
    m_timer->start(static_cast<int>(ms));
}

void GuiConsumer::onTimeout()
{
    Sample s;
    s.periodStart = m_due;
    s.woke = RealClock::monotonicNow();
    s.done = s.woke;
    s.missedDeadline = s.done > m_due + m_config.slackNs;
    // Count the periods a stall swallowed, as PeriodicLoop does.
    m_next += m_config.periodNs;
    s.periodsSkipped = m_config.skipLostPeriods(m_next, s.done);
    m_ring.push(s);
    ++m_ticks;
    scheduleNext();
}

} // namespace latprobe
