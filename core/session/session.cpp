#include "session.h"

#include "collector.h"
#include "isotime.h"
#include "knobjournal.h"
#include "loadmanager.h"
#include "phasename.h"
#include "probe.h"
#include "realclock.h"
#include "systemvariants.h"

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
    : m_parts(std::move(options), observer)
{}

Session::~Session()
{
    if (running())
        finish(RunEnd::Interrupted);
}

void Session::start()
{
    if (running() || finished())
        return;
    const SessionOptions &o = m_parts.options;
    if (o.noiseCheckS > 0) {
        spdlog::info("checking how quiet the machine is ({:.0f} s; --no-noise-check skips it)",
                     o.noiseCheckS);
        m_parts.noise = runNoiseCheck(o.noiseCheckS);
        if (m_parts.noise.trustMax())
            spdlog::info("noise check: {}", m_parts.noise.summary());
        else
            spdlog::warn("noise check: {}: the max may be the host's, compare p99",
                         m_parts.noise.summary());
    }
    if (o.trace)
        m_parts.evidence.openRecorder(o.params.cpus);
    m_parts.probe->setTraceMarker(m_parts.evidence.markerFd());
    if (o.saveTraces)
        m_keeper.openSavedTraces(m_parts.evidence, o.traceDir, o.traceMaxBytes);
    // Settings a killed run left changed, its guardian killed too, are put
    // back before this one measures anything.
    const KnobEnvironment env = m_parts.knobEnvironment();
    if (!env.stateDir.empty())
        for (const std::string &line : recoverStaleJournals(env.stateDir, env).failures)
            spdlog::error("{}", line);
    m_parts.startTime = isoTimeNow();
    m_parts.probe->start();
    std::vector<std::string> names;
    for (const ConsumerConfig &c : configs())
        if (c.kind != ConsumerKind::External) // the window's own thread
            names.push_back(Probe::threadName(c));
    m_parts.evidence.attach(m_parts.collector(), names, o.explainPerPhase,
                            m_parts.system.preemption);
    m_parts.record.setPhase({"idle", m_parts.collector().runStart()}, "idle");
    m_parts.running = true;
    m_keeper.startAutosaving();
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
    const int64_t stepEnd = m_stage.stepEnd();
    const int64_t at = m_player.playing() && stepEnd < m_nextTick ? stepEnd : m_nextTick;
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
    m_parts.evidence.takeCaptureRequests(m_parts.options.autoCapture);
    m_parts.evidence.takeExplainRequests([this] { return m_parts.measuringThreads(); });
    m_player.tick(RealClock::monotonicNow());
}

void Session::requestCapture()
{
    if (!running())
        return;
    onControl([this] {
        const double timeS = static_cast<double>(RealClock::monotonicNow() - runStart()) / 1e9;
        m_parts.evidence.capture("on demand", timeS, currentPhase().name);
    });
}

bool Session::explainMore(size_t count)
{
    return running() && m_parts.evidence.explainMore(count);
}

// --- Loads by hand.

void Session::startLoads(const std::vector<LoadSpec> &specs)
{
    if (!running())
        return;
    SessionObserver *observer = m_parts.observer;
    if (m_player.active()) {
        const std::string name = m_player.playingName();
        for (const LoadSpec &spec : specs)
            if (observer)
                observer->loadRefused(
                    spec, fmt::format("scenario {} drives the loads: cancel it first", name));
        return;
    }
    const int generation = m_stopGeneration.load();
    onControl([this, observer, specs, generation] {
        for (const LoadSpec &spec : specs) {
            if (m_stopGeneration.load() != generation) {
                if (observer)
                    observer->loadRefused(spec, "not started: Stop all loads was pressed");
                continue;
            }
            std::string error;
            const int id = m_parts.loads->start(spec, error);
            if (id < 0) {
                if (observer)
                    observer->loadRefused(spec, error);
                continue;
            }
            // Stop all arrived while this group was forking: it must not survive.
            if (m_stopGeneration.load() != generation) {
                m_parts.loads->stop(id);
                continue;
            }
            if (observer)
                observer->loadStarted(id, spec);
        }
        notifyLoadsChanged();
    });
}

void Session::stopLoad(int id)
{
    if (!running() || m_player.active())
        return;
    onControl([this, id] {
        std::vector<GroupStatus> stopping = m_parts.loads->status();
        std::erase_if(stopping, [id](const GroupStatus &g) { return g.id != id; });
        m_parts.record.addEndedLoads(stopping, runStart(), RealClock::monotonicNow());
        m_parts.loads->stop(id);
        if (m_parts.observer)
            m_parts.observer->loadStopped(id);
        notifyLoadsChanged();
    });
}

void Session::stopAllLoads()
{
    if (!running())
        return;
    if (m_player.active()) {
        cancelScenario();
        return;
    }
    ++m_stopGeneration;
    m_urgent.post([this] {
        m_parts.stopEveryLoad();
        onControl([this] { notifyLoadsChanged(); });
    });
}

void Session::notifyLoadsChanged()
{
    openPhaseForLoads();
    if (m_parts.observer)
        m_parts.observer->loadsChanged();
}

void Session::setMaxLoadProcesses(int processes)
{
    LoadLimits capped = limits();
    capped.maxProcesses = std::max(1, processes);
    m_parts.loads->setLimits(capped);
}

void Session::openPhaseForLoads()
{
    const std::string name = phaseNameForLoads(activeLabels());
    // Against the name asked for: the one given may be numbered ("idle 2").
    if (!running() || m_player.active() || name == m_parts.record.phaseAsked())
        return;
    m_parts.beginPhase(name, signatureOf(m_parts.loads->specs()),
                       fineBoundary(RealClock::monotonicNow()));
}

void Session::reset()
{
    if (!running() || m_player.active())
        return;
    const int64_t at = fineBoundary(RealClock::monotonicNow());
    m_parts.record.addReset(at);
    // The reason is in the name, so that the saved run says why the same
    // loads begin a phase again; the loads themselves have not changed.
    const std::string labels = phaseNameForLoads(activeLabels());
    m_parts.beginPhase(labels + " (reset)", signatureOf(m_parts.loads->specs()), at);
    m_parts.record.setPhaseAsked(labels);
}

// --- Scenarios: the player decides, the stage acts.

std::string Session::playScenario(const Scenario &scenario, Play play)
{
    if (!running())
        return "the probe is not measuring yet";
    if (m_player.active())
        return fmt::format("scenario {} is still running", m_player.playingName());
    // Variants are refused, and their guardian takes their settings' locks,
    // before anything changes.
    std::shared_ptr<SystemVariants> variants;
    if (std::string refusal = m_stage.guardVariants(scenario, variants); !refusal.empty())
        return refusal;
    const bool untouched = !m_parts.record.hasResets() && m_parts.loads->timeline().empty();
    if (std::string refusal = m_player.accept(scenario, play, limits(), configs(), untouched);
        !refusal.empty())
        return refusal;
    onControl([this, name = scenario.name, variants = std::move(variants)] {
        // Handed over here: the control thread's tick and the player's turns
        // are what read them.
        m_stage.adopt(variants);
        if (m_parts.observer)
            m_parts.observer->scenarioStarted(name);
        // The first step starts with the measurement (see Probe::kSettleNs).
        if (const int64_t wait = runStart() - RealClock::monotonicNow(); wait > 0)
            std::this_thread::sleep_for(std::chrono::nanoseconds(wait));
        m_player.begin();
    });
    return {};
}

// --- The parts a front end feeds.

SpscRing<Sample> &Session::externalRing(size_t consumer)
{
    return m_parts.probe->externalRing(consumer);
}

void Session::injectSample(size_t consumer, const Sample &sample)
{
    m_parts.collector().add(consumer, sample);
}

// --- Reading (RunView).

std::vector<RunMarker> Session::markers() const
{
    return m_parts.record.markers(m_parts.loads->timeline(), runStart());
}

std::vector<FineBucket> Session::fineSeries(size_t consumer, int64_t fromIndex) const
{
    return m_parts.collector().fineSeries(consumer, fromIndex);
}

int64_t Session::fineBoundary(int64_t t) const
{
    return m_parts.collector().fineBoundary(t);
}

std::vector<PhaseResult> Session::phases(int64_t now, size_t histogramsFrom) const
{
    return m_parts.collector().phases(now, histogramsFrom, Collector::Blocks::Leave);
}

PhaseResult Session::openPhase(int64_t now) const
{
    return m_parts.collector().openPhase(now);
}

std::vector<MissExplanation> Session::explanations() const
{
    std::vector<MissExplanation> out = m_parts.evidence.explanations();
    m_keeper.placeTraceFiles(out);
    return out;
}

Run Session::snapshot(const std::string &endReason) const
{
    return m_parts.buildRun(endReason, running());
}

// --- The end, and where the run is kept.

Run Session::finish(RunEnd end)
{
    if (!running()) {
        Run run = m_parts.buildRun(toString(end), false);
        run.partial = isPartial(end);
        return run;
    }
    m_keeper.stopAutosaving(); // no snapshot while the probe ends
    // Commands not yet begun are dropped; one under way (a start of hundreds
    // of workers) finishes first.
    m_player.cancel();
    m_control.stop();
    m_player.endNow(RunEnd::Interrupted);
    // A first miss just before the end still gets its capture, taken while
    // the loads still run.
    MissEvidence &evidence = m_parts.evidence;
    const auto threads = [this] { return m_parts.measuringThreads(); };
    evidence.takeCaptureRequests(m_parts.options.autoCapture);
    evidence.takeExplainRequests(threads);
    evidence.waitForCaptures();
    m_urgent.waitIdle();
    // Loads go first, so the last samples are not taken while hundreds of
    // workers are being torn down.
    m_parts.stopEveryLoad();
    m_parts.probe->stop();
    evidence.takeExplainRequests(threads);
    evidence.waitForExplanations();
    evidence.finishTraces();
    m_parts.probe->setTraceMarker(-1);
    m_parts.running = false;
    m_parts.finished = true;
    Run run = m_parts.buildRun(toString(end), false);
    run.partial = isPartial(end);
    m_keeper.keepFinished(run, m_parts.options.outPath);
    return run;
}

void Session::keepInLibrary(RunLibrary library, std::chrono::milliseconds every)
{
    // Its first save comes `every` after start(); a snapshot before has no
    // phase, and is not saved.
    if (!running() && !finished())
        m_keeper.keepInLibrary(
            std::move(library), [this] { return snapshot("autosaved"); }, every);
}

} // namespace latprobe
