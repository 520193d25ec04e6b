#include "session.h"

#include "collector.h"
#include "isotime.h"
#include "knobcheck.h"
#include "knobjournal.h"
#include "phasename.h"
#include "probe.h"
#include "realclock.h"
#include "selfexe.h"
#include "version.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace latprobe {

namespace {

// What runs now, each group as KIND:N:key=value: a phase's load signature.
std::vector<std::string> signatureOf(const std::vector<LoadSpec> &specs)
{
    std::vector<std::string> out;
    for (const LoadSpec &spec : specs)
        out.push_back(spec.toString());
    return out;
}

} // namespace

Session::Session(SessionOptions options, SessionObserver *observer)
    : m_options(std::move(options)), m_observer(observer), m_system(readSystemInfo()),
      m_record(m_options.runName), m_externalGrants(m_options.consumers.size())
{
    if (m_options.workerBinary.empty())
        m_options.workerBinary = latprobeBinary();
    // The probe owns the consumers' configs from here on: configs().
    m_probe = std::make_unique<Probe>(std::move(m_options.consumers), m_options.params);
    if (m_options.alignNs >= 0)
        m_probe->alignToSecond(m_options.alignNs);
    if (m_options.drainIntervalNs > 0)
        m_probe->setDrainInterval(m_options.drainIntervalNs);
    m_loads = std::make_unique<LoadManager>(m_options.limits, m_options.workerBinary);
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
    if (m_options.trace)
        m_evidence.openRecorder(m_options.params.cpus);
    m_probe->setTraceMarker(m_evidence.markerFd());
    if (m_options.saveTraces)
        openSavedTraces();
    // Settings a killed run left changed, its guardian killed too, are put
    // back before this one measures anything.
    const KnobEnvironment env = knobEnvironment();
    if (!env.stateDir.empty())
        for (const std::string &line : recoverStaleJournals(env.stateDir, env).failures)
            spdlog::error("{}", line);
    m_startTime = isoTimeNow();
    m_probe->start();
    std::vector<std::string> names;
    for (const ConsumerConfig &c : configs())
        if (c.kind != ConsumerKind::External) // the window's own thread
            names.push_back(Probe::threadName(c));
    m_evidence.attach(m_probe->collector(), names, m_options.explainPerPhase, m_system.preemption);
    m_record.setPhase({"idle", m_probe->collector().runStart()}, "idle");
    m_running = true;
    m_nextTick = RealClock::monotonicNow() + kTickNs;
    armTimer();
}

// --- The control thread: posted commands, and one timed wakeup for the
// tick or the end of a scenario's step, whichever comes first.

void Session::onControl(std::function<void()> command)
{
    m_control.post([this, command = std::move(command)] {
        command();
        armTimer();
    });
}

void Session::armTimer()
{
    const int64_t at = m_player.playing() && m_stepEnd < m_nextTick ? m_stepEnd : m_nextTick;
    m_control.runAt(at, [this] {
        const int64_t now = RealClock::monotonicNow();
        if (now >= m_nextTick) {
            m_nextTick = now + kTickNs;
            tick();
        } else {
            m_player.tick(now);
        }
        armTimer();
    });
}

void Session::tick()
{
    m_evidence.takeCaptureRequests(m_options.autoCapture);
    m_evidence.takeExplainRequests([this] { return measuringThreads(); });
    m_player.tick(RealClock::monotonicNow());
}

void Session::requestCapture()
{
    if (!m_running)
        return;
    onControl([this] {
        const double timeS = static_cast<double>(RealClock::monotonicNow() - runStart()) / 1e9;
        m_evidence.capture("on demand", timeS, currentPhase().name);
    });
}

MissEvidence::Threads Session::measuringThreads() const
{
    MissEvidence::Threads threads;
    for (size_t i = 0; i < configs().size(); ++i) {
        const ConsumerConfig &config = configs()[i];
        threads.tids.push_back(m_probe->measuringTid(i));
        threads.consumers.push_back(config.name);
        // Only a periodic consumer's misses are explained: start's 1-s
        // period set a 100-ms lookback for every read, half the events that
        // lp-explain parsed under hackbench.
        threads.periods.push_back(config.kind == ConsumerKind::Periodic ? config.periodNs : 0);
    }
    threads.loadOfPid = m_loads->processLabels();
    return threads;
}

// --- Loads by hand.

void Session::startLoads(const std::vector<LoadSpec> &specs)
{
    if (!m_running)
        return;
    if (m_player.active()) {
        const std::string name = m_player.playingName();
        for (const LoadSpec &spec : specs)
            if (m_observer)
                m_observer->loadRefused(
                    spec, fmt::format("scenario {} drives the loads: cancel it first", name));
        return;
    }
    const int generation = m_stopGeneration.load();
    onControl([this, specs, generation] {
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
    if (!m_running || m_player.active())
        return;
    onControl([this, id] {
        std::vector<GroupStatus> stopping = m_loads->status();
        std::erase_if(stopping, [id](const GroupStatus &g) { return g.id != id; });
        m_record.addEndedLoads(stopping, runStart(), RealClock::monotonicNow());
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
    if (m_player.active()) {
        cancelScenario();
        return;
    }
    ++m_stopGeneration;
    m_urgent.post([this] {
        stopEveryLoad();
        onControl([this] { notifyLoadsChanged(); });
    });
}

void Session::stopEveryLoad()
{
    m_record.addEndedLoads(m_loads->status(), runStart(), RealClock::monotonicNow());
    m_loads->stopAll();
}

void Session::notifyLoadsChanged()
{
    openPhaseForLoads();
    if (m_observer)
        m_observer->loadsChanged();
}

void Session::setMaxLoadProcesses(int processes)
{
    LoadLimits limits = m_loads->limits();
    limits.maxProcesses = std::max(1, processes);
    m_loads->setLimits(limits);
}

// --- Phases: every one begins in beginPhase().

PhaseMark Session::beginPhase(const std::string &name, const std::vector<std::string> &loads,
                              int64_t at, const PhasePlace &place)
{
    PhaseMark mark;
    {
        std::lock_guard phaseLock(m_phaseMutex);
        std::string given = name;
        const int64_t start = m_probe->collector().beginPhase(name, loads, at, place, &given);
        // A step measuring some consumers only: the others pause for it.
        m_probe->measureOnly(place.consumers);
        mark = {given, start};
        m_record.setPhase(mark, name);
    }
    if (m_observer)
        m_observer->phaseBegun(mark, false);
    return mark;
}

void Session::openPhaseForLoads()
{
    const std::string name = phaseNameForLoads(m_loads->activeLabels());
    // Against the name asked for: the one given may be numbered ("idle 2").
    if (!m_running || m_player.active() || name == m_record.phaseAsked())
        return;
    beginPhase(name, signatureOf(m_loads->specs()),
               m_probe->collector().fineBoundary(RealClock::monotonicNow()));
}

void Session::reset()
{
    if (!m_running || m_player.active())
        return;
    const int64_t at = m_probe->collector().fineBoundary(RealClock::monotonicNow());
    m_record.addReset(at);
    // The reason is in the name, so that the saved run says why the same
    // loads begin a phase again; the loads themselves have not changed.
    const std::string labels = phaseNameForLoads(m_loads->activeLabels());
    beginPhase(labels + " (reset)", signatureOf(m_loads->specs()), at);
    m_record.setPhaseAsked(labels);
}

std::vector<RunMarker> Session::markers() const
{
    return m_record.markers(m_loads->timeline(), runStart());
}

// --- Scenarios: the player decides, the session is its stage.

std::string Session::playScenario(const Scenario &scenario, Play play)
{
    if (!m_running)
        return "the probe is not measuring yet";
    if (m_player.active())
        return fmt::format("scenario {} is still running", m_player.playingName());
    // Variants are refused, and their guardian takes their settings' locks,
    // before anything changes.
    std::shared_ptr<SystemVariants> variants;
    if (!scenario.variants.empty()) {
        const KnobEnvironment env = knobEnvironment();
        if (std::string refusal = refuseVariants(scenario.variants, env, knobRun());
            !refusal.empty())
            return refusal;
        variants = std::make_shared<SystemVariants>(scenario.variants, env);
        if (std::string refusal = variants->start(); !refusal.empty())
            return refusal;
    }
    const bool untouched = !m_record.hasResets() && m_loads->timeline().empty();
    if (std::string refusal =
            m_player.accept(scenario, play, m_loads->limits(), configs(), untouched);
        !refusal.empty())
        return refusal;
    onControl([this, name = scenario.name, variants = std::move(variants)] {
        // Handed over here: the control thread's tick and the player's turns
        // are what read them.
        m_variants = variants;
        if (m_observer)
            m_observer->scenarioStarted(name);
        // The first step starts with the measurement (see Probe::kSettleNs).
        if (const int64_t wait = runStart() - RealClock::monotonicNow(); wait > 0)
            std::this_thread::sleep_for(std::chrono::nanoseconds(wait));
        m_player.begin();
    });
    return {};
}

int64_t Session::now()
{
    return RealClock::monotonicNow();
}

void Session::endPhase(int64_t at)
{
    m_probe->collector().endPhase(at);
}

void Session::discardPhase()
{
    m_probe->collector().discardPhase();
}

void Session::pauseConsumers()
{
    m_probe->pauseAll();
}

std::string Session::startLoad(const LoadSpec &spec)
{
    std::string error;
    m_loads->start(m_variants ? m_variants->forLoads(spec) : spec, error);
    return error;
}

KnobRun Session::knobRun() const
{
    const SchedPolicy policy = m_options.params.policy;
    return {m_options.allowCommands,
            policy == SchedPolicy::Fifo || policy == SchedPolicy::RoundRobin};
}

KnobEnvironment Session::knobEnvironment() const
{
    return m_options.knobs ? *m_options.knobs : KnobEnvironment::real();
}

std::string Session::applyVariant(const Variant &variant)
{
    if (!m_variants)
        return "the variants' settings are not under latprobe's guard";
    std::string error = m_variants->apply(variant);
    m_probe->setSlice(m_variants->sliceNs());
    if (error.empty())
        m_record.addVariantSwitch(RealClock::monotonicNow(), variant.name);
    return error;
}

std::string Session::variantTrouble()
{
    return m_variants ? m_variants->schedulerTrouble() : std::string();
}

void Session::leaveOut(int64_t from, int64_t to, const std::string &why)
{
    const auto since = [this](int64_t at) { return static_cast<double>(at - runStart()) / 1e9; };
    m_record.leaveOut(since(from), since(to), why);
    spdlog::warn("{}", why);
}

PhaseMark Session::openPhase(const std::string &name, const std::vector<std::string> &loads,
                             int64_t at, const PhasePlace &place)
{
    return beginPhase(name, loads, at, place);
}

void Session::setTracing(bool on)
{
    m_evidence.setTracing(on);
}

std::vector<PhaseResult> Session::phases(int64_t now)
{
    return m_probe->collector().phases(now);
}

void Session::wakeAt(int64_t at)
{
    m_stepEnd = at;
}

bool Session::interrupted()
{
    return m_options.interrupted && m_options.interrupted();
}

void Session::progressed(const ScenarioProgress &progress)
{
    if (m_observer)
        m_observer->scenarioProgressed(progress);
}

void Session::stepBegun()
{
    if (m_observer)
        m_observer->loadsChanged();
}

void Session::scenarioEnded(ScenarioOutcome &outcome, const Span &span)
{
    if (m_variants) {
        // Everything is put back before the run is cut or its file written.
        std::vector<std::string> failures;
        m_record.setVariants(m_variants->finish(failures));
        for (const std::string &line : failures)
            spdlog::error("{}", line);
        m_variants.reset();
        m_probe->setSlice(0);
    }
    if (span.endsRun)
        m_record.setSpanningScenario(outcome);
    else
        outcome.run = cutScenarioRun(outcome, span);
}

void Session::scenarioFinished(const ScenarioOutcome &outcome)
{
    if (m_observer) {
        m_observer->loadsChanged();
        m_observer->scenarioFinished(outcome);
    }
}

Run Session::cutScenarioRun(const ScenarioOutcome &outcome, const Span &span) const
{
    // From its first step's phase (which may be an empty one it renamed, or
    // the run's first) to its end; loads from the moment it was asked to play.
    Run run = cutRun(buildRun(toString(outcome.end), false), span.fromS,
                     static_cast<double>(span.endedAt - runStart()) / 1e9, span.askedS);
    run.startTime = span.startTime;
    run.scenario = outcome.name;
    run.thresholdStep = outcome.thresholdStep;
    run.stopVerdict = outcome.stopVerdict;
    run.partial = isPartial(outcome.end);
    return run;
}

// --- Reading.

const std::vector<ConsumerConfig> &Session::configs() const
{
    return m_probe->configs();
}

std::vector<ConsumerSetup> Session::setups() const
{
    std::vector<ConsumerSetup> out = m_probe->setups();
    std::lock_guard lock(m_grantMutex);
    for (size_t i = 0; i < out.size(); ++i)
        if (m_externalGrants[i])
            out[i].grant = *m_externalGrants[i];
    return out;
}

int Session::consumerIndex(ConsumerRole role) const
{
    for (size_t i = 0; i < configs().size(); ++i)
        if (configs()[i].role == role)
            return static_cast<int>(i);
    return -1;
}

SpscRing<Sample> &Session::externalRing(size_t consumer)
{
    return m_probe->externalRing(consumer);
}

void Session::setExternalGrant(size_t consumer, const ThreadGrant &grant)
{
    std::lock_guard lock(m_grantMutex);
    if (consumer < m_externalGrants.size())
        m_externalGrants[consumer] = grant;
}

Collector &Session::collector()
{
    return m_probe->collector();
}

int64_t Session::runStart() const
{
    return m_running || m_finished ? m_probe->collector().runStart() : 0;
}

bool Session::explainMore(size_t count)
{
    return m_running && m_evidence.explainMore(count);
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
    run.trace = m_evidence.traceSummary();
    run.explanations = m_evidence.explanations();
    std::stable_sort(
        run.explanations.begin(), run.explanations.end(),
        [](const MissExplanation &a, const MissExplanation &b) { return a.timeS < b.timeS; });
    run.endTime = isoTimeNow();
    if (withRunningLoads) {
        // As sampled, up to a second ago: a snapshot (Copy report, the
        // autosave) reads no /proc, on whatever thread asks.
        for (const GroupStatus &g : m_loads->sampled())
            run.loads.push_back(toLoadResult(g, runStart(), g.sampledAt));
    }
    m_record.fill(run);
    return run;
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
    if (m_autosaver)
        m_autosaver->stopAutosaving(); // no snapshot while the probe ends
    // Commands not yet begun are dropped; one under way (a start of hundreds
    // of workers) finishes first.
    m_player.cancel();
    m_control.stop();
    m_player.endNow(RunEnd::Interrupted);
    // A first miss just before the end still gets its capture, taken while
    // the loads still run.
    const auto threads = [this] { return measuringThreads(); };
    m_evidence.takeCaptureRequests(m_options.autoCapture);
    m_evidence.takeExplainRequests(threads);
    m_evidence.waitForCaptures();
    m_urgent.waitIdle();
    // Loads go first, so the last samples are not taken while hundreds of
    // workers are being torn down.
    stopEveryLoad();
    m_probe->stop();
    m_evidence.takeExplainRequests(threads);
    m_evidence.waitForExplanations();
    m_evidence.finishTraces();
    m_probe->setTraceMarker(-1);
    m_running = false;
    m_finished = true;
    Run run = buildRun(toString(end), false);
    run.partial = isPartial(end);
    if (m_traces) {
        const std::string runPath = m_autosaver ? m_autosaver->claimPath(run) : m_options.outPath;
        m_traces->place(run, runPath.empty() ? m_traces->dir() + "/latprobe-run.json" : runPath);
    }
    if (m_autosaver) {
        m_keepError.clear();
        m_autosaver->saveFinal(run, m_keepError);
    }
    return run;
}

std::vector<MissExplanation> Session::explanations() const
{
    std::vector<MissExplanation> out = m_evidence.explanations();
    if (m_traces)
        for (MissExplanation &x : out)
            x.traceFile = m_traces->pathOf(x.traceFile);
    return out;
}

void Session::openSavedTraces()
{
    if (!m_evidence.recording()) {
        spdlog::warn("--save-trace: the flight recorder is off, so no trace is saved");
        return;
    }
    const std::string dir = !m_options.traceDir.empty() ? m_options.traceDir
                            : m_autosaver               ? m_autosaver->library().dir()
                                                        : std::string();
    auto traces = std::make_unique<SavedTraces>();
    std::string error;
    if (dir.empty()) {
        spdlog::warn("--save-trace: no folder for the traces (give --save-trace=DIR): none is "
                     "saved");
    } else if (!traces->open(dir, error)) {
        spdlog::warn("{}", error);
    } else if (m_evidence.saveTraces(traces->writingDir(), m_options.traceMaxBytes)) {
        m_traces = std::move(traces);
    }
}

// --- The run library.

void Session::keepInLibrary(RunLibrary library, std::chrono::milliseconds every)
{
    // Its first save comes `every` after start(); a snapshot before has no
    // phase, and is not saved.
    if (!m_running && !m_finished && !m_autosaver)
        m_autosaver = std::make_unique<RunAutosaver>(
            std::move(library), [this] { return snapshot("autosaved"); }, every);
}

std::string Session::keptPath() const
{
    return m_autosaver ? m_autosaver->path() : std::string();
}

std::string Session::keepError() const
{
    return m_autosaver ? m_keepError : "the run is not kept in a library (--no-library)";
}

void Session::discardKept()
{
    if (m_autosaver)
        m_autosaver->discard();
    m_autosaver.reset();
}

} // namespace latprobe
