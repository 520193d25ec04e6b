#pragma once

#include "scenario.h"

#include <QImage>
#include <QMainWindow>

#include <optional>

class QAction;
class QLabel;
class QSplitter;
class QTimer;

namespace latprobe {

class CompareWindow;
class RunsWindow;
class CounterPanel;
class MessageBanner;
class LatencyPlot;
class LiveSession;
class LoadPanel;
class MissesPlot;
class WhoDelayedDialog;
class PhaseTable;
class ScenarioBar;
class ScenarioFlow;
class WakeupHistogram;

// latprobe's main window: counters on top, loads on the left, live plots
// on the right, the machine and the probe's grant in the status bar.
//
// Everything it shows is pulled on timers (latency plot 5 Hz, misses
// 2.5 Hz, counters 4 Hz, loads 2 Hz, histogram and phase statistics 1 Hz)
// from LiveData: the measuring threads never wait for it, and a hidden plot,
// or one whose window and data did not change (an idle misses plot between
// two seconds), is not redrawn.
//
// Its actions and panels carry object names ("load-panel", "stop-all-loads"):
// tests find them by those (tests/gui/windowparts.h).
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(LiveSession &session, QWidget *parent = nullptr);
    ~MainWindow() override;

    // The window with its caption strip, as Screenshot saves it.
    QImage screenshotImage(int *captionHeight = nullptr);
    // Saves a screenshot into `dir` (default: the last one used, else
    // Pictures), copies it to the clipboard; returns the file or "".
    QString saveScreenshot(const QString &dir = {});
    bool saveRun(const QString &path, QString *error = nullptr);

    // One pass of every timer, for tests and before a screenshot.
    void pollNow();

    // The Scenario menu's (ScenarioFlow).
    bool runScenario(const Scenario &scenario, bool fromRunStart = false);
    bool runScenarioFile(const QString &path);
    bool saveScenarioRun(const QString &path, QString *error = nullptr);
    // Closes without asking, the run kept in the library (SIGTERM, SIGINT).
    void closeKeepingRun();
    // The scenario to play in a new run once this window has closed (the
    // user chose "New run"), or none.
    const std::optional<Scenario> &nextRun() const { return m_nextRun; }
    // What Edit ▸ Preferences… applies and saves once accepted.
    void applyPreferences(int maxLoadProcesses);

signals:
    // Closed for a new run (nextRun()): main() opens its window, even while
    // a Runs or Compare window of this one stays open.
    void closedForNewRun();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    // Its caption: the machine and loads, and who delayed the misses of the
    // phase on screen when the flight recorder explained some.
    QString screenshotCaptionText() const;
    QString reportText() const;
    void copyReport();
    // A Compare window (File ▸ Compare runs…) with these runs in it.
    CompareWindow *openCompare(const QStringList &files);
    // File ▸ Run library…: every run kept, to report, compare or delete.
    RunsWindow *openRunLibrary();
    void openPreferences(); // Edit ▸ Preferences…
    // Who delayed the misses near `timeS` (a click on the misses plot).
    void explainMissesAt(double timeS);
    // Its "Explain the next misses": so many more of each consumer, this phase.
    static constexpr size_t kExplainMoreMisses = 8;
    void explainMoreMisses();
    // Marks the misses explained so far on the misses plot (once a second).
    void markExplainedMisses();
    // With a live run kept in the library: keep it, discard it, or go on
    // measuring (false).
    bool askToKeepRun();
    void buildActions();
    void buildMenus();
    void closeForNewRun(const Scenario &scenario);
    void buildHelpMenu();
    void buildLayout();
    void buildStatusBar();
    void onSessionStarted();
    void showFirstStartHint();
    void onFineTick();
    void onCounterTick();
    void onLoadTick();
    // Gives the running groups or the phases room the other leaves spare,
    // when one needs a scroll bar; a split the user dragged otherwise stays.
    void fitLeftColumn();
    void onReset();
    void updatePhaseLabel();
    void saveRunInteractively();
    void openCompareInteractively();
    void readSettings();
    void writeSettings() const;

    LiveSession &m_session;
    CounterPanel *m_counters = nullptr;
    MessageBanner *m_hint = nullptr; // the first start's, once per user
    LoadPanel *m_loadPanel = nullptr;
    LatencyPlot *m_latency = nullptr;
    MissesPlot *m_misses = nullptr;
    WhoDelayedDialog *m_explanationDialog = nullptr;
    WakeupHistogram *m_histogram = nullptr;
    PhaseTable *m_phases = nullptr;
    ScenarioBar *m_scenarioBar = nullptr;
    QSplitter *m_leftSplitter = nullptr;
    QSplitter *m_mainSplitter = nullptr;
    QSplitter *m_plotSplitter = nullptr;
    QSplitter *m_bottomSplitter = nullptr;

    QAction *m_screenshot = nullptr;
    QAction *m_copyReport = nullptr;
    QAction *m_saveRun = nullptr;
    QAction *m_reset = nullptr;
    QAction *m_stopAll = nullptr;
    QAction *m_quit = nullptr;
    QAction *m_capture = nullptr;
    QAction *m_compare = nullptr;
    QAction *m_runLibrary = nullptr;
    QAction *m_preferences = nullptr;
    bool m_closeKeeping = false;
    std::optional<Scenario> m_nextRun;
    ScenarioFlow *m_scenarios = nullptr;

    QLabel *m_systemLabel = nullptr;
    QLabel *m_probeLabel = nullptr;
    QLabel *m_warningLabel = nullptr;
    QLabel *m_phaseLabel = nullptr;

    QTimer *m_fineTimer = nullptr;
    QTimer *m_counterTimer = nullptr;
    QTimer *m_loadTimer = nullptr;
    static constexpr int kFineTickMs = 200;
    int m_fineTicks = 0;
    size_t m_explainedMarked = 0; // explanations the misses plot marks
};

} // namespace latprobe
