#include "mainwindow.h"

#include "commandconsentdialog.h"
#include "comparewindow.h"
#include "counterpanel.h"
#include "helpdialogs.h"
#include "latencyplot.h"
#include "livedata.h"
#include "livesession.h"
#include "loadmanager.h"
#include "loadpanel.h"
#include "messagebanner.h"
#include "missesplot.h"
#include "phasetable.h"
#include "preferencesdialog.h"
#include "realclock.h"
#include "report.h"
#include "runfile.h"
#include "runsaving.h"
#include "runswindow.h"
#include "scenario.h"
#include "scenariobar.h"
#include "scenarioflow.h"
#include "screenshot.h"
#include "selfexe.h"
#include "topdelayers.h"
#include "variantcompare.h"
#include "version.h"
#include "wakeuphistogram.h"
#include "whodelayeddialog.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QGuiApplication>
#include <QIcon>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

namespace latprobe {

namespace {

QSettings appSettings()
{
    return QSettings(QStringLiteral("latprobe"), QStringLiteral("latprobe"));
}

QString stamp()
{
    return QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
}

} // namespace

MainWindow::MainWindow(LiveSession &session, QWidget *parent)
    : QMainWindow(parent), m_session(session)
{
    setWindowTitle(tr("latprobe — desktop latency probe"));
    QIcon fallback;
    for (int size : {16, 32, 48, 64, 128, 256})
        fallback.addFile(QStringLiteral(":/latprobe/icons/latprobe-%1.png").arg(size));
    setWindowIcon(QIcon::fromTheme(QStringLiteral("latprobe"), fallback));
    buildActions();
    buildMenus();
    buildLayout();
    buildStatusBar();
    m_scenarios = new ScenarioFlow(m_session, this, menuBar(),
                                   {m_loadPanel, m_scenarioBar, m_reset, m_stopAll, statusBar()});
    connect(m_scenarios, &ScenarioFlow::newRunWanted, this, &MainWindow::closeForNewRun);
    buildHelpMenu();

    m_fineTimer = new QTimer(this);
    m_fineTimer->setInterval(kFineTickMs);
    connect(m_fineTimer, &QTimer::timeout, this, &MainWindow::onFineTick);
    m_counterTimer = new QTimer(this);
    m_counterTimer->setInterval(250);
    connect(m_counterTimer, &QTimer::timeout, this, &MainWindow::onCounterTick);
    m_loadTimer = new QTimer(this);
    m_loadTimer->setInterval(500);
    connect(m_loadTimer, &QTimer::timeout, this, &MainWindow::onLoadTick);

    connect(&m_session, &LiveSession::markersChanged, this, [this] {
        m_latency->setMarkers(m_session.markers());
        m_misses->setMarkers(m_session.markers());
    });
    connect(&m_session, &LiveSession::phaseBegun, this, &MainWindow::updatePhaseLabel);
    connect(&m_session, &LiveSession::stateCaptured, this, [this](const QString &reason) {
        statusBar()->showMessage(tr("System state captured (%1): it is in the run and the "
                                    "report")
                                     .arg(reason),
                                 4000);
    });
    connect(&m_session, &LiveSession::loadsChanged, this, [this] {
        m_stopAll->setEnabled(m_session.view().scenarioRunning() ||
                              !m_session.view().activeLabels().empty());
    });
    connect(&m_session, &LiveSession::loadRefused, this,
            [this](const QString &kind, const QString &) {
                statusBar()->showMessage(
                    tr("%1 was not started: see the message above the loads").arg(kind), 5000);
            });
    readSettings();
    showFirstStartHint();
    // The window may come up before the probe starts (so that building and
    // first painting it do not land in the idle baseline).
    if (m_session.view().running())
        onSessionStarted();
    else
        connect(&m_session, &LiveSession::started, this, &MainWindow::onSessionStarted);
}

// Once per user: a first window is a page of zeros until a load starts.
void MainWindow::showFirstStartHint()
{
    QSettings settings = appSettings();
    if (settings.value(QStringLiteral("hints/firstStartShown"), false).toBool())
        return;
    settings.setValue(QStringLiteral("hints/firstStartShown"), true);
    m_hint->showMessage(
        tr("New here? Start a load on the left (burn ×4, say) and watch the counters above: "
           "audio skips and dropped frames are deadlines this desktop missed. Or play "
           "Scenario ▸ quick: idle and four loads, with a verdict. Help ▸ Getting started "
           "shows what good and bad look like."),
        MessageBanner::Information);
}

void MainWindow::onSessionStarted()
{
    m_counters->setResetTime(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")));
    const std::vector<ConsumerSetup> setups = m_session.view().setups();
    QStringList warnings, explained; // the status bar's short text, the tooltip's long one
    if (!setups.empty()) {
        const ThreadGrant &g = setups.front().grant;
        QString policy = QString::fromLatin1(toString(g.policy));
        policy += g.policy == SchedPolicy::Fifo || g.policy == SchedPolicy::RoundRobin
                      ? tr(" prio %1").arg(g.priority)
                      : tr(" nice %1").arg(g.nice);
        m_probeLabel->setText(tr("probe %1 · timer slack %2 µs")
                                  .arg(policy)
                                  .arg(static_cast<double>(g.timerSlackNs) / 1000.0));
        for (const ConsumerSetup &c : setups)
            if (!c.grant.refusal.empty()) {
                const QString refusal = QString::fromStdString(c.grant.refusal);
                warnings << tr("less than asked: %1").arg(refusal);
                explained << tr("The probe runs with less than was asked: %1. Its numbers are "
                                "those of what it got.")
                                 .arg(refusal);
                break;
            }
    }
    const std::string binary = m_session.view().workerBinary();
    if (binary.size() >= 13 && binary.compare(binary.size() - 13, 13, "/latprobe-gui") == 0) {
        warnings << tr("latprobe not found beside latprobe-gui");
        explained << tr("Load workers and start probes run latprobe-gui itself, because the "
                        "latprobe binary was not found beside it: every process start includes "
                        "loading Qt. Set LATPROBE_BINARY or start the GUI as 'latprobe'.");
    }
    if (!warnings.isEmpty()) {
        m_warningLabel->setText(QStringLiteral("⚠ ") + warnings.join(QStringLiteral("; ")));
        m_warningLabel->setToolTip(explained.join(QStringLiteral("\n\n")));
        m_warningLabel->setVisible(true);
    }
    updatePhaseLabel();
    m_fineTimer->start();
    m_counterTimer->start();
    m_loadTimer->start();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildActions()
{
    m_screenshot =
        new QAction(style()->standardIcon(QStyle::SP_DesktopIcon), tr("Sc&reenshot"), this);
    m_screenshot->setObjectName(QStringLiteral("screenshot"));
    m_screenshot->setShortcut(QKeySequence(tr("Ctrl+Shift+S")));
    m_screenshot->setToolTip(tr("Save a PNG of this window with a caption (version, kernel, CPUs, "
                                "scheduler, loads, time) and copy it to the clipboard "
                                "(Ctrl+Shift+S)"));
    connect(m_screenshot, &QAction::triggered, this, [this] { saveScreenshot(); });

    m_copyReport = new QAction(style()->standardIcon(QStyle::SP_FileDialogDetailedView),
                               tr("&Copy report"), this);
    m_copyReport->setObjectName(QStringLiteral("copy-report"));
    m_copyReport->setShortcut(QKeySequence(tr("Ctrl+Shift+C")));
    m_copyReport->setToolTip(tr("Put the plain-text report of the run so far on the clipboard, "
                                "72 columns for a mailing-list post (Ctrl+Shift+C)"));
    connect(m_copyReport, &QAction::triggered, this, &MainWindow::copyReport);

    m_saveRun =
        new QAction(style()->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save run…"), this);
    m_saveRun->setObjectName(QStringLiteral("save-run"));
    m_saveRun->setShortcut(QKeySequence::Save);
    m_saveRun->setToolTip(tr("Write the run so far to a JSON run file, for 'latprobe report' "
                             "and 'latprobe compare' (Ctrl+S)"));
    connect(m_saveRun, &QAction::triggered, this, &MainWindow::saveRunInteractively);

    m_reset =
        new QAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("&Reset counters"), this);
    m_reset->setObjectName(QStringLiteral("reset-counters"));
    m_reset->setShortcut(QKeySequence(tr("Ctrl+R")));
    m_reset->setToolTip(tr("Count from zero: begins a new phase; earlier phases stay in the "
                           "report (Ctrl+R)"));
    connect(m_reset, &QAction::triggered, this, &MainWindow::onReset);

    m_stopAll =
        new QAction(style()->standardIcon(QStyle::SP_BrowserStop), tr("S&top all loads"), this);
    m_stopAll->setObjectName(QStringLiteral("stop-all-loads"));
    m_stopAll->setShortcut(QKeySequence(tr("Ctrl+Shift+X")));
    m_stopAll->setShortcutContext(Qt::ApplicationShortcut);
    m_stopAll->setToolTip(tr("Kill every load worker at once (Ctrl+Shift+X)"));
    m_stopAll->setEnabled(false);
    connect(m_stopAll, &QAction::triggered, this, [this] {
        m_stopAll->setEnabled(false);
        m_loadPanel->stopAll();
    });

    m_capture = new QAction(tr("&Capture system state"), this);
    m_capture->setObjectName(QStringLiteral("capture-state"));
    m_capture->setShortcut(QKeySequence(tr("Ctrl+Shift+D")));
    m_capture->setToolTip(tr("Record the scheduler's debug file, schedstat, loadavg and the "
                             "busiest processes into the run now (also done automatically at "
                             "each phase's first miss)"));
    connect(m_capture, &QAction::triggered, this, [this] { m_session.captureNow(); });

    m_compare = new QAction(tr("Co&mpare runs…"), this);
    m_compare->setObjectName(QStringLiteral("compare-runs"));
    m_compare->setShortcut(QKeySequence(tr("Ctrl+Shift+M")));
    m_compare->setToolTip(tr("Open saved runs (or cyclictest JSON) side by side: overlaid "
                             "latency distributions and the table of 'latprobe compare'"));
    connect(m_compare, &QAction::triggered, this, &MainWindow::openCompareInteractively);

    m_runLibrary = new QAction(tr("Run &library…"), this);
    m_runLibrary->setObjectName(QStringLiteral("run-library"));
    m_runLibrary->setShortcut(QKeySequence(tr("Ctrl+L")));
    m_runLibrary->setToolTip(tr("Every run latprobe kept (this window's too, autosaved as it "
                                "measures): reports, comparisons, deleting (Ctrl+L)"));
    connect(m_runLibrary, &QAction::triggered, this, &MainWindow::openRunLibrary);

    m_preferences = new QAction(tr("&Preferences…"), this);
    m_preferences->setObjectName(QStringLiteral("preferences"));
    m_preferences->setShortcut(QKeySequence(tr("Ctrl+,")));
    m_preferences->setToolTip(tr("The cap on load processes at once, kept for next time"));
    connect(m_preferences, &QAction::triggered, this, &MainWindow::openPreferences);

    m_quit = new QAction(tr("&Quit"), this);
    m_quit->setObjectName(QStringLiteral("quit"));
    m_quit->setShortcut(QKeySequence::Quit);
    connect(m_quit, &QAction::triggered, this, &QWidget::close);
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_saveRun);
    file->addAction(m_copyReport);
    file->addAction(m_screenshot);
    file->addSeparator();
    file->addAction(m_compare);
    file->addAction(m_runLibrary);
    file->addSeparator();
    file->addAction(m_quit);
    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_preferences);
    QMenu *measure = menuBar()->addMenu(tr("&Measure"));
    measure->addAction(m_reset);
    measure->addAction(m_stopAll);
    measure->addSeparator();
    measure->addAction(m_capture);
}

void MainWindow::buildHelpMenu()
{
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *started = help->addAction(tr("&Getting started"), this,
                                       [this] { showManual(this, QStringLiteral("Quick start")); });
    started->setObjectName(QStringLiteral("help-getting-started"));
    started->setToolTip(tr("Three tasks, each with what you will see: how this desktop holds up "
                           "under load, two kernels compared, an A/B of a setting"));
    QAction *manual = help->addAction(tr("&Manual"), this, [this] { showManual(this); });
    manual->setShortcut(QKeySequence::HelpContents);
    manual->setObjectName(QStringLiteral("help-manual"));
    QAction *keys = help->addAction(tr("&Keyboard shortcuts"), this,
                                    [this] { showShortcuts(this, findChildren<QAction *>()); });
    keys->setObjectName(QStringLiteral("help-shortcuts"));
    help->addSeparator();
    help->addAction(tr("&About latprobe"), this, [this] {
        QMessageBox::about(
            this, tr("About latprobe"),
            tr("<b>latprobe %1</b><p>A desktop interactivity latency probe for Linux: "
               "simulated audio and video players, cyclictest-style wakeups, this window's own "
               "event loop and process starts, measured while you start loads.</p>"
               "<p>Headless: <tt>latprobe run</tt>, <tt>latprobe report</tt>, <tt>latprobe "
               "compare</tt>.</p>")
                .arg(QString::fromLatin1(kVersion)));
    });

    QToolBar *bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(m_screenshot);
    bar->addAction(m_copyReport);
    bar->addAction(m_saveRun);
    bar->addSeparator();
    bar->addAction(m_stopAll);
}

void MainWindow::buildLayout()
{
    const std::vector<ConsumerConfig> consumers = m_session.view().configs();
    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->setSpacing(6);

    m_hint = new MessageBanner(central);
    m_hint->setObjectName(QStringLiteral("first-start-hint"));
    m_hint->hide();
    layout->addWidget(m_hint);
    m_counters = new CounterPanel(consumers, central);
    m_counters->setObjectName(QStringLiteral("counter-panel"));
    connect(m_counters, &CounterPanel::resetRequested, this, &MainWindow::onReset);
    layout->addWidget(m_counters);
    m_scenarioBar = new ScenarioBar(central);
    m_scenarioBar->setObjectName(QStringLiteral("scenario-bar"));
    layout->addWidget(m_scenarioBar);

    m_mainSplitter = new QSplitter(Qt::Horizontal, central);
    m_mainSplitter->setObjectName(QStringLiteral("mainSplitter"));
    m_leftSplitter = new QSplitter(Qt::Vertical, m_mainSplitter);
    m_leftSplitter->setObjectName(QStringLiteral("leftSplitter"));
    m_loadPanel = new LoadPanel(m_session, m_leftSplitter);
    m_loadPanel->setObjectName(QStringLiteral("load-panel"));
    m_phases = new PhaseTable(m_leftSplitter);
    m_phases->setObjectName(QStringLiteral("phase-table"));
    // Room beyond the load table and one running group goes to the phases
    // as much as to the running groups: a ramp has a dozen phases.
    m_leftSplitter->setStretchFactor(0, 1);
    m_leftSplitter->setStretchFactor(1, 1);

    m_plotSplitter = new QSplitter(Qt::Vertical, m_mainSplitter);
    m_plotSplitter->setObjectName(QStringLiteral("plotSplitter"));
    m_latency = new LatencyPlot(consumers, m_plotSplitter);
    m_latency->setObjectName(QStringLiteral("latency-plot"));
    m_bottomSplitter = new QSplitter(Qt::Horizontal, m_plotSplitter);
    m_bottomSplitter->setObjectName(QStringLiteral("bottomSplitter"));
    m_misses = new MissesPlot(consumers, m_bottomSplitter);
    m_misses->setObjectName(QStringLiteral("misses-plot"));
    connect(m_misses, &MissesPlot::clickedAt, this, &MainWindow::explainMissesAt);
    m_histogram = new WakeupHistogram(m_bottomSplitter);
    m_histogram->setObjectName(QStringLiteral("wakeup-histogram"));
    m_bottomSplitter->setStretchFactor(0, 1);
    m_bottomSplitter->setStretchFactor(1, 1);
    m_plotSplitter->setStretchFactor(0, 3);
    m_plotSplitter->setStretchFactor(1, 2);
    m_mainSplitter->setStretchFactor(0, 0);
    m_mainSplitter->setStretchFactor(1, 1);
    for (QSplitter *s : {m_mainSplitter, m_leftSplitter, m_plotSplitter, m_bottomSplitter})
        s->setChildrenCollapsible(false);
    for (QWidget *w : std::initializer_list<QWidget *>{m_latency, m_misses, m_histogram})
        w->setMinimumSize(220, 150);
    layout->addWidget(m_mainSplitter, 1);
    setCentralWidget(central);
}

void MainWindow::buildStatusBar()
{
    const SystemInfo &s = m_session.view().system();
    m_systemLabel = new QLabel(this);
    m_systemLabel->setText(
        tr("Linux %1 · %2 CPUs · %3 · HZ %4")
            .arg(QString::fromStdString(s.kernelRelease))
            .arg(s.cpuCount)
            .arg(QString::fromStdString(s.scheduler), QString::fromStdString(s.hz)));
    m_systemLabel->setToolTip(
        tr("Kernel %1 (%2)\nCPU: %3\npreemption %4, autogroup %5, "
           "governor %6, virtualization %7")
            .arg(QString::fromStdString(s.kernelRelease), QString::fromStdString(s.kernelVersion),
                 QString::fromStdString(s.cpuModel), QString::fromStdString(s.preemption),
                 QString::fromStdString(s.autogroup), QString::fromStdString(s.governor),
                 QString::fromStdString(s.virtualization)));

    m_probeLabel = new QLabel(tr("probe starting…"), this);
    m_probeLabel->setToolTip(tr("What the kernel granted the measuring threads: scheduling "
                                "policy, nice and timer slack (SCHED_OTHER's default slack "
                                "of 50 µs delays every wakeup by up to that much)."));
    m_warningLabel = new QLabel(this);
    m_warningLabel->setVisible(false);
    QPalette warnPalette = m_warningLabel->palette();
    warnPalette.setColor(QPalette::WindowText, QColor(0xd0, 0x40, 0x30));
    m_warningLabel->setPalette(warnPalette);
    m_phaseLabel = new QLabel(this);
    m_phaseLabel->setToolTip(tr("The current phase of the run: a stretch with one set of loads. "
                                "The report has a table per phase."));
    statusBar()->addWidget(m_systemLabel);
    statusBar()->addWidget(m_probeLabel);
    statusBar()->addWidget(m_warningLabel, 1);
    statusBar()->addPermanentWidget(m_phaseLabel);
}

void MainWindow::onFineTick()
{
    if (!m_session.view().running())
        return;
    LiveData &live = m_session.data();
    const int64_t now = RealClock::monotonicNow();
    live.pollFine(now);
    // A full replot of a sliding plot is most of the window's cost: the
    // latency plot and the per-second bars at 2.5 Hz each, on alternate
    // ticks, the rest at 1. (At 5 Hz the latency plot alone was a quarter
    // of the idle window's GUI thread.)
    const int tick = m_fineTicks++;
    if (tick % 2 == 1)
        m_latency->refresh(live);
    if (tick % 2 == 0)
        m_misses->refresh(live);
    if (tick % (1000 / kFineTickMs) == 0) {
        live.pollPhases(now);
        m_histogram->refresh(live);
        m_phases->setPhases(
            live.phases(), static_cast<double>(live.resetAt() - m_session.view().runStart()) / 1e9);
        updatePhaseLabel();
        markExplainedMisses();
    }
}

void MainWindow::markExplainedMisses()
{
    const size_t explained = m_session.view().explainedCount();
    if (explained == m_explainedMarked)
        return; // copying the explanations costs; they change rarely
    m_explainedMarked = explained;
    std::vector<double> times;
    for (const MissExplanation &x : m_session.view().explanations())
        times.push_back(x.timeS);
    m_misses->setExplainedTimes(std::move(times));
}

void MainWindow::onCounterTick()
{
    if (m_session.view().running())
        m_counters->refresh(m_session.data());
}

void MainWindow::onLoadTick()
{
    if (m_loadPanel->groupViewCount() > 0)
        m_loadPanel->refreshStatus();
    fitLeftColumn();
}

void MainWindow::fitLeftColumn()
{
    QList<int> sizes = m_leftSplitter->sizes();
    if (sizes.size() != 2)
        return;
    const int total = sizes[0] + sizes[1];
    const int loadsNeed = m_loadPanel->neededHeight();
    const int phasesNeed = m_phases->neededHeight();
    if (loadsNeed + phasesNeed > total)
        return; // both cannot fit: the user's split decides who scrolls
    if (sizes[0] < loadsNeed)
        sizes = {loadsNeed, total - loadsNeed};
    else if (sizes[1] < phasesNeed)
        sizes = {total - phasesNeed, phasesNeed};
    else
        return;
    m_leftSplitter->setSizes(sizes);
}

void MainWindow::pollNow()
{
    if (!m_session.view().running())
        return;
    m_fineTicks = 0;
    onFineTick();
    onCounterTick();
    m_loadPanel->refreshStatus();
}

void MainWindow::updatePhaseLabel()
{
    if (!m_session.view().running())
        return;
    const auto &phases = m_session.data().phases();
    const int64_t elapsed =
        (RealClock::monotonicNow() - m_session.view().currentPhase().start) / 1'000'000'000;
    const QString text = tr("phase %1: %2 · %3:%4")
                             .arg(std::max<size_t>(1, phases.size()))
                             .arg(QString::fromStdString(m_session.view().currentPhase().name))
                             .arg(std::max<int64_t>(0, elapsed) / 60)
                             .arg(std::max<int64_t>(0, elapsed) % 60, 2, 10, QLatin1Char('0'));
    if (m_phaseLabel->text() != text)
        m_phaseLabel->setText(text);
}

void MainWindow::onReset()
{
    if (!m_session.view().running())
        return;
    m_session.reset();
    m_counters->setResetTime(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")));
    m_counters->refresh(m_session.data());
    statusBar()->showMessage(tr("Counters reset: a new phase begins"), 3000);
}

QImage MainWindow::screenshotImage(int *captionHeight)
{
    pollNow();
    // Draw the queued replots now, so the picture is of this moment.
    QCoreApplication::sendPostedEvents();
    return composeScreenshot(grab(), screenshotCaptionText(), palette(), font(), captionHeight);
}

QString MainWindow::screenshotCaptionText() const
{
    std::string delayers;
    if (const auto &phases = m_session.data().phases(); !phases.empty() && phases.back().misses())
        delayers = delayersLine(m_session.view().explanations(), phases.back().name,
                                phases.back().misses());
    QString caption = screenshotCaption(m_session.view().system(), m_session.view().activeLabels(),
                                        QDateTime::currentDateTime(), delayers);
    // An A/B names its variants: the one in force, or once it ended, its verdicts.
    const std::optional<ScenarioOutcome> &outcome = m_session.view().lastScenario();
    if (m_session.view().scenarioRunning()) {
        const ScenarioProgress p = m_session.view().scenarioProgress();
        if (!p.variant.empty())
            caption += tr("\nA/B: round %1 of %2, variant %3")
                           .arg(p.round)
                           .arg(p.rounds)
                           .arg(QString::fromStdString(p.variant));
    } else if (outcome && outcome->run && hasVariants(*outcome->run)) {
        for (const std::string &line :
             variantHeadlines(*outcome->run, compareVariants(*outcome->run)))
            caption += QLatin1Char('\n') + QString::fromStdString(line);
    }
    return caption;
}

QString MainWindow::saveScreenshot(const QString &directory)
{
    const QString dir = screenshotDirectory(directory);
    const QImage image = screenshotImage();
    const QString path = QDir(dir).filePath(QStringLiteral("latprobe-%1.png").arg(stamp()));
    if (!image.save(path, "PNG")) {
        QMessageBox::warning(this, tr("Screenshot not saved"), tr("Could not write %1.").arg(path));
        return {};
    }
    QGuiApplication::clipboard()->setImage(image);
    statusBar()->showMessage(tr("Screenshot saved to %1 and copied to the clipboard").arg(path),
                             8000);
    return path;
}

QString MainWindow::reportText() const
{
    if (!m_session.view().running() && !m_session.view().finished())
        return {};
    return QString::fromStdString(
        formatTextReport(m_session.view().snapshot("live, still measuring")));
}

void MainWindow::copyReport()
{
    const QString text = reportText();
    QGuiApplication::clipboard()->setText(text);
    statusBar()->showMessage(
        tr("Report copied to the clipboard (%1 lines)").arg(text.count(QLatin1Char('\n'))), 5000);
}

bool MainWindow::saveRun(const QString &path, QString *error)
{
    if (!m_session.view().running() && !m_session.view().finished()) {
        if (error)
            *error = tr("the probe has not started yet");
        return false;
    }
    return writeRunTo(m_session.view().snapshot("saved while measuring"), path, error);
}

void MainWindow::saveRunInteractively()
{
    if (!m_session.view().running() && !m_session.view().finished())
        return;
    const QString path = latprobe::saveRunInteractively(
        this, tr("Save run"), QStringLiteral("latprobe-run"),
        [this] { return m_session.view().snapshot("saved while measuring"); });
    if (!path.isEmpty())
        statusBar()->showMessage(tr("Run saved to %1").arg(path), 8000);
}

CompareWindow *MainWindow::openCompare(const QStringList &files)
{
    return openCompareWindow(this, files);
}

void MainWindow::openCompareInteractively()
{
    if (const QStringList files = askForRunFiles(this); !files.isEmpty())
        openCompare(files);
}

void MainWindow::readSettings()
{
    QSettings s = appSettings();
    const QRect avail = screen() ? screen()->availableGeometry() : QRect(0, 0, 1280, 800);
    // A geometry saved on a larger screen (or without a window manager) must
    // not leave the status bar off screen.
    if (!restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray()) ||
        !avail.contains(frameGeometry())) {
        resize(std::min(1280, avail.width()), std::min(800, avail.height()));
        move(avail.topLeft());
    }
    restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    // Loads take what their rows need; the plots get the rest.
    m_mainSplitter->setSizes({m_leftSplitter->minimumSizeHint().width(), width()});
    // Misses and the histogram halves: the histogram's legend needs its room.
    m_bottomSplitter->setSizes({1000, 1000});
    for (QSplitter *sp : {m_mainSplitter, m_leftSplitter, m_plotSplitter, m_bottomSplitter})
        sp->restoreState(s.value(QStringLiteral("window/") + sp->objectName()).toByteArray());
    m_loadPanel->loadSettings(s);
    // Preferences win over the command line's default, as a user expects of
    // what they set in the window; out of range is never applied.
    const int cap = s.value(QLatin1String(PreferencesDialog::kMaxProcessesKey), 0).toInt();
    if (cap >= 1 && cap <= PreferencesDialog::kMaxProcessesLimit)
        m_session.setMaxLoadProcesses(cap);
}

void MainWindow::openPreferences()
{
    const QString traceKey = QLatin1String(PreferencesDialog::kSaveTracesKey);
    const bool savedTraces = appSettings().value(traceKey, false).toBool();
    PreferencesDialog dialog(m_session.view().limits().maxProcesses, savedTraces, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    applyPreferences(dialog.maxLoadProcesses());
    if (dialog.saveTraces() != savedTraces) {
        appSettings().setValue(traceKey, dialog.saveTraces());
        statusBar()->showMessage(dialog.saveTraces()
                                     ? tr("Explained misses' traces are saved from the next "
                                          "window on")
                                     : tr("No trace is saved from the next window on"),
                                 5000);
    }
}

void MainWindow::applyPreferences(int maxLoadProcesses)
{
    if (maxLoadProcesses < 1 || maxLoadProcesses > PreferencesDialog::kMaxProcessesLimit)
        return;
    m_session.setMaxLoadProcesses(maxLoadProcesses);
    appSettings().setValue(QLatin1String(PreferencesDialog::kMaxProcessesKey), maxLoadProcesses);
    statusBar()->showMessage(
        tr("At most %1 load processes at once, from now on").arg(maxLoadProcesses), 5000);
}

void MainWindow::writeSettings() const
{
    QSettings s = appSettings();
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
    for (QSplitter *sp : {m_mainSplitter, m_leftSplitter, m_plotSplitter, m_bottomSplitter})
        s.setValue(QStringLiteral("window/") + sp->objectName(), sp->saveState());
    m_loadPanel->saveSettings(s);
}

bool MainWindow::askToKeepRun()
{
    QMessageBox box(QMessageBox::Question, tr("Keep this run?"),
                    tr("This window has measured for %1. Keep the run in the run library, or "
                       "discard it?")
                        .arg(ScenarioBar::measured(m_session.view().snapshot(""))),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setInformativeText(
        tr("The library is %1; File ▸ Run library… opens it.")
            .arg(QString::fromStdString(m_session.library().dir()).toHtmlEscaped()));
    box.button(QMessageBox::Save)->setText(tr("&Keep in library"));
    box.button(QMessageBox::Discard)->setText(tr("&Discard"));
    box.button(QMessageBox::Cancel)->setText(tr("&Go on measuring"));
    box.setDefaultButton(QMessageBox::Save);
    box.setEscapeButton(QMessageBox::Cancel);
    const int answer = box.exec();
    if (answer == QMessageBox::Discard) {
        m_session.finishAndDiscard();
        return true;
    }
    if (answer != QMessageBox::Save)
        return false;
    QString error;
    if (!m_session.finishIntoLibrary(RunEnd::Completed, &error)) {
        // Measuring has ended; the autosave up to 10 s ago is still there.
        QMessageBox::warning(this, tr("Run not kept"),
                             tr("The run could not be written to the library: %1\n\nIts last "
                                "autosave, if any, is still there.")
                                 .arg(error));
    }
    return true;
}

void MainWindow::closeKeepingRun()
{
    m_closeKeeping = true;
    close();
}

void MainWindow::closeForNewRun(const Scenario &scenario)
{
    QString error;
    if (!m_session.finishIntoLibrary(RunEnd::Completed, &error))
        QMessageBox::warning(this, tr("Run not kept"),
                             tr("This run could not be written to the library: %1\n\nIts last "
                                "autosave, if any, is still there.")
                                 .arg(error));
    m_nextRun = scenario;
    closeKeepingRun();
    emit closedForNewRun();
}

RunsWindow *MainWindow::openRunLibrary()
{
    auto *runs = new RunsWindow(m_session.library(), this);
    runs->setWindowFlag(Qt::Window);
    runs->setAttribute(Qt::WA_DeleteOnClose);
    runs->show();
    return runs;
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    // Closing by mistake must not lose a run: ask, unless told (a signal).
    if (m_session.view().running() && m_session.view().keepsInLibrary() && !m_closeKeeping &&
        !askToKeepRun()) {
        event->ignore();
        return;
    }
    m_fineTimer->stop();
    m_counterTimer->stop();
    m_loadTimer->stop();
    writeSettings();
    // Loads go now, not when main() gets round to it: the window vanishing
    // while hundreds of workers still spin would look like a hang.
    m_session.shutdown();
    event->accept();
}

bool MainWindow::runScenario(const Scenario &scenario, bool fromRunStart)
{
    return m_scenarios->runScenario(scenario, fromRunStart);
}

bool MainWindow::runScenarioFile(const QString &path)
{
    return m_scenarios->runScenarioFile(path);
}

bool MainWindow::saveScenarioRun(const QString &path, QString *error)
{
    return m_scenarios->saveScenarioRun(path, error);
}

void MainWindow::explainMissesAt(double timeS)
{
    if (!m_explanationDialog) {
        m_explanationDialog = new WhoDelayedDialog(this);
        connect(m_explanationDialog, &WhoDelayedDialog::explainMoreRequested, this,
                &MainWindow::explainMoreMisses);
    }
    const TraceSummary trace = m_session.view().traceSummary();
    QString whyNone;
    if (!trace.on)
        whyNone = trace.message.empty()
                      ? tr("The flight recorder is off (--no-trace): no miss is explained.")
                      : QString::fromStdString(trace.message);
    m_explanationDialog->showNear(m_session.view().explanations(), timeS, whyNone);
}

void MainWindow::explainMoreMisses()
{
    if (m_session.explainMore(kExplainMoreMisses))
        statusBar()->showMessage(
            tr("The next %1 misses of each consumer in this phase will be explained: click "
               "them on the misses plot once they show")
                .arg(kExplainMoreMisses),
            8000);
    else
        statusBar()->showMessage(tr("Nothing to explain: no measurement is running with the "
                                    "flight recorder on, or this scenario step pauses it"),
                                 5000);
}

} // namespace latprobe
