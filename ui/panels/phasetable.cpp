#include "phasetable.h"

#include "consumersummary.h"
#include "latencytext.h"
#include "scenariobar.h"

#include <QEvent>
#include <QHeaderView>
#include <QStyle>

#include <algorithm>

namespace latprobe {

namespace {

QString fromView(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString summaryText(const ConsumerSummary &s)
{
    if (s.traits->summary == SummaryFigure::P99)
        return s.p99Us < 0 ? QStringLiteral("–") : formatLatencyMs(s.p99Us);
    return QString::fromStdString(s.text());
}

} // namespace

PhaseTable::PhaseTable(QWidget *parent)
    : QTreeWidget(parent),
      m_columns(FirstConsumer + static_cast<int>(summarizeConsumers(PhaseResult{}).size()))
{
    setColumnCount(m_columns);
    QStringList labels = {tr("Phase"), tr("Variant"), tr("Time")};
    const std::vector<ConsumerSummary> consumers = summarizeConsumers(PhaseResult{});
    for (const ConsumerSummary &s : consumers)
        labels << fromView(s.traits->column);
    setHeaderLabels(labels);
    QTreeWidgetItem *h = headerItem();
    h->setToolTip(Name, tr("A stretch of the run with one set of loads, or since a reset"));
    h->setToolTip(Variant, tr("The variant of the system the phase ran under (an A/B)"));
    h->setToolTip(Duration, tr("How long the phase has lasted (min:s)"));
    for (size_t i = 0; i < consumers.size(); ++i)
        h->setToolTip(FirstConsumer + static_cast<int>(i),
                      tr("%1, in the phase").arg(fromView(consumers[i].traits->columnTip)));
    for (int c = Duration; c < m_columns; ++c)
        h->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    setRootIsDecorated(false);
    setUniformRowHeights(true);
    setAlternatingRowColors(true);
    setSelectionMode(QAbstractItemView::NoSelection);
    setFocusPolicy(Qt::TabFocus);
    header()->setStretchLastSection(false);
    header()->setSectionResizeMode(Name, QHeaderView::Stretch);
    setColumnHidden(Variant, true);
    fitAllColumns();
    setToolTip(tr("Per phase, what the report will show. Copy report for every figure."));
}

void PhaseTable::setPhases(const std::vector<PhaseResult> &phases, double resetS)
{
    const QColor dim = palette().color(QPalette::Disabled, QPalette::Text);
    bool changed = false;
    const bool variants = std::any_of(phases.begin(), phases.end(),
                                      [](const PhaseResult &p) { return !p.variant.empty(); });
    if (isColumnHidden(Variant) == variants) {
        setColumnHidden(Variant, !variants);
        fitAllColumns(); // a hidden column's header had no width to fit
    }
    for (size_t i = 0; i < phases.size(); ++i) {
        const PhaseResult &p = phases[i];
        QTreeWidgetItem *item = topLevelItem(static_cast<int>(i));
        const bool added = !item;
        if (added) {
            item = new QTreeWidgetItem;
            for (int c = Duration; c < m_columns; ++c)
                item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        }
        auto set = [this, item](int column, const QString &text) {
            if (item->text(column) == text)
                return;
            item->setText(column, text);
            if (column != Name)
                fitColumn(column, text);
        };
        set(Name, QStringLiteral("%1  %2").arg(i + 1).arg(QString::fromStdString(p.name)));
        set(Variant, QString::fromStdString(p.variant));
        set(Duration, ScenarioBar::elapsed(p.durationS));
        const std::vector<ConsumerSummary> consumers = summarizeConsumers(p);
        for (size_t c = 0; c < consumers.size(); ++c)
            set(FirstConsumer + static_cast<int>(c), summaryText(consumers[c]));
        const bool before = p.startS + 1e-6 < resetS;
        for (int c = 0; c < m_columns; ++c)
            item->setData(c, Qt::ForegroundRole, before ? QVariant(dim) : QVariant());
        item->setToolTip(Name, before ? tr("Before the last reset: not in the counters above")
                                      : QString::fromStdString(p.name));
        // Filled before it joins the view: a row inserted empty and filled
        // afterwards left its first cell unpainted under X11.
        if (added) {
            addTopLevelItem(item);
            changed = true;
        }
    }
    bool removed = false;
    while (topLevelItemCount() > static_cast<int>(phases.size())) {
        delete takeTopLevelItem(topLevelItemCount() - 1);
        removed = changed = true;
    }
    if (removed)
        fitAllColumns(); // the widest figure may have gone with its row
    if (changed && topLevelItemCount() > 0) {
        scrollToItem(topLevelItem(topLevelItemCount() - 1));
        viewport()->update();
    }
}

int PhaseTable::neededHeight() const
{
    const int rows = std::max(topLevelItemCount(), 1);
    // Rows are uniform and one line each: measured once per font, not at
    // each of the window's load ticks.
    if (m_rowHeight <= 0 && topLevelItemCount() > 0)
        m_rowHeight = sizeHintForRow(0);
    const int rowHeight = m_rowHeight > 0 ? m_rowHeight : fontMetrics().height() + 4;
    return header()->sizeHint().height() + rows * rowHeight + 2 * frameWidth() + 2;
}

void PhaseTable::fitColumn(int column, const QString &text)
{
    // The item delegate's margins: a focus frame's each side, and one.
    const int margin = 2 * (style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, this) + 1);
    const int needed = fontMetrics().horizontalAdvance(text) + margin;
    if (needed > header()->sectionSize(column))
        header()->resizeSection(column, needed);
}

void PhaseTable::fitAllColumns()
{
    for (int c = Variant; c < m_columns; ++c) {
        header()->setSectionResizeMode(c, QHeaderView::Interactive);
        header()->resizeSection(c, header()->sectionSizeHint(c));
        for (int row = 0; row < topLevelItemCount(); ++row)
            fitColumn(c, topLevelItem(row)->text(c));
    }
}

void PhaseTable::changeEvent(QEvent *event)
{
    QTreeWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) {
        m_rowHeight = 0;
        fitAllColumns();
    }
}

} // namespace latprobe
