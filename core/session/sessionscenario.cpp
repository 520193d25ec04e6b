// Session: playing a scenario's steps. Everything here runs on the control
// thread (or in finish(), once that thread has stopped).

#include "session.h"

#include "collector.h"
#include "flightrecorder.h"
#include "isotime.h"
#include "probe.h"
#include "realclock.h"
#include "scenariocheck.h"
#include "stopjudge.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace latprobe {

struct Session::Playing
{
    Scenario scenario;
    Play play;
    bool joinsRunStart = false;
    int step = -1;
    int round = 1;
    int64_t stepStart = 0, stepEnd = 0;
    double playedS = 0;             // the steps played before this one, every round
    int64_t askedAt = 0;            // when playScenario() was called
    double firstStepS = -1;         // where its first phase begins, since the run started
    std::string startTime;          // ISO, for its own run
    std::string error;              // why a load did not start
    std::optional<StopJudge> judge; // with a stop condition
    int firstPhase = -1;            // the collector's index of its first step's phase
    double repeatedS = 0;           // steps played again to confirm a threshold
    int thresholdStep = -1;         // counted from its first step's phase
};

std::string Session::playScenario(const Scenario &scenario, Play play)
{
    if (!m_running)
        return "the probe is not measuring yet";
    if (m_scenarioActive) {
        std::lock_guard lock(m_stateMutex);
        return fmt::format("scenario {} is still running", m_playingName);
    }
    if (scenario.steps.empty())
        return fmt::format("scenario {} has no steps", scenario.name);
    if (std::string refusal = checkScenario(scenario, m_loads->limits()); !refusal.empty())
        return refusal;
    for (const ScenarioStep &step : scenario.steps)
        for (const std::string &name : step.consumers)
            if (std::none_of(m_options.consumers.begin(), m_options.consumers.end(),
                             [&](const ConsumerConfig &c) { return c.name == name; }))
                return fmt::format("scenario {}: step \"{}\" measures {}, which this run does "
                                   "not have (add it with --consumers or the scenario's preset)",
                                   scenario.name, step.name, name);

    auto playing = std::make_shared<Playing>();
    playing->scenario = scenario;
    playing->play = play;
    if (scenario.stopWhen)
        playing->judge.emplace(*scenario.stopWhen);
    playing->askedAt = RealClock::monotonicNow();
    playing->startTime = isoTimeNow();
    bool untouched;
    {
        std::lock_guard lock(m_stateMutex);
        untouched = m_resets.empty();
        m_playingName = scenario.name;
        m_lastScenario.reset();
        m_progress = {0,
                      static_cast<int>(scenario.steps.size()),
                      1,
                      scenario.rounds,
                      scenario.steps[0].name,
                      0,
                      scenario.steps[0].durationS,
                      scenario.totalS()};
    }
    // Otherwise the first step begins a phase of its own: what was measured
    // before is not the scenario's.
    playing->joinsRunStart = play.fromRunStart && untouched && m_loads->timeline().empty();
    m_scenarioCancel = false;
    m_scenarioActive = true;
    post([this, playing] { beginScenario(playing); });
    return {};
}

void Session::cancelScenario()
{
    if (!m_scenarioActive)
        return;
    m_scenarioCancel = true;
    post([this] {
        if (m_playing)
            tickScenario(RealClock::monotonicNow());
    });
}

ScenarioProgress Session::scenarioProgress() const
{
    std::lock_guard lock(m_stateMutex);
    return m_progress;
}

std::optional<ScenarioOutcome> Session::lastScenario() const
{
    std::lock_guard lock(m_stateMutex);
    return m_lastScenario;
}

RunEnd Session::waitForScenario()
{
    std::unique_lock lock(m_stateMutex);
    m_scenarioEnded.wait(lock, [this] { return !m_scenarioActive.load(); });
    return m_lastScenario ? m_lastScenario->end : RunEnd::Completed;
}

void Session::beginScenario(std::shared_ptr<Playing> playing)
{
    m_playing = std::move(playing);
    if (m_observer)
        m_observer->scenarioStarted(m_playing->scenario.name);
    // The first step starts with the measurement (see Probe::kSettleNs).
    if (const int64_t wait = runStart() - RealClock::monotonicNow(); wait > 0)
        std::this_thread::sleep_for(std::chrono::nanoseconds(wait));
    beginStep(0);
}

bool Session::beginStep(int index, bool again)
{
    Playing &p = *m_playing;
    const ScenarioStep &step = p.scenario.steps[static_cast<size_t>(index)];
    if (p.step >= 0)
        p.playedS += p.scenario.steps[static_cast<size_t>(p.step)].durationS;
    // The step before ends here, while its own loads still run: neither it
    // nor this step counts its loads stopping or this step's starting
    // (interbench, too, starts a benchmark only once its load runs).
    if (p.step >= 0)
        m_probe->collector().endPhase(RealClock::monotonicNow());
    p.step = index;
    // Paused before its loads start, so that their start-up is in no period
    // (see Scenario::restartConsumers).
    const bool restarts = p.scenario.restartConsumers;
    const bool first = index == 0 && p.round == 1;
    if (restarts) {
        if (first && !again && p.joinsRunStart)
            m_probe->collector().discardPhase();
        m_probe->pauseAll();
    }
    stopEveryLoad();
    std::vector<std::string> specs;
    for (const LoadSpec &spec : step.loads) {
        if (m_loads->start(spec, p.error) < 0) {
            endScenario(RunEnd::LoadFailed);
            return false;
        }
        specs.push_back(spec.toString());
    }
    p.stepStart = RealClock::monotonicNow();
    p.stepEnd = p.stepStart + static_cast<int64_t>(step.durationS * 1e9);
    m_stepEnd = p.stepEnd;
    // The recorder is on before a traced step begins and off only once a
    // paused one has: a miss of a traced step always finds its trace.
    if (step.trace)
        recordStep(true);
    openPhase(again ? step.name + " (again)" : step.name, specs,
              first && p.joinsRunStart && !restarts ? runStart() : p.stepStart,
              {index, p.round, step.consumers, step.trace});
    if (first)
        p.firstStepS = static_cast<double>(currentPhase().start - runStart()) / 1e9;
    if (!step.trace)
        recordStep(false);
    if (m_observer)
        m_observer->loadsChanged();
    tickScenario(p.stepStart);
    return true;
}

void Session::tickScenario(int64_t now)
{
    Playing &p = *m_playing;
    const bool interrupted = m_options.interrupted && m_options.interrupted();
    if (m_scenarioCancel || interrupted) {
        endScenario(RunEnd::Interrupted);
        return;
    }
    if (now >= p.stepEnd) {
        if (p.judge) {
            const std::vector<PhaseResult> phases = m_probe->collector().phases(now);
            if (p.firstPhase < 0)
                p.firstPhase = static_cast<int>(phases.size()) - 1;
            switch (p.judge->stepEnded(p.step, phases.back())) {
            case StopJudge::Decision::Stop:
                p.thresholdStep = p.judge->thresholdPhase();
                endScenario(RunEnd::Threshold);
                return;
            case StopJudge::Decision::Repeat:
                p.repeatedS += p.scenario.steps[static_cast<size_t>(p.step)].durationS;
                beginStep(p.step, true);
                return;
            case StopJudge::Decision::Continue:
                break;
            }
        }
        if (p.step + 1 < static_cast<int>(p.scenario.steps.size())) {
            beginStep(p.step + 1); // ticks the new step itself, or ends the scenario
        } else if (p.round < p.scenario.rounds) {
            ++p.round;
            beginStep(0);
        } else {
            endScenario(RunEnd::Completed);
        }
        return;
    }
    const ScenarioStep &step = p.scenario.steps[static_cast<size_t>(p.step)];
    const double elapsed = static_cast<double>(now - p.stepStart) / 1e9;
    ScenarioProgress progress;
    progress.step = p.step;
    progress.steps = static_cast<int>(p.scenario.steps.size());
    progress.round = p.round;
    progress.rounds = p.scenario.rounds;
    progress.stepName = step.name;
    progress.stepElapsedS = elapsed;
    progress.stepS = step.durationS;
    progress.leftS = p.scenario.totalS() + p.repeatedS - p.playedS - elapsed;
    {
        std::lock_guard lock(m_stateMutex);
        m_progress = progress;
    }
    if (m_observer)
        m_observer->scenarioProgressed(progress);
}

void Session::recordStep(bool trace)
{
    // Which misses are asked about is the phase's own (PhasePlace::traced),
    // so that no thread's timing decides it; this only spares the kernel the
    // tracing while a step does not want it.
    if (!m_flight || !m_flight->on() || trace == m_recording)
        return;
    m_recording = trace;
    m_flight->setRecording(trace);
}

void Session::endScenario(RunEnd end)
{
    const Playing &p = *m_playing;
    // The last step's numbers end before its loads stop, as each step's do.
    if (p.step >= 0)
        m_probe->collector().endPhase(RealClock::monotonicNow());
    stopEveryLoad();
    const int64_t endedAt = RealClock::monotonicNow();
    // What follows is a phase of its own: the last step's numbers end here.
    recordStep(true);
    if (!p.play.endsRun)
        openPhase("idle", {}, endedAt);

    ScenarioOutcome outcome;
    outcome.name = p.scenario.name;
    outcome.end = end;
    outcome.step = std::max(0, p.step);
    outcome.steps = static_cast<int>(p.scenario.steps.size());
    outcome.round = p.round;
    outcome.rounds = p.scenario.rounds;
    outcome.error = p.error;
    if (p.judge)
        outcome.stopVerdict = p.judge->verdict();
    // The threshold's phase in the run it belongs to: the scenario's own, or
    // the whole run when the scenario ends it.
    const int inWholeRun = p.thresholdStep >= 0 ? p.firstPhase + p.thresholdStep : -1;
    outcome.thresholdStep = p.play.endsRun ? inWholeRun : p.thresholdStep;
    if (!p.play.endsRun)
        outcome.run = cutScenarioRun(p, end, endedAt);
    m_playing.reset();
    {
        std::lock_guard lock(m_stateMutex);
        if (!outcome.run) {
            m_runName = outcome.name;
            m_runThreshold = outcome.thresholdStep;
            m_runStopVerdict = outcome.stopVerdict;
        }
        m_lastScenario = outcome;
        m_playingName.clear();
        m_scenarioActive = false;
    }
    m_scenarioEnded.notify_all();
    if (m_observer) {
        m_observer->loadsChanged();
        m_observer->scenarioFinished(outcome);
    }
}

Run Session::cutScenarioRun(const Playing &p, RunEnd end, int64_t endedAt) const
{
    // From its first step's phase (which may be an empty one it renamed, or
    // the run's first) to its end; loads from the moment it was asked to play.
    const double startedS = static_cast<double>(p.askedAt - runStart()) / 1e9;
    const double fromS = p.firstStepS >= 0 ? p.firstStepS : startedS;
    const double toS = static_cast<double>(endedAt - runStart()) / 1e9;
    auto within = [&](double t) { return t >= fromS && t <= toS; };
    Run run = buildRun(toString(end), false);
    // The idle phase begun at the end is not the scenario's.
    std::erase_if(run.phases,
                  [&](const PhaseResult &ph) { return !within(ph.startS) || ph.startS >= toS; });
    std::erase_if(run.misses, [&](const MissEvent &m) { return !within(m.timeS); });
    std::erase_if(run.states, [&](const StateCapture &s) { return !within(s.timeS); });
    std::erase_if(run.loads, [&](const LoadGroupResult &l) { return l.startS < startedS; });
    run.startTime = p.startTime;
    run.scenario = p.scenario.name;
    run.thresholdStep = p.thresholdStep;
    if (p.judge)
        run.stopVerdict = p.judge->verdict();
    run.partial = isPartial(end);
    return run;
}

} // namespace latprobe
