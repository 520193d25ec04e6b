#pragma once

#include "plotpanel.h"

#include <QString>

#include <vector>

namespace latprobe {

// Each change a comparison found, as a point with its 95 % interval as a
// whisker, on a log scale around 1 (no change): per consumer and metric of
// one phase, one colour per run. Significant changes are drawn solid, the
// "~" ones hollow, so the eye finds what the verdict column says.
class RatioPlot : public PlotPanel
{
    Q_OBJECT
public:
    struct Point
    {
        QString label; // "audio p99"
        int run = 1;   // 1-based against run 0
        double ratio = 1;
        double low = 1, high = 1; // the interval; equal to ratio when unbounded
        bool significant = false;
    };

    explicit RatioPlot(QWidget *parent = nullptr);

    void setPoints(std::vector<Point> points);
    // What the ratios are to: "run 1", or an A/B's first variant.
    void setBaseName(const QString &name);
    int pointCount() const { return static_cast<int>(m_points.size()); }
    // Whether a point's error bar, as drawn, runs past the plot's right
    // edge: an interval the samples left open above.
    bool barRunsOffToTheRight(int point) const;

protected:
    void applyPalette() override;

private:
    void rebuild();

    std::vector<Point> m_points;
    std::vector<double> m_barHighs; // each drawn point's bar's upper end (as m_points)
};

} // namespace latprobe
