// The session as both front ends drive it: a scenario played as `latprobe
// run` plays it, loads started and stopped by hand as the window does, the
// phases they open, captures, cancelling, the stop condition, and a
// scenario's own run cut out of a longer one. Real probe threads and real
// load processes; every wait is for a state, never a guessed time.

#include "collector.h"
#include "presets.h"
#include "realclock.h"
#include "runfile.h"
#include "runoptions.h"
#include "session.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>

#include <atomic>
#include <mutex>

using namespace latprobe;

namespace {

// A light load: one worker, 1 ms of work every 10 ms.
LoadSpec lightLoad()
{
    LoadSpec spec;
    std::string error;
    parseLoadSpec("massive_intr:1:work_ms=1:sleep_ms=10", spec, error);
    return spec;
}

SessionOptions wakeupOnly()
{
    SessionOptions o;
    o.consumers = {wakeupConsumer(1000)};
    o.runName = "test";
    return o;
}

ScenarioStep step(const std::string &name, double seconds, std::vector<LoadSpec> loads = {})
{
    ScenarioStep s;
    s.name = name;
    s.durationS = seconds;
    s.loads = std::move(loads);
    return s;
}

// Until the phase open now has a sample: a phase begun before would only
// rename it (Collector::beginPhase).
void waitForSamples(Session &session)
{
    QTRY_VERIFY_WITH_TIMEOUT(session.snapshot("").phases.back().consumers[0].samples > 0, 60000);
}

// Records what the session said, from whichever thread said it.
class Recorder : public SessionObserver
{
public:
    void loadStarted(int, const LoadSpec &) override { ++started; }
    void loadRefused(const LoadSpec &, const std::string &error) override
    {
        std::lock_guard lock(mutex);
        refusals.push_back(error);
    }
    void loadsChanged() override { ++changes; }
    void phaseBegun(const PhaseMark &phase, bool) override
    {
        std::lock_guard lock(mutex);
        phases.push_back(phase.name);
    }
    void stateCaptured(const std::string &) override { ++captures; }
    void scenarioProgressed(const ScenarioProgress &) override { ++progress; }
    void scenarioFinished(const ScenarioOutcome &) override { ++finished; }

    std::vector<std::string> phaseNames()
    {
        std::lock_guard lock(mutex);
        return phases;
    }
    std::vector<std::string> refusalTexts()
    {
        std::lock_guard lock(mutex);
        return refusals;
    }

    std::atomic<int> started{0}, changes{0}, captures{0}, progress{0}, finished{0};

private:
    std::mutex mutex;
    std::vector<std::string> refusals, phases;
};

} // namespace

class TestSession : public QObject
{
    Q_OBJECT

private slots:
    void aScenarioFromTheRunStartIsTheWholeRun();
    void restartingConsumersBeginEachStepOnceItsLoadsRun();
    void loadsByHandOpenPhasesNamedAfterThem();
    void resetBeginsAPhaseWithTheSameLoadsAndAMarker();
    void moreMissesAreExplainedOnlyWithTheRecorder();
    void handStartsAreRefusedWhileAScenarioPlays();
    void cancelEndsAScenarioAndCutsItsOwnRun();
    void theInterruptPredicateEndsTheRunAsInterrupted();
    void aMissPastTheStopConditionEndsAtThatStep();
    void theOpenPhaseReadsAsTheLastPhase();
    void aCaptureOnDemandLandsInTheRun();
    void theFinishedRunIsKeptOverItsAutosave();
    void finishStopsEverythingAndIsPartialWhenInterrupted();
    void aCapSetJustBeforeAScenarioIsTheOneItMeets();
};

void TestSession::aScenarioFromTheRunStartIsTheWholeRun()
{
    Recorder events;
    Session session(wakeupOnly(), &events);
    session.start();
    Scenario s;
    s.name = "two steps";
    s.steps = {step("idle", 0.5), step("light", 0.5, {lightLoad()})};
    QCOMPARE(session.playScenario(s, {true, true}), std::string());
    QCOMPARE(session.waitForScenario(), RunEnd::Completed);
    const Run run = session.finish(RunEnd::Completed);

    QCOMPARE(run.scenario, std::string("two steps"));
    QCOMPARE(run.phases.size(), size_t(2));
    QCOMPARE(run.phases[0].name, std::string("idle"));
    QCOMPARE(run.phases[0].startS, 0.0); // the first step is the run's first phase
    QCOMPARE(run.phases[1].name, std::string("light"));
    QCOMPARE(run.phases[1].loads, std::vector<std::string>{lightLoad().toString()});
    QCOMPARE(run.phases[1].step, 1);
    QCOMPARE(run.phases[1].round, 1);
    QVERIFY(!run.partial);
    QCOMPARE(run.endReason, std::string("completed"));
    QCOMPARE(run.loads.size(), size_t(1));
    QCOMPARE(run.loads[0].perWorker.size(), size_t(1));
    QVERIFY(run.phases[1].consumers[0].samples > 0);
    QCOMPARE(events.finished.load(), 1);
    QCOMPARE(session.runningProcesses(), 0);
}

void TestSession::restartingConsumersBeginEachStepOnceItsLoadsRun()
{
    // interbench's experiment: each step's consumers start afresh once its
    // loads run. io_read writes and syncs its file before its worker starts;
    // that time is in no step, even the first, which otherwise begins with
    // the run.
    LoadSpec slowToStart;
    std::string error;
    QVERIFY(parseLoadSpec("io_read:1:mb=16", slowToStart, error));
    Session session(wakeupOnly());
    session.start();
    Scenario s;
    s.name = "fresh";
    s.restartConsumers = true;
    s.steps = {step("read", 0.5, {slowToStart}), step("idle", 0.5)};
    QCOMPARE(session.playScenario(s, {true, true}), std::string());
    QCOMPARE(session.waitForScenario(), RunEnd::Completed);
    const Run run = session.finish(RunEnd::Completed);

    QCOMPARE(run.phases.size(), size_t(2));
    QCOMPARE(run.phases[0].name, std::string("read"));
    QVERIFY2(run.phases[0].startS > run.loads[0].startS,
             qPrintable(QString("phase at %1 s, load started at %2 s")
                            .arg(run.phases[0].startS)
                            .arg(run.loads[0].startS)));
    QVERIFY(run.phases[0].consumers[0].samples > 0);
    QVERIFY(run.phases[1].consumers[0].samples > 0);
    QCOMPARE(session.runningProcesses(), 0);
}

void TestSession::loadsByHandOpenPhasesNamedAfterThem()
{
    Recorder events;
    Session session(wakeupOnly(), &events);
    session.start();
    waitForSamples(session);
    session.startLoads({lightLoad()});
    QTRY_COMPARE_WITH_TIMEOUT(session.currentPhase().name, lightLoad().label(), 60000);
    QCOMPARE(events.started.load(), 1);
    // Aligned to the live views' 100 ms buckets.
    QCOMPARE((session.currentPhase().start - session.runStart()) % Collector::kFineNs, int64_t(0));
    // A phase without a sample is renamed by the next one (a saturated CI
    // may not run the wakeup thread between start and stop): wait for one.
    waitForSamples(session);

    session.stopAllLoads();
    // The run's second idle phase: numbered, so that a report tells them apart.
    QTRY_COMPARE_WITH_TIMEOUT(session.currentPhase().name, std::string("idle 2"), 60000);
    QCOMPARE(session.runningProcesses(), 0);
    const Run run = session.finish(RunEnd::Completed);
    QCOMPARE(run.scenario, std::string("test"));
    QCOMPARE(run.loads.size(), size_t(1)); // the stopped group's result is kept
    const std::vector<std::string> names = events.phaseNames();
    QCOMPARE(names, (std::vector<std::string>{lightLoad().label(), "idle 2"}));
    std::vector<std::string> runPhases;
    for (const PhaseResult &p : run.phases)
        runPhases.push_back(p.name);
    QCOMPARE(runPhases, (std::vector<std::string>{"idle", lightLoad().label(), "idle 2"}));
}

void TestSession::resetBeginsAPhaseWithTheSameLoadsAndAMarker()
{
    Session session(wakeupOnly());
    session.start();
    waitForSamples(session);
    session.reset();
    const std::vector<RunMarker> markers = session.markers();
    QCOMPARE(markers.size(), size_t(1));
    QCOMPARE(markers[0].kind, RunMarker::Reset);
    const Run run = session.finish(RunEnd::Completed);
    QCOMPARE(run.phases.size(), size_t(2));
    // Why the same loads begin a phase again is in the saved run.
    QCOMPARE(run.phases[1].name, std::string("idle (reset)"));
    QCOMPARE(run.phases[1].loads, run.phases[0].loads);
}

void TestSession::moreMissesAreExplainedOnlyWithTheRecorder()
{
    // --no-trace: the window's "Explain the next misses" has nothing to ask.
    SessionOptions off = wakeupOnly();
    off.trace = false;
    Session without(off);
    QVERIFY(!without.explainMore(8)); // not measuring yet
    without.start();
    QVERIFY(!without.explainMore(8));
    without.finish(RunEnd::Completed);
    // With the recorder (root and tracefs), it is asked; without them its
    // summary says why, and the answer is no as well.
    Session with(wakeupOnly());
    with.start();
    QCOMPARE(with.explainMore(8), with.traceSummary().on);
    with.finish(RunEnd::Completed);
}

void TestSession::handStartsAreRefusedWhileAScenarioPlays()
{
    Recorder events;
    Session session(wakeupOnly(), &events);
    session.start();
    Scenario s;
    s.name = "long";
    s.steps = {step("idle", 600)};
    QCOMPARE(session.playScenario(s, {}), std::string());
    QVERIFY(session.scenarioRunning());
    QVERIFY(!session.playScenario(s, {}).empty()); // one at a time
    session.startLoads({lightLoad()});
    QCOMPARE(events.refusalTexts(),
             std::vector<std::string>{"scenario long drives the loads: cancel it first"});
    session.cancelScenario();
    QCOMPARE(session.waitForScenario(), RunEnd::Interrupted);
    QCOMPARE(session.runningProcesses(), 0);
}

void TestSession::cancelEndsAScenarioAndCutsItsOwnRun()
{
    Recorder events;
    Session session(wakeupOnly(), &events);
    session.start();
    waitForSamples(session); // before the scenario: not in its run
    Scenario s;
    s.name = "cut";
    s.steps = {step("first", 0.3, {lightLoad()}), step("second", 600, {lightLoad()})};
    QCOMPARE(session.playScenario(s, {}), std::string());
    QTRY_COMPARE_WITH_TIMEOUT(session.scenarioProgress().step, 1, 60000);
    QTRY_VERIFY_WITH_TIMEOUT(session.runningProcesses() > 0, 60000);
    session.cancelScenario();
    QCOMPARE(session.waitForScenario(), RunEnd::Interrupted);
    QCOMPARE(session.runningProcesses(), 0);

    const std::optional<ScenarioOutcome> outcome = session.lastScenario();
    QVERIFY(outcome && outcome->run);
    QCOMPARE(outcome->step, 1);
    const Run &cut = *outcome->run;
    QVERIFY(cut.partial);
    QCOMPARE(cut.scenario, std::string("cut"));
    QCOMPARE(cut.phases.size(), size_t(2));
    QCOMPARE(cut.phases[0].name, std::string("first"));
    QCOMPARE(cut.phases[1].name, std::string("second"));
    QCOMPARE(cut.loads.size(), size_t(2));
    // The measurement goes on: an idle phase follows the scenario.
    QCOMPARE(session.currentPhase().name, std::string("idle 2"));
    const Run whole = session.finish(RunEnd::Completed);
    QCOMPARE(whole.phases.size(), size_t(4)); // idle, first, second, idle
    QCOMPARE(whole.scenario, std::string("test"));
}

void TestSession::theInterruptPredicateEndsTheRunAsInterrupted()
{
    static std::atomic<bool> interrupt{false};
    SessionOptions o = wakeupOnly();
    o.interrupted = [] { return interrupt.load(); };
    Session session(std::move(o));
    session.start();
    Scenario s;
    s.name = "endless";
    s.steps = {step("idle", 600)};
    QCOMPARE(session.playScenario(s, {true, true}), std::string());
    QTRY_VERIFY_WITH_TIMEOUT(session.scenarioProgress().stepElapsedS > 0, 30000);
    interrupt = true; // as Ctrl-C sets it
    QCOMPARE(session.waitForScenario(), RunEnd::Interrupted);
    const Run run = session.finish(RunEnd::Interrupted);
    QVERIFY(run.partial);
    QCOMPARE(run.endReason, std::string("interrupted"));
    QCOMPARE(run.phases.size(), size_t(1));
}

void TestSession::theOpenPhaseReadsAsTheLastPhase()
{
    // What `latprobe run`'s progress line prints each second: the open
    // phase's figures alone, the same as the whole list ends with.
    SessionOptions o;
    o.consumers = {audioConsumer()};
    Session session(std::move(o));
    session.start();
    QCOMPARE(session.configs().size(), size_t(1)); // handed to the probe, not lost
    Sample late;
    late.periodStart = session.runStart() + 1'000'000;
    late.woke = late.done = late.periodStart + 50'000'000;
    late.missedDeadline = 1;
    session.injectSample(0, late);
    const int64_t now = RealClock::monotonicNow();
    const PhaseResult open = session.openPhase(now);
    const std::vector<PhaseResult> all = session.phases(now, 0);
    QCOMPARE(open.name, session.currentPhase().name);
    QCOMPARE(open.name, all.back().name);
    QCOMPARE(open.consumers.size(), size_t(1));
    QVERIFY(open.consumers[0].misses >= 1);
    QVERIFY(all.back().consumers[0].misses >= open.consumers[0].misses); // read just after
    session.finish(RunEnd::Completed);
}

void TestSession::aMissPastTheStopConditionEndsAtThatStep()
{
    SessionOptions o;
    o.consumers = {audioConsumer()};
    Session session(std::move(o));
    session.start();
    // A forced late wakeup: an audio period 50 ms late, in the run's first
    // phase, which the scenario's first step takes over (fromRunStart).
    Sample late;
    late.periodStart = session.runStart() + 1'000'000;
    late.woke = late.done = late.periodStart + 50'000'000;
    late.missedDeadline = 1;
    session.injectSample(0, late);
    Scenario s;
    s.name = "ramp";
    s.stopWhen = StopCondition{{"audio"}, 0};
    s.steps = {step("first", 0.3), step("never reached", 600)};
    QCOMPARE(session.playScenario(s, {true, true}), std::string());
    QCOMPARE(session.waitForScenario(), RunEnd::Threshold);
    QCOMPARE(session.lastScenario()->thresholdStep, 0);
    const Run run = session.finish(RunEnd::Threshold);
    QVERIFY(!run.partial);
    QCOMPARE(run.thresholdStep, 0);
    QCOMPARE(run.endReason, std::string("stopped at threshold"));
    QCOMPARE(run.phases.size(), size_t(1));
    QVERIFY(run.phases[0].consumers[0].misses >= 1);
    // The report's answer comes with the run.
    QCOMPARE(run.stopVerdict.at(0),
             std::string("usable up to: none of the steps (first has more than 0 misses)"));
}

void TestSession::aCaptureOnDemandLandsInTheRun()
{
    Recorder events;
    Session session(wakeupOnly(), &events);
    session.start();
    session.requestCapture();
    QTRY_COMPARE_WITH_TIMEOUT(session.captureCount(), size_t(1), 60000);
    QCOMPARE(events.captures.load(), 1);
    const Run run = session.finish(RunEnd::Completed);
    QCOMPARE(run.states.size(), size_t(1));
    QCOMPARE(run.states[0].reason, std::string("on demand"));
    QCOMPARE(run.states[0].phase, std::string("idle"));
}

void TestSession::theFinishedRunIsKeptOverItsAutosave()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    {
        Session session(wakeupOnly());
        QVERIFY(!session.keepsInLibrary());
        QCOMPARE(session.keepError(),
                 std::string("the run is not kept in a library (--no-library)"));
        session.keepInLibrary(RunLibrary(dir.path().toStdString()), std::chrono::milliseconds(50));
        QVERIFY(session.keepsInLibrary());
        session.start();
        QTRY_VERIFY_WITH_TIMEOUT(!session.keptPath().empty(), 60000); // the first autosave
        const std::string autosaved = session.keptPath();
        const Run run = session.finish(RunEnd::Completed);
        QCOMPARE(session.keepError(), std::string());
        QCOMPARE(session.keptPath(), autosaved); // written over, not beside
        const Run kept = readRunFile(autosaved);
        QVERIFY(!kept.partial);
        QCOMPARE(kept.endReason, run.endReason);
        QCOMPARE(kept.phases.size(), run.phases.size());
    }
    {
        // Discarded by the user: nothing stays.
        Session session(wakeupOnly());
        session.keepInLibrary(RunLibrary(dir.path().toStdString()), std::chrono::milliseconds(50));
        session.start();
        QTRY_VERIFY_WITH_TIMEOUT(!session.keptPath().empty(), 60000);
        const std::string autosaved = session.keptPath();
        session.discardKept();
        QVERIFY(!std::filesystem::exists(autosaved));
        session.finish(RunEnd::Interrupted);
        QVERIFY(!std::filesystem::exists(autosaved));
    }
}

void TestSession::finishStopsEverythingAndIsPartialWhenInterrupted()
{
    Session session(wakeupOnly());
    session.start();
    session.startLoads({lightLoad()});
    QTRY_VERIFY_WITH_TIMEOUT(session.runningProcesses() > 0, 60000);
    const Run run = session.finish(RunEnd::Interrupted);
    QVERIFY(!session.running());
    QVERIFY(session.finished());
    QCOMPARE(session.runningProcesses(), 0);
    QVERIFY(run.partial);
    QCOMPARE(run.loads.size(), size_t(1));
    // A finished session answers with the same run, and starts nothing.
    session.startLoads({lightLoad()});
    QCOMPARE(session.runningProcesses(), 0);
    QCOMPARE(session.finish(RunEnd::Completed).phases.size(), run.phases.size());
}

// The cap and a scenario's check of it are one piece of state: set from the
// caller's thread, read by the very next playScenario(). When the session
// kept a copy and posted the change to its control thread, the scenario was
// checked against the old cap (and the tsan preset saw the two threads race).
void TestSession::aCapSetJustBeforeAScenarioIsTheOneItMeets()
{
    Session session(wakeupOnly());
    session.start();
    Scenario s;
    s.name = "two burners";
    s.steps = {step("burn", 0.5, {lightLoad(), lightLoad()})};
    for (int round = 0; round < 20; ++round) {
        session.setMaxLoadProcesses(1);
        const std::string refusal = session.playScenario(s, {});
        QVERIFY2(!refusal.empty(), "a scenario over the cap just set was accepted");
        QCOMPARE(session.limits().maxProcesses, 1);
        session.setMaxLoadProcesses(2048);
        QCOMPARE(session.limits().maxProcesses, 2048);
    }
    session.finish(RunEnd::Completed);
}

QTEST_GUILESS_MAIN(TestSession)
#include "tst_session.moc"
