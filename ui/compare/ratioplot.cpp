#include "ratioplot.h"

#include "cdfplot.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace latprobe {

namespace {
constexpr double kOffThePlot = 1e6; // far past any range the plot shows
} // namespace

RatioPlot::RatioPlot(QWidget *parent) : PlotPanel(tr("Change against run 1"), parent)
{
    setExportName(QStringLiteral("changes"));
    setToolTip(tr("Each point: a run's median against run 1's, as a ratio, with its 95 % "
                  "interval as a whisker.\nLeft of 1: less latency or fewer misses (better); "
                  "right: more. Filled: a significant change; hollow: \"~\", or without a whisker: "
                  "too few samples to judge.\nRight-click to export."));
    QCustomPlot *p = plot();
    p->xAxis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
    ticker->setSubTickCount(8);
    p->xAxis->setTicker(ticker);
    p->xAxis->setNumberFormat(QStringLiteral("gb"));
    p->xAxis->setLabel(tr("ratio to run 1 (log)"));
    p->axisRect()->setMinimumMargins(QMargins(8, 4, 8, 4));
    RatioPlot::applyPalette();
}

void RatioPlot::setPoints(std::vector<Point> points)
{
    m_points = std::move(points);
    rebuild();
}

void RatioPlot::setBaseName(const QString &name)
{
    plot()->xAxis->setLabel(tr("ratio to %1 (log)").arg(name));
}

void RatioPlot::applyPalette()
{
    PlotPanel::applyPalette();
    rebuild();
}

void RatioPlot::rebuild()
{
    QCustomPlot *p = plot();
    p->clearPlottables();
    p->clearItems();
    QSharedPointer<QCPAxisTickerText> rows(new QCPAxisTickerText);
    double lo = 0.5, hi = 2;
    int runs = 0;
    for (const Point &pt : m_points)
        runs = std::max(runs, pt.run);
    // A row per label, top to bottom; runs side by side within it.
    std::vector<QString> labels;
    for (const Point &pt : m_points)
        if (std::find(labels.begin(), labels.end(), pt.label) == labels.end())
            labels.push_back(pt.label);
    for (size_t i = 0; i < labels.size(); ++i)
        rows->addTick(static_cast<double>(labels.size() - i), labels[i]);
    p->yAxis->setTicker(rows);
    p->yAxis->setRange(0.4, static_cast<double>(labels.size()) + 0.6);
    // A graph of one point each: a graph keeps its points sorted by key,
    // and its error bars follow them by index.
    m_barHighs.assign(m_points.size(), 0);
    for (size_t i = 0; i < m_points.size(); ++i) {
        const Point &pt = m_points[i];
        if (!(pt.ratio > 0))
            continue;
        const QColor colour = CdfPlot::seriesColour(pt.run, palette());
        const auto row = std::find(labels.begin(), labels.end(), pt.label) - labels.begin();
        const double offset = runs > 1 ? 0.25 * (pt.run - (runs + 1) / 2.0) : 0;
        auto *graph = p->addGraph(p->xAxis, p->yAxis);
        graph->setLineStyle(QCPGraph::lsNone);
        graph->setScatterStyle(
            QCPScatterStyle(pt.significant ? QCPScatterStyle::ssDisc : QCPScatterStyle::ssCircle,
                            colour, pt.significant ? colour : palette().color(QPalette::Base), 8));
        graph->setData({pt.ratio}, {static_cast<double>(labels.size() - row) - offset});
        graph->removeFromLegend();
        // An end the samples do not bound ([72.1, inf)) runs off the plot,
        // as open as the table prints it; the range follows the bounded ends.
        const bool lowBounded = std::isfinite(pt.low) && pt.low > 0;
        const bool highBounded = std::isfinite(pt.high);
        const double low = lowBounded ? pt.low : pt.ratio / kOffThePlot;
        const double high = highBounded ? pt.high : pt.ratio * kOffThePlot;
        auto *bars = new QCPErrorBars(p->xAxis, p->yAxis);
        bars->setErrorType(QCPErrorBars::etKeyError);
        bars->setPen(QPen(colour, 1.2));
        bars->setDataPlottable(graph);
        bars->setData({pt.ratio - low}, {high - pt.ratio});
        m_barHighs[i] = high;
        bars->removeFromLegend();
        lo = std::min({lo, pt.ratio, lowBounded ? low : pt.ratio});
        hi = std::max({hi, pt.ratio, highBounded ? high : pt.ratio});
    }
    auto *one = new QCPItemStraightLine(p);
    one->point1->setCoords(1, 0);
    one->point2->setCoords(1, 1);
    one->setPen(QPen(palette().color(QPalette::Mid), 1, Qt::DashLine));
    p->xAxis->setRange(lo / 1.2, hi * 1.2);
    requestReplot();
}

bool RatioPlot::barRunsOffToTheRight(int point) const
{
    const auto i = static_cast<size_t>(point);
    return i < m_barHighs.size() && m_barHighs[i] > plot()->xAxis->range().upper;
}

} // namespace latprobe
