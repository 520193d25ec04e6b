// The run library in the window: closing with a live run asks, each answer
// does what it says, and the Runs window lists, filters, deletes and
// compares what the library holds.

#include "comparewindow.h"
#include "livesession.h"
#include "mainwindow.h"
#include "runfile.h"
#include "runlibrary.h"
#include "runoptions.h"
#include "runswindow.h"
#include "scenariobar.h"
#include "statewait.h"
#include "whenmodal.h"
#include "windowparts.h"

#include <QAbstractButton>
#include <QAction>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <memory>

using namespace latprobe;
using namespace std::chrono_literals;

namespace {

SessionOptions wakeupOnly()
{
    SessionOptions o = defaultSessionOptions(RunFrontEnd::Window);
    std::erase_if(o.consumers,
                  [](const ConsumerConfig &c) { return c.role != ConsumerRole::Wakeup; });
    return o;
}

QStringList libraryFiles(const QString &dir)
{
    return QDir(dir).entryList({"latprobe-*.json"}, QDir::Files, QDir::Name);
}

// Presses the button of the modal message box whose text starts with `label`.
void answerWith(const QString &label)
{
    whenModal([label](QWidget *modal) {
        for (QAbstractButton *b : modal->findChildren<QAbstractButton *>())
            if (b->text().remove('&').startsWith(label)) {
                b->click();
                return;
            }
        modal->close();
    });
}

Run runOf(const std::string &kernel, const std::string &start, uint64_t audioMisses)
{
    Run run;
    run.version = "test";
    run.startTime = start;
    run.endReason = "completed";
    run.system.kernelRelease = kernel;
    run.system.scheduler = "eevdf";
    PhaseResult p;
    p.name = "idle";
    p.durationS = 20;
    ConsumerStats c;
    c.name = "audio";
    c.hasDeadline = true;
    c.samples = 3750;
    c.expected = 3750;
    c.misses = audioMisses;
    c.p99Us = 900;
    p.consumers.push_back(c);
    run.phases.push_back(p);
    return run;
}

Scenario shortScenario()
{
    Scenario s;
    s.name = "short";
    s.steps.push_back({"short step", 60, {}});
    return s;
}

// A window measuring wakeups, its run kept in `dir` and autosaved every 200 ms.
struct MeasuringWindow
{
    explicit MeasuringWindow(const QString &dir) : session(wakeupOnly()), window(session)
    {
        session.keepInLibrary(RunLibrary(dir.toStdString()), 200ms);
        window.show();
        session.start();
    }
    bool hasSamples() const
    {
        const Run run = session.view().snapshot("");
        return !run.phases.empty() && run.phases[0].consumers.at(0).samples > 0;
    }

    LiveSession session;
    MainWindow window;
};

} // namespace

class TestRunLibraryGui : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings(QStringLiteral("latprobe"), QStringLiteral("latprobe")).clear();
    }

    void init() { m_dir = std::make_unique<QTemporaryDir>(); }

    void closingWithALiveRunAsksAndKeepsIt()
    {
        MeasuringWindow w(m_dir->path());
        LiveSession &session = w.session;
        MainWindow &window = w.window;
        // Autosaved as it measures, marked as such.
        QTRY_VERIFY_WITH_TIMEOUT(!libraryFiles(m_dir->path()).isEmpty(), kStateWaitMs);
        const QString path = m_dir->filePath(libraryFiles(m_dir->path()).front());
        // The file appears (renamed into place) just before the autosaver
        // records where it is.
        QTRY_COMPARE_WITH_TIMEOUT(QString::fromStdString(session.view().keptPath()), path,
                                  kStateWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(readRunFile(path.toStdString()).endReason == "autosaved",
                                 kStateWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(w.hasSamples(), kStateWaitMs);

        answerWith(QStringLiteral("Keep in library"));
        QVERIFY(window.close());
        QVERIFY(!session.view().running());
        QCOMPARE(libraryFiles(m_dir->path()).size(), 1);
        const Run run = readRunFile(path.toStdString());
        QCOMPARE(run.endReason, std::string("completed"));
        QVERIFY(!run.partial);
        QVERIFY(run.phases.at(0).consumers.at(0).samples > 0);
    }

    void discardDeletesTheAutosave()
    {
        MeasuringWindow w(m_dir->path());
        LiveSession &session = w.session;
        MainWindow &window = w.window;
        QTRY_VERIFY_WITH_TIMEOUT(!libraryFiles(m_dir->path()).isEmpty(), kStateWaitMs);
        answerWith(QStringLiteral("Discard"));
        QVERIFY(window.close());
        QVERIFY(!session.view().running());
        QVERIFY(libraryFiles(m_dir->path()).isEmpty());
    }

    void goingOnMeasuringKeepsTheWindowOpen()
    {
        MeasuringWindow w(m_dir->path());
        LiveSession &session = w.session;
        MainWindow &window = w.window;
        QTRY_VERIFY_WITH_TIMEOUT(w.hasSamples(), kStateWaitMs);
        answerWith(QStringLiteral("Go on measuring"));
        QVERIFY(!window.close());
        QVERIFY(window.isVisible());
        QVERIFY(session.view().running());
        // A signal closes without asking, the run kept.
        window.closeKeepingRun();
        QVERIFY(!session.view().running());
        QTRY_COMPARE_WITH_TIMEOUT(libraryFiles(m_dir->path()).size(), 1, kStateWaitMs);
    }

    void aScenarioFromTheWindowStartsANewRun()
    {
        MeasuringWindow w(m_dir->path());
        QTRY_VERIFY_WITH_TIMEOUT(w.hasSamples(), kStateWaitMs);
        QSignalSpy closed(&w.window, &MainWindow::closedForNewRun);
        answerWith(QStringLiteral("New run"));
        QVERIFY(w.window.runScenario(shortScenario()));
        // This run ended, whole, in the library; the scenario waits for the
        // new window, and nothing of it played here.
        QCOMPARE(closed.count(), 1);
        QVERIFY(!w.window.isVisible());
        QVERIFY(!w.session.view().running());
        QVERIFY(w.window.nextRun().has_value());
        QCOMPARE(w.window.nextRun()->name, std::string("short"));
        const QStringList files = libraryFiles(m_dir->path());
        QCOMPARE(files.size(), 1);
        const Run run = readRunFile(m_dir->filePath(files.front()).toStdString());
        QCOMPARE(run.endReason, std::string("completed"));
        QVERIFY(!run.partial);
        QCOMPARE(run.phases.size(), size_t(1));
        QCOMPARE(run.phases.at(0).name, std::string("idle"));
        QVERIFY(run.phases.at(0).consumers.at(0).samples > 0);
    }

    void appendingPlaysTheScenarioInThisRun()
    {
        MeasuringWindow w(m_dir->path());
        QTRY_VERIFY_WITH_TIMEOUT(w.hasSamples(), kStateWaitMs);
        QSignalSpy closed(&w.window, &MainWindow::closedForNewRun);
        answerWith(QStringLiteral("Append to this run"));
        QVERIFY(w.window.runScenario(shortScenario()));
        QTRY_VERIFY_WITH_TIMEOUT(windowPart<ScenarioBar>(&w.window, "scenario-bar")->isVisible(),
                                 kStateWaitMs);
        QCOMPARE(closed.count(), 0);
        QVERIFY(!w.window.nextRun().has_value());
        QVERIFY(w.session.view().running());
        // Its step follows this run's first phase.
        QTRY_VERIFY_WITH_TIMEOUT(w.session.view().snapshot("").phases.size() >= 2, kStateWaitMs);
        QCOMPARE(w.session.view().snapshot("").phases.at(1).name, std::string("short step"));
        w.window.closeKeepingRun();
    }

    void cancellingPlaysNothing()
    {
        MeasuringWindow w(m_dir->path());
        QTRY_VERIFY_WITH_TIMEOUT(w.hasSamples(), kStateWaitMs);
        answerWith(QStringLiteral("Cancel"));
        QVERIFY(!w.window.runScenario(shortScenario()));
        QVERIFY(!w.session.view().scenarioRunning());
        QVERIFY(!w.window.nextRun().has_value());
        QVERIFY(w.session.view().running());
        w.window.closeKeepingRun();
    }

    void runsWindowListsFiltersComparesAndDeletes()
    {
        const RunLibrary library(m_dir->path().toStdString());
        std::string error;
        for (const Run &run : {runOf("6.18.44", "2026-11-01T10:00:00Z", 3),
                               runOf("6.19.0-rc1-bore", "2026-11-02T10:00:00Z", 40),
                               runOf("6.18.44", "2026-11-03T10:00:00Z", 5)})
            QVERIFY2(library.save(run, library.pathFor(run), error), error.c_str());
        RunsWindow runs(library);
        runs.show();
        QTableWidget *table = runs.table();
        QCOMPARE(table->rowCount(), 3);
        QCOMPARE(table->item(0, 1)->text(), QStringLiteral("6.18.44")); // newest first
        QCOMPARE(table->item(1, 1)->text(), QStringLiteral("6.19.0-rc1-bore"));
        QCOMPARE(table->item(1, 5)->text(), QStringLiteral("40"));
        QVERIFY(runs.summaryLabel()->text().startsWith(QStringLiteral("3 runs")));

        // Typing filters.
        QTest::keyClicks(runs.filterEdit(), QStringLiteral("bore"));
        int visible = 0;
        for (int r = 0; r < table->rowCount(); ++r)
            visible += table->isRowHidden(r) ? 0 : 1;
        QCOMPARE(visible, 1);
        runs.filterEdit()->clear();

        // Sorting by skips is by number, not text ("40" after "5").
        table->sortItems(5, Qt::AscendingOrder);
        QCOMPARE(table->item(2, 5)->text(), QStringLiteral("40"));

        // Two selected: compared, the first as the base.
        table->selectAll();
        QCOMPARE(runs.selectedFiles().size(), 3);
        QVERIFY(runs.compareAction()->isEnabled());
        QVERIFY(!runs.reportAction()->isEnabled());
        CompareWindow *compare = runs.compareSelected();
        QVERIFY(compare);
        QCOMPARE(compare->runCount(), 3);

        // One selected: its report.
        runs.selectFiles({QString::fromStdString(library.list().front().path)});
        QVERIFY(runs.reportAction()->isEnabled());
        QVERIFY2(runs.reportOfSelected().contains(QStringLiteral("6.18.44")),
                 qPrintable(runs.reportOfSelected()));

        // Deleted: gone from the folder and the table; the user's files stay.
        QFile mine(m_dir->filePath(QStringLiteral("notes.json")));
        QVERIFY(mine.open(QIODevice::WriteOnly));
        mine.close();
        QCOMPARE(runs.deleteSelected(false), 1);
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(libraryFiles(m_dir->path()).size(), 2);
        QVERIFY(mine.exists());
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
};

QTEST_MAIN(TestRunLibraryGui)
#include "tst_runlibrarygui.moc"
