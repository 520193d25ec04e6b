#pragma once

#include "consumerconfig.h"
#include "consumersetup.h"
#include "consumertable.h"
#include "loadlimits.h"
#include "loadmanager.h"
#include "loadresult.h"
#include "loadspec.h"
#include "noisecheck.h"
#include "run.h"
#include "sample.h"
#include "scenario.h"
#include "sessionobserver.h"
#include "spscring.h"
#include "statecapture.h"
#include "sysinfo.h"
#include "taskthread.h"
#include "threadparams.h"

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace latprobe {

class Collector;
class FlightRecorder;
class Probe;

struct SessionOptions
{
    std::vector<ConsumerConfig> consumers;
    ThreadParams params;
    LoadLimits limits;
    std::string preset = "default";
    std::vector<std::string> commandLine;
    // What a run of the whole session is called in its file when no scenario
    // spans it: "gui" for the window.
    std::string runName = "gui";
    int64_t alignNs = -1;              // Probe::alignToSecond; -1: start when ready
    int64_t drainIntervalNs = 0;       // 0: Probe::kDrainIntervalNs
    double noiseCheckS = 0;            // before the probe starts; 0: none
    bool autoCapture = true;           // capture the state at each phase's first miss
    std::function<bool()> interrupted; // polled at each tick: ends a scenario as interrupted
    std::string workerBinary;          // "" : latprobeBinary()
    // The flight recorder: misses explained from the kernel's trace when
    // tracefs allows; off, a one-line warning says what to grant.
    bool trace = true;
    size_t explainPerPhase = 8; // misses explained per phase and consumer
};

// One measurement from its start to its end, the same for `latprobe run`,
// the window and the window's unattended mode: the probe, the load groups,
// the phases they make (opened and named in one place), state captures,
// scenario steps, the finished Run, and a scenario's own run cut out of a
// longer one.
//
// Threads: the caller's (any one front-end thread), the probe's, and the
// session's control thread, which starts and stops loads (forking hundreds
// of workers must not stall a caller that is itself measured, the GUI's
// event loop), plays scenarios and takes capture requests every kTickNs.
// "Stop all" runs on a thread of its own so that it never waits behind a
// start, and captures (200 ms of /proc sampling) on another. Events go to
// the SessionObserver from those threads.
class Session
{
public:
    explicit Session(SessionOptions options, SessionObserver *observer = nullptr);
    ~Session(); // as finish(), without a run
    Session(const Session &) = delete;
    Session &operator=(const Session &) = delete;

    // How often the control thread looks at capture requests, the interrupt
    // predicate and the scenario: that long a Ctrl-C or a capture may wait,
    // and each look is a wakeup latprobe takes from the machine it measures.
    static constexpr int64_t kTickNs = 250'000'000;

    // Runs the noise check (if asked), starts the probe and the control
    // thread. Returns once the consumers run.
    void start();
    bool running() const { return m_running; }
    bool finished() const { return m_finished; }

    // --- Loads, by hand (refused while a scenario plays: it drives them).
    void startLoads(const std::vector<LoadSpec> &specs);
    void stopLoad(int id);
    // Cancels starts not yet begun and kills every group at once; during a
    // scenario, cancels it.
    void stopAllLoads();
    // Begins a new phase with the same loads: counts start from zero.
    void reset();

    // --- Scenarios. Refusals are "" or one line saying why.
    struct Play
    {
        // Its first step is the run's first phase when nothing happened
        // before (`latprobe run`, a scenario given when the window opens).
        bool fromRunStart = false;
        // The run ends with it (`latprobe run`, the window's unattended
        // mode): no idle phase after it, and the run carries its name.
        bool endsRun = false;
    };
    std::string playScenario(const Scenario &scenario, Play play);
    void cancelScenario();
    bool scenarioRunning() const { return m_scenarioActive; }
    ScenarioProgress scenarioProgress() const;
    // Blocks until the scenario playing ends; returns how.
    RunEnd waitForScenario();
    // The last scenario's outcome, once one has ended.
    std::optional<ScenarioOutcome> lastScenario() const;

    // --- State captures: at each phase's first miss (automatic), on demand.
    void requestCapture(); // any thread, a signal watcher's too
    size_t captureCount() const;

    // --- What the front ends read.
    const SystemInfo &system() const { return m_system; }
    const SessionOptions &options() const { return m_options; }
    // The consumers and, once started, what each was granted.
    std::vector<ConsumerSetup> setups() const;
    const std::vector<ConsumerConfig> &configs() const { return m_options.consumers; }
    int consumerIndex(ConsumerRole role) const; // -1: not measured
    // An External consumer's owner feeds this ring (single writer) and says
    // what its thread runs with.
    SpscRing<Sample> &externalRing(size_t consumer);
    void setExternalGrant(size_t consumer, const ThreadGrant &grant);
    Collector &collector();
    int64_t runStart() const; // 0 before start()
    PhaseMark currentPhase() const;
    std::vector<RunMarker> markers() const;
    std::vector<GroupStatus> loadStatus() const;
    std::vector<std::string> activeLabels() const;
    int runningProcesses() const;
    LoadLimits limits() const;
    // The cap on load processes at once (--max-workers; the window's
    // Preferences): for starts from now on.
    void setMaxLoadProcesses(int processes);
    const std::string &workerBinary() const { return m_workerBinary; }

    // The run so far, loads included: what Copy report and Save run see.
    Run snapshot(const std::string &endReason) const;
    // The misses explained so far from the kernel's trace, and the
    // recorder's state (off: its message says why): what the window shows
    // for a click on a miss, without a whole snapshot.
    std::vector<MissExplanation> explanations() const;
    // How many explanations() holds, without copying them: the window
    // asks every second whether there are new ones to mark.
    size_t explainedCount() const;
    TraceSummary traceSummary() const;
    // Explains the next `count` misses of each consumer in the phase now
    // open (Collector::explainMore()). False when the flight recorder is off
    // or the scenario step that is playing pauses it.
    bool explainMore(size_t count);
    // Ends the measurement (a scenario still playing, captures, loads, then
    // the probe) and returns the finished run.
    Run finish(RunEnd end);

private:
    struct Playing;

    void controlMain();
    void post(std::function<void()> command);
    void tick();
    void takeCaptureRequests();
    void takeExplainRequests();
    void capture(const std::string &reason, double timeS, const std::string &phase);
    void notifyLoadsChanged();
    // `loads`: each group's KIND:N:key=value, the phase's load signature.
    void openPhase(const std::string &name, const std::vector<std::string> &loads, int64_t at,
                   PhasePlace place = {});
    void openPhaseForLoads();
    void recordFinishedLoads(const std::vector<GroupStatus> &groups, int64_t now);
    void stopEveryLoad();
    Run buildRun(const std::string &endReason, bool withRunningLoads) const;

    // Scenario steps (sessionscenario.cpp), on the control thread.
    void beginScenario(std::shared_ptr<Playing> playing);
    bool beginStep(int index, bool again = false);
    void tickScenario(int64_t now);
    void endScenario(RunEnd end);
    // A step with or without the flight recorder (ScenarioStep::trace).
    void recordStep(bool trace);
    Run cutScenarioRun(const Playing &p, RunEnd end, int64_t endedAt) const;

    SessionOptions m_options;
    SessionObserver *m_observer;
    SystemInfo m_system;
    std::string m_workerBinary;
    std::unique_ptr<Probe> m_probe;
    std::unique_ptr<LoadManager> m_loads;
    std::unique_ptr<FlightRecorder> m_flight;
    bool m_recording = true;                // control thread: a scenario step may pause m_flight
    std::map<int, std::string> m_loadOfPid; // every load process seen (control thread, finish)
    NoiseCheck m_noise;
    std::string m_startTime;
    std::atomic<bool> m_running{false};
    std::atomic<bool> m_finished{false};

    // The control thread's queue and clock.
    std::thread m_control;
    std::mutex m_controlMutex;
    std::condition_variable m_controlWake;
    std::vector<std::function<void()>> m_commands;
    int64_t m_wakeAt = 0; // the control thread's next timed wakeup
    bool m_quit = false;

    TaskThread m_urgent{"lp-stopall"};
    TaskThread m_capturer{"lp-capture"};
    std::atomic<int> m_stopGeneration{0}; // bumped by stopAllLoads()
    std::atomic<bool> m_captureWanted{false};

    // What several threads read and write.
    mutable std::mutex m_stateMutex;
    std::condition_variable m_scenarioEnded;
    std::vector<LoadGroupResult> m_finishedLoads;
    std::vector<StateCapture> m_states;
    std::vector<int64_t> m_resets;
    std::vector<ThreadGrant> m_externalGrants; // by consumer; policy Other until told
    std::vector<bool> m_externalGrantSet;
    PhaseMark m_phase;
    ScenarioProgress m_progress;
    std::optional<ScenarioOutcome> m_lastScenario;
    std::string m_playingName;         // the scenario playing, for refusals
    std::string m_runName;             // the scenario that spans the run, or options.runName
    LoadLimits m_limits;               // what the control thread's manager holds
    std::string m_phaseAsked = "idle"; // the open phase's name before numbering
    int m_runThreshold = -1;           // that scenario's threshold step
    std::vector<std::string> m_runStopVerdict;
    std::mutex m_phaseMutex; // one phase opens at a time

    std::atomic<bool> m_scenarioActive{false};
    std::atomic<bool> m_scenarioCancel{false};
    std::shared_ptr<Playing> m_playing; // control thread only
    int64_t m_stepEnd = 0;              // when its step ends (control thread only)
};

} // namespace latprobe
