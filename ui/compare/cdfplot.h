#pragma once

#include "plotpanel.h"

#include <QColor>
#include <QStringList>

#include <cstdint>
#include <utility>
#include <vector>

class QCPGraph;

namespace latprobe {

// Latency distributions overlaid: x is the latency in µs (log), y the
// percentile on a log scale of the tail (p50, p90, p99, p99.9 ... upwards),
// so the tail where kernels differ gets as much room as the median. Each
// curve is cut to kPointsPerDecade points per decade of latency.
class CdfPlot : public PlotPanel
{
    Q_OBJECT
public:
    static constexpr int kPointsPerDecade = 40;

    struct Curve
    {
        QString name;
        int colour = 0; // index into the plot's run/phase colours
        Qt::PenStyle style = Qt::SolidLine;
        std::vector<std::pair<int64_t, uint64_t>> histogram; // (µs, count)
    };

    explicit CdfPlot(QWidget *parent = nullptr);

    void setCurves(std::vector<Curve> curves);
    int curveCount() const { return static_cast<int>(m_graphs.size()); }
    QStringList curveNames() const;
    int pointCount(int curve) const;

    // (µs, fraction of samples later than that), the last point at `floor`.
    static std::vector<std::pair<double, double>>
    tailPoints(const std::vector<std::pair<int64_t, uint64_t>> &histogram, double floor);
    static QColor seriesColour(int index, const QPalette &palette);

protected:
    void applyPalette() override;

private:
    std::vector<Curve> m_curves;
    std::vector<QCPGraph *> m_graphs;
};

} // namespace latprobe
