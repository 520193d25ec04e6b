#pragma once

#include "plotpanel.h"
#include "sparsehistogram.h"

#include <vector>

class QCPBars;
class QCPGraph;

namespace latprobe {

class LiveData;

// The wakeup consumer's latency distribution (cyclictest's histogram) on
// log-log axes, 10 bins a decade: the current phase as bars, the last 10 s
// as a line, p99 and max since the reset as vertical lines whose values
// are in the legend (labels beside the lines would collide in a narrow plot).
class WakeupHistogram : public PlotPanel
{
    Q_OBJECT
public:
    explicit WakeupHistogram(QWidget *parent = nullptr);

    void refresh(const LiveData &live);
    // Bins as drawn, for tests: (bin lower edge µs, count).
    static std::vector<std::pair<double, double>> bin(const SparseHistogram &h);

protected:
    void applyPalette() override;

private:
    QCPBars *m_phase;
    QCPGraph *m_window;
    QCPGraph *m_p99;
    QCPGraph *m_max;
    double m_upperCount = 0, m_upperUs = 0;
};

} // namespace latprobe
