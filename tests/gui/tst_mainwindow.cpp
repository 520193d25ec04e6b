// The main window offscreen, with the real probe and real load processes:
// what a user does (start a load, stop all, reset, screenshot, copy the
// report, save the run, export a plot) and what they must see.

#include "collector.h"
#include "countercard.h"
#include "counterpanel.h"
#include "darkpalette.h"
#include "latencyplot.h"
#include "livedata.h"
#include "livesession.h"
#include "loadkind.h"
#include "loadmanager.h"
#include "loadpanel.h"
#include "loadparamsdialog.h"
#include "mainwindow.h"
#include "messagebanner.h"
#include "missesplot.h"
#include "phasetable.h"
#include "preferencesdialog.h"
#include "procscan.h"
#include "realclock.h"
#include "runfile.h"
#include "runoptions.h"
#include "statewait.h"
#include "wakeuphistogram.h"
#include "whenmodal.h"
#include "windowparts.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QPushButton>
#include <QScrollBar>
#include <QSet>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QThread>
#include <QToolBar>

#include <csignal>
#include <memory>

using namespace latprobe;

namespace {

QString comm(pid_t pid)
{
    QFile f(QStringLiteral("/proc/%1/comm").arg(pid));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).trimmed() : QString();
}

int distinctColours(const QImage &image, const QRect &rect)
{
    QSet<QRgb> seen;
    for (int y = rect.top(); y <= rect.bottom(); y += 2)
        for (int x = rect.left(); x <= rect.right(); x += 2)
            seen.insert(image.pixel(x, y));
    return seen.size();
}

double meanLightness(const QImage &image)
{
    double sum = 0;
    int n = 0;
    for (int y = 0; y < image.height(); y += 4)
        for (int x = 0; x < image.width(); x += 4, ++n)
            sum += QColor(image.pixel(x, y)).lightness();
    return n ? sum / n : 0;
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void opensMeasuring();
    void countersRiseOnInjectedLateWakeup();
    void blockedEventLoopCountsAsGuiStall();
    void startMakesWorkersAndStopAllRemovesThem();
    void refusalIsAReadableMessage();
    void aTypedCountIsNeverClampedNorRememberedWhenRefused();
    void preferencesRaiseTheCap();
    void aFirstStartSaysWhatToDoOnceAndEveryButtonSaysWhatItIs();
    void helpHasTheManualAndTheShortcuts();
    void resetBeginsANewPhase();
    void screenshotHasItsCaption();
    void copyReportPutsTheReportOnTheClipboard();
    void saveRunWritesARunFile();
    void plotsExportToPngAndPdf();
    void plotsFollowThePalette();
    void plotsKeepAPointPerPixelAtMost();
    void settingsPersist();
    void paramsDialogOffersEveryParameter();

private:
    QTemporaryDir m_dir;
    std::unique_ptr<LiveSession> m_session;
    std::unique_ptr<MainWindow> m_window;
    LoadPanel *m_loads = nullptr;
    CounterPanel *m_counters = nullptr;
    LatencyPlot *m_latency = nullptr;
};

void TestMainWindow::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QStandardPaths::setTestModeEnabled(true);
    QSettings(QStringLiteral("latprobe"), QStringLiteral("latprobe")).clear();
    m_session = std::make_unique<LiveSession>(defaultSessionOptions(RunFrontEnd::Window));
    m_window = std::make_unique<MainWindow>(*m_session);
    m_loads = windowPart<LoadPanel>(m_window.get(), "load-panel");
    m_counters = windowPart<CounterPanel>(m_window.get(), "counter-panel");
    m_latency = windowPart<LatencyPlot>(m_window.get(), "latency-plot");
    m_window->resize(1280, 800);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_session->start();
    QVERIFY(m_session->view().running());
}

void TestMainWindow::cleanupTestCase()
{
    m_window->close();
    QVERIFY(!m_session->view().running());
    QCOMPARE(m_session->view().runningProcesses(), 0);
    m_window.reset();
    m_session.reset();
}

void TestMainWindow::opensMeasuring()
{
    QStringList names;
    for (const ConsumerConfig &c : m_session->view().configs())
        names << QString::fromStdString(c.name);
    QCOMPARE(names, (QStringList{"audio", "video", "wakeup", "gui", "start"}));
    QTest::qWait(1200);
    m_window->pollNow();
    const LiveData &data = m_session->data();
    for (size_t c = 0; c < data.consumerCount(); ++c)
        if (data.configs()[c].name != "start") // one sample a second; may not have landed
            QVERIFY2(!data.recent(c).empty(), data.configs()[c].name.c_str());
    QVERIFY(m_latency->pointCount(0) > 0);
    for (const char *key : {"audio", "video", "gui", "start", "p99", "max"}) {
        CounterCard *card = m_counters->card(QString::fromLatin1(key));
        QVERIFY2(card, key);
        QVERIFY2(!card->toolTip().isEmpty(), key); // every metric says what it means
    }
}

void TestMainWindow::countersRiseOnInjectedLateWakeup()
{
    m_window->pollNow();
    CounterCard *audio = m_counters->card(QStringLiteral("audio"));
    const uint64_t before = audio->valueText().toULongLong();
    // An audio cycle 50 ms late: its deadline missed and 3 more periods lost.
    const int index = m_session->view().consumerIndex(ConsumerRole::Audio);
    Sample s;
    s.woke = s.done = RealClock::monotonicNow();
    s.periodStart = s.woke - 50'000'000;
    s.missedDeadline = 1;
    s.periodsSkipped = 3;
    m_session->injectSample(static_cast<size_t>(index), s);
    // The bucket becomes final once a later one exists: give it 200 ms.
    QTest::qWait(250);
    m_window->pollNow();
    const uint64_t after = audio->valueText().toULongLong();
    QVERIFY2(after >= before + 4, qPrintable(QString("%1 -> %2").arg(before).arg(after)));
    QVERIFY(audio->windowText().contains(QStringLiteral("last 10 s")));
    QVERIFY(audio->isFlashing());
    const QString max = m_counters->card(QStringLiteral("max"))->valueText();
    QVERIFY2(max.endsWith(QStringLiteral(" ms")), qPrintable(max));
}

void TestMainWindow::blockedEventLoopCountsAsGuiStall()
{
    m_window->pollNow();
    CounterCard *gui = m_counters->card(QStringLiteral("gui"));
    const uint64_t before = gui->valueText().toULongLong();
    QThread::msleep(120); // this is the GUI thread: the event loop stops for 7 frames
    QTest::qWait(400);    // the tick, the collector's 50 ms drain, the next bucket
    m_window->pollNow();
    const uint64_t after = gui->valueText().toULongLong();
    QVERIFY2(after >= before + 1, qPrintable(QString("%1 -> %2").arg(before).arg(after)));
}

void TestMainWindow::startMakesWorkersAndStopAllRemovesThem()
{
    LoadPanel *panel = m_loads;
    QAction *stopAll = windowPart<QAction>(m_window.get(), "stop-all-loads");
    // Two light massive_intr workers: 1 ms of work, 10 ms of sleep.
    LoadChoice choice = panel->choice("massive_intr");
    choice.count = 2;
    choice.params["work_ms"] = 1;
    choice.params["sleep_ms"] = 10;
    panel->setChoice(choice);
    QCOMPARE(panel->countBox("massive_intr")->value(), 2);
    QTest::mouseClick(panel->startButton("massive_intr"), Qt::LeftButton);

    // The group is up once the window says so: Stop all becomes available.
    QTRY_VERIFY_WITH_TIMEOUT(stopAll->isEnabled(), 15000);
    QCOMPARE(m_session->view().loadStatus().size(), size_t(1));
    std::vector<pid_t> pids;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            pids.clear();
            const std::vector<GroupStatus> groups = m_session->view().loadStatus();
            for (const WorkerStatus &w : groups.front().workers)
                if (w.pid > 0)
                    pids.push_back(w.pid);
            return pids.size() == 2;
        }(),
        10000);
    for (pid_t pid : pids) {
        QVERIFY(!pidGone(pid));
        // Named once running (ps and top show the kind).
        QTRY_VERIFY2_WITH_TIMEOUT(comm(pid).startsWith(QStringLiteral("latprobe:mass")),
                                  qPrintable(comm(pid)), kStateWaitMs);
    }
    m_window->pollNow();
    QCOMPARE(panel->groupViewCount(), 1);
    QVERIFY(stopAll->isEnabled());
    QCOMPARE(QString::fromStdString(m_session->view().currentPhase().name),
             QStringLiteral("massive_intr x2"));
    QVERIFY(panel->startButton("massive_intr")->isEnabled()); // ready for another
    QTest::qWait(500); // samples in the loaded phase, so it stays a phase of its own

    stopAll->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(m_session->view().loadStatus().empty(), 5000);
    for (pid_t pid : pids)
        QTRY_VERIFY_WITH_TIMEOUT(pidGone(pid), 2000);
    QTRY_COMPARE_WITH_TIMEOUT(panel->groupViewCount(), 0, 2000);
    // The run's second idle phase, and named so.
    QTRY_COMPARE(QString::fromStdString(m_session->view().currentPhase().name),
                 QStringLiteral("idle 2"));
    // A labelled marker for the start and one for the stop, on each time plot.
    QVERIFY(m_latency->markerCount() >= 2);
    QVERIFY(windowPart<MissesPlot>(m_window.get(), "misses-plot")->markerCount() >= 2);
    // The phases the run went through, as the report will show them.
    QTest::qWait(1100);
    m_window->pollNow();
    PhaseTable *table = windowPart<PhaseTable>(m_window.get(), "phase-table");
    QVERIFY2(table->topLevelItemCount() >= 3,
             qPrintable(QString::number(table->topLevelItemCount())));
    bool seen = false;
    for (int i = 0; i < table->topLevelItemCount(); ++i)
        seen |= table->topLevelItem(i)->text(0).contains(QStringLiteral("massive_intr x2"));
    QVERIFY(seen);
    if (qEnvironmentVariableIsSet("LATPROBE_TEST_GRAB"))
        table->grab().save(qEnvironmentVariable("LATPROBE_TEST_GRAB"));
}

void TestMainWindow::refusalIsAReadableMessage()
{
    LoadPanel *panel = m_loads;
    LoadChoice choice = panel->choice("burn");
    choice.count = 4000; // over the 2048-process cap: refused before anything starts
    panel->setChoice(choice);
    QTest::mouseClick(panel->startButton("burn"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(panel->banner()->isVisible(), 5000);
    const QString text = panel->banner()->text();
    QVERIFY2(text.contains(QStringLiteral("burn")) && text.contains(QStringLiteral("cap")),
             qPrintable(text));
    QVERIFY(!text.contains(QStringLiteral("[error]"))); // a sentence, not a log line
    QTRY_VERIFY(panel->startButton("burn")->isEnabled());
    QVERIFY(m_session->view().loadStatus().empty());
    choice.count = 1;
    panel->setChoice(choice);
}

void TestMainWindow::aTypedCountIsNeverClampedNorRememberedWhenRefused()
{
    LoadPanel *panel = m_loads;
    QSpinBox *count = panel->countBox("burn");
    count->setFocus();
    count->selectAll();
    QTest::keyClicks(count, QStringLiteral("100000"));
    QCOMPARE(count->value(), 100000); // as typed: no silent 1000 or 4096
    QTest::mouseClick(panel->startButton("burn"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(panel->banner()->isVisible() &&
                                 panel->banner()->text().contains(QStringLiteral("100000")),
                             kStateWaitMs);
    const QString text = panel->banner()->text();
    // The limit, and how to change it from the window.
    QVERIFY2(text.contains(QStringLiteral("the cap is 2048")) &&
                 text.contains(QStringLiteral("Preferences")),
             qPrintable(text));
    QTRY_VERIFY(panel->startButton("burn")->isEnabled());
    QCOMPARE(count->value(), 100000); // still there to correct
    // Not what the next launch pre-fills.
    QSettings settings(QStringLiteral("latprobe-test"), QStringLiteral("remembered"));
    panel->saveSettings(settings);
    settings.sync();
    LoadPanel fresh(*m_session);
    fresh.loadSettings(settings);
    QVERIFY2(fresh.countBox("burn")->value() < 100000,
             qPrintable(QString::number(fresh.countBox("burn")->value())));
    settings.clear();
    count->setValue(1);
}

void TestMainWindow::preferencesRaiseTheCap()
{
    QCOMPARE(m_session->view().limits().maxProcesses, 2048);
    whenModal([](QWidget *modal) {
        auto *dialog = qobject_cast<PreferencesDialog *>(modal);
        QVERIFY(dialog);
        dialog->maxLoadProcessesBox()->setValue(3000);
        dialog->accept();
    });
    windowPart<QAction>(m_window.get(), "preferences")->trigger();
    QCOMPARE(m_session->view().limits().maxProcesses, 3000);
    QCOMPARE(QSettings(QStringLiteral("latprobe"), QStringLiteral("latprobe"))
                 .value(QLatin1String(PreferencesDialog::kMaxProcessesKey))
                 .toInt(),
             3000);
    m_window->applyPreferences(2048);
    QCOMPARE(m_session->view().limits().maxProcesses, 2048);

    // Saving traces is the next window's: kept in the settings that
    // latprobe-gui reads at its start, off until asked for.
    const QString traceKey = QLatin1String(PreferencesDialog::kSaveTracesKey);
    QSettings settings(QStringLiteral("latprobe"), QStringLiteral("latprobe"));
    QVERIFY(!settings.value(traceKey, false).toBool());
    whenModal([](QWidget *modal) {
        auto *dialog = qobject_cast<PreferencesDialog *>(modal);
        QVERIFY(dialog && !dialog->saveTracesBox()->isChecked());
        dialog->saveTracesBox()->setChecked(true);
        dialog->accept();
    });
    windowPart<QAction>(m_window.get(), "preferences")->trigger();
    settings.sync();
    QVERIFY(settings.value(traceKey, false).toBool());
    QVERIFY(m_window->statusBar()->currentMessage().contains("next window"));
    settings.remove(traceKey);
}

void TestMainWindow::aFirstStartSaysWhatToDoOnceAndEveryButtonSaysWhatItIs()
{
    // The first window this user opens (the settings were cleared) says
    // what to do; the next one does not.
    const MessageBanner *banner = windowPart<MessageBanner>(m_window.get(), "first-start-hint");
    QVERIFY(banner->isVisible());
    const QString hint = banner->text();
    QVERIFY2(hint.contains(QStringLiteral("Start a load")) &&
                 hint.contains(QStringLiteral("Scenario ▸ quick")) &&
                 hint.contains(QStringLiteral("Getting started")),
             qPrintable(hint));
    {
        MainWindow second(*m_session);
        QVERIFY(!windowPart<MessageBanner>(&second, "first-start-hint")->isVisibleTo(&second));
    }
    // Every toolbar button and counter card says what it does or counts.
    for (QAction *a : m_window->findChild<QToolBar *>(QStringLiteral("mainToolBar"))->actions())
        if (!a->isSeparator())
            QVERIFY2(a->toolTip().size() > a->text().size() + 10, qPrintable(a->text()));
    const QList<CounterCard *> cards = m_counters->findChildren<CounterCard *>();
    QVERIFY(cards.size() >= 5);
    for (const CounterCard *card : cards)
        QVERIFY2(card->toolTip().size() > 20, qPrintable(card->objectName()));
    // Help ▸ Getting started opens the manual at the README's quick start.
    auto *started = m_window->findChild<QAction *>(QStringLiteral("help-getting-started"));
    QVERIFY(started);
    started->trigger();
    auto *text = m_window->findChild<QTextBrowser *>(QStringLiteral("manual"));
    QVERIFY(text);
    const auto top = [text] { return text->cursorForPosition(QPoint(10, 10)).block().text(); };
    QTRY_VERIFY2(top().contains(QStringLiteral("Quick start")), qPrintable(top()));
    text->window()->close(); // deleted on close
    QTRY_VERIFY(!m_window->findChild<QTextBrowser *>(QStringLiteral("manual")));
}

void TestMainWindow::helpHasTheManualAndTheShortcuts()
{
    auto *manual = m_window->findChild<QAction *>(QStringLiteral("help-manual"));
    auto *keys = m_window->findChild<QAction *>(QStringLiteral("help-shortcuts"));
    QVERIFY(manual && keys);
    manual->trigger();
    auto *text = m_window->findChild<QTextBrowser *>(QStringLiteral("manual"));
    QVERIFY(text);
    // The README's consumer table, with what a stall and a slow start are.
    const QString plain = text->toPlainText();
    QVERIFY2(plain.contains(QStringLiteral("a stall")) &&
                 plain.contains(QStringLiteral("a slow start")),
             qPrintable(plain.left(400)));
    text->window()->close();
    keys->trigger();
    auto *table = m_window->findChild<QTableWidget *>(QStringLiteral("shortcuts"));
    QVERIFY(table);
    QStringList rows;
    for (int r = 0; r < table->rowCount(); ++r)
        rows << table->item(r, 0)->text() + QLatin1Char(' ') + table->item(r, 1)->text();
    QVERIFY2(rows.contains(QStringLiteral("Ctrl+Shift+X Stop all loads")) &&
                 rows.contains(QStringLiteral("Ctrl+L Run library")),
             qPrintable(rows.join(QLatin1String(" | "))));
    table->window()->close();
}

void TestMainWindow::resetBeginsANewPhase()
{
    QTest::qWait(300);
    m_window->pollNow();
    const size_t phasesBefore = m_session->data().phases().size();
    windowPart<QAction>(m_window.get(), "reset-counters")->trigger();
    QCOMPARE(
        m_session->data().missesSinceReset(m_session->view().consumerIndex(ConsumerRole::Audio)),
        0u);
    QCOMPARE(m_counters->card(QStringLiteral("audio"))->windowText(),
             QStringLiteral("last 10 s: 0"));
    QTest::qWait(400);
    m_window->pollNow();
    QCOMPARE(m_session->data().phases().size(), phasesBefore + 1);
    // The earlier phases are still in the run, greyed in the table.
    const PhaseTable *table = windowPart<PhaseTable>(m_window.get(), "phase-table");
    QCOMPARE(table->topLevelItemCount(), static_cast<int>(phasesBefore + 1));
    QVERIFY(table->topLevelItem(0)->data(0, Qt::ForegroundRole).isValid());
    QVERIFY(!table->topLevelItem(table->topLevelItemCount() - 1)
                 ->data(0, Qt::ForegroundRole)
                 .isValid());
}

void TestMainWindow::screenshotHasItsCaption()
{
    int strip = 0;
    const QImage image = m_window->screenshotImage(&strip);
    QVERIFY(!image.isNull());
    QVERIFY(strip >= 20);
    const qreal dpr = image.devicePixelRatio();
    QCOMPARE(qRound(image.width() / dpr), m_window->width());
    QCOMPARE(qRound(image.height() / dpr), m_window->height() + strip);
    // The window part is a picture, not a blank.
    QVERIFY(distinctColours(image, QRect(0, 0, image.width(), image.height() - strip * dpr)) > 50);
    // The caption strip: its own background, with text on it.
    const QRect captionRect(0, image.height() - strip * dpr, image.width(), strip * dpr);
    QVERIFY(distinctColours(image, captionRect) > 2);
    const QColor stripBackground = m_window->palette().color(QPalette::AlternateBase);
    QCOMPARE(QColor(image.pixel(1, image.height() - 2)), stripBackground);
    QVERIFY(QColor(image.pixel(1, image.height() - 2)) !=
            QColor(image.pixel(1, image.height() - strip * dpr - 4)));

    const QString path = m_window->saveScreenshot(m_dir.path());
    QVERIFY(!path.isEmpty());
    QVERIFY(path.endsWith(QStringLiteral(".png")));
    const QImage saved(path);
    // The window and a caption strip of its own: the run goes on between
    // the two shots, and on a busy machine a miss explained meanwhile adds
    // the caption's "who delayed" line.
    QCOMPARE(saved.width(), image.width());
    QVERIFY(qRound(saved.height() / dpr) >= m_window->height() + 20);
    QVERIFY(!QGuiApplication::clipboard()->image().isNull());
    QCOMPARE(windowPart<QAction>(m_window.get(), "screenshot")->shortcut(),
             QKeySequence(QStringLiteral("Ctrl+Shift+S")));
}

void TestMainWindow::copyReportPutsTheReportOnTheClipboard()
{
    QGuiApplication::clipboard()->clear();
    windowPart<QAction>(m_window.get(), "copy-report")->trigger();
    const QString text = QGuiApplication::clipboard()->text();
    QVERIFY(text.startsWith(QStringLiteral("latprobe ")));
    QVERIFY(text.contains(QStringLiteral("phase 1/")));
    QVERIFY(text.contains(QStringLiteral("massive_intr x2"))); // the load it ran
    QVERIFY(text.contains(QStringLiteral("\ngui ")));          // the gui consumer's row
}

void TestMainWindow::saveRunWritesARunFile()
{
    const QString path = m_dir.filePath(QStringLiteral("run.json"));
    QString error;
    QVERIFY2(m_window->saveRun(path, &error), qPrintable(error));
    const Run run = readRunFile(path.toStdString());
    QCOMPARE(run.consumers.size(), size_t(5));
    QCOMPARE(QString::fromStdString(run.consumers[3].config.name), QStringLiteral("gui"));
    QVERIFY(run.phases.size() >= 3);
    QCOMPARE(run.loads.size(), size_t(1));
    QCOMPARE(QString::fromStdString(run.loads[0].label), QStringLiteral("massive_intr x2"));
}

void TestMainWindow::plotsExportToPngAndPdf()
{
    for (const char *name : {"latency-plot", "misses-plot", "wakeup-histogram"}) {
        PlotPanel *plot = windowPart<PlotPanel>(m_window.get(), name);
        const QString png = m_dir.filePath(plot->exportName() + QStringLiteral(".png"));
        const QString pdf = m_dir.filePath(plot->exportName() + QStringLiteral(".pdf"));
        QVERIFY(plot->exportPng(png));
        QVERIFY(plot->exportPdf(pdf));
        QVERIFY(QFileInfo(png).size() > 2000);
        QVERIFY(QFileInfo(pdf).size() > 2000);
        const QImage image(png);
        QCOMPARE(image.width(), plot->width() * 2); // twice the screen's resolution
    }
}

void TestMainWindow::plotsFollowThePalette()
{
    m_window->pollNow();
    QCoreApplication::sendPostedEvents();
    const double light = meanLightness(m_latency->grab().toImage());
    const QPalette original = m_window->palette();
    m_window->setPalette(darkPalette());
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    const double dark = meanLightness(m_latency->grab().toImage());
    QVERIFY2(light > 180 && dark < 80, qPrintable(QString("%1 %2").arg(light).arg(dark)));
    m_window->setPalette(original);
    QCoreApplication::processEvents();
}

void TestMainWindow::plotsKeepAPointPerPixelAtMost()
{
    // 60 s at 100 ms: 600 points (and one bucket of margin either side).
    for (size_t c = 0; c < 3; ++c)
        QVERIFY(m_latency->pointCount(c) <= 620);
    QVERIFY(m_latency->replotCount() > 0);
}

void TestMainWindow::settingsPersist()
{
    LoadChoice choice = m_loads->choice("ocbench");
    choice.count = 7;
    choice.params["run_us"] = 12345;
    m_loads->setChoice(choice);
    QSettings settings(QStringLiteral("latprobe"), QStringLiteral("latprobe"));
    m_loads->saveSettings(settings);
    choice.count = 1;
    m_loads->setChoice(choice);
    m_loads->loadSettings(settings);
    const LoadChoice back = m_loads->choice("ocbench");
    QCOMPARE(back.count, 7);
    QCOMPARE(back.params.at("run_us"), 12345.0);
}

void TestMainWindow::paramsDialogOffersEveryParameter()
{
    const LoadKind *kind = findLoadKind("hackbench");
    QVERIFY(kind);
    LoadChoice choice = LoadChoice::defaults(*kind);
    LoadParamsDialog dialog(*kind, choice, m_window.get());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    if (qEnvironmentVariableIsSet("LATPROBE_TEST_GRAB"))
        dialog.grab().save(qEnvironmentVariable("LATPROBE_TEST_GRAB") +
                           QStringLiteral(".dialog.png"));
    QStringList keys;
    for (QDoubleSpinBox *box : dialog.findChildren<QDoubleSpinBox *>()) {
        keys << box->accessibleName();
        QVERIFY(!box->toolTip().isEmpty());
        if (box->accessibleName() == QLatin1String("fds"))
            box->setValue(5);
    }
    keys.sort();
    QCOMPARE(keys, (QStringList{"fds", "size", "sockets"}));
    const QList<QComboBox *> combos = dialog.findChildren<QComboBox *>();
    QCOMPARE(combos.size(), 2); // policy, session
    combos[0]->setCurrentIndex(combos[0]->findData(QStringLiteral("batch")));
    dialog.accept();
    const LoadChoice edited = dialog.choice();
    QCOMPARE(edited.params.at("fds"), 5.0);
    QCOMPARE(edited.policy, QStringLiteral("batch"));
    QVERIFY(edited.specText().contains(QStringLiteral(":policy=batch")));
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
