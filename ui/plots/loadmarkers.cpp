#include "loadmarkers.h"

#include <qcustomplot.h>

#include <algorithm>

namespace latprobe {

LoadMarkers::LoadMarkers(QCustomPlot *plot) : m_plot(plot), m_palette(plot->palette()) {}

void LoadMarkers::setEvents(const std::vector<MarkerEvent> &events)
{
    // Events only ever get appended; a shorter list means a new session.
    if (events.size() < m_seen) {
        for (Item &item : m_items) {
            m_plot->removeItem(item.line);
            m_plot->removeItem(item.text);
        }
        m_items.clear();
        m_seen = 0;
    }
    for (size_t i = m_seen; i < events.size(); ++i) {
        const MarkerEvent &e = events[i];
        if (e.timeS < m_lo)
            continue;
        Item item{e.timeS, e.kind, new QCPItemStraightLine(m_plot), new QCPItemText(m_plot)};
        item.text->setLayer(QStringLiteral("axes")); // labels above the data
        for (QCPItemPosition *p : {item.line->point1, item.line->point2}) {
            p->setTypeX(QCPItemPosition::ptPlotCoords);
            p->setTypeY(QCPItemPosition::ptAxisRectRatio);
        }
        item.line->point1->setCoords(e.timeS, 0);
        item.line->point2->setCoords(e.timeS, 1);
        item.text->position->setTypeX(QCPItemPosition::ptPlotCoords);
        item.text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        const QString sign = e.kind == MarkerEvent::LoadStarted       ? QStringLiteral("▶ ")
                             : e.kind == MarkerEvent::LoadStopped     ? QStringLiteral("■ ")
                             : e.kind == MarkerEvent::VariantSwitched ? QStringLiteral("⇄ ")
                                                                      : QStringLiteral("↺ ");
        item.text->setText(sign + e.label);
        // Labels sit left of their line: a marker appears at the right edge,
        // where a label to its right would be cut off.
        item.text->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
        item.text->setPadding(QMargins(3, 1, 3, 1));
        item.text->position->setCoords(e.timeS, 0.02); // stacked by setWindow()
        style(item);
        m_items.push_back(item);
    }
    m_seen = events.size();
}

void LoadMarkers::setWindow(double lo, double hi)
{
    m_lo = lo;
    m_hi = hi;
    while (!m_items.empty() && m_items.front().timeS < lo - 30) {
        m_plot->removeItem(m_items.front().line);
        m_plot->removeItem(m_items.front().text);
        m_items.erase(m_items.begin());
    }
    const int width = m_plot->axisRect()->width();
    if (width <= 0 || hi <= lo)
        return;
    // Labels whose extents meet (in pixels: the plot may be narrow) stack
    // in rows instead of overprinting; each takes the lowest free row.
    constexpr int kRows = 5;
    std::vector<double> rowEnd;
    for (Item &item : m_items) {
        const double px = (item.timeS - lo) / (hi - lo) * width;
        const QFontMetrics fm(item.text->font());
        const int w = fm.horizontalAdvance(item.text->text()) + 6;
        const bool room = px > w + 4;
        const Qt::Alignment want = (room ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop;
        if (item.text->positionAlignment() != want)
            item.text->setPositionAlignment(want);
        // A marker scrolled past the left edge keeps its label whole at the
        // edge: its load is still what the plot shows ("e_intr x8" was cut).
        const double at = std::max(px, 1.0);
        const double x0 = room ? px - w : at, x1 = room ? px : at + w;
        const double labelS = room ? item.timeS : lo + at / width * (hi - lo);
        size_t row = 0;
        while (row < rowEnd.size() && rowEnd[row] + 3 > x0)
            ++row;
        if (row == rowEnd.size() && rowEnd.size() < kRows)
            rowEnd.push_back(x1);
        else if (row == rowEnd.size()) // every row taken: the one freed first
            row = static_cast<size_t>(std::min_element(rowEnd.begin(), rowEnd.end()) -
                                      rowEnd.begin());
        rowEnd[row] = x1;
        const double y = 0.02 + 0.09 * static_cast<double>(row);
        if (item.text->position->coords() != QPointF(labelS, y))
            item.text->position->setCoords(labelS, y);
    }
}

void LoadMarkers::style(Item &item)
{
    const QColor text = m_palette.color(QPalette::WindowText);
    QColor box = m_palette.color(QPalette::Base);
    box.setAlpha(210);
    const Qt::PenStyle style = item.kind == MarkerEvent::LoadStarted   ? Qt::SolidLine
                               : item.kind == MarkerEvent::LoadStopped ? Qt::DashLine
                                                                       : Qt::DotLine;
    // A variant's turn is the run's big divide: drawn bold, in the accent.
    const bool variant = item.kind == MarkerEvent::VariantSwitched;
    const QColor ink = variant ? m_palette.color(QPalette::Highlight) : text;
    item.line->setPen(QPen(ink, variant ? 2 : 1, variant ? Qt::SolidLine : style));
    item.text->setColor(ink);
    item.text->setBrush(box);
    QFont f = m_plot->font();
    f.setPointSizeF(f.pointSizeF() * 0.9);
    item.text->setFont(f);
}

void LoadMarkers::applyPalette(const QPalette &palette)
{
    m_palette = palette;
    for (Item &item : m_items)
        style(item);
}

} // namespace latprobe
