#pragma once

#include "consumerconfig.h"
#include "loadlimits.h"
#include "loadresult.h"
#include "loadspec.h"
#include "run.h"
#include "scenario.h"
#include "scenariorunner.h"
#include "sysinfo.h"
#include "threadparams.h"

#include <QObject>
#include <QString>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace latprobe {

class GuiConsumer;
class LiveData;
class LoadManager;
class Probe;

// A labelled moment on the time plots: a load started or stopped, a reset.
struct MarkerEvent
{
    enum Kind { LoadStarted, LoadStopped, Reset };
    double timeS = 0; // since the run started
    Kind kind = LoadStarted;
    QString label;
};

// One live measurement as the GUI runs it: the probe (audio, video, wakeup,
// gui, start), the load groups, and the phases they make. The widgets only
// talk to this; it is also what the tests and --run-for drive.
//
// Loads start and stop on a helper thread: forking hundreds of workers must
// not stall the event loop, which is itself measured (the gui consumer).
class LiveSession : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        std::string preset = "default";
        ThreadParams params;
        LoadLimits limits;
        std::vector<std::string> commandLine;
    };

    explicit LiveSession(Options options, QObject *parent = nullptr);
    ~LiveSession() override;

    // The consumers a session measures: the preset's plus the gui consumer
    // before start (so the report lists it beside the other periodic ones).
    static std::vector<ConsumerConfig> consumersFor(const std::string &preset);

    void start();
    // The consumers, known before start().
    std::vector<ConsumerConfig> configs() const;
    // Stops the loads first, then the probe. Idempotent; the destructor calls it.
    void shutdown();
    bool running() const { return m_running; }
    bool finished() const { return m_finished; }

    Probe &probe() { return *m_probe; }
    LoadManager &loads() { return *m_loads; }
    LiveData &data() { return *m_data; }
    GuiConsumer *guiConsumer() { return m_gui; }
    const SystemInfo &system() const { return m_system; }
    int64_t runStart() const;
    const std::string &binary() const { return m_binary; }
    int consumerIndex(const std::string &name) const;

    void startLoad(const LoadSpec &spec);
    // Starts all of them, then begins one phase (as `latprobe run` does).
    void startLoads(const std::vector<LoadSpec> &specs);
    void stopLoad(int id);
    // Cancels starts not yet begun and kills every group at once.
    void stopAllLoads();
    int pendingOperations() const { return m_pending; }
    std::vector<std::string> activeLabels() const;

    // Begins a new phase with the same loads: counts start from zero.
    void reset();
    QString phaseName() const { return m_phaseName; }
    int64_t phaseStart() const { return m_phaseStart; }

    const std::vector<MarkerEvent> &markers() const { return m_markers; }

    // Plays a scenario as `latprobe run --scenario` does (ScenarioRunner, on
    // a thread of its own): each step stops the loads, starts its own and
    // begins a phase. Manual starts, stops and resets are refused meanwhile;
    // stopAllLoads() cancels it. Returns "" or why it cannot start.
    // `fromRunStart` (played as the window opens): its first step is the
    // run's first phase, as in `latprobe run`, if nothing happened before.
    QString startScenario(const Scenario &scenario, bool fromRunStart = false);
    // Stops its loads and ends it early; the measured phases stay, the
    // scenario's run is marked partial (as Ctrl-C does to `latprobe run`).
    void cancelScenario();
    bool scenarioRunning() const { return m_runner != nullptr; }
    // The last progress the runner reported (step, step name, time left).
    ScenarioProgress scenarioProgress() const;
    QString scenarioName() const { return m_scenarioName; }
    // Why the last scenario stopped early, when a load failed to start.
    QString scenarioError() const { return m_scenarioError; }
    // The last scenario's own run: its phases and loads only, as `latprobe
    // run --scenario` writes it. Empty before one has ended.
    const std::optional<Run> &scenarioRun() const { return m_scenarioRun; }
    const std::string &preset() const { return m_options.preset; }

    // The system's state (sched debug, schedstat, top processes), taken on a
    // helper thread: automatically at each phase's first miss, as `latprobe
    // run` does, and on demand. Call pollCaptures() on a timer.
    void pollCaptures();
    void captureNow();
    size_t captureCount() const;

    // The run so far, loads included, as Copy report and Save run see it.
    Run liveRun(const std::string &endReason) const;
    // Ends the measurement (loads, then probe) and returns the finished run.
    Run finishRun(const std::string &endReason);

signals:
    void started();
    void stateCaptured(const QString &reason);
    void loadStarted(int id, const QString &kind, const QString &label);
    void loadRefused(const QString &kind, const QString &error);
    void loadStopped(int id);
    void loadsChanged();
    void phaseBegun(const QString &name);
    void markersChanged();
    void scenarioStarted(const QString &name);
    // At each new step, and each second.
    void scenarioProgressed();
    // `endReason` as in the run file: "completed", "interrupted", ...
    void scenarioFinished(const QString &endReason, bool partial);

private:
    void runTask(std::function<void()> task);
    void captureAsync(const std::string &reason, double timeS, const std::string &phase);
    void onLoadsChanged(std::vector<LoadGroupResult> finished);
    void beginPhaseForLoads();
    void rebuildMarkers();
    std::vector<LoadGroupResult> loadResults(bool includeRunning) const;
    void onScenarioProgress(const ScenarioProgress &progress);
    void onScenarioEnded();
    void stopScenarioNow();

    Options m_options;
    SystemInfo m_system;
    std::string m_binary;
    std::string m_startTime;
    std::unique_ptr<Probe> m_probe;
    std::unique_ptr<LoadManager> m_loads;
    LiveData *m_data = nullptr;
    GuiConsumer *m_gui = nullptr;
    bool m_running = false;
    bool m_finished = false;

    QThreadPool m_pool;              // starts and stops, in order
    QThreadPool m_urgent;            // stop all: never queued behind a start
    QThreadPool m_capturer;          // state captures: 200 ms of /proc sampling each
    std::atomic<int> m_cancelled{0}; // bumped by stopAllLoads()
    int m_pending = 0;

    std::vector<LoadGroupResult> m_finishedLoads;
    mutable std::mutex m_statesMutex;
    std::vector<StateCapture> m_states;
    std::vector<int64_t> m_resets;
    std::vector<MarkerEvent> m_markers;
    QString m_phaseName = QStringLiteral("idle");
    int64_t m_phaseStart = 0;

    std::unique_ptr<ScenarioRunner> m_runner;
    std::thread m_scenarioThread;
    std::atomic<bool> m_scenarioCancel{false};
    mutable std::mutex m_progressMutex;
    ScenarioProgress m_progress; // guarded by m_progressMutex
    int m_shownStep = -1;        // the step the GUI last switched its phase to
    QString m_scenarioName;
    QString m_scenarioError;
    std::string m_scenarioStartTime;
    // Written by the scenario's thread before it ends, read after the join.
    ScenarioRunner::End m_scenarioEnd = ScenarioRunner::End::Completed;
    int64_t m_scenarioStartedAt = 0, m_scenarioEndedAt = 0;
    double m_firstStepS = -1; // where the first step's phase begins, since the run started
    std::optional<Run> m_scenarioRun;
};

} // namespace latprobe
