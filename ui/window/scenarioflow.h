#pragma once

#include "run.h"
#include "scenario.h"

#include <QObject>
#include <QString>

#include <utility>
#include <vector>

class QAction;
class QMenu;
class QMenuBar;
class QStatusBar;
class QWidget;

namespace latprobe {

class LiveSession;
class LoadPanel;
class ScenarioBar;

// The window's Scenario menu and what follows from it: the questions before
// a scenario plays (its commands, its consumers), the scenario bar while it
// runs and once it ended, the manual controls it locks, and saving its own
// run.
class ScenarioFlow : public QObject
{
    Q_OBJECT
public:
    // The controls a scenario locks while it drives the loads.
    struct Controls
    {
        LoadPanel *loadPanel;
        ScenarioBar *bar;
        QAction *reset;
        QAction *stopAll;
        QStatusBar *statusBar;
    };
    ScenarioFlow(LiveSession &session, QWidget *window, QMenuBar *menuBar, Controls controls);

    // Asks before a scenario runs commands of its own (custom loads) or was
    // written for other consumers; false if it did not start. The Rounds
    // menu's choice, unless "as each scenario says", replaces its rounds.
    // `fromRunStart`: see LiveSession::startScenario().
    bool runScenario(const Scenario &scenario, bool fromRunStart = false);
    bool runScenarioFile(const QString &path);
    bool saveScenarioRun(const QString &path, QString *error = nullptr);

signals:
    // The user chose to play `scenario` in a run of its own: the window
    // keeps this run in the library and a new one plays it from its start.
    void newRunWanted(const latprobe::Scenario &scenario);

private:
    enum class Placement { NewRun, Append, Cancel };
    // A scenario given once the window measures: a new run, or this one.
    Placement askPlacement(const QString &name);
    void addRoundsMenu();
    void labelBuiltins(); // "Run quick (5 steps x 3 rounds, 6:00)"
    Scenario withRounds(const Scenario &scenario) const;
    void openInteractively();
    void openAbDialog();
    void onStarted(const QString &name);
    void onProgressed();
    void onFinished(RunEnd end, bool partial);
    void saveInteractively();

    LiveSession &m_session;
    QWidget *m_window;
    Controls m_controls;
    QMenu *m_menu = nullptr;
    QAction *m_cancel = nullptr;
    double m_totalS = 0;
    int m_rounds = 0; // 0: as each scenario says
    std::vector<std::pair<QAction *, Scenario>> m_builtins;
};

} // namespace latprobe
