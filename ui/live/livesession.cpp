#include "livesession.h"

#include "guiconsumer.h"
#include "livedata.h"
#include "runconclusion.h"
#include "threadparams.h"

#include <QMetaObject>

#include <deque>
#include <functional>
#include <mutex>

namespace latprobe {

class LiveSession::Relay : public SessionObserver
{
public:
    explicit Relay(LiveSession *owner) : m_owner(owner) {}

    void loadStarted(int id, const LoadSpec &spec) override
    {
        queue([o = m_owner, id, kind = QString::fromStdString(spec.kindName()),
               label = QString::fromStdString(spec.label())] {
            emit o->loadStarted(id, kind, label);
        });
    }
    void loadRefused(const LoadSpec &spec, const std::string &error) override
    {
        queue([o = m_owner, kind = QString::fromStdString(spec.kindName()),
               text = QString::fromStdString(error)] { emit o->loadRefused(kind, text); });
    }
    void loadStopped(int id) override
    {
        queue([o = m_owner, id] { emit o->loadStopped(id); });
    }
    void loadsChanged() override
    {
        queue([o = m_owner] {
            o->rebuildMarkers();
            emit o->loadsChanged();
        });
    }
    void phaseBegun(const PhaseMark &phase, bool) override
    {
        queue(
            [o = m_owner, name = QString::fromStdString(phase.name)] { emit o->phaseBegun(name); });
    }
    void stateCaptured(const std::string &reason) override
    {
        queue(
            [o = m_owner, text = QString::fromStdString(reason)] { emit o->stateCaptured(text); });
    }
    // LiveSession::startScenario() says so at once, for the window to follow.
    void scenarioStarted(const std::string &) override
    {
        m_lastStep = -1;
        m_lastSecond = -1;
        m_lastVariant.clear();
    }
    void scenarioProgressed(const ScenarioProgress &p) override
    {
        // ~4 times a second: the GUI hears of a new step or second only.
        const auto second = static_cast<int64_t>(p.leftS);
        if (p.step == m_lastStep && second == m_lastSecond)
            return;
        m_lastStep = p.step;
        m_lastSecond = second;
        // A variant's turn began: its mark goes on the plots even when no
        // load starts with it (an idle step).
        const bool switched = p.variant != m_lastVariant;
        m_lastVariant = p.variant;
        queue([o = m_owner, switched] {
            if (switched)
                o->rebuildMarkers();
            if (o->m_session->scenarioRunning())
                emit o->scenarioProgressed();
        });
    }
    void scenarioFinished(const ScenarioOutcome &outcome) override
    {
        queue([o = m_owner, outcome] {
            o->rebuildMarkers();
            emit o->scenarioFinished(outcome.end, isPartial(outcome.end));
        });
    }

    // In the GUI thread: runs what was queued, in order.
    void drain()
    {
        std::deque<std::function<void()>> tasks;
        {
            std::lock_guard lock(m_mutex);
            tasks.swap(m_tasks);
        }
        for (const std::function<void()> &task : tasks)
            task();
    }

private:
    // The callbacks cross threads through a std::mutex, not through Qt's
    // event queue alone: Qt's own locks are invisible to ThreadSanitizer, so
    // a functor handed to invokeMethod() reads as a race in the tsan preset.
    template <typename F> void queue(F &&f)
    {
        bool wasEmpty;
        {
            std::lock_guard lock(m_mutex);
            wasEmpty = m_tasks.empty();
            m_tasks.emplace_back(std::forward<F>(f));
        }
        if (wasEmpty)
            QMetaObject::invokeMethod(m_owner, "drainRelay", Qt::QueuedConnection);
    }

    LiveSession *m_owner;
    std::mutex m_mutex;
    std::deque<std::function<void()>> m_tasks;
    int m_lastStep = -1; // the session's control thread only
    int64_t m_lastSecond = -1;
    std::string m_lastVariant;
};

LiveSession::LiveSession(SessionOptions options, QObject *parent)
    : QObject(parent), m_relay(std::make_unique<Relay>(this)),
      m_session(std::make_unique<Session>(std::move(options), m_relay.get()))
{}

void LiveSession::drainRelay()
{
    m_relay->drain();
}

LiveSession::~LiveSession()
{
    shutdown();
}

void LiveSession::start()
{
    if (m_session->running() || m_session->finished())
        return;
    m_session->start();
    m_data = new LiveData(*m_session, this);
    m_data->setHistogramConsumer(m_session->consumerIndex(ConsumerRole::Wakeup));
    const int gui = m_session->consumerIndex(ConsumerRole::Gui);
    if (gui >= 0) {
        // The GUI thread is an ordinary desktop thread: what it runs with is
        // read, never set.
        m_session->setExternalGrant(static_cast<size_t>(gui), currentThreadGrant());
        m_gui = new GuiConsumer(m_session->configs()[static_cast<size_t>(gui)],
                                m_session->externalRing(static_cast<size_t>(gui)),
                                m_session->runStart(), this);
        m_gui->start();
    }
    emit started();
}

void LiveSession::shutdown()
{
    if (!m_session->running())
        return;
    finishRun(RunEnd::Interrupted);
}

Run LiveSession::finishRun(RunEnd end)
{
    // Its samples would land after the probe stopped.
    if (m_gui)
        m_gui->stop();
    return m_session->finish(end);
}

int LiveSession::concludeRun(RunEnd end, const std::string &out)
{
    if (m_gui)
        m_gui->stop();
    return latprobe::concludeRun(*m_session, end, out, "latprobe-gui");
}

void LiveSession::keepInLibrary(RunLibrary library, std::chrono::milliseconds every)
{
    m_library = library;
    m_session->keepInLibrary(std::move(library), every);
}

bool LiveSession::finishIntoLibrary(RunEnd end, QString *error)
{
    if (m_session->running())
        finishRun(end);
    const std::string why = m_session->keepError();
    if (error)
        *error = QString::fromStdString(why);
    return why.empty();
}

void LiveSession::finishAndDiscard()
{
    m_session->discardKept();
    if (m_session->running())
        finishRun(RunEnd::Interrupted);
}

void LiveSession::reset()
{
    if (!m_session->running() || m_session->scenarioRunning())
        return;
    m_session->reset();
    const PhaseMark phase = m_session->currentPhase();
    m_data->reset(phase.start);
    rebuildMarkers();
    emit phaseBegun(QString::fromStdString(phase.name));
}

QString LiveSession::startScenario(const Scenario &scenario, bool fromRunStart, bool endsRun)
{
    const std::string refusal = m_session->playScenario(scenario, {fromRunStart, endsRun});
    if (!refusal.empty())
        return QString::fromStdString(refusal);
    emit scenarioStarted(QString::fromStdString(scenario.name));
    return {};
}

void LiveSession::injectSample(size_t consumer, const Sample &sample)
{
    m_session->injectSample(consumer, sample);
}

void LiveSession::rebuildMarkers()
{
    m_markers.clear();
    for (const RunMarker &m : m_session->markers())
        m_markers.push_back(
            {m.timeS, static_cast<MarkerEvent::Kind>(m.kind), QString::fromStdString(m.label)});
    emit markersChanged();
}

} // namespace latprobe
