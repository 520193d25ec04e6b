// The scenario player on a stage of its own: a fake clock, loads that start
// or fail on demand, phases recorded as opened. Steps and rounds in order,
// progress and time left, a failing load, cancelling, a stop condition, a
// scenario that ends the run and one taken but never begun.

#include "consumerconfig.h"
#include "loadspectext.h"
#include "presets.h"
#include "scenarioplayer.h"

#include <QTest>

#include <functional>
#include <utility>

using namespace latprobe;

namespace {

constexpr int64_t kS = 1'000'000'000;

class FakeStage : public ScenarioStage
{
public:
    int64_t clock = 100 * kS;
    int64_t start = 90 * kS;
    int64_t wake = -1;
    std::string failLoad; // a load of this kind fails
    bool interrupt = false;
    std::vector<std::string> log; // what the player did, in order
    std::vector<PhasePlace> places;
    std::vector<PhaseResult> measured; // what phases() answers; misses per phase by name
    std::map<std::string, uint64_t> missesOf;
    // Audio's p99 in each phase, by where it was played (100 us without).
    std::function<int64_t(const PhasePlace &)> p99Of;
    std::optional<Span> span;
    std::optional<ScenarioOutcome> finishedWith;
    std::vector<ScenarioProgress> progress;

    int64_t now() override { return clock; }
    int64_t runStart() const override { return start; }
    void endPhase(int64_t) override { log.push_back("end"); }
    void discardPhase() override { log.push_back("discard"); }
    void pauseConsumers() override { log.push_back("pause"); }
    void stopLoads() override { log.push_back("stop loads"); }
    std::string startLoad(const LoadSpec &spec) override
    {
        if (spec.kindName() == failLoad)
            return spec.kindName() + " cannot start";
        log.push_back("start " + spec.label());
        return {};
    }
    PhaseMark openPhase(const std::string &name, const std::vector<std::string> &loads, int64_t at,
                        const PhasePlace &place) override
    {
        log.push_back("phase " + name);
        places.push_back(place);
        PhaseResult phase;
        phase.name = name;
        phase.startS = static_cast<double>(at - start) / kS;
        phase.durationS = 10;
        phase.loads = loads;
        phase.step = place.step;
        phase.round = place.round;
        phase.variant = place.variant;
        ConsumerStats audio;
        audio.name = "audio";
        audio.hasDeadline = true;
        audio.misses = missesOf.count(name) ? missesOf[name] : 0;
        audio.samples = 500; // enough for a p99 a round, too few for a p99.9
        audio.deadlinesMetPct = 100;
        audio.p50Us = audio.p99Us = p99Of ? p99Of(place) : 100;
        phase.consumers.push_back(audio);
        measured.push_back(phase);
        return {name, at};
    }
    void setTracing(bool on) override { log.push_back(on ? "trace on" : "trace off"); }
    std::string failVariant; // applying this variant fails
    std::string applyVariant(const Variant &variant) override
    {
        if (variant.name == failVariant)
            return "cannot apply " + variant.name;
        log.push_back("variant " + variant.name);
        return {};
    }
    // Said once at the next look, as a scheduler that exits is seen once
    // per turn: the next turn starts it again.
    std::string trouble;
    std::string variantTrouble() override { return std::exchange(trouble, std::string()); }
    struct LeftOut
    {
        int64_t from, to;
        std::string why;
    };
    std::vector<LeftOut> leftOut;
    void leaveOut(int64_t from, int64_t to, const std::string &why) override
    {
        log.push_back("leave out");
        leftOut.push_back({from, to, why});
    }
    std::vector<PhaseResult> phases(int64_t) override { return measured; }
    void wakeAt(int64_t at) override { wake = at; }
    bool interrupted() override { return interrupt; }
    void progressed(const ScenarioProgress &p) override { progress.push_back(p); }
    void stepBegun() override {}
    void scenarioEnded(ScenarioOutcome &, const Span &s) override { span = s; }
    void scenarioFinished(const ScenarioOutcome &outcome) override { finishedWith = outcome; }

    // Runs the clock to the step's end and ticks the player there.
    void toStepEnd(ScenarioPlayer &player)
    {
        clock = wake;
        player.tick(clock);
    }
    std::vector<std::string> phasesOpened() const
    {
        std::vector<std::string> out;
        for (const std::string &l : log)
            if (l.rfind("phase ", 0) == 0)
                out.push_back(l.substr(6));
        return out;
    }
};

Scenario twoSteps(int rounds = 1)
{
    Scenario s;
    s.name = "pair";
    s.rounds = rounds;
    s.steps = {{"idle", 10, {}}, {"burn", 20, {spec("burn:1")}}};
    return s;
}

const std::vector<ConsumerConfig> kAudio = {audioConsumer(256, 48000, 2)};

} // namespace

class TestScenarioPlayer : public QObject
{
    Q_OBJECT
private slots:
    void playsStepsRoundByRound()
    {
        FakeStage stage;
        ScenarioPlayer player(stage);
        QCOMPARE(player.accept(twoSteps(2), {}, {}, kAudio, false), std::string());
        QVERIFY(player.active());
        player.begin();
        for (int turn = 0; turn < 3; ++turn)
            stage.toStepEnd(player);
        QVERIFY(player.active());
        stage.toStepEnd(player);
        QVERIFY(!player.active());
        QCOMPARE(stage.phasesOpened(),
                 (std::vector<std::string>{"idle", "burn", "idle", "burn", "idle"}));
        // Each step's phase says where it was played; the last "idle" is the
        // phase after the scenario, begun by hand.
        QCOMPARE(stage.places[1].step, 1);
        QCOMPARE(stage.places[1].round, 1);
        QCOMPARE(stage.places[2].step, 0);
        QCOMPARE(stage.places[2].round, 2);
        QCOMPARE(stage.places[4].step, -1);
        QVERIFY(stage.finishedWith);
        QCOMPARE(stage.finishedWith->end, RunEnd::Completed);
        QCOMPARE(stage.finishedWith->round, 2);
        QCOMPARE(player.wait(), RunEnd::Completed);
    }

    // The window's A/B builds its load step without a name: its phases, the
    // progress and the comparison still say what ran, as `latprobe run
    // --load` names them.
    void aStepWithoutANameIsNamedAfterItsLoads()
    {
        FakeStage stage;
        ScenarioPlayer player(stage);
        Scenario s = twoSteps();
        s.steps = {{"", 10, {}}, {"", 20, {spec("burn:4")}}};
        QCOMPARE(player.accept(s, {}, {}, kAudio, false), std::string());
        QCOMPARE(player.progress().stepName, std::string("idle"));
        player.begin();
        stage.toStepEnd(player);
        QCOMPARE(player.progress().stepName, std::string("burn x4"));
        stage.toStepEnd(player);
        QCOMPARE(stage.phasesOpened(), (std::vector<std::string>{"idle", "burn x4", "idle"}));
    }

    void stepsEndTheLastStepBeforeItsLoadsStop()
    {
        FakeStage stage;
        ScenarioPlayer player(stage);
        QCOMPARE(player.accept(twoSteps(), {}, {}, kAudio, false), std::string());
        player.begin();
        stage.toStepEnd(player);
        stage.log.clear();
        stage.toStepEnd(player);
        // A step's numbers end while its loads still run, so that no phase
        // counts them stopping.
        QCOMPARE(stage.log.front(), std::string("end"));
        QCOMPARE(stage.log[1], std::string("stop loads"));
    }

    void progressCountsDownTheWholeScenario()
    {
        FakeStage stage;
        ScenarioPlayer player(stage);
        QCOMPARE(player.accept(twoSteps(2), {}, {}, kAudio, false), std::string());
        QCOMPARE(player.progress().leftS, 60.0);
        player.begin();
        stage.toStepEnd(player); // into "burn" of round 1
        stage.clock += 5 * kS;
        player.tick(stage.clock);
        const ScenarioProgress p = player.progress();
        QCOMPARE(p.step, 1);
        QCOMPARE(p.round, 1);
        QCOMPARE(p.stepName, std::string("burn"));
        QCOMPARE(p.stepElapsedS, 5.0);
        QCOMPARE(p.leftS, 60.0 - 10 - 5);
        QCOMPARE(stage.progress.back().leftS, p.leftS);
    }

    void aLoadThatFailsEndsTheScenario()
    {
        FakeStage stage;
        stage.failLoad = "burn";
        ScenarioPlayer player(stage);
        QCOMPARE(player.accept(twoSteps(), {}, {}, kAudio, false), std::string());
        player.begin();
        stage.toStepEnd(player);
        QVERIFY(!player.active());
        QCOMPARE(player.lastOutcome()->end, RunEnd::LoadFailed);
        QCOMPARE(player.lastOutcome()->error, std::string("burn cannot start"));
        QCOMPARE(player.lastOutcome()->step, 1);
        QCOMPARE(stage.phasesOpened(), (std::vector<std::string>{"idle", "idle"}));
    }

    void cancelEndsAtTheNextTick()
    {
        FakeStage stage;
        ScenarioPlayer player(stage);
        QCOMPARE(player.accept(twoSteps(), {}, {}, kAudio, false), std::string());
        player.begin();
        player.cancel();
        QVERIFY(player.active());
        stage.clock += kS;
        player.tick(stage.clock);
        QVERIFY(!player.active());
        QCOMPARE(player.lastOutcome()->end, RunEnd::Interrupted);
        QCOMPARE(player.lastOutcome()->step, 0);
    }

    void anInterruptEndsItToo()
    {
        FakeStage stage;
        ScenarioPlayer player(stage);
        QCOMPARE(player.accept(twoSteps(), {}, {}, kAudio, false), std::string());
        player.begin();
        stage.interrupt = true;
        player.tick(stage.clock);
        QCOMPARE(player.lastOutcome()->end, RunEnd::Interrupted);
    }

    void refusals_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("refusal");
        QTest::newRow("no steps") << 0 << "scenario pair has no steps";
        QTest::newRow("consumer not measured")
            << 1
            << "scenario pair: step \"idle\" measures video, which this run does not have (add "
               "it with --consumers or the scenario's preset)";
        QTest::newRow("over the worker cap") << 2 << "burn x2 would run 2 processes";
    }
    void refusals()
    {
        QFETCH(int, which);
        QFETCH(QString, refusal);
        FakeStage stage;
        ScenarioPlayer player(stage);
        Scenario s = twoSteps();
        LoadLimits limits;
        if (which == 0)
            s.steps.clear();
        if (which == 1)
            s.steps[0].consumers = {"video"};
        if (which == 2) {
            limits.maxProcesses = 1;
            s.steps[1].loads = {spec("burn:2")};
        }
        const std::string said = player.accept(s, {}, limits, kAudio, false);
        QVERIFY2(QString::fromStdString(said).startsWith(refusal), said.c_str());
        QVERIFY(!player.active());
    }

    void oneScenarioAtATime()
    {
        FakeStage stage;
        ScenarioPlayer player(stage);
        QCOMPARE(player.accept(twoSteps(), {}, {}, kAudio, false), std::string());
        QCOMPARE(player.accept(twoSteps(), {}, {}, kAudio, false),
                 std::string("scenario pair is still running"));
    }

    void aStopConditionEndsTheRampAtItsThreshold()
    {
        FakeStage stage;
        stage.missesOf["burn x2"] = 50;
        Scenario s;
        s.name = "ramp";
        s.stopWhen = StopCondition{{"audio"}, 10, false};
        s.steps = {{"burn x1", 10, {}}, {"burn x2", 10, {}}, {"burn x3", 10, {}}};
        ScenarioPlayer player(stage);
        QCOMPARE(player.accept(s, {false, true}, {}, kAudio, false), std::string());
        player.begin();
        stage.toStepEnd(player);
        stage.toStepEnd(player);
        QVERIFY(!player.active());
        QCOMPARE(player.lastOutcome()->end, RunEnd::Threshold);
        QCOMPARE(player.lastOutcome()->thresholdStep, 1);
        QVERIFY(!player.lastOutcome()->stopVerdict.empty());
        QCOMPARE(stage.phasesOpened(), (std::vector<std::string>{"burn x1", "burn x2"}));
    }

    void aScenarioThatEndsTheRunOpensNoIdlePhase()
    {
        FakeStage stage;
        ScenarioPlayer player(stage);
        QCOMPARE(player.accept(twoSteps(), {true, true}, {}, kAudio, true), std::string());
        player.begin();
        stage.toStepEnd(player);
        stage.toStepEnd(player);
        QCOMPARE(stage.phasesOpened(), (std::vector<std::string>{"idle", "burn"}));
        QVERIFY(stage.span && stage.span->endsRun);
        // Joining the run's start, its first phase is the run's first.
        QCOMPARE(stage.span->fromS, 0.0);
    }

    void restartingConsumersPausesThemBeforeEachStep()
    {
        FakeStage stage;
        Scenario s = twoSteps();
        s.restartConsumers = true;
        ScenarioPlayer player(stage);
        QCOMPARE(player.accept(s, {true, true}, {}, kAudio, true), std::string());
        player.begin();
        stage.toStepEnd(player);
        // Captures the log, not the stage: a lambda holding a type from the
        // anonymous namespace breaks -Wsubobject-linkage in a unity build.
        const auto count = [&log = stage.log](const std::string &what) {
            return std::count(log.begin(), log.end(), what);
        };
        QCOMPARE(count("discard"), 1); // the run's first phase gives way to the first step's
        QCOMPARE(count("pause"), 2);
        const auto pause = std::find(stage.log.begin(), stage.log.end(), "pause");
        const auto firstLoad = std::find(stage.log.begin(), stage.log.end(), "start burn x1");
        QVERIFY(pause < firstLoad);
    }

    void aStepThatPausesTheRecorderStartsItAgainAfter()
    {
        FakeStage stage;
        Scenario s = twoSteps();
        s.steps[1].trace = false;
        ScenarioPlayer player(stage);
        QCOMPARE(player.accept(s, {}, {}, kAudio, false), std::string());
        player.begin();
        stage.toStepEnd(player);
        // Off only once the untraced step's phase is open.
        const auto at = [&log = stage.log](const std::string &what) {
            return std::find(log.begin(), log.end(), what) - log.begin();
        };
        const auto off = at("trace off");
        QVERIFY(at("phase burn") < off);
        stage.toStepEnd(player);
        QCOMPARE(stage.log.back(), std::string("phase idle"));
        QVERIFY(std::find(stage.log.begin() + off, stage.log.end(), "trace on") != stage.log.end());
    }

    void variantsTakeTurnsABBA()
    {
        FakeStage stage;
        Scenario s = twoSteps(2);
        s.variants = {{"on", {{"autogroup", "1"}}}, {"off", {{"autogroup", "0"}}}};
        s.settleS = 3;
        ScenarioPlayer player(stage);
        QCOMPARE(player.accept(s, {true, true}, {}, kAudio, true), std::string());
        player.begin();
        while (player.active())
            stage.toStepEnd(player);
        std::vector<std::string> switches, variantOfPhase;
        for (const std::string &l : stage.log)
            if (l.rfind("variant ", 0) == 0)
                switches.push_back(l.substr(8));
        for (const PhasePlace &place : stage.places)
            variantOfPhase.push_back(place.variant);
        // Round 1: on, off; round 2: off, on: drift hits both alike.
        QCOMPARE(switches, (std::vector<std::string>{"on", "off", "off", "on"}));
        QCOMPARE(variantOfPhase,
                 (std::vector<std::string>{"on", "on", "off", "off", "off", "off", "on", "on"}));
        QCOMPARE(stage.phasesOpened().size(), size_t{8}); // no idle phase: the run ends with it
        QCOMPARE(player.lastOutcome()->end, RunEnd::Completed);
    }

    void theSettlingAfterASwitchIsInNoPhase()
    {
        FakeStage stage;
        Scenario s = twoSteps();
        s.variants = {{"a", {}}, {"b", {{"autogroup", "0"}}}};
        s.settleS = 3;
        ScenarioPlayer player(stage);
        QCOMPARE(player.accept(s, {}, {}, kAudio, false), std::string());
        player.begin();
        // The switch: the open phase ends, loads stop, consumers pause, then
        // the variant; its first step's phase opens only once settled.
        QCOMPARE(stage.log, (std::vector<std::string>{"end", "pause", "stop loads", "variant a"}));
        QVERIFY(player.progress().settling);
        QCOMPARE(player.progress().variant, std::string("a (as the system is)"));
        stage.clock += 2 * kS;
        player.tick(stage.clock);
        QVERIFY(stage.phasesOpened().empty());
        stage.toStepEnd(player); // the settling's end
        QCOMPARE(stage.phasesOpened(), (std::vector<std::string>{"idle"}));
        QVERIFY(!player.progress().settling);
        // Two variants of 30 s of steps and 3 s of settling each.
        QCOMPARE(player.progress().leftS, 2 * (30.0 + 3.0) - 3.0);
    }

    void aVariantThatCannotBeAppliedEndsTheScenario()
    {
        FakeStage stage;
        stage.failVariant = "b";
        Scenario s = twoSteps();
        s.variants = {{"a", {}}, {"b", {{"autogroup", "0"}}}};
        ScenarioPlayer player(stage);
        QCOMPARE(player.accept(s, {}, {}, kAudio, false), std::string());
        player.begin();
        while (player.active())
            stage.toStepEnd(player);
        QCOMPARE(player.lastOutcome()->end, RunEnd::SettingFailed);
        QCOMPARE(player.lastOutcome()->error, std::string("cannot apply b"));
    }

    void aRoundWhoseVariantLeftIsLeftOutAndTheRunGoesOn()
    {
        FakeStage stage;
        Scenario s = twoSteps(3);
        s.variants = {{"eevdf", {}}, {"lavd", {{"scx", "scx_fake"}}}};
        s.settleS = 1;
        ScenarioPlayer player(stage);
        QCOMPARE(player.accept(s, {true, true}, {}, kAudio, true), std::string());
        player.begin();
        // Round 2 plays lavd first (turns rotate): its scheduler exits 5 s
        // into its first step.
        std::vector<int64_t> phaseStarts;
        int64_t troubleAt = 0, round2From = 0;
        while (player.active()) {
            const size_t opened = stage.places.size();
            stage.toStepEnd(player);
            if (stage.places.size() > opened)
                phaseStarts.push_back(stage.clock);
            const PhasePlace &last = stage.places.back();
            if (!troubleAt && last.round == 2 && last.variant == "lavd" && last.step == 0) {
                round2From = stage.clock;
                stage.clock += 5 * kS;
                stage.trouble = "scx_fake exited mid-round (state: disabled)";
                troubleAt = stage.clock;
                player.tick(stage.clock);
            }
        }
        QVERIFY(troubleAt > 0);
        QCOMPARE(player.lastOutcome()->end, RunEnd::Completed);
        QVERIFY(player.lastOutcome()->error.empty());
        // The rest of lavd's turn was not played; eevdf's turn of round 2 was.
        std::vector<std::string> turns;
        for (const PhasePlace &place : stage.places)
            turns.push_back(std::to_string(place.round) + place.variant +
                            std::to_string(place.step));
        QCOMPARE(turns, (std::vector<std::string>{"1eevdf0", "1eevdf1", "1lavd0", "1lavd1",
                                                  "2lavd0", "2eevdf0", "2eevdf1", "3eevdf0",
                                                  "3eevdf1", "3lavd0", "3lavd1"}));
        // lavd applied again in round 3, after the round it left.
        std::vector<std::string> switches;
        for (const std::string &l : stage.log)
            if (l.rfind("variant ", 0) == 0)
                switches.push_back(l.substr(8));
        QCOMPARE(switches,
                 (std::vector<std::string>{"eevdf", "lavd", "lavd", "eevdf", "eevdf", "lavd"}));
        // Round 2, all of it and only it, is left out, once, saying why.
        QCOMPARE(stage.leftOut.size(), size_t{1});
        const FakeStage::LeftOut &out = stage.leftOut[0];
        QCOMPARE(out.why, std::string("round 2: scx_fake exited mid-round (state: disabled); "
                                      "round left out"));
        QVERIFY(out.from < round2From && out.to > troubleAt);
        for (size_t i = 0; i < stage.places.size(); ++i) {
            const bool inSpan = phaseStarts[i] >= out.from && phaseStarts[i] < out.to;
            QCOMPARE(inSpan, stage.places[i].round == 2);
        }
        // The turn cut short counts as played: at the last step's start, only
        // it is left.
        QCOMPARE(stage.progress.back().leftS, 20.0);
    }

    void aVariantThatLeavesTwoTurnsRunningEndsTheRun()
    {
        FakeStage stage;
        Scenario s = twoSteps(3);
        s.variants = {{"eevdf", {}}, {"lavd", {{"scx", "scx_fake"}}}};
        ScenarioPlayer player(stage);
        QCOMPARE(player.accept(s, {true, true}, {}, kAudio, true), std::string());
        player.begin();
        while (player.active()) {
            if (stage.places.size() && stage.places.back().variant == "lavd")
                stage.trouble = "scx_fake exited mid-round (state: disabled)";
            stage.toStepEnd(player);
        }
        QCOMPARE(player.lastOutcome()->end, RunEnd::SettingFailed);
        QCOMPARE(player.lastOutcome()->error,
                 std::string("variant lavd: scx_fake exited mid-round (state: disabled), in its "
                             "last turn too: it does not stay in force"));
        // The round under way when it ended is left out too.
        QCOMPARE(stage.leftOut.size(), size_t{2});
    }

    void variantsAreTwoOrMoreWithoutAStopCondition_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("refusal");
        QTest::newRow("one alone") << 0
                                   << "scenario pair: variant a has nothing to take turns with: "
                                      "give two or more";
        QTest::newRow("a name twice") << 1
                                      << "scenario pair: two variants are called a: give each its "
                                         "own name";
        QTest::newRow("with a stop condition") << 2 << "scenario pair has a stop condition";
    }
    void variantsAreTwoOrMoreWithoutAStopCondition()
    {
        QFETCH(int, which);
        QFETCH(QString, refusal);
        FakeStage stage;
        Scenario s = twoSteps();
        s.variants = {{"a", {}}};
        if (which >= 1)
            s.variants.push_back({which == 1 ? "a" : "b", {}});
        if (which == 2)
            s.stopWhen = StopCondition{{"audio"}, 10, false};
        ScenarioPlayer player(stage);
        const std::string said = player.accept(s, {}, {}, kAudio, false);
        QVERIFY2(QString::fromStdString(said).startsWith(refusal), said.c_str());
    }

    // --rounds auto: b's burn phase is three times a's in every round, the
    // idle phases alike to a percent. At round 5 (the first look) every
    // row is decided, and the scenario ends there, not at 12.
    void untilDecidedEndsAtTheFirstLookThatDecidesEveryRow()
    {
        FakeStage stage;
        stage.p99Of = [](const PhasePlace &place) -> int64_t {
            const int64_t jitter = place.round % 3; // 100..102 us
            return (place.step == 1 && place.variant == "b" ? 300 : 100) + jitter;
        };
        Scenario s = twoSteps(12);
        s.untilDecided = true;
        s.variants = {{"a", {}}, {"b", {{"autogroup", "0"}}}};
        ScenarioPlayer player(stage);
        QCOMPARE(player.accept(s, {true, true}, {}, kAudio, true), std::string());
        player.begin();
        QCOMPARE(player.progress().decision, std::string("first look after round 5"));
        while (player.active())
            stage.toStepEnd(player);
        const ScenarioOutcome outcome = *player.lastOutcome();
        QCOMPARE(outcome.end, RunEnd::Completed);
        QCOMPARE(outcome.untilDecided.maxRounds, 12);
        QCOMPARE(outcome.untilDecided.played, 5);
        QVERIFY(outcome.untilDecided.decided);
        QCOMPARE(stage.phasesOpened().size(), size_t{5 * 2 * 2});
    }

    // Rounds whose values interleave never decide: it plays all of auto:6,
    // and the progress says how many rows are decided and when it looks next.
    void untilDecidedPlaysToItsMostWhenUndecided()
    {
        FakeStage stage;
        stage.p99Of = [](const PhasePlace &place) -> int64_t {
            // a and b alike but spread by half: no round tells them apart.
            return 100 + 25 * ((place.round + (place.variant == "b" ? 1 : 0)) % 3);
        };
        Scenario s = twoSteps(6);
        s.untilDecided = true;
        s.variants = {{"a", {}}, {"b", {{"autogroup", "0"}}}};
        ScenarioPlayer player(stage);
        QCOMPARE(player.accept(s, {true, true}, {}, kAudio, true), std::string());
        player.begin();
        std::string atRound6;
        while (player.active()) {
            stage.toStepEnd(player);
            if (player.active() && player.progress().round == 6)
                atRound6 = player.progress().decision;
        }
        const ScenarioOutcome outcome = *player.lastOutcome();
        QCOMPARE(outcome.untilDecided.played, 6);
        QVERIFY(!outcome.untilDecided.decided);
        QCOMPARE(stage.phasesOpened().size(), size_t{6 * 2 * 2});
        QVERIFY2(atRound6.find(" rows decided, next look after round 6") != std::string::npos,
                 atRound6.c_str());
    }

    void untilDecidedNeedsVariants()
    {
        FakeStage stage;
        Scenario s = twoSteps(12);
        s.untilDecided = true;
        ScenarioPlayer player(stage);
        const std::string refusal = player.accept(s, {}, {}, kAudio, false);
        QVERIFY2(refusal.find("rounds until decided (auto) compare variants") != std::string::npos,
                 refusal.c_str());
    }

    void takenButNeverBegunStillEnds()
    {
        // finish() before the control thread began it: waiters must not hang.
        FakeStage stage;
        ScenarioPlayer player(stage);
        QCOMPARE(player.accept(twoSteps(), {}, {}, kAudio, false), std::string());
        player.endNow(RunEnd::Interrupted);
        QVERIFY(!player.active());
        QCOMPARE(player.wait(), RunEnd::Interrupted);
    }
};

QTEST_GUILESS_MAIN(TestScenarioPlayer)
#include "tst_scenarioplayer.moc"
