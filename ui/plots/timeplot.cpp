#include "timeplot.h"

#include "livedata.h"
#include "loadmarkers.h"

#include <qcustomplot.h>

#include <algorithm>

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
    const double hi = std::max(kWindowS, live.nowS());
    const double lo = hi - kWindowS;
    updateData(live, lo);
    plot()->xAxis->setRange(lo, hi);
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
