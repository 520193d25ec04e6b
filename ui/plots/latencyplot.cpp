#include "latencyplot.h"

#include "consumerstyle.h"
#include "livedata.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace latprobe {

namespace {
constexpr double kFloorMs = 0.01; // a log axis cannot show the 0 µs of a truncated latency
constexpr double kBucketS = 0.1;
} // namespace

LatencyPlot::LatencyPlot(const std::vector<ConsumerConfig> &consumers, QWidget *parent)
    : TimePlot(tr("Worst latency per 100 ms (ms, log scale)"), parent), m_consumers(consumers),
      m_open(consumers.size(), 0)
{
    setExportName(QStringLiteral("latency"));
    setToolTip(tr("How late each consumer ran after its period began, worst of every 100 ms.\n"
                  "Dashed lines: deadlines (audio: one period of buffer; video and gui: one "
                  "frame).\nA point above its deadline line is a skip, drop or stall.\n"
                  "Vertical lines: loads started (solid) and stopped (dashed). Right-click to "
                  "export."));
    QCustomPlot *p = plot();
    p->yAxis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
    ticker->setLogBase(10);
    ticker->setSubTickCount(0);
    p->yAxis->setTicker(ticker);
    p->yAxis->setNumberFormat(QStringLiteral("gb"));
    p->yAxis->setNumberPrecision(3);
    p->yAxis->setLabel(tr("latency, ms"));

    for (const ConsumerConfig &c : m_consumers) {
        QCPGraph *g = p->addGraph();
        g->setName(QString::fromStdString(c.name));
        g->setAdaptiveSampling(false); // at most a point per pixel already
        if (c.kind == ConsumerKind::ProcessStart)
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, 4));
        m_graphs.push_back(g);
        // start's deadline is on the exit of its process, not on the latency
        // plotted here; drawing it would mislead.
        if (!c.hasDeadline() || c.kind == ConsumerKind::ProcessStart)
            continue;
        const double ms = static_cast<double>(c.slackNs) / 1e6;
        auto same = std::find_if(m_deadlines.begin(), m_deadlines.end(),
                                 [&](const Deadline &d) { return std::abs(d.ms - ms) < 0.01; });
        if (same != m_deadlines.end()) {
            same->label += QStringLiteral(", ") + QString::fromStdString(c.name);
            continue;
        }
        Deadline d{ms, QString::fromStdString(c.name), c.name, new QCPItemStraightLine(p),
                   new QCPItemText(p)};
        d.text->setLayer(QStringLiteral("axes")); // above every graph
        for (QCPItemPosition *pos : {d.line->point1, d.line->point2}) {
            pos->setTypeX(QCPItemPosition::ptAxisRectRatio);
            pos->setTypeY(QCPItemPosition::ptPlotCoords);
        }
        d.line->point1->setCoords(0, ms);
        d.line->point2->setCoords(1, ms);
        d.text->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
        d.text->position->setTypeY(QCPItemPosition::ptPlotCoords);
        // Left end, on a backing: the newest data arrives on the right.
        d.text->position->setCoords(0.005, ms);
        d.text->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        d.text->setPadding(QMargins(2, 0, 2, 0));
        m_deadlines.push_back(d);
    }
    for (Deadline &d : m_deadlines)
        d.text->setText(tr("%1 deadline %2 ms").arg(d.label).arg(d.ms, 0, 'f', d.ms < 10 ? 2 : 1));

    placeLegendUnderTitle(static_cast<int>(m_consumers.size()));
    fitValueRange(0);
    LatencyPlot::applyPalette();
}

void LatencyPlot::applyPalette()
{
    TimePlot::applyPalette();
    const QPalette pal = palette();
    for (size_t i = 0; i < m_graphs.size(); ++i) {
        const QColor c = consumerColor(m_consumers[i].name, pal);
        // 1 px: wider lines leave the raster engine's fast path.
        m_graphs[i]->setPen(QPen(c, 1));
        QCPScatterStyle s = m_graphs[i]->scatterStyle();
        s.setPen(QPen(c));
        s.setBrush(c);
        m_graphs[i]->setScatterStyle(s);
    }
    for (Deadline &d : m_deadlines) {
        const QColor c = consumerColor(d.colourOf, pal);
        d.line->setPen(QPen(c, 1, Qt::DashLine));
        d.text->setColor(c);
        QColor backing = pal.color(QPalette::Base);
        backing.setAlpha(200);
        d.text->setBrush(backing);
        QFont f = font();
        f.setPointSizeF(f.pointSizeF() * 0.9);
        d.text->setFont(f);
    }
}

namespace {

// What a graph's data looks like from its ends: a rewrite of the newest
// point, an append or a removal at either end changes it.
struct LatencyGraphEnds
{
    int size = 0;
    double firstKey = 0, lastKey = 0, lastValue = 0;

    explicit LatencyGraphEnds(const QCPGraphDataContainer &c) : size(c.size())
    {
        if (c.isEmpty())
            return;
        firstKey = c.constBegin()->key;
        lastKey = (c.constEnd() - 1)->key;
        lastValue = (c.constEnd() - 1)->value;
    }
    bool operator==(const LatencyGraphEnds &) const = default;
};

} // namespace

bool LatencyPlot::updateData(const LiveData &live, double lo)
{
    double maxMs = 0;
    bool changed = false;
    for (size_t c = 0; c < m_graphs.size() && c < live.consumerCount(); ++c) {
        const auto &recent = live.recent(c);
        QCPGraphDataContainer &container = *m_graphs[c]->data();
        const LatencyGraphEnds before(container);
        if (!recent.empty()) {
            // Rewrite from the bucket that may have grown since the last tick;
            // everything before it is final and stays as it is.
            container.removeAfter(static_cast<double>(m_open[c]) * kBucketS - 1e-6);
            auto it = std::lower_bound(
                recent.begin(), recent.end(), m_open[c],
                [](const FineBucket &b, int64_t index) { return b.index < index; });
            for (; it != recent.end(); ++it)
                if (it->maxUs >= 0)
                    container.add(QCPGraphData(static_cast<double>(it->index) * kBucketS,
                                               std::max(kFloorMs, it->maxUs / 1000.0)));
            m_open[c] = recent.back().index;
        }
        container.removeBefore(lo - 1);
        for (const QCPGraphData &d : container)
            maxMs = std::max(maxMs, d.value);
        changed = changed || !(LatencyGraphEnds(container) == before);
    }
    return fitValueRange(maxMs) || changed;
}

bool LatencyPlot::fitValueRange(double maxMs)
{
    // Whole decades, so the scale only moves when the worst case does.
    double upper = 200;
    while (upper < maxMs * 1.5)
        upper *= 10;
    if (upper == m_upper)
        return false;
    m_upper = upper;
    plot()->yAxis->setRange(kFloorMs, upper);
    return true;
}

int LatencyPlot::pointCount(size_t consumer) const
{
    return m_graphs.at(consumer)->data()->size();
}

} // namespace latprobe
