#include "comparewindow.h"

#include "consumertable.h"

#include "cdfplot.h"
#include "cyclictestimport.h"
#include "messagebanner.h"
#include "ratioplot.h"
#include "roundplot.h"
#include "screenshot.h"
#include "variantcompare.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIcon>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QTableWidget>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <exception>
#include <optional>

namespace latprobe {

namespace {

enum Column {
    PhaseCol,
    ConsumerCol,
    MetricCol,
    RunCol,
    BaseCol,
    ValueCol,
    ChangeCol,
    VerdictCol,
    Columns
};

// As `latprobe compare` prints it.
QString valueText(CompareMetric metric, double v)
{
    return QString::fromStdString(formatValue(metric, v));
}

} // namespace

CompareWindow::CompareWindow(QWidget *parent)
    : QMainWindow(parent), m_banner(new MessageBanner(this)), m_runsLabel(new QLabel(this)),
      m_warnings(new QLabel(this)), m_consumerBox(new QComboBox(this)),
      m_phaseBox(new QComboBox(this)), m_plot(new CdfPlot(this)), m_ratios(new RatioPlot(this)),
      m_roundPlot(new RoundPlot(this)), m_table(new QTableWidget(this)), m_summary(new QLabel(this))
{
    setWindowTitle(tr("latprobe — compare runs"));
    QIcon fallback;
    for (int size : {16, 32, 48, 64, 128, 256})
        fallback.addFile(QStringLiteral(":/latprobe/icons/latprobe-%1.png").arg(size));
    setWindowIcon(QIcon::fromTheme(QStringLiteral("latprobe"), fallback));
    buildActions();
    buildLayout();
    connect(m_consumerBox, &QComboBox::currentIndexChanged, this, &CompareWindow::updatePlot);
    connect(m_phaseBox, &QComboBox::currentIndexChanged, this, &CompareWindow::updatePlot);
    resize(1100, 760);
    rebuild();
}

CompareWindow::~CompareWindow() = default;

void CompareWindow::buildActions()
{
    m_open =
        new QAction(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open runs…"), this);
    m_open->setShortcut(QKeySequence::Open);
    m_open->setToolTip(tr("Add run files (latprobe runs or cyclictest --json output) to the "
                          "comparison (Ctrl+O)"));
    connect(m_open, &QAction::triggered, this, &CompareWindow::openInteractively);
    m_copy = new QAction(style()->standardIcon(QStyle::SP_FileDialogDetailedView),
                         tr("&Copy as text"), this);
    m_copy->setShortcut(QKeySequence(tr("Ctrl+Shift+C")));
    m_copy->setToolTip(tr("Put the table on the clipboard as plain text, as 'latprobe compare' "
                          "prints it: 72 columns for an email (Ctrl+Shift+C)"));
    connect(m_copy, &QAction::triggered, this, &CompareWindow::copyAsText);
    m_screenshot =
        new QAction(style()->standardIcon(QStyle::SP_DesktopIcon), tr("Sc&reenshot"), this);
    m_screenshot->setShortcut(QKeySequence(tr("Ctrl+Shift+S")));
    m_screenshot->setToolTip(tr("Save a PNG of this window with a caption naming the runs, and "
                                "copy it to the clipboard (Ctrl+Shift+S)"));
    connect(m_screenshot, &QAction::triggered, this, [this] { saveScreenshot(); });
    m_clear = new QAction(tr("C&lear"), this);
    m_clear->setToolTip(tr("Remove every run from the comparison"));
    connect(m_clear, &QAction::triggered, this, &CompareWindow::clearRuns);
    auto *close = new QAction(tr("&Close"), this);
    close->setShortcut(QKeySequence::Close);
    connect(close, &QAction::triggered, this, &QWidget::close);

    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_open);
    file->addAction(m_clear);
    file->addSeparator();
    file->addAction(m_copy);
    file->addAction(m_screenshot);
    file->addSeparator();
    file->addAction(close);
    QToolBar *bar = addToolBar(tr("Compare"));
    bar->setObjectName(QStringLiteral("compareToolBar"));
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(m_open);
    bar->addAction(m_copy);
    bar->addAction(m_screenshot);
}

void CompareWindow::buildLayout()
{
    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->setSpacing(6);
    layout->addWidget(m_banner);
    m_runsLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_runsLabel->setWordWrap(true);
    layout->addWidget(m_runsLabel);
    m_warnings->setWordWrap(true);
    m_warnings->setVisible(false);
    QPalette warn = m_warnings->palette();
    warn.setColor(QPalette::WindowText, QColor(0xd0, 0x40, 0x30));
    m_warnings->setPalette(warn);
    layout->addWidget(m_warnings);

    layout->addLayout(buildChoosers(central));

    auto *split = new QSplitter(Qt::Vertical, central);
    split->setChildrenCollapsible(false);
    auto *plots = new QSplitter(Qt::Horizontal, split);
    plots->setChildrenCollapsible(false);
    m_plot->setMinimumSize(260, 220);
    m_ratios->setMinimumSize(220, 220);
    m_roundPlot->setMinimumSize(220, 220);
    m_roundPlot->setObjectName(QStringLiteral("round-plot"));
    m_roundPlot->setVisible(false);
    plots->addWidget(m_plot);
    plots->addWidget(m_ratios);
    plots->addWidget(m_roundPlot);
    plots->setStretchFactor(0, 3);
    plots->setStretchFactor(1, 2);
    plots->setStretchFactor(2, 2);
    split->addWidget(plots);
    setUpTable();
    split->addWidget(m_table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({420, 300}); // the plots first: their size hint is tiny
    layout->addWidget(split, 1);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setVisible(false);
    layout->addWidget(m_summary);
    setCentralWidget(central);
}

QHBoxLayout *CompareWindow::buildChoosers(QWidget *central)
{
    auto *choose = new QHBoxLayout;
    auto *consumerLabel = new QLabel(tr("C&onsumer:"), central);
    consumerLabel->setBuddy(m_consumerBox);
    auto *phaseLabel = new QLabel(tr("&Phase:"), central);
    phaseLabel->setBuddy(m_phaseBox);
    m_consumerBox->setMinimumContentsLength(8);
    m_phaseBox->setMinimumContentsLength(16);
    m_phaseBox->setToolTip(tr("One phase: a colour per run. Every phase: a colour per phase, a "
                              "line style per run."));
    choose->addWidget(consumerLabel);
    choose->addWidget(m_consumerBox);
    choose->addSpacing(12);
    choose->addWidget(phaseLabel);
    choose->addWidget(m_phaseBox);
    choose->addStretch(1);
    return choose;
}

void CompareWindow::setUpTable()
{
    m_table->setColumnCount(Columns);
    setHeaders();
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setShowGrid(false);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(false);
}

void CompareWindow::setHeaders()
{
    // A/B: a column per variant, as the markdown's tables head theirs.
    const QString first = m_variants ? who(0) : tr("run 1");
    const QString other = !m_variants                          ? tr("this run")
                          : m_comparison.runLabels.size() == 2 ? who(1)
                                                               : tr("this variant");
    m_table->setHorizontalHeaderLabels({tr("phase"), tr("consumer"), tr("metric"),
                                        m_variants ? tr("variant") : tr("run"), first, other,
                                        tr("change [95 %]"), tr("verdict")});
    m_table->horizontalHeaderItem(ChangeCol)->setToolTip(
        tr("%1 against %2: a ratio (x or %) or a difference (pt, /min), with its 95 % interval")
            .arg(other, first));
    m_table->horizontalHeaderItem(VerdictCol)
        ->setToolTip(
            tr("better or worse: a Mann-Whitney U test at 5 % and a change large enough to name "
               "(10 % on a percentile, x1.5 on misses, 0.5 pt of deadlines met); ~ otherwise; too "
               "few: under %1 rounds or blocks a side")
                .arg(samplesNeeded()));
    m_table->horizontalHeaderItem(BaseCol)->setToolTip(
        tr("The median of %1's samples (rounds, or 5 s blocks)").arg(first));
}

int CompareWindow::openFiles(const QStringList &paths)
{
    QStringList errors;
    int added = 0;
    for (const QString &path : paths) {
        try {
            m_runs.push_back(readAnyRunFile(path.toStdString()));
            m_files.push_back(path.toStdString());
            ++added;
        } catch (const std::exception &e) {
            // The readers' messages name the file and the field already.
            QString what = QString::fromUtf8(e.what()).simplified();
            if (!what.contains(QFileInfo(path).fileName()))
                what = QStringLiteral("%1: %2").arg(path, what);
            errors << what;
        }
    }
    if (!errors.isEmpty())
        m_banner->showMessage(tr("Not opened: %1").arg(errors.join(QStringLiteral("\n"))));
    else if (added > 0)
        m_banner->hide();
    if (added > 0)
        rebuild();
    return added;
}

void CompareWindow::addRun(const Run &run, const std::string &file)
{
    m_runs.push_back(run);
    m_files.push_back(file);
    m_banner->hide();
    rebuild();
}

QStringList askForRunFiles(QWidget *parent)
{
    QSettings settings(QStringLiteral("latprobe"), QStringLiteral("latprobe"));
    QString dir = settings.value(QStringLiteral("run/dir")).toString();
    if (dir.isEmpty())
        dir = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    QStringList paths = QFileDialog::getOpenFileNames(
        parent, CompareWindow::tr("Open runs to compare"), dir,
        CompareWindow::tr("Runs and cyclictest JSON (*.json);;All files (*)"));
    if (!paths.isEmpty())
        settings.setValue(QStringLiteral("run/dir"), QFileInfo(paths.front()).absolutePath());
    return paths;
}

void CompareWindow::openInteractively()
{
    if (const QStringList paths = askForRunFiles(this); !paths.isEmpty())
        openFiles(paths);
}

void CompareWindow::clearRuns()
{
    m_runs.clear();
    m_files.clear();
    m_banner->hide();
    rebuild();
}

void CompareWindow::rebuild()
{
    // One run that played variants compares them, as `latprobe compare
    // RUN.json` does.
    m_variants = m_runs.size() == 1 && hasVariants(m_runs.front());
    m_variantRuns = m_variants ? splitByVariant(m_runs.front()) : std::vector<Run>{};
    m_comparison = m_variants ? compareVariants(m_runs.front()) : compareRuns(m_runs, m_files);
    m_headlines =
        m_variants ? variantHeadlines(m_runs.front(), m_comparison) : std::vector<std::string>{};
    m_roundPlot->setVisible(m_variants);
    updateRunsLabel();

    QStringList warnings;
    for (const std::string &w : m_comparison.warnings)
        warnings << QString::fromStdString(w);
    m_warnings->setText(QStringLiteral("⚠ ") + warnings.join(QStringLiteral("\n⚠ ")));
    m_warnings->setVisible(!warnings.isEmpty());

    // Keep the user's choice of consumer and phase where it still exists.
    const QString consumer = m_consumerBox->currentText();
    const QString phase = m_phaseBox->currentData().toString();
    QSignalBlocker b1(m_consumerBox), b2(m_phaseBox);
    m_consumerBox->clear();
    QStringList consumers;
    for (const PhaseComparison &ph : m_comparison.phases)
        for (const auto &run : ph.runs)
            for (const ConsumerComparison &cc : run)
                if (!consumers.contains(QString::fromStdString(cc.consumer)))
                    consumers << QString::fromStdString(cc.consumer);
    m_consumerBox->addItems(consumers);
    const int ci = consumers.indexOf(consumer);
    int first = -1;
    for (int i = 0; i < consumers.size() && first < 0; ++i)
        if (consumerTraits(consumers[i].toStdString()).shownFirst)
            first = i;
    m_consumerBox->setCurrentIndex(ci >= 0 ? ci : first >= 0 ? first : 0);
    m_phaseBox->clear();
    m_phaseBox->addItem(tr("every phase"), QString());
    for (const PhaseComparison &ph : m_comparison.phases)
        m_phaseBox->addItem(QString::fromStdString(ph.name), QString::fromStdString(ph.name));
    const int pi = m_phaseBox->findData(phase);
    m_phaseBox->setCurrentIndex(pi >= 0 ? pi : 0);

    fillTable();
    updatePlot();
    const bool any = !m_runs.empty();
    m_copy->setEnabled(any);
    m_clear->setEnabled(any);
    if (!any && m_banner->isHidden())
        m_banner->showMessage(tr("Open two or more run files to compare them: File ▸ Open "
                                 "runs… (latprobe runs, or cyclictest --json output)."),
                              MessageBanner::Information);
}

void CompareWindow::updateRunsLabel()
{
    QStringList lines;
    for (size_t i = 0; i < m_runs.size(); ++i) {
        const Run &r = m_runs[i];
        const QString file =
            QFileInfo(QString::fromStdString(m_files[i])).fileName().toHtmlEscaped();
        QString line =
            m_variants
                ? tr("<b>A/B</b> %1").arg(file)
                : tr("<b>run %1</b> %2 — %3")
                      .arg(i + 1)
                      .arg(QString::fromStdString(m_comparison.runLabels[i]).toHtmlEscaped(), file);
        QStringList about;
        if (!r.scenario.empty())
            about << tr("scenario %1").arg(QString::fromStdString(r.scenario).toHtmlEscaped());
        if (!r.startTime.empty())
            about << QString::fromStdString(r.startTime).toHtmlEscaped();
        if (r.partial)
            about << tr("<i>partial: %1</i>")
                         .arg(QString::fromStdString(r.endReason).toHtmlEscaped());
        if (!about.isEmpty())
            line += QStringLiteral(" · ") + about.join(QStringLiteral(" · "));
        lines << line;
    }
    if (m_variants) {
        const std::vector<VariantRecord> &variants = m_runs.front().variants;
        for (size_t i = 0; i < variants.size(); ++i)
            lines << tr("<b>%1</b> %2")
                         .arg(QChar(u'A' + static_cast<char16_t>(i)))
                         .arg(QString::fromStdString(variants[i].describe()).toHtmlEscaped());
    }
    m_runsLabel->setText(lines.join(QStringLiteral("<br>")));
    m_runsLabel->setVisible(!lines.isEmpty());
}

QTableWidgetItem *CompareWindow::setCell(int row, int column, const QString &text, bool number)
{
    auto *item = new QTableWidgetItem(text);
    if (number)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_table->setItem(row, column, item);
    return item;
}

void CompareWindow::fillMetricRow(int row, const MetricComparison &m, bool single)
{
    setCell(row, MetricCol, QString::fromStdString(metricTitle(m.metric)), false);
    setCell(row, BaseCol, valueText(m.metric, m.base));
    setCell(row, ValueCol, single ? QString() : valueText(m.metric, m.value));
    if (single)
        return;
    QTableWidgetItem *change = setCell(row, ChangeCol, QString::fromStdString(formatChange(m)));
    QTableWidgetItem *verdict =
        setCell(row, VerdictCol, QString::fromLatin1(toString(m.verdict)), false);
    verdict->setToolTip(
        tr("p = %1, %2 against %3 samples").arg(m.p, 0, 'g', 3).arg(m.samples).arg(m.baseSamples));
    // Only what is significant gets a colour.
    if (m.verdict == Verdict::Better || m.verdict == Verdict::Worse) {
        const QColor c =
            m.verdict == Verdict::Worse ? QColor(0xc0, 0x30, 0x20) : QColor(0x00, 0x80, 0x40);
        change->setForeground(c);
        verdict->setForeground(c);
        QFont bold = verdict->font();
        bold.setBold(true);
        verdict->setFont(bold);
    } else {
        change->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
    }
}

void CompareWindow::fillTable()
{
    m_table->setRowCount(0);
    setHeaders();
    const QColor dim = palette().color(QPalette::Disabled, QPalette::Text);
    const bool single = sides().size() == 1;
    auto addRow = [this]() {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        return row;
    };
    auto set = [this](int row, int column, const QString &text, bool number = true) {
        return setCell(row, column, text, number);
    };
    QStringList summaries;
    for (const PhaseComparison &ph : m_comparison.phases) {
        const QString phase = QString::fromStdString(ph.name);
        if (!single && !ph.inEveryRun()) {
            QStringList in;
            for (size_t ri = 0; ri < ph.sides.size(); ++ri)
                if (ph.sides[ri].present)
                    in << (m_variants ? who(ri) : QString::number(ri + 1));
            const int row = addRow();
            set(row, PhaseCol, phase, false)->setForeground(dim);
            set(row, MetricCol,
                (m_variants ? tr("only in %1: not compared") : tr("only in run %1: not compared"))
                    .arg(in.join(QStringLiteral(", "))),
                false)
                ->setForeground(dim);
            continue;
        }
        bool firstOfPhase = true;
        for (size_t ri = single ? 0 : 1; ri < ph.runs.size(); ++ri) {
            for (const ConsumerComparison &cc : ph.runs[ri]) {
                bool firstOfConsumer = true;
                auto head = [&](int row) {
                    set(row, PhaseCol, firstOfPhase ? phase : QString(), false);
                    set(row, ConsumerCol,
                        firstOfConsumer ? QString::fromStdString(cc.consumer) : QString(), false);
                    set(row, RunCol, QString::fromStdString(m_comparison.runLabels[ri]), false)
                        ->setForeground(CdfPlot::seriesColour(static_cast<int>(ri), palette()));
                    firstOfPhase = firstOfConsumer = false;
                };
                if (!cc.refusal.empty() || !cc.present) {
                    const int row = addRow();
                    head(row);
                    QTableWidgetItem *why =
                        set(row, MetricCol,
                            cc.refusal.empty() ? tr("not in %1").arg(who(0)) : tr("not compared"),
                            false);
                    why->setToolTip(QString::fromStdString(cc.refusal));
                    why->setForeground(dim);
                    continue;
                }
                for (const MetricComparison &m : cc.metrics) {
                    const int row = addRow();
                    head(row);
                    fillMetricRow(row, m, single);
                }
            }
            if (ri < ph.summaries.size() && !ph.summaries[ri].empty())
                summaries << QStringLiteral("<b>%1</b>: %2")
                                 .arg(phase.toHtmlEscaped(),
                                      QString::fromStdString(ph.summaries[ri]).toHtmlEscaped());
        }
    }
    for (const std::string &line : m_headlines)
        summaries.prepend(
            QStringLiteral("<b>%1</b>").arg(QString::fromStdString(line).toHtmlEscaped()));
    m_summary->setText(summaries.join(QStringLiteral("<br>")));
    m_summary->setVisible(!summaries.isEmpty());
    m_table->resizeColumnsToContents();
    for (int c = 0; c < Columns; ++c)
        m_table->setColumnWidth(c, m_table->columnWidth(c) + 12);
}

void CompareWindow::updatePlot()
{
    const std::string consumer = m_consumerBox->currentText().toStdString();
    const QString only = m_phaseBox->currentData().toString();
    const std::vector<Run> &runs = sides();
    std::vector<CdfPlot::Curve> curves;
    static const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine,
                                          Qt::DashDotDotLine};
    std::vector<RatioPlot::Point> points;
    for (size_t pi = 0; pi < m_comparison.phases.size(); ++pi) {
        const PhaseComparison &ph = m_comparison.phases[pi];
        const QString phase = QString::fromStdString(ph.name);
        if (!only.isEmpty() && phase != only)
            continue;
        // The changes of the phase chosen (or, for every phase, of the
        // chosen consumer in each), the ratios only. One too few to judge is
        // drawn hollow without a whisker: its size shows, undecided.
        for (size_t ri = 1; ri < ph.runs.size(); ++ri)
            for (const ConsumerComparison &cc : ph.runs[ri]) {
                if (only.isEmpty() && cc.consumer != consumer)
                    continue;
                for (const MetricComparison &m : cc.metrics) {
                    const bool tooFew = m.verdict == Verdict::TooFewSamples;
                    if (!m.asRatio || !std::isfinite(m.change.estimate))
                        continue;
                    const QString what = QString::fromLatin1(toString(m.metric));
                    points.push_back({only.isEmpty()
                                          ? QStringLiteral("%1 %2").arg(phase, what)
                                          : QStringLiteral("%1 %2").arg(
                                                QString::fromStdString(cc.consumer), what),
                                      static_cast<int>(ri), m.change.estimate,
                                      tooFew ? m.change.estimate : m.change.low,
                                      tooFew ? m.change.estimate : m.change.high,
                                      m.verdict == Verdict::Better || m.verdict == Verdict::Worse});
                }
            }
        for (size_t ri = 0; ri < runs.size() && ri < ph.sides.size(); ++ri) {
            if (!ph.sides[ri].present)
                continue;
            const size_t index = ph.sides[ri].phases.front();
            for (const ConsumerStats &s : runs[ri].phases[index].consumers) {
                if (s.name != consumer || s.histogram.empty())
                    continue;
                CdfPlot::Curve c;
                const QString run = QString::fromStdString(m_comparison.runLabels[ri]);
                c.name = only.isEmpty() ? QStringLiteral("%1 · %2").arg(run, phase) : run;
                c.colour = static_cast<int>(only.isEmpty() ? pi : ri);
                c.style = only.isEmpty() ? styles[ri % std::size(styles)] : Qt::SolidLine;
                c.histogram = s.histogram;
                curves.push_back(std::move(c));
            }
        }
    }
    m_plot->setCurves(std::move(curves));
    m_ratios->setPoints(std::move(points));
    m_ratios->setBaseName(who(0));
    m_ratios->setTitle(
        only.isEmpty()
            ? tr("%1 against %2, every phase").arg(QString::fromStdString(consumer), who(0))
            : tr("%1 against %2").arg(only, who(0)));
    m_plot->setTitle(consumer.empty() ? tr("Latency distribution")
                                      : tr("%1 latency, %2")
                                            .arg(QString::fromStdString(consumer),
                                                 only.isEmpty() ? tr("every phase") : only));
    if (m_variants)
        updateRoundPlot(consumer, only);
}

void CompareWindow::updateRoundPlot(const std::string &consumer, const QString &only)
{
    std::vector<const PhaseComparison *> shown;
    std::vector<CompareMetric> metrics; // the consumer's, as its table rows come
    for (const PhaseComparison &ph : m_comparison.phases) {
        if ((!only.isEmpty() && ph.name != only.toStdString()) || !ph.inEveryRun())
            continue;
        shown.push_back(&ph);
        for (const ConsumerComparison &cc : ph.runs.front())
            for (const MetricComparison &m : cc.metrics)
                if (cc.consumer == consumer &&
                    std::find(metrics.begin(), metrics.end(), m.metric) == metrics.end())
                    metrics.push_back(m.metric);
    }
    // The first metric every round has a value of (a round of too few
    // latencies has no p99), else the first.
    std::optional<CompareMetric> metric;
    std::vector<std::vector<RoundValue>> values; // per phase shown
    for (const CompareMetric m : metrics) {
        std::vector<std::vector<RoundValue>> each;
        bool complete = true;
        for (const PhaseComparison *ph : shown) {
            each.push_back(roundValues(m_variantRuns, *ph, consumer, m));
            size_t rounds = 0;
            for (const PhaseSide &side : ph->sides)
                rounds += side.phases.size();
            complete = complete && each.back().size() == rounds;
        }
        if (!metric || complete) {
            metric = m;
            values = std::move(each);
        }
        if (complete)
            break;
    }
    std::vector<RoundPlot::Point> points;
    for (size_t pi = 0; pi < values.size(); ++pi)
        for (const RoundValue &v : values[pi]) {
            const QString variant = who(v.variant);
            points.push_back({only.isEmpty() ? QStringLiteral("%1 · %2").arg(
                                                   variant, QString::fromStdString(shown[pi]->name))
                                             : variant,
                              static_cast<int>(v.variant), v.round, static_cast<int>(pi),
                              v.value / metricRow(*metric).scale});
        }
    const QString what =
        metric ? QStringLiteral("%1 %2").arg(QString::fromStdString(consumer),
                                             QString::fromStdString(metricTitle(*metric)))
               : QString::fromStdString(consumer);
    m_roundPlot->setPoints(std::move(points), what);
    m_roundPlot->setTitle(only.isEmpty() ? tr("%1 round by round, every phase").arg(what)
                                         : tr("%1 round by round, %2").arg(what, only));
}

void CompareWindow::setConsumer(const QString &name)
{
    m_consumerBox->setCurrentIndex(m_consumerBox->findText(name));
}

void CompareWindow::setPhase(const QString &name)
{
    m_phaseBox->setCurrentIndex(std::max(0, m_phaseBox->findData(name)));
}

QString CompareWindow::comparisonText() const
{
    if (m_runs.empty())
        return {};
    std::string text = formatComparison(m_comparison);
    for (const std::string &line : m_headlines)
        text += "\n" + line;
    return QString::fromStdString(m_headlines.empty() ? text : text + "\n");
}

void CompareWindow::copyAsText()
{
    const QString text = comparisonText();
    QGuiApplication::clipboard()->setText(text);
    statusBar()->showMessage(
        tr("Table copied to the clipboard (%1 lines)").arg(text.count(QLatin1Char('\n'))), 5000);
}

QString CompareWindow::screenshotCaptionText() const
{
    QStringList files;
    for (const std::string &f : m_files)
        files << QString::fromStdString(f);
    std::vector<std::string> labels = m_comparison.runLabels;
    if (m_variants) {
        labels.clear();
        for (const VariantRecord &v : m_runs.front().variants)
            labels.push_back(v.describe());
    }
    return compareCaption(labels, files, QDateTime::currentDateTime(), m_headlines,
                          m_variants ? CaptionOf::Variants : CaptionOf::Runs);
}

QImage CompareWindow::screenshotImage(int *captionHeight)
{
    QCoreApplication::sendPostedEvents(); // queued replots: the picture is of now
    return composeScreenshot(grab(), screenshotCaptionText(), palette(), font(), captionHeight);
}

QString CompareWindow::saveScreenshot(const QString &directory)
{
    const QString dir = screenshotDirectory(directory);
    const QImage image = screenshotImage();
    QString path = QDir(dir).filePath(
        QStringLiteral("latprobe-compare-%1.png")
            .arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"))));
    if (!image.save(path, "PNG")) {
        QMessageBox::warning(this, tr("Screenshot not saved"), tr("Could not write %1.").arg(path));
        return {};
    }
    QGuiApplication::clipboard()->setImage(image);
    statusBar()->showMessage(tr("Screenshot saved to %1 and copied to the clipboard").arg(path),
                             8000);
    return path;
}

CompareWindow *openCompareWindow(QWidget *parent, const QStringList &files)
{
    auto *compare = new CompareWindow(parent);
    compare->setWindowFlag(Qt::Window);
    compare->setAttribute(Qt::WA_DeleteOnClose);
    compare->openFiles(files);
    compare->show();
    return compare;
}

} // namespace latprobe
