#include "scenarioflow.h"

#include "abdialog.h"
#include "commandconsentdialog.h"
#include "comparewindow.h"
#include "livesession.h"
#include "loadpanel.h"
#include "runsaving.h"
#include "scenario.h"
#include "scenariobar.h"

#include <QAction>
#include <QActionGroup>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>

#include <algorithm>

namespace latprobe {

ScenarioFlow::ScenarioFlow(LiveSession &session, QWidget *window, QMenuBar *menuBar,
                           Controls controls)
    : QObject(window), m_session(session), m_window(window), m_controls(controls)
{
    m_menu = menuBar->addMenu(tr("S&cenario"));
    m_menu->setObjectName(QStringLiteral("scenario-menu"));
    m_menu->setToolTipsVisible(true);
    for (const std::string &name : builtinScenarioNames()) {
        const std::optional<Scenario> scenario = builtinScenario(name);
        if (!scenario)
            continue;
        QAction *a = m_menu->addAction(QString());
        a->setObjectName(QStringLiteral("scenario-") + QString::fromStdString(name));
        a->setToolTip(QString::fromStdString(scenario->description));
        a->setStatusTip(a->toolTip());
        connect(a, &QAction::triggered, this, [this, name] {
            if (const std::optional<Scenario> s = builtinScenario(name))
                runScenario(*s);
        });
        m_builtins.push_back({a, *scenario});
    }
    addRoundsMenu();
    labelBuiltins();
    m_menu->addSeparator();
    QAction *open =
        m_menu->addAction(tr("&Open scenario file…"), this, &ScenarioFlow::openInteractively);
    open->setToolTip(tr("Play a scenario file: steps of loads and how long each lasts "
                        "(the format of 'latprobe run --scenario')"));
    QAction *ab = m_menu->addAction(tr("&A/B of a setting…"), this, &ScenarioFlow::openAbDialog);
    ab->setObjectName(QStringLiteral("ab"));
    ab->setToolTip(tr("Two variants of the system (autogroup, a slice, a load's nice or CPU "
                      "weight, a sched_ext scheduler...) take turns in one run, and are put "
                      "back after; the run ends with which is better"));
    m_menu->addSeparator();
    m_cancel =
        m_menu->addAction(tr("&Cancel scenario"), this, [this] { m_session.cancelScenario(); });
    m_cancel->setObjectName(QStringLiteral("cancel-scenario"));
    m_cancel->setEnabled(false);

    connect(m_controls.bar, &ScenarioBar::cancelRequested, this,
            [this] { m_session.cancelScenario(); });
    connect(m_controls.bar, &ScenarioBar::saveRequested, this, &ScenarioFlow::saveInteractively);
    connect(&m_session, &LiveSession::scenarioStarted, this, &ScenarioFlow::onStarted);
    connect(&m_session, &LiveSession::scenarioProgressed, this, &ScenarioFlow::onProgressed);
    connect(&m_session, &LiveSession::scenarioFinished, this, &ScenarioFlow::onFinished);
}

void ScenarioFlow::addRoundsMenu()
{
    QMenu *rounds = m_menu->addMenu(tr("&Rounds"));
    rounds->setObjectName(QStringLiteral("rounds-menu"));
    rounds->setToolTipsVisible(true);
    rounds->menuAction()->setToolTip(
        tr("Play every step this many times, interleaved (idle, A, B, idle, A, B, ...), so that "
           "slow drift hits every step alike. With 5 rounds or more, compare takes each round "
           "as a sample."));
    auto *group = new QActionGroup(this);
    QSettings settings(QStringLiteral("latprobe"), QStringLiteral("latprobe"));
    m_rounds =
        std::clamp(settings.value(QStringLiteral("scenario/rounds"), 0).toInt(), 0, kMaxRounds);
    for (const int n : {0, 1, 3, 5, 10}) {
        QAction *a = rounds->addAction(n == 0   ? tr("As each scenario says")
                                       : n == 5 ? tr("5 rounds: each a sample for compare")
                                       : n == 1 ? tr("1 round")
                                                : tr("%1 rounds").arg(n));
        a->setObjectName(QStringLiteral("rounds-%1")
                             .arg(n == 0 ? QStringLiteral("scenario") : QString::number(n)));
        a->setCheckable(true);
        a->setChecked(n == m_rounds);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, n] {
            m_rounds = n;
            QSettings(QStringLiteral("latprobe"), QStringLiteral("latprobe"))
                .setValue(QStringLiteral("scenario/rounds"), n);
            labelBuiltins();
        });
    }
    // A count remembered from another choice than the menu's (a hand-edited
    // setting): play as the scenarios say, and say so.
    if (!group->checkedAction()) {
        m_rounds = 0;
        group->actions().front()->setChecked(true);
    }
}

Scenario ScenarioFlow::withRounds(const Scenario &scenario) const
{
    Scenario s = scenario;
    // An A/B's rounds are its own: its dialog (or file) set them with their cost.
    if (m_rounds > 0 && s.variants.empty())
        s.rounds = m_rounds;
    return s;
}

void ScenarioFlow::labelBuiltins()
{
    for (const auto &[action, scenario] : m_builtins) {
        const Scenario s = withRounds(scenario);
        const QString steps = s.rounds > 1
                                  ? tr("%1 steps x %2 rounds").arg(s.steps.size()).arg(s.rounds)
                                  : tr("%1 steps").arg(s.steps.size());
        action->setText(
            tr("Run %1 (%2, %3)")
                .arg(QString::fromStdString(s.name), steps, ScenarioBar::minutes(s.totalS())));
    }
}

bool ScenarioFlow::runScenario(const Scenario &asWritten, bool fromRunStart)
{
    const Scenario scenario = withRounds(asWritten);
    const QString name = QString::fromStdString(scenario.name);
    if (m_session.view().scenarioRunning()) {
        m_controls.statusBar->showMessage(
            tr("Scenario %1 is still running: cancel it first")
                .arg(QString::fromStdString(m_session.view().scenarioName())),
            5000);
        return false;
    }
    // Asked first: a new run asks the questions below again, as it opens.
    if (!fromRunStart && m_session.view().keepsInLibrary()) {
        switch (askPlacement(name)) {
        case Placement::NewRun:
            emit newRunWanted(asWritten);
            return true;
        case Placement::Cancel:
            return false;
        case Placement::Append:
            break;
        }
    }
    if (scenario.preset != m_session.view().preset()) {
        const QString wanted = QString::fromStdString(scenario.preset);
        const auto answer = QMessageBox::question(
            m_window, tr("Run %1 with this window's consumers?").arg(name),
            tr("Scenario %1 was written for the \"%2\" consumer preset; this window measures "
               "with \"%3\". Its run will say which it used.\n\nTo measure as the scenario "
               "means to, start latprobe-gui --preset %2, or run 'latprobe run --scenario %1'.")
                .arg(name, wanted, QString::fromStdString(m_session.view().preset())),
            QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Yes);
        if (answer != QMessageBox::Yes)
            return false;
    }
    if (scenario.runsCommands()) {
        CommandConsentDialog consent(scenario, m_window);
        if (consent.exec() != QDialog::Accepted) {
            m_controls.statusBar->showMessage(
                tr("Scenario %1 not started: its commands were not allowed").arg(name), 8000);
            return false;
        }
    }
    m_totalS = scenario.totalS();
    const QString error = m_session.startScenario(scenario, fromRunStart);
    if (!error.isEmpty()) {
        QMessageBox::warning(m_window, tr("Scenario not started"),
                             tr("Scenario %1 did not start: %2").arg(name, error));
        return false;
    }
    return true;
}

ScenarioFlow::Placement ScenarioFlow::askPlacement(const QString &name)
{
    QMessageBox box(QMessageBox::Question, tr("Start a new run for %1?").arg(name),
                    tr("This window has measured for %1. Scenario %2 can start a new run, so "
                       "that its run holds only its own steps; this one is kept in the run "
                       "library first. Or its steps can follow this run's phases.")
                        .arg(ScenarioBar::measured(m_session.view().snapshot("")), name),
                    QMessageBox::NoButton, m_window);
    QPushButton *newRun = box.addButton(tr("&New run"), QMessageBox::AcceptRole);
    QPushButton *append = box.addButton(tr("&Append to this run"), QMessageBox::ActionRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(newRun);
    box.exec();
    if (box.clickedButton() == newRun)
        return Placement::NewRun;
    if (box.clickedButton() == append)
        return Placement::Append;
    return Placement::Cancel;
}

bool ScenarioFlow::runScenarioFile(const QString &path)
{
    Scenario scenario;
    try {
        scenario = loadScenarioFile(path.toStdString());
    } catch (const ScenarioError &e) {
        QMessageBox::warning(m_window, tr("Scenario not opened"), QString::fromUtf8(e.what()));
        return false;
    }
    return runScenario(scenario);
}

void ScenarioFlow::openInteractively()
{
    QSettings settings(QStringLiteral("latprobe"), QStringLiteral("latprobe"));
    const QString path = QFileDialog::getOpenFileName(
        m_window, tr("Open scenario"), settings.value(QStringLiteral("scenario/dir")).toString(),
        tr("latprobe scenarios (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(QStringLiteral("scenario/dir"), QFileInfo(path).absolutePath());
    runScenarioFile(path);
}

void ScenarioFlow::openAbDialog()
{
    AbDialog dialog(KnobEnvironment::real(), m_session.view().knobRun(), m_window);
    if (dialog.exec() == QDialog::Accepted)
        runScenario(dialog.scenario());
}

void ScenarioFlow::onStarted(const QString &name)
{
    m_controls.loadPanel->setScenarioActive(true, name);
    m_controls.reset->setEnabled(false);
    m_controls.stopAll->setEnabled(true);
    for (QAction *a : m_menu->actions())
        a->setEnabled(a == m_cancel);
    m_controls.bar->showRunning(name, m_session.view().scenarioProgress(), m_totalS);
    m_controls.statusBar->showMessage(
        tr("Scenario %1 started: %2 left").arg(name, ScenarioBar::minutes(m_totalS)), 5000);
}

void ScenarioFlow::onProgressed()
{
    if (m_session.view().scenarioRunning())
        m_controls.bar->showRunning(QString::fromStdString(m_session.view().scenarioName()),
                                    m_session.view().scenarioProgress(), m_totalS);
}

void ScenarioFlow::onFinished(RunEnd end, bool partial)
{
    m_controls.loadPanel->setScenarioActive(false);
    m_controls.reset->setEnabled(true);
    m_controls.stopAll->setEnabled(!m_session.view().activeLabels().empty());
    for (QAction *a : m_menu->actions())
        a->setEnabled(a != m_cancel);
    const QString name = QString::fromStdString(m_session.view().scenarioName()).toHtmlEscaped();
    const ScenarioProgress p = m_session.view().scenarioProgress();
    const std::optional<ScenarioOutcome> &outcome = m_session.view().lastScenario();
    const std::optional<Run> noRun;
    const std::optional<Run> &run = outcome ? outcome->run : noRun;
    const int phases = run ? static_cast<int>(run->phases.size()) : 0;
    // The stop condition's answer ("usable up to massive_intr x20 (...)").
    const QString answer =
        outcome && !outcome->stopVerdict.empty()
            ? QString::fromStdString(outcome->stopVerdict.front()).toHtmlEscaped()
            : QString();
    QString text;
    if (end == RunEnd::Completed)
        // What its run measured, as the phase table adds it up; not the plan
        // (which counts the settling after each switch, measured by no phase).
        text = tr("Scenario <b>%1</b> completed: %2 measured.%3 Save its run to compare it "
                  "with another kernel's.")
                   .arg(name)
                   .arg(run ? ScenarioBar::measured(*run) : ScenarioBar::minutes(m_totalS))
                   .arg(answer.isEmpty() ? QString() : " <b>" + answer + "</b>.");
    else if (end == RunEnd::Threshold)
        text = tr("Scenario <b>%1</b> stopped at its threshold: <b>%2</b>. The report has the "
                  "evidence, step by step.")
                   .arg(name)
                   .arg(answer.isEmpty() ? tr("a step passed its stop condition") : answer);
    else if (end == RunEnd::Interrupted)
        text = tr("Scenario <b>%1</b> cancelled in step %2 of %3: the %4 phases measured are "
                  "kept, its run is marked partial.")
                   .arg(name)
                   .arg(p.step + 1)
                   .arg(p.steps)
                   .arg(phases);
    else
        text = tr("Scenario <b>%1</b> stopped in step %2 of %3: %4. Its run is marked partial.")
                   .arg(name)
                   .arg(p.step + 1)
                   .arg(p.steps)
                   .arg(QString::fromStdString(outcome ? outcome->error : std::string())
                            .toHtmlEscaped());
    m_controls.bar->showEnded(text, run.has_value());
    // An A/B's answer is the comparison of its variants: shown at once.
    if (run && !run->variants.empty() && !run->phases.empty()) {
        CompareWindow *compare = openCompareWindow(m_window, {});
        compare->setObjectName(QStringLiteral("ab-compare"));
        compare->addRun(*run, m_session.view().scenarioName());
    }
    QString plain = text;
    plain.remove(QStringLiteral("<b>")).remove(QStringLiteral("</b>"));
    m_controls.statusBar->showMessage(
        partial ? plain : plain + tr(" (Save run… on the scenario bar)"), 15000);
}

bool ScenarioFlow::saveScenarioRun(const QString &path, QString *error)
{
    const std::optional<ScenarioOutcome> &outcome = m_session.view().lastScenario();
    if (!outcome || !outcome->run) {
        if (error)
            *error = tr("no scenario has ended yet");
        return false;
    }
    return writeRunTo(*outcome->run, path, error);
}

void ScenarioFlow::saveInteractively()
{
    const std::optional<ScenarioOutcome> &outcome = m_session.view().lastScenario();
    if (!outcome || !outcome->run)
        return;
    const QString path = saveRunInteractively(
        m_window, tr("Save scenario run"),
        QStringLiteral("latprobe-") + QString::fromStdString(m_session.view().scenarioName()),
        [&outcome] { return *outcome->run; });
    if (!path.isEmpty())
        m_controls.statusBar->showMessage(tr("Scenario run saved to %1").arg(path), 8000);
}

} // namespace latprobe
