#pragma once

#include "loadmanager.h"
#include "runkeeper.h"
#include "runview.h"
#include "sample.h"
#include "scenarioplayer.h"
#include "sessionoptions.h"
#include "sessionparts.h"
#include "sessionstage.h"
#include "spscring.h"
#include "taskthread.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace latprobe {

// One measurement from its start to its end, the same for `latprobe run`,
// the window and the window's unattended mode: the probe, the load groups,
// the phases they make (opened in one place), state captures, scenarios
// (ScenarioPlayer on a SessionStage), the finished Run (SessionParts) and
// where it is kept (RunKeeper). Front ends read it as a RunView and change
// it through the commands below.
//
// Threads: the caller's (one front-end thread), the probe's, and the control
// thread (lp-session), which starts and stops loads (forking hundreds of
// workers must not stall a caller that is itself measured, the GUI's event
// loop), plays scenarios and looks at capture and explain requests every
// kTickNs. "Stop all" runs on lp-stopall so that it never waits behind a
// start, captures (200 ms of /proc sampling) on lp-capture. The observer
// hears events from those threads.
class Session final : public RunView
{
public:
    using Play = ScenarioPlayer::Play;

    explicit Session(SessionOptions options, SessionObserver *observer = nullptr);
    ~Session(); // as finish(), without a run
    Session(const Session &) = delete;
    Session &operator=(const Session &) = delete;

    // How often the control thread looks at capture and explain requests,
    // the interrupt predicate and the scenario: that long a Ctrl-C or a
    // capture may wait, and each look is a wakeup taken from the machine.
    static constexpr int64_t kTickNs = 250'000'000;

    // Runs the noise check (if asked), starts the probe and the control
    // thread. Returns once the consumers run.
    void start();
    // Ends the measurement (a scenario still playing, captures, loads, then
    // the probe) and returns the finished run.
    Run finish(RunEnd end);

    // Loads by hand, refused while a scenario plays (it drives them).
    void startLoads(const std::vector<LoadSpec> &specs);
    void stopLoad(int id);
    // Cancels starts not yet begun and kills every group at once; during a
    // scenario, cancels it.
    void stopAllLoads();
    void reset(); // a new phase with the same loads: counts start from zero
    void setMaxLoadProcesses(int processes); // for starts from now on

    // Scenarios. Refusals are "" or one line saying why.
    std::string playScenario(const Scenario &scenario, Play play);
    void cancelScenario() { m_player.cancel(); }
    RunEnd waitForScenario() { return m_player.wait(); }

    // Keeps the run in `library` as it is measured (RunAutosaver) and the
    // finished run over it at finish(). Call before start().
    void keepInLibrary(RunLibrary library,
                       std::chrono::milliseconds every = RunAutosaver::kDefaultEvery);
    std::string keepError() const { return m_keeper.keepError(); }
    void discardKept() { m_keeper.discard(); } // the user chose so

    void requestCapture(); // any thread, a signal watcher's too
    // Explains the next `count` misses of each consumer in the open phase;
    // false when the recorder is off or a step that plays pauses it.
    bool explainMore(size_t count);

    // An External consumer's owner feeds its ring (single writer) and says
    // what its thread runs with.
    SpscRing<Sample> &externalRing(size_t consumer);
    void setExternalGrant(size_t consumer, const ThreadGrant &grant)
    {
        m_parts.setExternalGrant(consumer, grant);
    }
    // A sample as a consumer's thread records it (a test's forced late
    // wakeup), counted at once.
    void injectSample(size_t consumer, const Sample &sample);

    // RunView.
    bool running() const override { return m_parts.running; }
    bool finished() const override { return m_parts.finished; }
    const SystemInfo &system() const override { return m_parts.system; }
    const std::vector<ConsumerConfig> &configs() const override { return m_parts.configs(); }
    std::vector<ConsumerSetup> setups() const override { return m_parts.setups(); }
    const std::string &preset() const override { return m_parts.options.preset; }
    const std::string &workerBinary() const override { return m_parts.options.workerBinary; }
    KnobRun knobRun() const override { return m_parts.knobRun(); }
    int64_t runStart() const override { return m_parts.runStart(); }
    PhaseMark currentPhase() const override { return m_parts.record.phase(); }
    std::vector<RunMarker> markers() const override;
    std::vector<FineBucket> fineSeries(size_t consumer, int64_t fromIndex) const override;
    int64_t fineBoundary(int64_t t) const override;
    std::vector<PhaseResult> phases(int64_t now, size_t histogramsFrom) const override;
    PhaseResult openPhase(int64_t now) const override;
    std::vector<GroupStatus> loadStatus() const override { return m_parts.loads->sampled(); }
    std::vector<std::string> activeLabels() const override { return m_parts.loads->activeLabels(); }
    int runningProcesses() const override { return m_parts.loads->runningProcesses(); }
    LoadLimits limits() const override { return m_parts.loads->limits(); }
    bool scenarioRunning() const override { return m_player.active(); }
    std::string scenarioName() const override { return m_player.name(); }
    ScenarioProgress scenarioProgress() const override { return m_player.progress(); }
    std::optional<ScenarioOutcome> lastScenario() const override { return m_player.lastOutcome(); }
    size_t captureCount() const override { return m_parts.record.stateCount(); }
    std::vector<MissExplanation> explanations() const override;
    size_t explainedCount() const override { return m_parts.evidence.explainedCount(); }
    TraceSummary traceSummary() const override { return m_parts.evidence.traceSummary(); }
    Run snapshot(const std::string &endReason) const override;
    bool keepsInLibrary() const override { return m_keeper.keepsInLibrary(); }
    std::string keptPath() const override { return m_keeper.keptPath(); }

private:
    void tick();
    void armTimer();
    void onControl(std::function<void()> command);
    void notifyLoadsChanged();
    void openPhaseForLoads();

    SessionParts m_parts;
    SessionStage m_stage{m_parts};
    ScenarioPlayer m_player{m_stage};
    RunKeeper m_keeper; // snapshots the parts above: after them

    int64_t m_nextTick = 0;               // the control thread's own
    std::atomic<int> m_stopGeneration{0}; // bumped by stopAllLoads()

    // Last, so that they stop first: none runs a task on a part gone.
    TaskThread m_urgent{"lp-stopall"};
    TaskThread m_control{"lp-session"};
};

} // namespace latprobe
