#pragma once

#include "consumertable.h"
#include "loadmanager.h"
#include "loadspec.h"
#include "run.h"
#include "runautosaver.h"
#include "runlibrary.h"
#include "scenario.h"
#include "session.h"
#include "sysinfo.h"

#include <QObject>
#include <QString>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace latprobe {

class GuiConsumer;
class LiveData;

// A labelled moment on the time plots, as the plots draw it.
struct MarkerEvent
{
    // As RunMarker::Kind, in its order.
    enum Kind { LoadStarted, LoadStopped, Reset, VariantSwitched };
    double timeS = 0; // since the run started
    Kind kind = LoadStarted;
    QString label;
};

// The window's side of a Session: the Qt-free session owns the run (probe,
// loads, phases, captures, scenarios, the finished run); this adapter turns
// its callbacks, which come from the session's threads, into Qt signals in
// the GUI thread, and adds what only a window has: the gui consumer (the
// event loop's own lateness) and LiveData, the views' copy of the numbers.
// Widgets talk to this, never to the session's parts.
class LiveSession : public QObject
{
    Q_OBJECT
public:
    explicit LiveSession(SessionOptions options, QObject *parent = nullptr);
    ~LiveSession() override;

    void start();
    // Stops the loads first, then the probe. Idempotent; the destructor calls it.
    void shutdown();
    bool running() const { return m_session->running(); }
    bool finished() const { return m_session->finished(); }

    const std::vector<ConsumerConfig> &configs() const { return m_session->configs(); }
    std::vector<ConsumerSetup> setups() const { return m_session->setups(); }
    int consumerIndex(ConsumerRole role) const { return m_session->consumerIndex(role); }
    LiveData &data() { return *m_data; }
    GuiConsumer *guiConsumer() { return m_gui; }
    const SystemInfo &system() const { return m_session->system(); }
    int64_t runStart() const { return m_session->runStart(); }
    const std::string &binary() const { return m_session->options().workerBinary; }
    const std::string &preset() const { return m_session->options().preset; }
    KnobRun knobRun() const { return m_session->knobRun(); }
    // For tests: a sample as a consumer's thread would push it (a forced
    // late wakeup), straight into the numbers every view reads.
    void injectSample(size_t consumer, const Sample &sample);

    void startLoad(const LoadSpec &spec) { startLoads({spec}); }
    // Starts all of them, then begins one phase (as `latprobe run` does).
    void startLoads(const std::vector<LoadSpec> &specs) { m_session->startLoads(specs); }
    void stopLoad(int id) { m_session->stopLoad(id); }
    // Cancels starts not yet begun and kills every group at once.
    void stopAllLoads() { m_session->stopAllLoads(); }
    std::vector<GroupStatus> loadStatus() const { return m_session->loadStatus(); }
    std::vector<std::string> activeLabels() const { return m_session->activeLabels(); }
    int runningProcesses() const { return m_session->runningProcesses(); }
    // The cap on load processes at once (--max-workers, Preferences).
    int maxLoadProcesses() const { return m_session->limits().maxProcesses; }
    void setMaxLoadProcesses(int processes) { m_session->setMaxLoadProcesses(processes); }

    // Begins a new phase with the same loads: counts start from zero.
    void reset();
    QString phaseName() const { return QString::fromStdString(m_session->currentPhase().name); }
    int64_t phaseStart() const { return m_session->currentPhase().start; }
    const std::vector<MarkerEvent> &markers() const { return m_markers; }

    // Plays a scenario as `latprobe run --scenario` does; manual starts,
    // stops and resets are refused meanwhile, stopAllLoads() cancels it.
    // Returns "" or why it cannot start. `fromRunStart`: its first step is
    // the run's first phase if nothing happened before (given as the window
    // opens). `endsRun`: the unattended mode, whose run ends with it.
    QString startScenario(const Scenario &scenario, bool fromRunStart = false,
                          bool endsRun = false);
    // Stops its loads and ends it early; the measured phases stay, the
    // scenario's run is marked partial (as Ctrl-C does to `latprobe run`).
    void cancelScenario() { m_session->cancelScenario(); }
    bool scenarioRunning() const { return m_session->scenarioRunning(); }
    ScenarioProgress scenarioProgress() const { return m_session->scenarioProgress(); }
    QString scenarioName() const { return m_scenarioName; }
    // How the last scenario ended, its error and its own run (empty before
    // one has ended, and for a run that ended with it).
    const std::optional<ScenarioOutcome> &scenarioOutcome() const { return m_outcome; }

    // The system's state (sched debug, schedstat, top processes), taken by
    // the session at each phase's first miss and on demand.
    void captureNow() { m_session->requestCapture(); }
    size_t captureCount() const { return m_session->captureCount(); }

    // Who delayed the misses: see Session.
    std::vector<MissExplanation> explanations() const { return m_session->explanations(); }
    size_t explainedCount() const { return m_session->explainedCount(); }
    TraceSummary traceSummary() const { return m_session->traceSummary(); }
    bool explainMore(size_t count) { return m_session->explainMore(count); }

    // The run so far, loads included, as Copy report and Save run see it.
    Run liveRun(const std::string &endReason) const { return m_session->snapshot(endReason); }
    // Ends the measurement (loads, then probe) and returns the finished run,
    // also written over its autosave when the run is kept in a library.
    Run finishRun(RunEnd end);
    // Ends it as `latprobe run` does (runconclusion.h): report, run file at
    // `out`, library; returns the exit status.
    int concludeRun(RunEnd end, const std::string &out);

    // Keeps the run in `library` as it is measured (Session::keepInLibrary).
    // Call before start(); without it nothing is kept.
    void keepInLibrary(RunLibrary library,
                       std::chrono::milliseconds every = RunAutosaver::kDefaultEvery);
    bool keepsInLibrary() const { return m_session->keepsInLibrary(); }
    // The library it keeps runs in, else the default one (for the Runs window).
    const RunLibrary &library() const { return m_library; }
    // Where the run is kept ("" before its first autosave).
    QString libraryPath() const { return QString::fromStdString(m_session->keptPath()); }
    // Ends the measurement and keeps the finished run. False, with `error`,
    // when it could not be written.
    bool finishIntoLibrary(RunEnd end, QString *error = nullptr);
    // Ends the measurement and deletes its autosave: the user chose so.
    void finishAndDiscard();

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
    void scenarioFinished(latprobe::RunEnd end, bool partial);

private:
    Q_INVOKABLE void drainRelay(); // queued by Relay, by name (see livesession.cpp)

    // Hears the session's callbacks, from its threads, and queues each to
    // the GUI thread.
    class Relay;
    friend class Relay;

    void rebuildMarkers();

    std::unique_ptr<Relay> m_relay;
    std::unique_ptr<Session> m_session;
    LiveData *m_data = nullptr;
    GuiConsumer *m_gui = nullptr;
    std::vector<MarkerEvent> m_markers;
    QString m_scenarioName;
    std::optional<ScenarioOutcome> m_outcome;
    RunLibrary m_library;
};

} // namespace latprobe
