#include "cdfplot.h"

#include "consumerstyle.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace latprobe {

namespace {

// Percentile ticks on the tail axis: the fraction later than x, and its name.
const std::pair<double, const char *> kTailTicks[] = {
    {0.5, "p50"},     {0.1, "p90"},      {0.01, "p99"},      {1e-3, "p99.9"},
    {1e-4, "p99.99"}, {1e-5, "p99.999"}, {1e-6, "p99.9999"},
};

} // namespace

CdfPlot::CdfPlot(QWidget *parent) : PlotPanel(tr("Latency distribution"), parent)
{
    setExportName(QStringLiteral("compare"));
    setToolTip(tr("Each curve: the share of a consumer's periods that ran at most this late, in "
                  "one phase of one run.\nUpwards: p50, p90, p99 ... (the tail is stretched); "
                  "rightwards: later (log scale).\nA curve further right or reaching the top "
                  "later is worse. Right-click to export."));
    QCustomPlot *p = plot();
    p->xAxis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> logTicker(new QCPAxisTickerLog);
    logTicker->setSubTickCount(8);
    p->xAxis->setTicker(logTicker);
    p->xAxis->setNumberFormat(QStringLiteral("gb"));
    p->xAxis->setNumberPrecision(6);
    p->xAxis->setLabel(tr("latency, µs"));

    p->yAxis->setScaleType(QCPAxis::stLogarithmic);
    p->yAxis->setRangeReversed(true);
    QSharedPointer<QCPAxisTickerText> tail(new QCPAxisTickerText);
    for (const auto &[fraction, name] : kTailTicks)
        tail->addTick(fraction, QString::fromLatin1(name));
    p->yAxis->setTicker(tail);
    p->yAxis->setLabel(tr("percentile"));
    p->xAxis->setRange(1, 1e4);
    p->yAxis->setRange(1e-4, 1);

    // The legend to the right of the axes (curves fill the plot's corners),
    // at the top, rows packed: an empty element below takes the rest.
    p->legend->setVisible(true);
    auto *side = new QCPLayoutGrid;
    p->plotLayout()->addElement(1, 1, side);
    p->plotLayout()->setColumnStretchFactor(1, 0.001);
    side->addElement(0, 0, p->legend);
    side->addElement(1, 0, new QCPLayoutElement(p));
    side->setRowStretchFactor(0, 0.001);
    side->setRowStretchFactor(1, 1);
    side->setRowSpacing(0);
    p->legend->setMargins(QMargins(6, 4, 6, 4));
    p->legend->setRowSpacing(0);
    p->legend->setIconSize(24, 14); // taller than the text: room for "_"
    p->axisRect()->setMinimumMargins(QMargins(8, 4, 4, 4));
    CdfPlot::applyPalette();
}

QColor CdfPlot::seriesColour(int index, const QPalette &palette)
{
    // Okabe-Ito, then a few darker ones: distinct also to colour-blind eyes.
    static const QColor light[] = {{0x00, 0x72, 0xb2}, {0xd5, 0x5e, 0x00}, {0x00, 0x9e, 0x73},
                                   {0xcc, 0x79, 0xa7}, {0xe6, 0x9f, 0x00}, {0x56, 0xb4, 0xe9},
                                   {0x80, 0x80, 0x80}, {0x8a, 0x7a, 0x00}};
    static const QColor dark[] = {{0x56, 0xb4, 0xe9}, {0xf0, 0x80, 0x40}, {0x3d, 0xd6, 0xa6},
                                  {0xe0, 0x8e, 0xc4}, {0xf0, 0xc0, 0x40}, {0x90, 0xc8, 0xf0},
                                  {0xb0, 0xb0, 0xb0}, {0xe8, 0xd8, 0x50}};
    const int n = static_cast<int>(std::size(light));
    return (isDarkPalette(palette) ? dark : light)[((index % n) + n) % n];
}

std::vector<std::pair<double, double>>
CdfPlot::tailPoints(const std::vector<std::pair<int64_t, uint64_t>> &histogram, double floor)
{
    uint64_t total = 0;
    for (const auto &[us, count] : histogram)
        total += count;
    std::vector<std::pair<double, double>> out;
    if (total == 0)
        return out;
    uint64_t below = 0;
    int lastBin = INT32_MIN;
    for (const auto &[us, count] : histogram) {
        below += count;
        // A truncated 0 µs joins 1 µs: a log axis has no 0.
        const double x = static_cast<double>(std::max<int64_t>(us, 1));
        const double later = static_cast<double>(total - below) / static_cast<double>(total);
        const double y = std::max(later, floor);
        const int bin = static_cast<int>(std::floor(std::log10(x) * kPointsPerDecade));
        // One point per bin: the last, which holds the bin's whole count.
        if (bin == lastBin && !out.empty())
            out.back() = {x, y};
        else
            out.emplace_back(x, y);
        lastBin = bin;
    }
    return out;
}

void CdfPlot::setCurves(std::vector<Curve> curves)
{
    QCustomPlot *p = plot();
    for (QCPGraph *g : m_graphs)
        p->removeGraph(g);
    m_graphs.clear();
    m_curves = std::move(curves);

    uint64_t largest = 1;
    double maxUs = 10, minUs = 1e9;
    for (const Curve &c : m_curves) {
        uint64_t n = 0;
        for (const auto &[us, count] : c.histogram)
            n += count;
        largest = std::max(largest, n);
        if (!c.histogram.empty()) {
            minUs = std::min(minUs,
                             static_cast<double>(std::max<int64_t>(c.histogram.front().first, 1)));
            maxUs = std::max(maxUs, static_cast<double>(c.histogram.back().first));
        }
    }
    // The top of the axis: the finest percentile the largest curve resolves.
    const double floor = std::clamp(
        std::pow(10.0, std::floor(std::log10(1.0 / static_cast<double>(largest)))), 1e-6, 1e-2);
    for (const Curve &c : m_curves) {
        QCPGraph *g = p->addGraph();
        g->setName(c.name);
        g->setLineStyle(QCPGraph::lsStepLeft);
        g->setAdaptiveSampling(false); // kPointsPerDecade already
        QVector<QCPGraphData> points;
        for (const auto &[x, y] : tailPoints(c.histogram, floor))
            points.append(QCPGraphData(x, y));
        g->data()->set(points, true);
        m_graphs.push_back(g);
    }
    // Room below the text: packed rows would clip the "_" of massive_intr.
    for (int i = 0; i < p->legend->itemCount(); ++i)
        p->legend->item(i)->setMargins(QMargins(2, 1, 2, 3));
    if (minUs > maxUs)
        minUs = 1;
    p->xAxis->setRange(std::pow(10.0, std::floor(std::log10(minUs))),
                       std::pow(10.0, std::ceil(std::log10(maxUs * 1.05))));
    p->yAxis->setRange(floor, 1);
    applyPalette();
    requestReplot();
}

QStringList CdfPlot::curveNames() const
{
    QStringList names;
    for (const QCPGraph *g : m_graphs)
        names << g->name();
    return names;
}

int CdfPlot::pointCount(int curve) const
{
    return curve >= 0 && curve < curveCount() ? m_graphs[static_cast<size_t>(curve)]->dataCount()
                                              : 0;
}

void CdfPlot::applyPalette()
{
    PlotPanel::applyPalette();
    plot()->legend->setBrush(Qt::NoBrush);
    plot()->legend->setBorderPen(Qt::NoPen);
    const QPalette pal = palette();
    for (size_t i = 0; i < m_graphs.size() && i < m_curves.size(); ++i)
        m_graphs[i]->setPen(QPen(seriesColour(m_curves[i].colour, pal), 1.5, m_curves[i].style));
}

} // namespace latprobe
