#pragma once

#include "consumertable.h"
#include "loadmanager.h"
#include "loadspec.h"
#include "run.h"
#include "runautosaver.h"
#include "runlibrary.h"
#include "runview.h"
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
// loads, phases, captures, scenarios, the finished run) and the window reads
// it through view(); this adapter turns its callbacks, which come from the
// session's threads, into Qt signals in the GUI thread, and adds what only a
// window has: the gui consumer (the event loop's own lateness), LiveData
// (the views' copy of the numbers) and the plots' markers. Widgets read
// view() and send the commands here, never to the session's parts.
class LiveSession : public QObject
{
    Q_OBJECT
public:
    explicit LiveSession(SessionOptions options, QObject *parent = nullptr);
    ~LiveSession() override;

    void start();
    // Stops the loads first, then the probe. Idempotent; the destructor calls it.
    void shutdown();
    const RunView &view() const { return *m_session; }
    LiveData &data() { return *m_data; }
    // For tests: a sample as a consumer's thread would record it (a forced
    // late wakeup), straight into the numbers every view reads.
    void injectSample(size_t consumer, const Sample &sample);

    // Starts all of them, then begins one phase (as `latprobe run` does).
    void startLoads(const std::vector<LoadSpec> &specs) { m_session->startLoads(specs); }
    void stopLoad(int id) { m_session->stopLoad(id); }
    // Cancels starts not yet begun and kills every group at once.
    void stopAllLoads() { m_session->stopAllLoads(); }
    // The cap on load processes at once (--max-workers, Preferences).
    void setMaxLoadProcesses(int processes) { m_session->setMaxLoadProcesses(processes); }
    // Begins a new phase with the same loads: counts start from zero.
    void reset();
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

    // Captures the system's state now (it is also taken at each phase's
    // first miss), and explains more of the open phase's misses.
    void captureNow() { m_session->requestCapture(); }
    bool explainMore(size_t count) { return m_session->explainMore(count); }

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
    // The library it keeps runs in, else the default one (for the Runs window).
    const RunLibrary &library() const { return m_library; }
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
    RunLibrary m_library;
};

} // namespace latprobe
