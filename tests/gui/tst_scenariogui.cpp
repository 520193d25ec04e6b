// The Scenario menu offscreen, with the real probe and real load processes:
// a scenario file plays its steps with progress and time left, Cancel
// stops its loads and marks its run partial, and a scenario that runs
// commands of its own asks first (refusing starts nothing).

#include "abdialog.h"
#include "cdfplot.h"
#include "collector.h"
#include "commandconsentdialog.h"
#include "comparewindow.h"
#include "livesession.h"
#include "loadmanager.h"
#include "loadpanel.h"
#include "mainwindow.h"
#include "phasetable.h"
#include "procscan.h"
#include "ratioplot.h"
#include "roundplot.h"
#include "runfile.h"
#include "runoptions.h"
#include "scenariobar.h"
#include "statewait.h"
#include "whenmodal.h"
#include "windowparts.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <functional>
#include <memory>

using namespace latprobe;

namespace {

// Light loads: a worker busy 1 ms in every 11.
constexpr const char *kLight = "massive_intr:1:work_ms=1:sleep_ms=10";
constexpr const char *kLight2 = "massive_intr:2:work_ms=1:sleep_ms=10";

std::vector<pid_t> workerPids(const std::vector<GroupStatus> &groups)
{
    std::vector<pid_t> pids;
    for (const GroupStatus &g : groups)
        for (const WorkerStatus &w : g.workers)
            if (w.pid > 0)
                pids.push_back(w.pid);
    return pids;
}

} // namespace

class TestScenarioGui : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void menuOffersTheBuiltins();
    void scenarioFilePlaysItsStepsWithProgress();
    void cancelStopsLoadsAndMarksPartial();
    void customCommandsNeedConsent();
    void malformedScenarioIsAMessage();
    void roundsMenuPlaysEveryStepThatManyTimes();
    void abPlaysTwoVariantsInTurnsAndOpensTheirComparison();

private:
    QString writeScenario(const QString &name, const QByteArray &steps);

    QTemporaryDir m_dir;
    std::unique_ptr<LiveSession> m_session;
    std::unique_ptr<MainWindow> m_window;
    ScenarioBar *m_bar = nullptr;
    LoadPanel *m_loads = nullptr;
};

QString TestScenarioGui::writeScenario(const QString &name, const QByteArray &steps)
{
    QString path = m_dir.filePath(name + QStringLiteral(".json"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    f.write(R"({"scenario_version": 1, "name": ")" + name.toUtf8() + R"(", "steps": [)" + steps +
            "]}");
    return path;
}

void TestScenarioGui::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QStandardPaths::setTestModeEnabled(true);
    QSettings(QStringLiteral("latprobe"), QStringLiteral("latprobe")).clear();
    m_session = std::make_unique<LiveSession>(defaultSessionOptions(RunFrontEnd::Window));
    m_window = std::make_unique<MainWindow>(*m_session);
    m_bar = windowPart<ScenarioBar>(m_window.get(), "scenario-bar");
    m_loads = windowPart<LoadPanel>(m_window.get(), "load-panel");
    m_window->resize(1280, 800);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_session->start();
    QVERIFY(m_session->view().running());
    QTest::qWait(300); // an idle phase with samples before any scenario
}

void TestScenarioGui::cleanupTestCase()
{
    m_window->close();
    QVERIFY(!m_session->view().running());
    QCOMPARE(m_session->view().runningProcesses(), 0);
    m_window.reset();
    m_session.reset();
}

void TestScenarioGui::menuOffersTheBuiltins()
{
    QStringList names;
    for (QAction *a : windowPart<QMenu>(m_window.get(), "scenario-menu")->actions())
        names << a->objectName();
    for (const char *b : {"quick", "ramp", "contest", "interbench"})
        QVERIFY2(names.contains(QStringLiteral("scenario-") + QLatin1String(b)), b);
    QVERIFY(!windowPart<QAction>(m_window.get(), "cancel-scenario")->isEnabled());
}

void TestScenarioGui::scenarioFilePlaysItsStepsWithProgress()
{
    const QString path = writeScenario(
        QStringLiteral("twostep"),
        QByteArray(R"({"name": "one", "duration_s": 2.5, "loads": [")") + kLight +
            R"("]}, {"name": "two", "duration_s": 2.5, "loads": [")" + kLight2 + R"("]})");
    const size_t phasesBefore = m_session->view().snapshot("test").phases.size();
    QVERIFY(m_window->runScenarioFile(path));
    QVERIFY(m_session->view().scenarioRunning());
    ScenarioBar *bar = m_bar;
    QVERIFY(bar->isVisible());
    QVERIFY(bar->cancelButton()->isVisible());
    QVERIFY(windowPart<QAction>(m_window.get(), "cancel-scenario")->isEnabled());

    // Step 1: its load runs, manual starts are off, the bar says where it is.
    QTRY_VERIFY_WITH_TIMEOUT(workerPids(m_session->view().loadStatus()).size() == 1, 8000);
    QTRY_VERIFY(bar->text().contains(QStringLiteral("step 1 of 2")));
    QVERIFY2(bar->text().contains(QStringLiteral("one")), qPrintable(bar->text()));
    QVERIFY(bar->progressBar()->format().endsWith(QStringLiteral(" left")));
    QVERIFY(!m_loads->startButton("burn")->isEnabled());
    QVERIFY(!windowPart<QAction>(m_window.get(), "reset-counters")->isEnabled());
    QTRY_COMPARE(QString::fromStdString(m_session->view().currentPhase().name),
                 QStringLiteral("one"));

    // Step 2: the loads change, time left shrinks.
    QTRY_VERIFY_WITH_TIMEOUT(bar->text().contains(QStringLiteral("step 2 of 2")), 8000);
    QCOMPARE(QString::fromStdString(m_session->view().currentPhase().name),
             QStringLiteral("two")); // the same signal
    QTRY_VERIFY_WITH_TIMEOUT(workerPids(m_session->view().loadStatus()).size() == 2, 8000);
    const int progressed = bar->progressBar()->value();
    QVERIFY2(progressed >= 400, qPrintable(QString::number(progressed)));

    // Ended once the window heard so (the bar says it): the session's own
    // flag turns first, on its thread.
    QTRY_VERIFY_WITH_TIMEOUT(bar->text().contains(QStringLiteral("completed")), kStateWaitMs);
    QVERIFY(!m_session->view().scenarioRunning());
    QVERIFY(m_session->view().loadStatus().empty());
    QVERIFY(m_loads->startButton("burn")->isEnabled());
    QVERIFY(windowPart<QAction>(m_window.get(), "reset-counters")->isEnabled());
    QVERIFY2(bar->text().contains(QStringLiteral("completed")), qPrintable(bar->text()));
    QVERIFY(bar->saveButton()->isVisible());
    QVERIFY(m_window->statusBar()->currentMessage().contains(QStringLiteral("completed")));
    // An idle phase follows, numbered: the run had one before the scenario.
    QCOMPARE(QString::fromStdString(m_session->view().currentPhase().name),
             QStringLiteral("idle 2"));

    // Its run holds its steps only, as `latprobe run --scenario` writes it.
    const std::optional<Run> run =
        m_session->view().lastScenario() ? m_session->view().lastScenario()->run : std::nullopt;
    QVERIFY(run.has_value());
    QCOMPARE(run->scenario, std::string("twostep"));
    QVERIFY(!run->partial);
    QCOMPARE(run->endReason, std::string("completed"));
    QCOMPARE(run->phases.size(), size_t(2));
    QCOMPARE(run->phases[0].name, std::string("one"));
    QCOMPARE(run->phases[1].name, std::string("two"));
    QVERIFY(run->phases[1].durationS > 2.0 && run->phases[1].durationS < 3.5);
    QCOMPARE(run->loads.size(), size_t(2));
    const QString saved = m_dir.filePath(QStringLiteral("twostep-run.json"));
    QString error;
    QVERIFY2(m_window->saveScenarioRun(saved, &error), qPrintable(error));
    QCOMPARE(readRunFile(saved.toStdString()).phases.size(), size_t(2));
    // The session's own run goes on: the earlier idle, the steps, idle after.
    QCOMPARE(m_session->view().snapshot("test").phases.size(), phasesBefore + 3);
}

void TestScenarioGui::cancelStopsLoadsAndMarksPartial()
{
    const QString path = writeScenario(
        QStringLiteral("long"), QByteArray(R"({"duration_s": 30, "loads": [")") + kLight2 +
                                    R"("]}, {"duration_s": 30, "loads": [")" + kLight + R"("]})");
    QVERIFY(m_window->runScenarioFile(path));
    QTRY_VERIFY_WITH_TIMEOUT(workerPids(m_session->view().loadStatus()).size() == 2, 8000);
    const std::vector<pid_t> pids = workerPids(m_session->view().loadStatus());
    QTest::qWait(300);
    const QString left = m_bar->progressBar()->format();
    QVERIFY2(QRegularExpression(QStringLiteral("^(1:00|0:5\\d) left$")).match(left).hasMatch(),
             qPrintable(left));

    QTest::mouseClick(m_bar->cancelButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!m_session->view().scenarioRunning(), 5000);
    QVERIFY(m_session->view().loadStatus().empty());
    for (pid_t pid : pids)
        QTRY_VERIFY_WITH_TIMEOUT(pidGone(pid), 2000);
    // Ended once the window heard so (the bar says it).
    QTRY_VERIFY_WITH_TIMEOUT(m_bar->text().contains(QStringLiteral("cancelled")), kStateWaitMs);
    const std::optional<Run> run =
        m_session->view().lastScenario() ? m_session->view().lastScenario()->run : std::nullopt;
    QVERIFY(run.has_value());
    QVERIFY(run->partial);
    QCOMPARE(run->endReason, std::string("interrupted"));
    QCOMPARE(run->phases.size(), size_t(1)); // the step it was in, kept
    QCOMPARE(run->phases[0].name, std::string("massive_intr x2"));
    const QString text = m_bar->text();
    QVERIFY2(text.contains(QStringLiteral("cancelled")) && text.contains(QStringLiteral("partial")),
             qPrintable(text));
    QVERIFY(m_loads->startButton("massive_intr")->isEnabled());
}

void TestScenarioGui::customCommandsNeedConsent()
{
    const QString path = writeScenario(QStringLiteral("commands"),
                                       R"({"duration_s": 20, "loads": ["custom:2:cmd=sleep 30"]},
           {"duration_s": 20, "loads": ["massive_intr:1"]})");
    const int groupsBefore = static_cast<int>(m_session->markers().size());

    // Refused: nothing starts.
    QString listed;
    whenModal([&](QWidget *modal) {
        auto *dialog = qobject_cast<CommandConsentDialog *>(modal);
        QVERIFY(dialog);
        listed = dialog->listedText();
        QVERIFY(dialog->refuseButton()->isDefault());
        dialog->refuseButton()->click();
    });
    QVERIFY(!m_window->runScenarioFile(path));
    QVERIFY2(listed.contains(QStringLiteral("2 × sleep 30")), qPrintable(listed));
    QVERIFY(listed.contains(QStringLiteral("step 1")));
    QVERIFY(!m_session->view().scenarioRunning());
    QVERIFY(m_window->statusBar()->currentMessage().contains(QStringLiteral("not allowed")));
    QTest::qWait(300);
    QVERIFY(m_session->view().loadStatus().empty());
    QCOMPARE(static_cast<int>(m_session->markers().size()), groupsBefore);

    // Allowed: the very command runs, as a load the scenario owns.
    whenModal(
        [](QWidget *modal) { static_cast<CommandConsentDialog *>(modal)->runButton()->click(); });
    QVERIFY(m_window->runScenarioFile(path));
    QTRY_VERIFY_WITH_TIMEOUT(workerPids(m_session->view().loadStatus()).size() == 2, 8000);
    QCOMPARE(m_session->view().loadStatus().front().spec.command,
             (std::vector<std::string>{"sleep", "30"}));
    windowPart<QAction>(m_window.get(), "stop-all-loads")->trigger(); // cancels the scenario
    QTRY_VERIFY_WITH_TIMEOUT(m_bar->text().contains(QStringLiteral("cancelled")), kStateWaitMs);
    QVERIFY(!m_session->view().scenarioRunning());
    QVERIFY(m_session->view().loadStatus().empty());
}

void TestScenarioGui::malformedScenarioIsAMessage()
{
    const QString path = m_dir.filePath(QStringLiteral("broken.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"scenario_version": 1, "steps": [{"duration_s": -1}]})");
    f.close();
    QString message;
    whenModal([&](QWidget *modal) {
        message = modal->findChild<QLabel *>(QStringLiteral("qt_msgbox_label"))->text();
        modal->close();
    });
    QVERIFY(!m_window->runScenarioFile(path));
    QVERIFY2(message.contains(QStringLiteral("broken.json")) &&
                 message.contains(QStringLiteral("duration_s")),
             qPrintable(message));
    QVERIFY(!m_session->view().scenarioRunning());
}

void TestScenarioGui::roundsMenuPlaysEveryStepThatManyTimes()
{
    auto *three = m_window->findChild<QAction *>(QStringLiteral("rounds-3"));
    auto *asWritten = m_window->findChild<QAction *>(QStringLiteral("rounds-scenario"));
    QVERIFY(three && asWritten);
    QVERIFY(asWritten->isChecked()); // the default: as each scenario says
    auto *quick = m_window->findChild<QAction *>(QStringLiteral("scenario-quick"));
    QVERIFY2(!quick->text().contains(QStringLiteral("rounds")), qPrintable(quick->text()));

    three->trigger();
    QVERIFY(three->isChecked() && !asWritten->isChecked());
    // The built-ins say what three rounds cost.
    QVERIFY2(quick->text().contains(QStringLiteral("5 steps x 3 rounds, 6:00")),
             qPrintable(quick->text()));

    const QString path = writeScenario(
        QStringLiteral("thrice"),
        QByteArray(R"({"name": "a", "duration_s": 0.6}, {"name": "b", "duration_s": 0.6})"));
    QVERIFY(m_window->runScenarioFile(path));
    QTRY_VERIFY_WITH_TIMEOUT(m_bar->text().contains(QStringLiteral("of 3")), kStateWaitMs);
    // Finished once the window heard so (the bar says it).
    QTRY_VERIFY_WITH_TIMEOUT(m_bar->text().contains(QStringLiteral("thrice")) &&
                                 m_bar->text().contains(QStringLiteral("completed")),
                             kStateWaitMs);
    const std::optional<Run> run =
        m_session->view().lastScenario() ? m_session->view().lastScenario()->run : std::nullopt;
    QVERIFY(run.has_value());
    std::vector<std::string> names;
    for (const PhaseResult &p : run->phases)
        names.push_back(p.name + " " + std::to_string(p.round));
    QCOMPARE(names, (std::vector<std::string>{"a 1", "b 1", "a 2", "b 2", "a 3", "b 3"}));

    asWritten->trigger(); // remembered across windows: leave the default behind
    QVERIFY(!quick->text().contains(QStringLiteral("rounds")));
}

// Scenario ▸ A/B…: a load's nice against the system as it is (no root
// needed), played in turns, each switch marked on the plots, and the
// comparison of the two open at the end with its verdict.
void TestScenarioGui::abPlaysTwoVariantsInTurnsAndOpensTheirComparison()
{
    auto *ab = m_window->findChild<QAction *>(QStringLiteral("ab"));
    QVERIFY(ab);
    QString cost;
    whenModal([&cost](QWidget *modal) {
        auto *dialog = qobject_cast<AbDialog *>(modal);
        QVERIFY(dialog);
        dialog->findChild<QLineEdit *>(QStringLiteral("ab-load"))->setText(kLight);
        dialog->findChild<QSpinBox *>(QStringLiteral("ab-step"))->setValue(1);
        dialog->findChild<QSpinBox *>(QStringLiteral("ab-rounds"))->setValue(2);
        dialog->findChild<QDoubleSpinBox *>(QStringLiteral("ab-settle"))->setValue(0);
        auto *b = dialog->findChild<QGroupBox *>(QStringLiteral("ab-variant-b"));
        b->findChild<QLineEdit *>(QStringLiteral("ab-name"))->setText(QStringLiteral("nice"));
        b->findChild<QCheckBox *>(QStringLiteral("ab-use-load_nice"))->setChecked(true);
        b->findChild<QLineEdit *>(QStringLiteral("ab-value-load_nice"))->setText("5");
        QVERIFY2(dialog->problem().isEmpty(), qPrintable(dialog->problem()));
        cost = dialog->cost();
        dialog->accept();
    });
    ab->trigger();
    // 2 rounds of 2 variants of idle and the load, 1 s each, no settling.
    QVERIFY2(cost.endsWith(QStringLiteral("= 8 s")), qPrintable(cost));
    // The bar names the step played and the variant in force.
    const QRegularExpression loadedStep(QStringLiteral(
        R"(step 2 of 2 \(round \d of 2\): <b>([^<]+)</b> under <b>nice \(load_nice=5\)</b>)"));
    QTRY_VERIFY_WITH_TIMEOUT(loadedStep.match(m_bar->text()).hasMatch(), kStateWaitMs);
    QCOMPARE(loadedStep.match(m_bar->text()).captured(1), QStringLiteral("massive_intr x1"));
    QTRY_VERIFY_WITH_TIMEOUT(m_bar->text().contains(QStringLiteral("completed")), kStateWaitMs);
    const std::optional<Run> run =
        m_session->view().lastScenario() ? m_session->view().lastScenario()->run : std::nullopt;
    QVERIFY(run.has_value());
    std::vector<std::string> variants;
    for (const PhaseResult &p : run->phases)
        variants.push_back(p.variant);
    // A B B A, two steps a turn.
    QCOMPARE(variants, (std::vector<std::string>{"base", "base", "nice", "nice", "nice", "nice",
                                                 "base", "base"}));
    // Every phase is named, the loaded ones as the CLI names them.
    for (const PhaseResult &p : run->phases)
        QCOMPARE(p.name, p.step == 0 ? std::string("idle") : std::string("massive_intr x1"));
    // The phase table says which variant each of its phases ran under.
    auto *table = windowPart<PhaseTable>(m_window.get(), "phase-table");
    int variantColumn = -1;
    for (int c = 0; c < table->columnCount(); ++c)
        if (table->headerItem()->text(c) == QStringLiteral("Variant"))
            variantColumn = c;
    QVERIFY(variantColumn >= 0);
    QTRY_VERIFY_WITH_TIMEOUT(table->topLevelItemCount() >= 8, kStateWaitMs);
    QVERIFY(!table->isColumnHidden(variantColumn));
    QStringList shown;
    for (int row = 0; row < table->topLevelItemCount(); ++row) {
        const QTreeWidgetItem *item = table->topLevelItem(row);
        QVERIFY2(!item->text(0).section(QStringLiteral("  "), 1).trimmed().isEmpty(),
                 qPrintable(item->text(0)));
        if (!item->text(variantColumn).isEmpty())
            shown << item->text(0).section(QStringLiteral("  "), 1) + QStringLiteral(" · ") +
                         item->text(variantColumn);
    }
    QCOMPARE(shown, (QStringList{"idle · base", "massive_intr x1 · base", "idle · nice",
                                 "massive_intr x1 · nice", "idle · nice", "massive_intr x1 · nice",
                                 "idle · base", "massive_intr x1 · base"}));
    QStringList switches;
    for (const MarkerEvent &m : m_session->markers())
        if (m.kind == MarkerEvent::VariantSwitched)
            switches << m.label;
    QCOMPARE(switches, (QStringList{"base", "nice", "nice", "base"}));
    CompareWindow *compare = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(
        (compare = m_window->findChild<CompareWindow *>(QStringLiteral("ab-compare"))) != nullptr,
        kStateWaitMs);
    QCOMPARE(compare->headlines().size(), size_t(1));
    QVERIFY2(compare->headlines()[0].starts_with("nice (load_nice=5) "),
             compare->headlines()[0].c_str());
    QVERIFY(compare->summaryLabel()->text().contains(QStringLiteral("nice (load_nice=5)")));
    // Its verdict lines name their phase.
    QVERIFY2(!compare->summaryLabel()->text().contains(QStringLiteral("<b></b>")),
             qPrintable(compare->summaryLabel()->text()));
    // Both variants side by side: a column each, every row holding nice's values.
    QTableWidget *t = compare->table();
    QCOMPARE(t->horizontalHeaderItem(4)->text(), QStringLiteral("base"));
    QCOMPARE(t->horizontalHeaderItem(5)->text(), QStringLiteral("nice"));
    QVERIFY(t->rowCount() > 0);
    for (int row = 0; row < t->rowCount(); ++row) {
        QCOMPARE(t->item(row, 3)->text(), QStringLiteral("nice"));
        QVERIFY(!t->item(row, 4)->text().isEmpty() && !t->item(row, 5)->text().isEmpty());
    }
    for (const QString &name : compare->cdfPlot()->curveNames())
        QVERIFY2(!name.endsWith(QStringLiteral("· ")), qPrintable(name));
    compare->setConsumer(QStringLiteral("wakeup"));
    compare->setPhase(QStringLiteral("massive_intr x1"));
    QCOMPARE(compare->cdfPlot()->curveNames(),
             (QStringList{QStringLiteral("base"), QStringLiteral("nice")}));
    QVERIFY(compare->ratioPlot()->pointCount() > 0);
    // Round by round: A's and B's value of each round, joined.
    QVERIFY(compare->roundPlot()->isVisible());
    QCOMPARE(compare->roundPlot()->pointsInRound(1), 2);
    QCOMPARE(compare->roundPlot()->pointsInRound(2), 2);
    QCOMPARE(compare->roundPlot()->joinCount(), 2);
    const QString caption = compare->screenshotCaptionText();
    QVERIFY2(
        caption.contains(QStringLiteral("base (as the system is) against nice (load_nice=5)")) &&
            caption.contains(QString::fromStdString(compare->headlines()[0])),
        qPrintable(caption));
    compare->close();
}

QTEST_MAIN(TestScenarioGui)
#include "tst_scenariogui.moc"
