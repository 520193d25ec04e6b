#include "timeplot.h"

#include "livedata.h"
#include "loadmarkers.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace latprobe {

TimePlot::TimePlot(const QString &title, QWidget *parent)
    : PlotPanel(title, parent), m_markers(std::make_unique<LoadMarkers>(plot()))
{
    plot()->xAxis->setLabel(tr("time since start, s"));
    plot()->xAxis->setRange(0, kWindowS);
    QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
    ticker->setTickStep(10);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    plot()->xAxis->setTicker(ticker);
    TimePlot::applyPalette();
}

TimePlot::~TimePlot() = default;

void TimePlot::refresh(const LiveData &live)
{
    // The first minute fills the plot from the left; then it slides.
    double hi = std::max(kWindowS, live.nowS());
    if (const double step = windowStepS(); step > 0)
        hi = std::ceil(hi / step) * step;
    const double lo = hi - kWindowS;
    const bool changed = updateData(live, lo);
    const QCPRange window(lo, hi);
    // A replot redraws every pixel of the plot: the window's biggest cost.
    if (!changed && plot()->xAxis->range() == window)
        return;
    plot()->xAxis->setRange(window);
    m_markers->setWindow(lo, hi);
    requestReplot();
}

void TimePlot::setMarkers(const std::vector<MarkerEvent> &events)
{
    m_markers->setEvents(events);
    m_markers->setWindow(plot()->xAxis->range().lower, plot()->xAxis->range().upper);
    requestReplot();
}

size_t TimePlot::markerCount() const
{
    return m_markers->size();
}

void TimePlot::applyPalette()
{
    PlotPanel::applyPalette();
    if (m_markers)
        m_markers->applyPalette(palette());
}

} // namespace latprobe
