#pragma once

#include <qcustomplot.h>

namespace latprobe {

// A plot's title and legend entries that lay out their text only when it
// changes. QCustomPlot asks every layout element for its size at every
// replot, and its own text elements measure their text each time: in the
// idle window that was 6 % of the GUI thread, for text that never changed.

class SteadyTitle : public QCPTextElement
{
public:
    SteadyTitle(QCustomPlot *plot, const QString &text) : QCPTextElement(plot, text) {}
    int measurements() const { return m_measurements; }

protected:
    QSize minimumOuterSizeHint() const override;
    QSize maximumOuterSizeHint() const override;

private:
    mutable QString m_measuredText;
    mutable QFont m_measuredFont;
    mutable QMargins m_measuredMargins;
    mutable QSize m_size; // invalid until measured
    mutable int m_measurements = 0;
};

class SteadyLegendItem : public QCPPlottableLegendItem
{
public:
    SteadyLegendItem(QCPLegend *legend, QCPAbstractPlottable *plottable)
        : QCPPlottableLegendItem(legend, plottable)
    {}
    int measurements() const { return m_measurements; }

protected:
    QSize minimumOuterSizeHint() const override;

private:
    mutable QString m_measuredName;
    mutable QFont m_measuredFont;
    mutable QSize m_measuredIcon;
    mutable int m_measuredPadding = -1;
    mutable QMargins m_measuredMargins;
    mutable QSize m_size;
    mutable int m_measurements = 0;
};

// Puts a SteadyLegendItem in place of each plain entry the legend holds
// (QCustomPlot makes plain ones when a plottable joins it); the cells keep
// their order.
void makeLegendSteady(QCPLegend *legend);

} // namespace latprobe
