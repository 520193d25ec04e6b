#include "runswindow.h"

#include "comparewindow.h"
#include "report.h"
#include "runfile.h"
#include "scenario.h"

#include <QAction>
#include <QDesktopServices>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QTableWidget>
#include <QToolBar>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace latprobe {

namespace {

// Prefixed: the unity build puts this beside latprobe::Scenario. A column
// per consumer with a summary figure (the consumer table's) follows
// ColLength, then the run's end and file.
enum Column { ColStarted, ColKernel, ColScheduler, ColScenario, ColLength, ColConsumers };

// The consumer columns, in the consumer table's order.
const std::vector<ConsumerSummary> &consumerColumns()
{
    static const std::vector<ConsumerSummary> columns =
        summarizeConsumers(std::vector<PhaseResult>{});
    return columns;
}
const int kColEnd = ColConsumers + static_cast<int>(consumerColumns().size());
const int kColFile = kColEnd + 1;

QString fromView(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString columnTitle(const ConsumerTraits &t)
{
    return fromView(t.summary == SummaryFigure::Misses ? t.missTitle : t.column);
}

// Sorts by a number, shows a text.
class NumberItem : public QTableWidgetItem
{
public:
    NumberItem(const QString &text, double value) : QTableWidgetItem(text), m_value(value)
    {
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem &other) const override
    {
        if (const auto *n = dynamic_cast<const NumberItem *>(&other))
            return m_value < n->m_value;
        return QTableWidgetItem::operator<(other);
    }

private:
    double m_value;
};

QString lengthText(double s)
{
    const auto whole = static_cast<qint64>(s + 0.5);
    return whole >= 60 ? QStringLiteral("%1 min %2 s").arg(whole / 60).arg(whole % 60)
                       : QStringLiteral("%1 s").arg(whole);
}

} // namespace

RunsWindow::RunsWindow(RunLibrary library, QWidget *parent)
    : QMainWindow(parent), m_library(std::move(library))
{
    setWindowTitle(tr("Run library — latprobe"));
    setObjectName(QStringLiteral("runs-window"));
    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);

    m_filter = new QLineEdit(central);
    m_filter->setPlaceholderText(tr("Filter: kernel, scheduler, scenario, date…"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setAccessibleName(tr("Filter runs"));
    connect(m_filter, &QLineEdit::textChanged, this, &RunsWindow::setFilter);
    layout->addWidget(m_filter);

    m_table = new QTableWidget(0, kColFile + 1, central);
    QStringList labels = {tr("Started (UTC)"), tr("Kernel"), tr("Scheduler"), tr("Scenario"),
                          tr("Length")};
    for (const ConsumerSummary &c : consumerColumns())
        labels << columnTitle(*c.traits);
    labels << tr("End") << tr("File");
    m_table->setHorizontalHeaderLabels(labels);
    for (size_t c = 0; c < consumerColumns().size(); ++c) {
        const ConsumerTraits &t = *consumerColumns()[c].traits;
        m_table->horizontalHeaderItem(ColConsumers + static_cast<int>(c))
            ->setToolTip((t.summary == SummaryFigure::P99 ? tr("%1: the worst phase's")
                                                          : tr("%1: every phase's"))
                             .arg(fromView(t.columnTip)));
    }
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSortingEnabled(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &RunsWindow::updateActions);
    connect(m_table, &QTableWidget::itemDoubleClicked, this, &RunsWindow::showReportOfSelected);
    layout->addWidget(m_table, 1);

    m_summary = new QLabel(central);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);
    setCentralWidget(central);

    QToolBar *bar = addToolBar(tr("Runs"));
    bar->setObjectName(QStringLiteral("runs-toolbar"));
    m_report = bar->addAction(tr("&Report"), this, &RunsWindow::showReportOfSelected);
    m_report->setToolTip(tr("The selected run's report, as 'latprobe report' prints it (Enter)"));
    m_compare = bar->addAction(tr("&Compare"), this, &RunsWindow::compareSelected);
    m_compare->setToolTip(tr("Compare the selected runs (two or more), the first as the base"));
    m_delete = bar->addAction(tr("&Delete…"), this, [this] { deleteSelected(true); });
    m_delete->setShortcut(QKeySequence::Delete);
    m_delete->setToolTip(tr("Delete the selected runs from the library (Del)"));
    m_reveal = bar->addAction(tr("Show &folder"), this, [this] {
        QDesktopServices::openUrl(QUrl::fromLocalFile(QString::fromStdString(m_library.dir())));
    });
    m_reveal->setToolTip(tr("Open the library's folder in the file manager"));
    m_refresh = bar->addAction(tr("Re&fresh"), this, &RunsWindow::refresh);
    m_refresh->setShortcut(QKeySequence::Refresh);

    resize(1100, 560);
    refresh();
}

void RunsWindow::refresh()
{
    const QStringList selected = selectedFiles();
    m_entries = m_library.list();
    m_table->setSortingEnabled(false);
    m_table->setRowCount(static_cast<int>(m_entries.size()));
    qint64 bytes = 0;
    for (int row = 0; row < static_cast<int>(m_entries.size()); ++row) {
        const RunLibrary::Entry &e = m_entries[static_cast<size_t>(row)];
        bytes += static_cast<qint64>(e.bytes);
        const QString file = QFileInfo(QString::fromStdString(e.path)).fileName();
        auto text = [](const std::string &s) { return QString::fromStdString(s); };
        QString started = text(e.startTime).left(19).replace(QLatin1Char('T'), QLatin1Char(' '));
        QString end = e.error.empty() ? text(e.endReason) : tr("unreadable");
        if (e.partial && e.error.empty())
            end += tr(" (partial)");
        auto *first = new QTableWidgetItem(started);
        first->setData(Qt::UserRole, text(e.path));
        if (!e.error.empty())
            first->setToolTip(text(e.error));
        m_table->setItem(row, ColStarted, first);
        m_table->setItem(row, ColKernel, new QTableWidgetItem(text(e.kernel)));
        m_table->setItem(row, ColScheduler, new QTableWidgetItem(text(e.scheduler)));
        m_table->setItem(
            row, ColScenario,
            new QTableWidgetItem(text(e.scenario.empty() ? kPlainRunScenario : e.scenario)));
        m_table->setItem(row, ColLength, new NumberItem(lengthText(e.durationS), e.durationS));
        for (size_t c = 0; c < e.consumers.size(); ++c)
            m_table->setItem(row, ColConsumers + static_cast<int>(c),
                             new NumberItem(QString::fromStdString(e.consumers[c].text()),
                                            e.consumers[c].value()));
        m_table->setItem(row, kColEnd, new QTableWidgetItem(end));
        m_table->setItem(row, kColFile, new QTableWidgetItem(file));
    }
    // A consumer no listed run measured has no column.
    for (size_t c = 0; c < consumerColumns().size(); ++c)
        m_table->setColumnHidden(
            ColConsumers + static_cast<int>(c),
            std::none_of(m_entries.begin(), m_entries.end(), [c](const RunLibrary::Entry &e) {
                return c < e.consumers.size() && e.consumers[c].measured;
            }));
    m_table->setSortingEnabled(true);
    m_table->resizeColumnsToContents();
    const int count = static_cast<int>(m_entries.size());
    const QString runs = count == 1 ? tr("1 run") : tr("%1 runs").arg(count);
    m_summary->setText(tr("%1, %2 MiB in %3 (latprobe prunes the oldest past %4 MiB)")
                           .arg(runs)
                           .arg(static_cast<double>(bytes) / (1 << 20), 0, 'f', 1)
                           .arg(QString::fromStdString(m_library.dir()))
                           .arg(m_library.maxBytes() >> 20));
    selectFiles(selected);
    setFilter(m_filter->text());
    updateActions();
}

void RunsWindow::setFilter(const QString &text)
{
    for (int row = 0; row < m_table->rowCount(); ++row) {
        bool match = text.isEmpty();
        for (int col = 0; col < m_table->columnCount() && !match; ++col)
            if (const QTableWidgetItem *item = m_table->item(row, col))
                match = item->text().contains(text, Qt::CaseInsensitive);
        m_table->setRowHidden(row, !match);
    }
    updateActions();
}

QStringList RunsWindow::selectedFiles() const
{
    std::set<int> rows;
    for (const QModelIndex &index : m_table->selectionModel()->selectedRows())
        if (!m_table->isRowHidden(index.row()))
            rows.insert(index.row());
    QStringList files;
    for (int row : rows)
        files << m_table->item(row, ColStarted)->data(Qt::UserRole).toString();
    return files;
}

void RunsWindow::selectFiles(const QStringList &paths)
{
    m_table->clearSelection();
    for (int row = 0; row < m_table->rowCount(); ++row)
        if (paths.contains(m_table->item(row, ColStarted)->data(Qt::UserRole).toString()))
            m_table->selectionModel()->select(m_table->model()->index(row, 0),
                                              QItemSelectionModel::Select |
                                                  QItemSelectionModel::Rows);
}

void RunsWindow::updateActions()
{
    const qsizetype n = selectedFiles().size();
    m_report->setEnabled(n == 1);
    m_compare->setEnabled(n >= 2);
    m_delete->setEnabled(n >= 1);
}

CompareWindow *RunsWindow::compareSelected()
{
    const QStringList files = selectedFiles();
    return files.size() < 2 ? nullptr : openCompareWindow(this, files);
}

QString RunsWindow::reportOfSelected() const
{
    const QStringList files = selectedFiles();
    if (files.size() != 1)
        return {};
    try {
        return QString::fromStdString(formatTextReport(readRunFile(files.front().toStdString())));
    } catch (const std::exception &e) {
        return QString::fromUtf8(e.what());
    }
}

void RunsWindow::showReportOfSelected()
{
    const QString report = reportOfSelected();
    if (report.isEmpty())
        return;
    auto *dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Report — %1").arg(QFileInfo(selectedFiles().front()).fileName()));
    auto *layout = new QVBoxLayout(dialog);
    auto *text = new QPlainTextEdit(report, dialog);
    text->setReadOnly(true);
    text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    text->setLineWrapMode(QPlainTextEdit::NoWrap);
    layout->addWidget(text);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    layout->addWidget(buttons);
    dialog->resize(text->fontMetrics().horizontalAdvance(QString(78, QLatin1Char('x'))), 640);
    dialog->show();
}

int RunsWindow::deleteSelected(bool ask)
{
    const QStringList files = selectedFiles();
    if (files.isEmpty())
        return 0;
    if (ask && QMessageBox::question(
                   this, tr("Delete runs?"),
                   files.size() == 1 ? tr("Delete this run from the library? This cannot be "
                                          "undone.")
                                     : tr("Delete these %1 runs from the library? This "
                                          "cannot be undone.")
                                           .arg(files.size()),
                   QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel) != QMessageBox::Yes)
        return 0;
    int deleted = 0;
    QStringList errors;
    for (const QString &f : files) {
        std::string error;
        if (m_library.remove(f.toStdString(), error))
            ++deleted;
        else
            errors << QString::fromStdString(error);
    }
    refresh();
    if (!errors.isEmpty())
        QMessageBox::warning(this, tr("Not deleted"), errors.join(QLatin1Char('\n')));
    return deleted;
}

} // namespace latprobe
