#include "wakeuphistogram.h"

#include "consumertable.h"

#include "consumerstyle.h"
#include "latencytext.h"
#include "livedata.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace latprobe {

namespace {
constexpr int kBinsPerDecade = 10;

double binLow(int bin)
{
    return std::pow(10.0, static_cast<double>(bin) / kBinsPerDecade);
}

int binOf(int64_t us)
{
    // 0 µs (a truncated sub-µs latency) joins the first bin.
    const double v = static_cast<double>(std::max<int64_t>(us, 1));
    return static_cast<int>(std::floor(std::log10(v) * kBinsPerDecade + 1e-9));
}
} // namespace

WakeupHistogram::WakeupHistogram(QWidget *parent)
    : PlotPanel(tr("Wakeup latency distribution"), parent)
{
    setExportName(QStringLiteral("wakeup-histogram"));
    setToolTip(
        tr("How many wakeups of the 1 ms wakeup consumer (cyclictest's method) came how late.\n"
           "Bars: the current phase; line: the last 10 s. Both axes are logarithmic, 10 bins "
           "per decade.\nVertical lines: p99 and maximum since the last reset."));
    QCustomPlot *p = plot();
    for (QCPAxis *axis : {p->xAxis, p->yAxis}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
        ticker->setSubTickCount(0);
        ticker->setTickCount(3); // every other decade once the range is wide
        axis->setTicker(ticker);
        axis->setNumberFormat(QStringLiteral("eb"));
        axis->setNumberPrecision(0);
    }
    p->xAxis->setLabel(tr("latency, µs"));
    p->yAxis->setLabel(tr("wakeups"));

    m_phase = new QCPBars(p->xAxis, p->yAxis);
    m_phase->setName(tr("this phase"));
    // Constant pixel width: every log bin is equally wide on screen.
    m_phase->setWidthType(QCPBars::wtAxisRectRatio);
    m_phase->setBaseValue(0.7);
    m_window = p->addGraph();
    m_window->setName(tr("last 10 s"));
    m_window->setLineStyle(QCPGraph::lsLine);
    m_window->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4));

    m_p99 = p->addGraph();
    m_max = p->addGraph();
    for (QCPGraph *g : {m_p99, m_max}) {
        g->setLineStyle(QCPGraph::lsLine);
        g->removeFromLegend();
    }

    placeLegendUnderTitle(2);
    p->xAxis->setRange(1, 1e4);
    p->yAxis->setRange(0.7, 1e4);
    WakeupHistogram::applyPalette();
}

void WakeupHistogram::applyPalette()
{
    PlotPanel::applyPalette();
    const QPalette pal = palette();
    const QColor c = consumerColor(std::string(consumerTraits(ConsumerRole::Wakeup).name), pal);
    QColor fill = c;
    fill.setAlpha(150);
    m_phase->setPen(Qt::NoPen);
    m_phase->setBrush(fill);
    const QColor text = pal.color(QPalette::WindowText);
    m_window->setPen(QPen(text, 1));
    m_window->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(text, 1), pal.brush(QPalette::Base), 4));
    m_p99->setPen(QPen(text, 1, Qt::DashLine));
    m_max->setPen(QPen(text, 1, Qt::DotLine));
}

std::vector<std::pair<double, double>> WakeupHistogram::bin(const SparseHistogram &h)
{
    std::vector<std::pair<double, double>> out;
    for (const auto &[us, count] : h) {
        const int b = binOf(us);
        const double low = binLow(b);
        if (!out.empty() && out.back().first == low)
            out.back().second += static_cast<double>(count);
        else
            out.emplace_back(low, static_cast<double>(count));
    }
    return out;
}

void WakeupHistogram::refresh(const LiveData &live)
{
    const auto phase = bin(live.phaseHistogram());
    const auto window = bin(live.windowHistogram());
    // Bars and points sit at the geometric middle of their bin.
    const double mid = std::pow(10.0, 0.5 / kBinsPerDecade);
    double maxCount = 1, maxUs = 10;
    QVector<QCPBarsData> bars;
    bars.reserve(static_cast<int>(phase.size()));
    for (const auto &[low, count] : phase) {
        bars.append(QCPBarsData(low * mid, count));
        maxCount = std::max(maxCount, count);
        maxUs = std::max(maxUs, low * mid * mid);
    }
    m_phase->data()->set(bars, true);
    QVector<QCPGraphData> points;
    points.reserve(static_cast<int>(window.size()));
    for (const auto &[low, count] : window) {
        points.append(QCPGraphData(low * mid, count));
        maxCount = std::max(maxCount, count);
        maxUs = std::max(maxUs, low * mid * mid);
    }
    m_window->data()->set(points, true);

    const double upperUs = std::pow(10.0, std::ceil(std::log10(std::max(maxUs, 1e3)) - 1e-9));
    const double upperCount = std::pow(10.0, std::ceil(std::log10(maxCount * 2)));
    if (upperUs != m_upperUs || upperCount != m_upperCount) {
        m_upperUs = upperUs;
        m_upperCount = upperCount;
        plot()->xAxis->setRange(1, upperUs);
        plot()->yAxis->setRange(0.7, upperCount);
        const double decades = std::log10(upperUs);
        m_phase->setWidth(0.85 / (decades * kBinsPerDecade));
    }

    // A vertical line from the axis floor to its ceiling, named with its
    // value in the legend.
    auto place = [this, upperCount](QCPGraph *g, int64_t us, const QString &label) {
        g->data()->clear();
        if (us < 0) {
            g->removeFromLegend();
            return;
        }
        const double x = std::max<double>(1, static_cast<double>(us));
        g->data()->add(QCPGraphData(x, 0.7));
        g->data()->add(QCPGraphData(x * 1.0000001, upperCount));
        g->setName(label.contains(QLatin1String("%1")) ? label.arg(formatLatencyMs(us)) : label);
        if (!plot()->legend->hasItemWithPlottable(g))
            g->addToLegend();
    };
    const int c = live.histogramConsumer();
    // The values stay at any width: the legend takes a column at a time
    // when two do not fit ("p99" without its value told nothing).
    place(m_p99, live.p99SinceResetUs(), tr("p99 %1"));
    place(m_max, c >= 0 ? live.maxSinceResetUs(static_cast<size_t>(c)) : -1, tr("max %1"));
    fitLegend();
    requestReplot();
}

} // namespace latprobe
