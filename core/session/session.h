#pragma once

#include "consumerconfig.h"
#include "consumersetup.h"
#include "consumertable.h"
#include "knobcheck.h"
#include "loadlimits.h"
#include "loadmanager.h"
#include "loadresult.h"
#include "loadspec.h"
#include "missevidence.h"
#include "noisecheck.h"
#include "run.h"
#include "runautosaver.h"
#include "runlibrary.h"
#include "runrecord.h"
#include "sample.h"
#include "savedtraces.h"
#include "scenario.h"
#include "scenarioplayer.h"
#include "sessionobserver.h"
#include "spscring.h"
#include "statecapture.h"
#include "sysinfo.h"
#include "systemvariants.h"
#include "taskthread.h"
#include "threadparams.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace latprobe {

class Collector;
class Probe;

struct SessionOptions
{
    std::vector<ConsumerConfig> consumers; // handed to the probe: Session::configs() has them
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
    bool allowCommands = false;        // a variant's cmd=, undo= may run (--allow-commands)
    // Where variants find the machine; unset: KnobEnvironment::real(). The
    // tests give a fake one (a sysfs in a temp dir, a PATH of fake programs).
    std::optional<KnobEnvironment> knobs;
    // The flight recorder: misses explained from the kernel's trace when
    // tracefs allows; off, a one-line warning says what to grant.
    bool trace = true;
    size_t explainPerPhase = 8; // misses explained per phase and consumer
    // `--save-trace`: each explained miss's window kept as trace.dat, in
    // `traceDir` ("" : beside the run file in the library), at most
    // `traceMaxBytes` a run. `outPath` is the run file the front end
    // writes ("" none): the traces' name when the library keeps no copy.
    bool saveTraces = false;
    std::string traceDir;
    uint64_t traceMaxBytes = kDefaultTraceMaxBytes;
    std::string outPath;
    static constexpr uint64_t kDefaultTraceMaxBytes = 64ull << 20;
};

// One measurement from its start to its end, the same for `latprobe run`,
// the window and the window's unattended mode: the probe, the load groups,
// the phases they make (opened in one place), state captures, scenarios
// (ScenarioPlayer), the finished Run and a scenario's own run cut from it.
//
// Threads: the caller's (one front-end thread), the probe's, and the control
// thread (lp-session), which starts and stops loads (forking hundreds of
// workers must not stall a caller that is itself measured, the GUI's event
// loop), plays scenarios and looks at capture and explain requests every
// kTickNs. "Stop all" runs on lp-stopall so that it never waits behind a
// start, captures (200 ms of /proc sampling) on lp-capture. The observer
// hears events from those threads.
class Session : private ScenarioStage
{
public:
    using Play = ScenarioPlayer::Play;

    explicit Session(SessionOptions options, SessionObserver *observer = nullptr);
    ~Session() override; // as finish(), without a run
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
    bool running() const { return m_running; }
    bool finished() const { return m_finished; }

    // Loads by hand, refused while a scenario plays (it drives them).
    void startLoads(const std::vector<LoadSpec> &specs);
    void stopLoad(int id);
    // Cancels starts not yet begun and kills every group at once; during a
    // scenario, cancels it.
    void stopAllLoads();
    void reset(); // a new phase with the same loads: counts start from zero
    // The load sampler's last figures (LoadManager::sampled()): reads no /proc.
    std::vector<GroupStatus> loadStatus() const { return m_loads->sampled(); }
    std::vector<std::string> activeLabels() const { return m_loads->activeLabels(); }
    int runningProcesses() const { return m_loads->runningProcesses(); }
    LoadLimits limits() const { return m_loads->limits(); }
    void setMaxLoadProcesses(int processes); // for starts from now on

    // Scenarios. Refusals are "" or one line saying why.
    std::string playScenario(const Scenario &scenario, Play play);
    void cancelScenario() { m_player.cancel(); }
    bool scenarioRunning() const { return m_player.active(); }
    ScenarioProgress scenarioProgress() const { return m_player.progress(); }
    RunEnd waitForScenario() { return m_player.wait(); }
    std::optional<ScenarioOutcome> lastScenario() const { return m_player.lastOutcome(); }

    // Keeps the run in `library` as it is measured (RunAutosaver) and the
    // finished run over it at finish(). Call before start().
    void keepInLibrary(RunLibrary library,
                       std::chrono::milliseconds every = RunAutosaver::kDefaultEvery);
    bool keepsInLibrary() const { return m_autosaver != nullptr; }
    std::string keptPath() const;  // "" before the first save
    std::string keepError() const; // why the finished run was not kept, "" when it was
    void discardKept();            // stops keeping and deletes it: the user chose so

    void requestCapture(); // any thread, a signal watcher's too
    size_t captureCount() const { return m_record.stateCount(); }

    const SystemInfo &system() const { return m_system; }
    const SessionOptions &options() const { return m_options; } // consumers: see configs()
    // What this session's variants may do: commands if allowed, no EEVDF
    // slice for measuring threads that run FIFO or RR.
    KnobRun knobRun() const;
    // Where its variants find the machine (SessionOptions::knobs).
    KnobEnvironment knobEnvironment() const;
    const std::vector<ConsumerConfig> &configs() const;
    // The consumers and, once started, what each was granted.
    std::vector<ConsumerSetup> setups() const;
    int consumerIndex(ConsumerRole role) const; // -1: not measured
    // An External consumer's owner feeds its ring (single writer) and says
    // what its thread runs with.
    SpscRing<Sample> &externalRing(size_t consumer);
    void setExternalGrant(size_t consumer, const ThreadGrant &grant);
    Collector &collector();
    int64_t runStart() const override; // 0 before start()
    PhaseMark currentPhase() const { return m_record.phase(); }
    std::vector<RunMarker> markers() const;
    // The run so far, loads included: what Copy report and Save run see.
    Run snapshot(const std::string &endReason) const;

    // Who delayed the misses (docs/DESIGN.md): what the flight recorder
    // explained so far, how many (it only grows), and its state.
    // Their trace files (`--save-trace`) by path: where they are now.
    std::vector<MissExplanation> explanations() const;
    size_t explainedCount() const { return m_evidence.explainedCount(); }
    TraceSummary traceSummary() const { return m_evidence.traceSummary(); }
    // Explains the next `count` misses of each consumer in the open phase;
    // false when the recorder is off or a step that plays pauses it.
    bool explainMore(size_t count);

private:
    void tick();
    void armTimer();
    void onControl(std::function<void()> command);
    MissEvidence::Threads measuringThreads() const;
    void notifyLoadsChanged();
    // `loads`: each group's KIND:N:key=value, the phase's load signature.
    PhaseMark beginPhase(const std::string &name, const std::vector<std::string> &loads, int64_t at,
                         const PhasePlace &place = {});
    void openPhaseForLoads();
    void stopEveryLoad();
    Run buildRun(const std::string &endReason, bool withRunningLoads) const;
    Run cutScenarioRun(const ScenarioOutcome &outcome, const Span &span) const;

    // ScenarioStage: what a scenario acts on, on the control thread.
    int64_t now() override;
    void endPhase(int64_t at) override;
    void discardPhase() override;
    void pauseConsumers() override;
    void stopLoads() override { stopEveryLoad(); }
    std::string startLoad(const LoadSpec &spec) override;
    PhaseMark openPhase(const std::string &name, const std::vector<std::string> &loads, int64_t at,
                        const PhasePlace &place) override;
    void setTracing(bool on) override;
    std::string applyVariant(const Variant &variant) override;
    std::string variantTrouble() override;
    void leaveOut(int64_t from, int64_t to, const std::string &why) override;
    std::vector<PhaseResult> phases(int64_t now) override;
    void wakeAt(int64_t at) override;
    bool interrupted() override;
    void progressed(const ScenarioProgress &progress) override;
    void stepBegun() override;
    void scenarioEnded(ScenarioOutcome &outcome, const Span &span) override;
    void scenarioFinished(const ScenarioOutcome &outcome) override;
    void openSavedTraces();

    SessionOptions m_options;
    SessionObserver *m_observer;
    SystemInfo m_system;
    std::unique_ptr<Probe> m_probe;
    std::unique_ptr<LoadManager> m_loads;
    NoiseCheck m_noise;
    std::string m_startTime;
    std::atomic<bool> m_running{false};
    std::atomic<bool> m_finished{false};
    RunRecord m_record;
    MissEvidence m_evidence{m_record, m_observer};
    ScenarioPlayer m_player{*this};
    // A scenario's, while it plays; the control thread's alone.
    std::shared_ptr<SystemVariants> m_variants;
    std::unique_ptr<RunAutosaver> m_autosaver; // snapshots the parts above: after them
    std::unique_ptr<SavedTraces> m_traces;     // --save-trace's, once the recorder is on
    std::string m_keepError;

    // The control thread's own.
    int64_t m_nextTick = 0;
    int64_t m_stepEnd = 0;

    mutable std::mutex m_grantMutex;
    std::vector<std::optional<ThreadGrant>> m_externalGrants; // by consumer
    std::mutex m_phaseMutex;                                  // one phase opens at a time
    std::atomic<int> m_stopGeneration{0};                     // bumped by stopAllLoads()

    // Last, so that they stop first: none runs a task on a part gone.
    TaskThread m_urgent{"lp-stopall"};
    TaskThread m_control{"lp-session"};
};

} // namespace latprobe
