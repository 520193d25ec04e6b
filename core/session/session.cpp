#include "session.h"

#include "collector.h"
#include "flightrecorder.h"
#include "isotime.h"
#include "probe.h"
#include "realclock.h"
#include "selfexe.h"
#include "version.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <pthread.h>

namespace latprobe {

namespace {

std::string joinLabels(const std::vector<std::string> &labels)
{
    std::string out;
    for (const std::string &l : labels)
        out += (out.empty() ? "" : " + ") + l;
    return out.empty() ? "idle" : out;
}

// What runs now, each group as KIND:N:key=value: a phase's load signature.
std::vector<std::string> specsOf(const std::vector<GroupStatus> &groups)
{
    std::vector<std::string> specs;
    for (const GroupStatus &g : groups)
        specs.push_back(g.spec.toString());
    return specs;
}

} // namespace

Session::Session(SessionOptions options, SessionObserver *observer)
    : m_options(std::move(options)), m_observer(observer), m_system(readSystemInfo()),
      m_workerBinary(m_options.workerBinary.empty() ? latprobeBinary() : m_options.workerBinary),
      m_externalGrants(m_options.consumers.size()),
      m_externalGrantSet(m_options.consumers.size(), false), m_runName(m_options.runName)
{
    m_probe = std::make_unique<Probe>(m_options.consumers, m_options.params);
    if (m_options.alignNs >= 0)
        m_probe->alignToSecond(m_options.alignNs);
    if (m_options.drainIntervalNs > 0)
        m_probe->setDrainInterval(m_options.drainIntervalNs);
    m_loads = std::make_unique<LoadManager>(m_options.limits, m_workerBinary);
    m_limits = m_options.limits;
}

Session::~Session()
{
    if (m_running)
        finish(RunEnd::Interrupted);
}

void Session::start()
{
    if (m_running || m_finished)
        return;
    if (m_options.noiseCheckS > 0) {
        spdlog::info("checking how quiet the machine is ({:.0f} s; --no-noise-check skips it)",
                     m_options.noiseCheckS);
        m_noise = runNoiseCheck(m_options.noiseCheckS);
        if (m_noise.trustMax())
            spdlog::info("noise check: {}", m_noise.summary());
        else
            spdlog::warn("noise check: {}: the max may be the host's, compare p99",
                         m_noise.summary());
    }
    if (m_options.trace) {
        m_flight = std::make_unique<FlightRecorder>(m_options.params.cpus);
        if (!m_flight->on())
            spdlog::warn("{}", m_flight->summary().message);
    }
    m_startTime = isoTimeNow();
    m_probe->start();
    if (m_flight && m_flight->on()) {
        std::vector<std::string> names;
        for (const ConsumerSetup &s : m_probe->setups())
            if (s.config.kind != ConsumerKind::External) // the window's own thread
                names.push_back(Probe::threadName(s.config));
        m_flight->follow(names);
        m_probe->collector().setExplainPerPhase(m_options.explainPerPhase);
    }
    {
        std::lock_guard lock(m_stateMutex);
        m_phase = {"idle", m_probe->collector().runStart()};
    }
    m_running = true;
    m_control = std::thread(&Session::controlMain, this);
}

// --- The control thread.

void Session::post(std::function<void()> command)
{
    {
        std::lock_guard lock(m_controlMutex);
        m_commands.push_back(std::move(command));
    }
    m_controlWake.notify_one();
}

void Session::controlMain()
{
    pthread_setname_np(pthread_self(), "lp-session");
    int64_t nextTick = RealClock::monotonicNow() + kTickNs;
    std::unique_lock lock(m_controlMutex);
    while (true) {
        m_wakeAt = m_playing ? std::min(nextTick, m_stepEnd) : nextTick;
        const int64_t wait = m_wakeAt - RealClock::monotonicNow();
        if (wait > 0)
            m_controlWake.wait_for(lock, std::chrono::nanoseconds(wait),
                                   [this] { return m_quit || !m_commands.empty(); });
        if (m_quit)
            break;
        std::vector<std::function<void()>> commands;
        commands.swap(m_commands);
        lock.unlock();
        for (std::function<void()> &command : commands)
            command();
        const int64_t now = RealClock::monotonicNow();
        if (now >= nextTick) {
            nextTick = now + kTickNs;
            tick();
        } else if (m_playing && now >= m_stepEnd) {
            tickScenario(now);
        }
        lock.lock();
    }
}

void Session::tick()
{
    takeCaptureRequests();
    takeExplainRequests();
    if (m_playing)
        tickScenario(RealClock::monotonicNow());
}

// --- Captures.

void Session::takeCaptureRequests()
{
    std::vector<Collector::CaptureRequest> requests = m_probe->collector().takeCaptureRequests();
    if (!m_options.autoCapture)
        return;
    for (const Collector::CaptureRequest &r : requests)
        capture("first miss of " + r.consumer, r.timeS, r.phase);
}

void Session::requestCapture()
{
    if (!m_running)
        return;
    post([this] {
        const double timeS = static_cast<double>(RealClock::monotonicNow() - runStart()) / 1e9;
        capture("on demand", timeS, currentPhase().name);
    });
}

void Session::capture(const std::string &reason, double timeS, const std::string &phase)
{
    m_capturer.post([this, reason, timeS, phase] {
        StateCapture s = captureSystemState(reason);
        s.timeS = timeS;
        s.phase = phase;
        {
            std::lock_guard lock(m_stateMutex);
            m_states.push_back(std::move(s));
        }
        if (m_observer)
            m_observer->stateCaptured(reason);
    });
}

size_t Session::captureCount() const
{
    std::lock_guard lock(m_stateMutex);
    return m_states.size();
}

// --- Loads by hand.

void Session::startLoads(const std::vector<LoadSpec> &specs)
{
    if (!m_running)
        return;
    if (m_scenarioActive) {
        std::string name;
        {
            std::lock_guard lock(m_stateMutex);
            name = m_playingName;
        }
        for (const LoadSpec &spec : specs)
            if (m_observer)
                m_observer->loadRefused(
                    spec, fmt::format("scenario {} drives the loads: cancel it first", name));
        return;
    }
    const int generation = m_stopGeneration.load();
    post([this, specs, generation] {
        for (const LoadSpec &spec : specs) {
            if (m_stopGeneration.load() != generation) {
                if (m_observer)
                    m_observer->loadRefused(spec, "not started: Stop all loads was pressed");
                continue;
            }
            std::string error;
            const int id = m_loads->start(spec, error);
            if (id < 0) {
                if (m_observer)
                    m_observer->loadRefused(spec, error);
                continue;
            }
            // Stop all arrived while this group was forking: it must not survive.
            if (m_stopGeneration.load() != generation) {
                m_loads->stop(id);
                continue;
            }
            if (m_observer)
                m_observer->loadStarted(id, spec);
        }
        notifyLoadsChanged();
    });
}

void Session::stopLoad(int id)
{
    if (!m_running || m_scenarioActive)
        return;
    post([this, id] {
        std::vector<GroupStatus> stopping = m_loads->status();
        std::erase_if(stopping, [id](const GroupStatus &g) { return g.id != id; });
        recordFinishedLoads(stopping, RealClock::monotonicNow());
        m_loads->stop(id);
        if (m_observer)
            m_observer->loadStopped(id);
        notifyLoadsChanged();
    });
}

void Session::stopAllLoads()
{
    if (!m_running)
        return;
    if (m_scenarioActive) {
        cancelScenario();
        return;
    }
    ++m_stopGeneration;
    m_urgent.post([this] {
        stopEveryLoad();
        post([this] { notifyLoadsChanged(); });
    });
}

void Session::stopEveryLoad()
{
    recordFinishedLoads(m_loads->status(), RealClock::monotonicNow());
    m_loads->stopAll();
}

void Session::recordFinishedLoads(const std::vector<GroupStatus> &groups, int64_t now)
{
    const int64_t origin = runStart();
    std::lock_guard lock(m_stateMutex);
    for (const GroupStatus &g : groups)
        m_finishedLoads.push_back(toLoadResult(g, origin, now));
}

void Session::notifyLoadsChanged()
{
    openPhaseForLoads();
    if (m_observer)
        m_observer->loadsChanged();
}

// --- Phases: every one begins in openPhase().

void Session::openPhase(const std::string &name, const std::vector<std::string> &loads, int64_t at,
                        PhasePlace place)
{
    PhaseMark mark;
    {
        std::lock_guard phaseLock(m_phaseMutex);
        std::string given = name;
        const int64_t start = m_probe->collector().beginPhase(name, loads, at, place, &given);
        // A step measuring some consumers only: the others pause for it.
        m_probe->measureOnly(place.consumers);
        std::lock_guard lock(m_stateMutex);
        m_phase = {given, start};
        m_phaseAsked = name;
        mark = m_phase;
    }
    if (m_observer)
        m_observer->phaseBegun(mark, false);
}

void Session::openPhaseForLoads()
{
    const std::string name = joinLabels(m_loads->activeLabels());
    {
        // Against the name asked for: the one given may be numbered ("idle 2").
        std::lock_guard lock(m_stateMutex);
        if (!m_running || m_scenarioActive || name == m_phaseAsked)
            return;
    }
    openPhase(name, specsOf(m_loads->status()),
              m_probe->collector().fineBoundary(RealClock::monotonicNow()));
}

void Session::reset()
{
    if (!m_running || m_scenarioActive)
        return;
    const int64_t at = m_probe->collector().fineBoundary(RealClock::monotonicNow());
    {
        std::lock_guard lock(m_stateMutex);
        m_resets.push_back(at);
    }
    // The reason is in the name, so that the saved run says why the same
    // loads begin a phase again; the loads themselves have not changed.
    const std::string labels = joinLabels(m_loads->activeLabels());
    openPhase(labels + " (reset)", specsOf(m_loads->status()), at);
    std::lock_guard lock(m_stateMutex);
    m_phaseAsked = labels;
}

PhaseMark Session::currentPhase() const
{
    std::lock_guard lock(m_stateMutex);
    return m_phase;
}

std::vector<RunMarker> Session::markers() const
{
    const int64_t origin = runStart();
    std::vector<RunMarker> out;
    for (const LoadEvent &e : m_loads->timeline())
        out.push_back({static_cast<double>(e.at - origin) / 1e9,
                       e.started ? RunMarker::LoadStarted : RunMarker::LoadStopped, e.label});
    {
        std::lock_guard lock(m_stateMutex);
        for (int64_t at : m_resets)
            out.push_back({static_cast<double>(at - origin) / 1e9, RunMarker::Reset, "reset"});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const RunMarker &a, const RunMarker &b) { return a.timeS < b.timeS; });
    return out;
}

// --- Reading.

std::vector<ConsumerSetup> Session::setups() const
{
    std::vector<ConsumerSetup> out = m_probe->setups();
    std::lock_guard lock(m_stateMutex);
    for (size_t i = 0; i < out.size(); ++i)
        if (m_externalGrantSet[i])
            out[i].grant = m_externalGrants[i];
    return out;
}

int Session::consumerIndex(ConsumerRole role) const
{
    for (size_t i = 0; i < m_options.consumers.size(); ++i)
        if (m_options.consumers[i].role == role)
            return static_cast<int>(i);
    return -1;
}

SpscRing<Sample> &Session::externalRing(size_t consumer)
{
    return m_probe->externalRing(consumer);
}

void Session::setExternalGrant(size_t consumer, const ThreadGrant &grant)
{
    std::lock_guard lock(m_stateMutex);
    if (consumer < m_externalGrants.size()) {
        m_externalGrants[consumer] = grant;
        m_externalGrantSet[consumer] = true;
    }
}

Collector &Session::collector()
{
    return m_probe->collector();
}

int64_t Session::runStart() const
{
    return m_running || m_finished ? m_probe->collector().runStart() : 0;
}

std::vector<GroupStatus> Session::loadStatus() const
{
    return m_loads->status();
}

std::vector<std::string> Session::activeLabels() const
{
    return m_loads->activeLabels();
}

int Session::runningProcesses() const
{
    return m_loads->runningProcesses();
}

LoadLimits Session::limits() const
{
    std::lock_guard lock(m_stateMutex);
    return m_limits;
}

void Session::setMaxLoadProcesses(int processes)
{
    LoadLimits limits;
    {
        std::lock_guard lock(m_stateMutex);
        m_limits.maxProcesses = std::max(1, processes);
        limits = m_limits;
    }
    // The manager is the control thread's; before start() there is none running.
    if (m_running)
        post([this, limits] { m_loads->setLimits(limits); });
    else
        m_loads->setLimits(limits);
}

// --- Explanations of misses.

void Session::takeExplainRequests()
{
    FlightRecorder::Context context;
    std::vector<Collector::ExplainRequest> requests =
        m_probe->collector().takeExplainRequests(&context.explainableFrom);
    if (!m_flight || requests.empty())
        return;
    for (size_t i = 0; i < m_probe->setups().size(); ++i) {
        const ConsumerSetup &s = m_probe->setups()[i];
        context.tids.push_back(m_probe->measuringTid(i));
        context.consumers.push_back(s.config.name);
        // Only a periodic consumer's misses are explained: start's 1-s
        // period set a 100-ms lookback for every read, half the events that
        // lp-explain parsed under hackbench.
        context.periods.push_back(s.config.kind == ConsumerKind::Periodic ? s.config.periodNs : 0);
    }
    if (m_loads)
        for (const GroupStatus &g : m_loads->status()) {
            m_loadOfPid[g.leader] = g.spec.label();
            for (const WorkerStatus &w : g.workers)
                m_loadOfPid[w.pid] = g.spec.label();
        }
    context.loadOfPid = m_loadOfPid;
    context.preemption = m_system.preemption;
    context.runStart = m_probe->collector().runStart();
    m_flight->explain(std::move(requests), std::move(context));
}

// --- The run.

Run Session::buildRun(const std::string &endReason, bool withRunningLoads) const
{
    Run run;
    run.version = kVersion;
    run.system = m_system;
    run.requested = m_options.params;
    run.consumers = setups();
    run.commandLine = m_options.commandLine;
    run.startTime = m_startTime;
    run.endReason = endReason;
    run.noise = m_noise;
    if (m_running || m_finished) {
        const Collector &c = m_probe->collector();
        run.phases = c.phases(RealClock::monotonicNow());
        run.series = c.series();
        run.misses = c.missLog();
        run.missLogDropped = c.missLogDropped();
    }
    if (m_flight) {
        run.trace = m_flight->summary();
        run.explanations = explanations();
        std::stable_sort(
            run.explanations.begin(), run.explanations.end(),
            [](const MissExplanation &a, const MissExplanation &b) { return a.timeS < b.timeS; });
    }
    run.endTime = isoTimeNow();
    {
        std::lock_guard lock(m_stateMutex);
        run.scenario = m_runName;
        run.thresholdStep = m_runThreshold;
        run.stopVerdict = m_runStopVerdict;
        run.loads = m_finishedLoads;
        run.states = m_states;
    }
    if (withRunningLoads) {
        const int64_t now = RealClock::monotonicNow();
        for (const GroupStatus &g : m_loads->status())
            run.loads.push_back(toLoadResult(g, runStart(), now));
    }
    std::stable_sort(
        run.loads.begin(), run.loads.end(),
        [](const LoadGroupResult &a, const LoadGroupResult &b) { return a.startS < b.startS; });
    std::stable_sort(
        run.states.begin(), run.states.end(),
        [](const StateCapture &a, const StateCapture &b) { return a.timeS < b.timeS; });
    return run;
}

std::vector<MissExplanation> Session::explanations() const
{
    if (!m_flight)
        return {};
    std::vector<MissExplanation> out = m_flight->explanations();
    if (m_probe)
        for (MissExplanation &x : out)
            if (std::string name = m_probe->collector().phaseName(x.phaseIndex); !name.empty())
                x.phase = std::move(name);
    return out;
}

bool Session::explainMore(size_t count)
{
    if (!m_running || !m_flight || !m_flight->on())
        return false;
    return m_probe->collector().explainMore(count);
}

size_t Session::explainedCount() const
{
    return m_flight ? m_flight->explainedCount() : 0;
}

TraceSummary Session::traceSummary() const
{
    return m_flight ? m_flight->summary() : TraceSummary{};
}

Run Session::snapshot(const std::string &endReason) const
{
    return buildRun(endReason, m_running);
}

Run Session::finish(RunEnd end)
{
    if (!m_running) {
        Run run = buildRun(toString(end), false);
        run.partial = isPartial(end);
        return run;
    }
    // Commands not yet begun are dropped; one under way (a start of hundreds
    // of workers) finishes first.
    m_scenarioCancel = true;
    {
        std::lock_guard lock(m_controlMutex);
        m_quit = true;
        m_commands.clear();
    }
    m_controlWake.notify_all();
    if (m_control.joinable())
        m_control.join();
    if (m_playing)
        endScenario(RunEnd::Interrupted);
    // A first miss just before the end still gets its capture, taken while
    // the loads still run.
    takeCaptureRequests();
    takeExplainRequests();
    m_capturer.waitIdle();
    m_urgent.waitIdle();
    // Loads go first, so the last samples are not taken while hundreds of
    // workers are being torn down.
    stopEveryLoad();
    m_probe->stop();
    takeExplainRequests();
    if (m_flight)
        m_flight->waitIdle();
    m_running = false;
    m_finished = true;
    Run run = buildRun(toString(end), false);
    run.partial = isPartial(end);
    return run;
}

} // namespace latprobe
