#include "livesession.h"

#include "guiconsumer.h"
#include "isotime.h"
#include "livedata.h"
#include "loadmanager.h"
#include "presets.h"
#include "probe.h"
#include "realclock.h"
#include "runbuilder.h"
#include "selfexe.h"
#include "statecapture.h"

#include <QMetaObject>

#include <algorithm>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <tuple>
#include <unistd.h>

namespace latprobe {

namespace {

// What the GUI thread runs with, for the gui consumer's line in the run:
// read, never set (the GUI thread is an ordinary desktop thread).
ThreadGrant currentThreadGrant()
{
    ThreadGrant g;
    switch (sched_getscheduler(0) & ~SCHED_RESET_ON_FORK) {
    case SCHED_FIFO:
        g.policy = SchedPolicy::Fifo;
        break;
    case SCHED_RR:
        g.policy = SchedPolicy::RoundRobin;
        break;
    case SCHED_BATCH:
        g.policy = SchedPolicy::Batch;
        break;
    case SCHED_IDLE:
        g.policy = SchedPolicy::Idle;
        break;
    default:
        g.policy = SchedPolicy::Other;
    }
    sched_param sp{};
    sched_getparam(0, &sp);
    g.priority = sp.sched_priority;
    g.nice = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
    g.timerSlackNs = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
    return g;
}

std::string joinLabels(const std::vector<std::string> &labels)
{
    std::string out;
    for (const std::string &l : labels)
        out += (out.empty() ? "" : " + ") + l;
    return out.empty() ? "idle" : out;
}

} // namespace

LiveSession::LiveSession(Options options, QObject *parent)
    : QObject(parent), m_options(std::move(options)), m_system(readSystemInfo()),
      m_binary(latprobeBinary())
{
    // Pool threads only call into LoadManager, which forks from its own
    // long-lived thread (PR_SET_PDEATHSIG), so their expiry does not matter.
    m_pool.setMaxThreadCount(1);
    m_urgent.setMaxThreadCount(1);
    m_capturer.setMaxThreadCount(1);
    m_probe = std::make_unique<Probe>(consumersFor(m_options.preset), m_options.params);
    m_loads = std::make_unique<LoadManager>(m_options.limits, m_binary);
}

LiveSession::~LiveSession()
{
    shutdown();
}

std::vector<ConsumerConfig> LiveSession::consumersFor(const std::string &preset)
{
    const Preset *p = findPreset(preset);
    if (!p)
        p = findPreset("default");
    std::vector<ConsumerConfig> out;
    for (const ConsumerConfig &c : p->consumers) {
        if (c.kind == ConsumerKind::ProcessStart)
            out.push_back(guiConsumerConfig());
        out.push_back(c);
    }
    return out;
}

std::vector<ConsumerConfig> LiveSession::configs() const
{
    std::vector<ConsumerConfig> out;
    for (const ConsumerSetup &s : m_probe->setups())
        out.push_back(s.config);
    return out;
}

int64_t LiveSession::runStart() const
{
    return m_probe->running() || m_finished ? m_probe->collector().runStart() : 0;
}

int LiveSession::consumerIndex(const std::string &name) const
{
    const auto &setups = m_probe->setups();
    for (size_t i = 0; i < setups.size(); ++i)
        if (setups[i].config.name == name)
            return static_cast<int>(i);
    return -1;
}

void LiveSession::start()
{
    if (m_running || m_finished)
        return;
    m_startTime = isoTimeNow();
    m_probe->start();
    m_running = true;
    m_phaseStart = m_probe->collector().runStart();
    m_data = new LiveData(m_probe->collector(), this);
    m_data->setHistogramConsumer(consumerIndex("wakeup"));
    const int gui = consumerIndex("gui");
    if (gui >= 0) {
        m_gui = new GuiConsumer(m_probe->setups()[gui].config, m_probe->externalRing(gui),
                                m_probe->collector().runStart(), this);
        m_gui->start();
    }
    emit started();
}

void LiveSession::shutdown()
{
    if (!m_running)
        return;
    stopScenarioNow();
    m_cancelled++;
    m_pool.clear();
    m_pool.waitForDone();
    m_urgent.waitForDone();
    m_capturer.clear();
    m_capturer.waitForDone();
    m_loads->stopAll();
    if (m_gui)
        m_gui->stop();
    m_probe->stop();
    m_running = false;
    m_finished = true;
}

void LiveSession::pollCaptures()
{
    // A scenario's runner takes the first-miss requests itself, as in `latprobe run`.
    if (!m_running || m_runner)
        return;
    for (const Collector::CaptureRequest &r : m_probe->collector().takeCaptureRequests())
        captureAsync("first miss of " + r.consumer, r.timeS, r.phase);
}

void LiveSession::captureNow()
{
    if (m_runner) {
        m_runner->requestCapture();
        return;
    }
    if (m_running)
        captureAsync("on demand", static_cast<double>(RealClock::monotonicNow() - runStart()) / 1e9,
                     m_phaseName.toStdString());
}

void LiveSession::captureAsync(const std::string &reason, double timeS, const std::string &phase)
{
    m_capturer.start([this, reason, timeS, phase] {
        StateCapture s = captureSystemState(reason);
        s.timeS = timeS;
        s.phase = phase;
        {
            std::lock_guard lock(m_statesMutex);
            m_states.push_back(std::move(s));
        }
        QMetaObject::invokeMethod(
            this, [this, reason] { emit stateCaptured(QString::fromStdString(reason)); },
            Qt::QueuedConnection);
    });
}

size_t LiveSession::captureCount() const
{
    std::lock_guard lock(m_statesMutex);
    return m_states.size();
}

void LiveSession::runTask(std::function<void()> task)
{
    ++m_pending;
    m_pool.start(std::move(task));
}

void LiveSession::startLoad(const LoadSpec &spec)
{
    startLoads({spec});
}

void LiveSession::startLoads(const std::vector<LoadSpec> &specs)
{
    if (!m_running)
        return;
    if (m_runner) {
        for (const LoadSpec &spec : specs)
            emit loadRefused(
                QString::fromStdString(spec.kind),
                tr("scenario %1 drives the loads: cancel it first").arg(m_scenarioName));
        return;
    }
    const int generation = m_cancelled.load();
    runTask([this, specs, generation] {
        std::vector<std::tuple<int, std::string, std::string>> started; // id, kind, label
        std::vector<std::pair<QString, QString>> refused;               // kind, error
        for (const LoadSpec &spec : specs) {
            if (m_cancelled.load() != generation) {
                refused.emplace_back(QString::fromStdString(spec.kind),
                                     QStringLiteral("not started: Stop all loads was pressed"));
                continue;
            }
            std::string error;
            const int id = m_loads->start(spec, error);
            if (id < 0) {
                refused.emplace_back(QString::fromStdString(spec.kind),
                                     QString::fromStdString(error));
                continue;
            }
            // Stop all arrived while this group was forking: it must not survive.
            if (m_cancelled.load() != generation) {
                m_loads->stop(id);
                continue;
            }
            started.emplace_back(id, spec.kind, spec.label());
        }
        QMetaObject::invokeMethod(
            this,
            [this, started, refused] {
                --m_pending;
                for (const auto &[kind, error] : refused)
                    emit loadRefused(kind, error);
                for (const auto &[id, kind, label] : started)
                    emit loadStarted(id, QString::fromStdString(kind),
                                     QString::fromStdString(label));
                onLoadsChanged({});
            },
            Qt::QueuedConnection);
    });
}

void LiveSession::stopLoad(int id)
{
    if (!m_running || m_runner)
        return;
    const int64_t origin = runStart();
    runTask([this, id, origin] {
        std::vector<LoadGroupResult> finished;
        for (const GroupStatus &g : m_loads->status())
            if (g.id == id)
                finished.push_back(toLoadResult(g, origin, RealClock::monotonicNow()));
        m_loads->stop(id);
        QMetaObject::invokeMethod(
            this,
            [this, id, finished] {
                --m_pending;
                emit loadStopped(id);
                onLoadsChanged(finished);
            },
            Qt::QueuedConnection);
    });
}

void LiveSession::stopAllLoads()
{
    if (!m_running)
        return;
    if (m_runner) {
        cancelScenario();
        return;
    }
    m_cancelled++;
    ++m_pending;
    const int64_t origin = runStart();
    m_urgent.start([this, origin] {
        std::vector<LoadGroupResult> finished;
        const int64_t now = RealClock::monotonicNow();
        for (const GroupStatus &g : m_loads->status())
            finished.push_back(toLoadResult(g, origin, now));
        m_loads->stopAll();
        QMetaObject::invokeMethod(
            this,
            [this, finished] {
                --m_pending;
                onLoadsChanged(finished);
            },
            Qt::QueuedConnection);
    });
}

std::vector<std::string> LiveSession::activeLabels() const
{
    return m_loads->activeLabels();
}

void LiveSession::onLoadsChanged(std::vector<LoadGroupResult> finished)
{
    for (LoadGroupResult &r : finished)
        m_finishedLoads.push_back(std::move(r));
    beginPhaseForLoads();
    rebuildMarkers();
    emit loadsChanged();
}

void LiveSession::beginPhaseForLoads()
{
    const std::vector<std::string> labels = m_loads->activeLabels();
    const QString name = QString::fromStdString(joinLabels(labels));
    if (name == m_phaseName || !m_running || m_runner)
        return;
    // Aligned like a reset, so the counters' 100 ms buckets and the phase
    // split at the same instant.
    const int64_t at = m_data->resetBoundary(RealClock::monotonicNow());
    m_probe->collector().beginPhase(name.toStdString(), labels, at);
    m_phaseName = name;
    m_phaseStart = at;
    emit phaseBegun(name);
}

void LiveSession::reset()
{
    // A scenario's phases are its steps.
    if (!m_running || m_runner)
        return;
    const int64_t at = m_data->resetBoundary(RealClock::monotonicNow());
    const std::vector<std::string> labels = m_loads->activeLabels();
    m_probe->collector().beginPhase(joinLabels(labels), labels, at);
    m_data->reset(at);
    m_phaseStart = at;
    m_resets.push_back(at);
    rebuildMarkers();
    emit phaseBegun(m_phaseName);
}

void LiveSession::rebuildMarkers()
{
    const int64_t origin = runStart();
    m_markers.clear();
    for (const LoadEvent &e : m_loads->timeline())
        m_markers.push_back({static_cast<double>(e.at - origin) / 1e9,
                             e.started ? MarkerEvent::LoadStarted : MarkerEvent::LoadStopped,
                             QString::fromStdString(e.label)});
    for (int64_t at : m_resets)
        m_markers.push_back(
            {static_cast<double>(at - origin) / 1e9, MarkerEvent::Reset, QStringLiteral("reset")});
    std::sort(m_markers.begin(), m_markers.end(),
              [](const MarkerEvent &a, const MarkerEvent &b) { return a.timeS < b.timeS; });
    emit markersChanged();
}

std::vector<LoadGroupResult> LiveSession::loadResults(bool includeRunning) const
{
    std::vector<LoadGroupResult> out = m_finishedLoads;
    if (includeRunning) {
        const int64_t now = RealClock::monotonicNow();
        for (const GroupStatus &g : m_loads->status())
            out.push_back(toLoadResult(g, runStart(), now));
    }
    std::stable_sort(
        out.begin(), out.end(),
        [](const LoadGroupResult &a, const LoadGroupResult &b) { return a.startS < b.startS; });
    return out;
}

Run LiveSession::liveRun(const std::string &endReason) const
{
    Run run = makeRun(*m_probe, m_system);
    run.commandLine = m_options.commandLine;
    run.startTime = m_startTime;
    run.endReason = endReason;
    run.scenario = "gui";
    run.loads = loadResults(m_running);
    {
        std::lock_guard lock(m_statesMutex);
        run.states = m_states;
        std::sort(run.states.begin(), run.states.end(),
                  [](const StateCapture &a, const StateCapture &b) { return a.timeS < b.timeS; });
    }
    const int gui = consumerIndex("gui");
    if (gui >= 0 && static_cast<size_t>(gui) < run.consumers.size())
        run.consumers[gui].grant = currentThreadGrant();
    return run;
}

QString LiveSession::startScenario(const Scenario &scenario, bool fromRunStart)
{
    if (!m_running)
        return tr("the probe is not measuring yet");
    if (m_runner)
        return tr("scenario %1 is still running").arg(m_scenarioName);
    if (scenario.steps.empty())
        return tr("scenario %1 has no steps").arg(QString::fromStdString(scenario.name));
    const std::string refusal = checkScenario(scenario, m_loads->limits());
    if (!refusal.empty())
        return QString::fromStdString(refusal);
    // Starts and stops already queued finish first, so none lands in step 1.
    m_pool.waitForDone();
    m_urgent.waitForDone();

    m_scenarioCancel = false;
    m_scenarioName = QString::fromStdString(scenario.name);
    m_scenarioError.clear();
    m_scenarioStartTime = isoTimeNow();
    m_scenarioRun.reset();
    m_shownStep = -1;
    {
        std::lock_guard lock(m_progressMutex);
        m_progress = {0,
                      static_cast<int>(scenario.steps.size()),
                      scenario.steps[0].name,
                      0,
                      scenario.steps[0].durationS,
                      scenario.totalS()};
    }
    m_runner = std::make_unique<ScenarioRunner>(scenario, *m_probe, *m_loads);
    // Otherwise the first step begins a phase of its own: what was measured
    // before is not the scenario's.
    m_runner->setFirstStepJoinsRun(fromRunStart && m_resets.empty() && m_loads->timeline().empty());
    m_firstStepS = -1;
    ScenarioRunner *runner = m_runner.get();
    m_scenarioThread = std::thread([this, runner] {
        m_scenarioStartedAt = RealClock::monotonicNow();
        int lastStep = -1;
        int64_t lastSecond = -1;
        auto progress = [&](const ScenarioProgress &p) {
            {
                std::lock_guard lock(m_progressMutex);
                m_progress = p;
            }
            if (m_firstStepS < 0)
                m_firstStepS = m_probe->collector().phases(RealClock::monotonicNow()).back().startS;
            // Called ~10 times a second: the GUI hears of a new step or second only.
            const auto second = static_cast<int64_t>(p.leftS);
            if (p.step == lastStep && second == lastSecond)
                return;
            lastStep = p.step;
            lastSecond = second;
            QMetaObject::invokeMethod(
                this, [this, p] { onScenarioProgress(p); }, Qt::QueuedConnection);
        };
        m_scenarioEnd = runner->run([this] { return !m_scenarioCancel.load(); }, progress);
        // What follows is a phase of its own: the last step's numbers end here.
        m_scenarioEndedAt = RealClock::monotonicNow();
        m_probe->collector().beginPhase("idle", {}, m_scenarioEndedAt);
        QMetaObject::invokeMethod(this, &LiveSession::onScenarioEnded, Qt::QueuedConnection);
    });
    emit scenarioStarted(m_scenarioName);
    return {};
}

void LiveSession::cancelScenario()
{
    m_scenarioCancel = true;
}

ScenarioProgress LiveSession::scenarioProgress() const
{
    std::lock_guard lock(m_progressMutex);
    return m_progress;
}

void LiveSession::onScenarioProgress(const ScenarioProgress &progress)
{
    if (!m_runner)
        return; // queued before the end
    if (progress.step != m_shownStep) {
        // The runner has started this step's loads and begun its phase.
        m_shownStep = progress.step;
        m_phaseName = QString::fromStdString(progress.stepName);
        m_phaseStart =
            RealClock::monotonicNow() - static_cast<int64_t>(progress.stepElapsedS * 1e9);
        rebuildMarkers();
        emit loadsChanged();
        emit phaseBegun(m_phaseName);
    }
    emit scenarioProgressed();
}

void LiveSession::stopScenarioNow()
{
    if (!m_runner)
        return;
    m_scenarioCancel = true;
    onScenarioEnded();
}

void LiveSession::onScenarioEnded()
{
    if (!m_runner)
        return; // already ended by stopScenarioNow()
    if (m_scenarioThread.joinable())
        m_scenarioThread.join();
    const ScenarioRunner::End end = m_scenarioEnd;
    const std::vector<LoadGroupResult> &loads = m_runner->loadResults();
    m_finishedLoads.insert(m_finishedLoads.end(), loads.begin(), loads.end());
    {
        std::lock_guard lock(m_statesMutex);
        m_states.insert(m_states.end(), m_runner->states().begin(), m_runner->states().end());
    }

    // The scenario's own run, as `latprobe run --scenario` would write it:
    // from its first step's phase (which may be an empty one it renamed, or
    // the run's first) to its end; loads from the moment it started them.
    const double startedS = static_cast<double>(m_scenarioStartedAt - runStart()) / 1e9;
    const double fromS = m_firstStepS >= 0 ? m_firstStepS : startedS;
    const double toS = static_cast<double>(m_scenarioEndedAt - runStart()) / 1e9;
    const std::string reason = toString(end);
    Run run = liveRun(reason);
    auto within = [&](double t) { return t >= fromS && t <= toS; };
    // The idle phase begun at the end is not the scenario's.
    std::erase_if(run.phases,
                  [&](const PhaseResult &p) { return !within(p.startS) || p.startS >= toS; });
    std::erase_if(run.misses, [&](const MissEvent &m) { return !within(m.timeS); });
    std::erase_if(run.states, [&](const StateCapture &s) { return !within(s.timeS); });
    run.loads.clear();
    for (const LoadGroupResult &l : loads)
        if (l.startS >= startedS)
            run.loads.push_back(l);
    run.startTime = m_scenarioStartTime;
    run.scenario = m_scenarioName.toStdString();
    run.thresholdStep = m_runner->thresholdStep();
    run.partial = end == ScenarioRunner::End::Interrupted || end == ScenarioRunner::End::LoadFailed;
    m_scenarioRun = std::move(run);
    m_scenarioError = QString::fromStdString(m_runner->error());
    m_runner.reset();

    m_shownStep = -1;
    m_phaseName = QStringLiteral("idle");
    m_phaseStart = m_scenarioEndedAt;
    rebuildMarkers();
    emit loadsChanged();
    emit phaseBegun(m_phaseName);
    emit scenarioFinished(QString::fromStdString(reason), m_scenarioRun->partial);
}

Run LiveSession::finishRun(const std::string &endReason)
{
    if (!m_running)
        return liveRun(endReason);
    stopScenarioNow();
    m_cancelled++;
    m_pool.clear();
    m_pool.waitForDone();
    m_urgent.waitForDone();
    pollCaptures(); // a first miss just before the end still gets its capture
    m_capturer.waitForDone();
    // Loads go first, so the last samples are not taken while hundreds of
    // workers are being torn down (as `latprobe run` does).
    const int64_t now = RealClock::monotonicNow();
    for (const GroupStatus &g : m_loads->status())
        m_finishedLoads.push_back(toLoadResult(g, runStart(), now));
    m_loads->stopAll();
    if (m_gui)
        m_gui->stop();
    m_probe->stop();
    m_running = false;
    m_finished = true;
    return liveRun(endReason);
}

} // namespace latprobe
