#include "scenarioplayer.h"

#include "consumerconfig.h"
#include "isotime.h"
#include "phasename.h"
#include "scenariocheck.h"
#include "untildecided.h"
#include "variantcompare.h"

#include <fmt/format.h>

#include <algorithm>

namespace latprobe {

struct ScenarioPlayer::Playing
{
    Scenario scenario;
    Play play;
    bool joinsRunStart = false;
    int step = -1;
    int round = 1;
    int64_t stepStart = 0, stepEnd = 0;
    double playedS = 0;             // the steps played before this one, every round
    int64_t askedAt = 0;            // when accept() took it
    double firstStepS = -1;         // where its first phase begins, since the run started
    std::string startTime;          // ISO, for its own run
    std::string error;              // why a load did not start
    std::optional<StopJudge> judge; // with a stop condition
    int firstPhase = -1;            // the stage's index of its first step's phase
    double repeatedS = 0;           // steps played again to confirm a threshold
    int thresholdStep = -1;         // counted from its first step's phase
    // With variants: this round's order, the turn playing, and the
    // unmeasured settling after a switch.
    std::vector<size_t> order;
    int turn = 0;
    bool settling = false;
    int64_t settleEnd = 0;
    int64_t roundStart = 0;
    std::string roundTrouble; // why the round is left out; "" counts
    // By variant: its last turn ended early, its variant no longer in force.
    std::vector<bool> troubledLastTurn;
    int lastStep = -1; // the step that played last, once it ended
    // Rounds until decided: the rounds completed, the spans of those left
    // out (the looks see them as the run's record will), the last look.
    int roundsPlayed = 0;
    std::vector<std::pair<int64_t, int64_t>> leftOutSpans;
    std::string decision;
    bool decided = false;

    const Variant *variant() const
    {
        return order.empty() ? nullptr : &scenario.variants[order[static_cast<size_t>(turn)]];
    }
};

ScenarioPlayer::ScenarioPlayer(ScenarioStage &stage) : m_stage(stage) {}

ScenarioPlayer::~ScenarioPlayer() = default;

std::string ScenarioPlayer::accept(const Scenario &scenario, Play play, const LoadLimits &limits,
                                   const std::vector<ConsumerConfig> &consumers, bool untouched)
{
    std::lock_guard lock(m_mutex);
    if (m_active)
        return fmt::format("scenario {} is still running", m_name);
    if (scenario.steps.empty())
        return fmt::format("scenario {} has no steps", scenario.name);
    if (std::string refusal = checkScenario(scenario, limits); !refusal.empty())
        return refusal;
    if (std::string why = checkVariantList(scenario.variants); !why.empty())
        return fmt::format("scenario {}: {}", scenario.name, why);
    if (scenario.untilDecided && scenario.variants.size() < 2)
        return fmt::format("scenario {}: rounds until decided (auto) compare variants: give two "
                           "or more (--variant), or a number of rounds",
                           scenario.name);
    if (!scenario.variants.empty() && scenario.stopWhen)
        return fmt::format("scenario {} has a stop condition and variants: a ramp stops where "
                           "one variant fails, so play them in runs of their own",
                           scenario.name);
    for (const ScenarioStep &step : scenario.steps)
        for (const std::string &name : step.consumers)
            if (std::none_of(consumers.begin(), consumers.end(),
                             [&](const ConsumerConfig &c) { return c.name == name; }))
                return fmt::format("scenario {}: step \"{}\" measures {}, which this run does "
                                   "not have (add it with --consumers or the scenario's preset)",
                                   scenario.name, step.name, name);

    auto playing = std::make_shared<Playing>();
    playing->scenario = scenario;
    // A step built without a name (the A/B dialog's load) is named as a
    // scenario file's is: its phases, the bar and the comparison say what ran.
    for (ScenarioStep &step : playing->scenario.steps)
        if (step.name.empty())
            step.name = phaseNameForLoads(step.loads);
    playing->play = play;
    if (scenario.stopWhen)
        playing->judge.emplace(*scenario.stopWhen);
    playing->askedAt = m_stage.now();
    playing->startTime = isoTimeNow();
    // Otherwise the first step begins a phase of its own: what was measured
    // before is not the scenario's.
    playing->joinsRunStart = play.fromRunStart && untouched;
    m_name = scenario.name;
    m_outcome.reset();
    const ScenarioStep &first = playing->scenario.steps[0];
    m_progress = {0,
                  static_cast<int>(scenario.steps.size()),
                  1,
                  scenario.rounds,
                  first.name,
                  0,
                  first.durationS,
                  scenario.totalS()};
    m_next = std::move(playing);
    m_cancel = false;
    m_active = true;
    return {};
}

std::string ScenarioPlayer::playingName() const
{
    std::lock_guard lock(m_mutex);
    return m_active ? m_name : std::string();
}

std::string ScenarioPlayer::name() const
{
    std::lock_guard lock(m_mutex);
    return m_name;
}

ScenarioProgress ScenarioPlayer::progress() const
{
    std::lock_guard lock(m_mutex);
    return m_progress;
}

std::optional<ScenarioOutcome> ScenarioPlayer::lastOutcome() const
{
    std::lock_guard lock(m_mutex);
    return m_outcome;
}

RunEnd ScenarioPlayer::wait()
{
    std::unique_lock lock(m_mutex);
    m_ended.wait(lock, [this] { return !m_active.load(); });
    return m_outcome ? m_outcome->end : RunEnd::Completed;
}

void ScenarioPlayer::begin()
{
    {
        std::lock_guard lock(m_mutex);
        m_playing = std::move(m_next);
    }
    if (!m_playing)
        return;
    if (m_playing->scenario.variants.empty()) {
        beginStep(0);
        return;
    }
    if (m_playing->scenario.untilDecided)
        m_playing->decision = fmt::format("first look after round {}", kMinRoundsAsSamples);
    m_playing->order = turnOrder(m_playing->scenario.variants.size(), 1);
    m_playing->troubledLastTurn.assign(m_playing->order.size(), false);
    beginTurn(0);
}

void ScenarioPlayer::beginTurn(int turn)
{
    Playing &p = *m_playing;
    const int64_t now = m_stage.now();
    // The step before ends here, as it does at a step's end; the switch and
    // the settling after it are in no phase.
    if (p.step >= 0) {
        endStep(now);
    } else if (p.round == 1 && turn == 0) {
        // What ran before the first turn is no variant's.
        if (p.joinsRunStart)
            m_stage.discardPhase();
        else
            m_stage.endPhase(now);
    }
    p.turn = turn;
    if (turn == 0)
        p.roundStart = now;
    // Loads and measuring threads start anew under the variant: autogroup,
    // for one, holds only for what starts after the switch.
    m_stage.pauseConsumers();
    m_stage.stopLoads();
    if (p.error = m_stage.applyVariant(*p.variant()); !p.error.empty()) {
        endScenario(RunEnd::SettingFailed);
        return;
    }
    p.settling = true;
    p.stepStart = now;
    p.settleEnd = m_stage.now() + static_cast<int64_t>(p.scenario.settleTimeS() * 1e9);
    m_stage.wakeAt(p.settleEnd);
    tick(now);
}

bool ScenarioPlayer::beginStep(int index, bool again)
{
    Playing &p = *m_playing;
    const ScenarioStep &step = p.scenario.steps[static_cast<size_t>(index)];
    if (p.step >= 0)
        p.playedS += p.scenario.steps[static_cast<size_t>(p.step)].durationS;
    // The step before ends here, while its own loads still run: neither it
    // nor this step counts its loads stopping or this step's starting
    // (interbench, too, starts a benchmark only once its load runs).
    if (p.step >= 0)
        m_stage.endPhase(m_stage.now());
    p.step = index;
    // Paused before its loads start, so that their start-up is in no period
    // (see Scenario::restartConsumers).
    const bool restarts = p.scenario.restartConsumers;
    const bool first = index == 0 && p.round == 1 && p.turn == 0;
    // With variants the first turn has given the run's first phase up already.
    const bool joins = p.joinsRunStart && p.order.empty();
    if (restarts) {
        if (first && !again && joins)
            m_stage.discardPhase();
        m_stage.pauseConsumers();
    }
    m_stage.stopLoads();
    std::vector<std::string> specs;
    for (const LoadSpec &spec : step.loads) {
        if (p.error = m_stage.startLoad(spec); !p.error.empty()) {
            endScenario(RunEnd::LoadFailed);
            return false;
        }
        specs.push_back(spec.toString());
    }
    p.stepStart = m_stage.now();
    p.stepEnd = p.stepStart + static_cast<int64_t>(step.durationS * 1e9);
    // The recorder is on before a traced step begins and off only once a
    // paused one has: a miss of a traced step always finds its trace.
    if (step.trace)
        m_stage.setTracing(true);
    const PhaseMark phase =
        m_stage.openPhase(again ? step.name + " (again)" : step.name, specs,
                          first && joins && !restarts ? m_stage.runStart() : p.stepStart,
                          {index, p.round, step.consumers, step.trace,
                           p.variant() ? p.variant()->name : std::string()});
    if (first)
        p.firstStepS = static_cast<double>(phase.start - m_stage.runStart()) / 1e9;
    if (!step.trace)
        m_stage.setTracing(false);
    m_stage.stepBegun();
    m_stage.wakeAt(p.stepEnd);
    tick(p.stepStart);
    return true;
}

void ScenarioPlayer::tick(int64_t now)
{
    if (!m_playing)
        return;
    Playing &p = *m_playing;
    if (m_cancel || m_stage.interrupted()) {
        endScenario(RunEnd::Interrupted);
        return;
    }
    // Before a step's end too: its last moments must have been the variant's.
    if (!p.order.empty())
        if (const std::string trouble = m_stage.variantTrouble(); !trouble.empty()) {
            troubleInTurn(trouble);
            return;
        }
    if (p.settling && now >= p.settleEnd) {
        p.settling = false;
        p.playedS += p.scenario.settleTimeS();
        beginStep(0);
        return;
    }
    if (p.settling || now < p.stepEnd) {
        const ScenarioProgress progress = progressAt(now);
        {
            std::lock_guard lock(m_mutex);
            m_progress = progress;
        }
        m_stage.progressed(progress);
        return;
    }
    if (p.judge) {
        const std::vector<PhaseResult> phases = m_stage.phases(now);
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
    stepsEnded();
}

// The step that played has ended: the next step, turn, round, or the end.
// Each begins itself and ticks, or ends the scenario.
void ScenarioPlayer::stepsEnded()
{
    Playing &p = *m_playing;
    if (p.step + 1 < static_cast<int>(p.scenario.steps.size())) {
        beginStep(p.step + 1);
        return;
    }
    if (!p.order.empty())
        p.troubledLastTurn[p.order[static_cast<size_t>(p.turn)]] = false;
    turnEnded();
}

void ScenarioPlayer::endStep(int64_t at)
{
    Playing &p = *m_playing;
    p.playedS += p.scenario.steps[static_cast<size_t>(p.step)].durationS;
    m_stage.endPhase(at);
    p.lastStep = p.step;
    p.step = -1;
}

void ScenarioPlayer::turnEnded()
{
    Playing &p = *m_playing;
    if (p.turn + 1 < static_cast<int>(p.order.size())) {
        beginTurn(p.turn + 1);
        return;
    }
    ++p.roundsPlayed;
    if (p.scenario.untilDecided && lookDecides()) {
        endScenario(RunEnd::Completed);
    } else if (p.round < p.scenario.rounds) {
        roundEnded(m_stage.now());
        ++p.round;
        if (p.order.empty()) {
            beginStep(0);
        } else {
            p.order = turnOrder(p.scenario.variants.size(), p.round);
            beginTurn(0);
        }
    } else {
        endScenario(RunEnd::Completed);
    }
}

void ScenarioPlayer::troubleInTurn(const std::string &trouble)
{
    Playing &p = *m_playing;
    // The whole round goes, every variant's turn in it: the rounds left are
    // pairs still, each variant's samples from the same stretches of time.
    if (p.roundTrouble.empty())
        p.roundTrouble = fmt::format("round {}: {}; round left out", p.round, trouble);
    // Once may be bad luck; a variant that does not stay in force twice
    // running would only leave every round out.
    const size_t variant = p.order[static_cast<size_t>(p.turn)];
    if (p.troubledLastTurn[variant]) {
        p.error = fmt::format("variant {}: {}, in its last turn too: it does not stay in force",
                              p.variant()->name, trouble);
        endScenario(RunEnd::SettingFailed);
        return;
    }
    p.troubledLastTurn[variant] = true;
    // What the turn had left to play counts as played, for the time left;
    // a step still open ends in beginTurn (or endScenario), as a turn's
    // last step does.
    if (p.settling)
        p.playedS += p.scenario.settleTimeS();
    p.settling = false;
    for (size_t i = static_cast<size_t>(p.step + 1); i < p.scenario.steps.size(); ++i)
        p.playedS += p.scenario.steps[i].durationS;
    turnEnded();
}

void ScenarioPlayer::roundEnded(int64_t at)
{
    Playing &p = *m_playing;
    if (p.roundTrouble.empty())
        return;
    m_stage.leaveOut(p.roundStart, at, p.roundTrouble);
    p.leftOutSpans.emplace_back(p.roundStart, at);
    p.roundTrouble.clear();
}

bool ScenarioPlayer::lookDecides()
{
    Playing &p = *m_playing;
    const int64_t now = m_stage.now();
    // The round's last phase ends with its step, not once the look is done.
    if (p.step >= 0)
        endStep(now);
    roundEnded(now);
    if (p.round < static_cast<int>(kMinRoundsAsSamples))
        return false;
    const RoundsLook look = lookAtRounds(compareVariants(runSoFar(now)));
    p.decided = look.allDecided();
    p.decision = describeLook(look, p.round + 1);
    return p.decided;
}

Run ScenarioPlayer::runSoFar(int64_t now)
{
    const Playing &p = *m_playing;
    Run run;
    for (const Variant &v : p.scenario.variants)
        run.variants.push_back({v.name, {}, {}});
    run.untilDecided.maxRounds = p.scenario.rounds;
    const auto since = [this](int64_t at) {
        return static_cast<double>(at - m_stage.runStart()) / 1e9;
    };
    for (PhaseResult &phase : m_stage.phases(now)) {
        if (phase.startS < since(p.askedAt))
            continue; // a scenario played before this one
        for (const auto &[from, to] : p.leftOutSpans)
            if (phase.startS >= since(from) && phase.startS < since(to))
                phase.leftOut = "left out";
        run.phases.push_back(std::move(phase));
    }
    return run;
}

ScenarioProgress ScenarioPlayer::progressAt(int64_t now) const
{
    const Playing &p = *m_playing;
    // Settling, the step to come is the turn's first.
    const int stepIndex = p.settling ? 0 : p.step;
    const ScenarioStep &step = p.scenario.steps[static_cast<size_t>(stepIndex)];
    const double elapsed = static_cast<double>(now - p.stepStart) / 1e9;
    ScenarioProgress progress;
    progress.step = stepIndex;
    progress.steps = static_cast<int>(p.scenario.steps.size());
    progress.round = p.round;
    progress.rounds = p.scenario.rounds;
    progress.stepName = step.name;
    progress.stepElapsedS = p.settling ? 0 : elapsed;
    progress.stepS = step.durationS;
    progress.settling = p.settling;
    if (const Variant *v = p.variant())
        progress.variant = v->describe();
    progress.leftS = p.scenario.totalS() + p.repeatedS - p.playedS - elapsed;
    progress.untilDecided = p.scenario.untilDecided;
    progress.decision = p.decision;
    return progress;
}

void ScenarioPlayer::endNow(RunEnd end)
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_playing && m_next) // taken, never begun: nothing was measured
            m_playing = std::move(m_next);
    }
    if (m_playing)
        endScenario(end);
}

void ScenarioPlayer::endScenario(RunEnd end)
{
    roundEnded(m_stage.now()); // before the scenario's own run is cut
    const std::shared_ptr<Playing> ending = std::move(m_playing);
    const Playing &p = *ending;
    // The last step's numbers end before its loads stop, as each step's do.
    if (p.step >= 0)
        m_stage.endPhase(m_stage.now());
    m_stage.stopLoads();
    ScenarioStage::Span span;
    span.endedAt = m_stage.now();
    // What follows is a phase of its own: the last step's numbers end here.
    m_stage.setTracing(true);
    if (!p.play.endsRun)
        m_stage.openPhase("idle", {}, span.endedAt, {});

    ScenarioOutcome outcome;
    outcome.name = p.scenario.name;
    outcome.end = end;
    outcome.step = std::max(0, p.step >= 0 ? p.step : p.lastStep);
    outcome.steps = static_cast<int>(p.scenario.steps.size());
    outcome.round = p.round;
    outcome.rounds = p.scenario.rounds;
    outcome.error = p.error;
    if (p.judge)
        outcome.stopVerdict = p.judge->verdict();
    if (p.scenario.untilDecided)
        outcome.untilDecided = {p.scenario.rounds, p.roundsPlayed, p.decided};
    // The threshold's phase in the run it belongs to: the scenario's own, or
    // the whole run when the scenario ends it.
    const int inWholeRun = p.thresholdStep >= 0 ? p.firstPhase + p.thresholdStep : -1;
    outcome.thresholdStep = p.play.endsRun ? inWholeRun : p.thresholdStep;
    span.askedS = static_cast<double>(p.askedAt - m_stage.runStart()) / 1e9;
    span.fromS = p.firstStepS >= 0 ? p.firstStepS : span.askedS;
    span.startTime = p.startTime;
    span.endsRun = p.play.endsRun;
    m_stage.scenarioEnded(outcome, span);
    {
        std::lock_guard lock(m_mutex);
        m_outcome = outcome;
        m_active = false;
    }
    m_ended.notify_all();
    m_stage.scenarioFinished(outcome);
}

} // namespace latprobe
