#pragma once

#include "plotpanel.h"

#include <QString>

#include <vector>

namespace latprobe {

// An A/B round by round: each round's value of one metric under each
// variant, a point each, and the variants of one round joined by a line.
// Drift moves a round's points together; a setting's effect keeps the same
// variant above in every round. Colours as the CdfPlot's, a variant each.
class RoundPlot : public PlotPanel
{
    Q_OBJECT
public:
    struct Point
    {
        QString series; // "base", or "base · burn x4" with every phase shown
        int variant = 0;
        int round = 1; // 1-based
        int phase = 0; // a scatter shape each; joins stay within a phase
        double value = 0;
    };

    explicit RoundPlot(QWidget *parent = nullptr);

    // `valueLabel` names the axis: "video p99 ms".
    void setPoints(std::vector<Point> points, const QString &valueLabel);
    int pointCount() const { return static_cast<int>(m_points.size()); }
    // The points drawn in a round, every variant's.
    int pointsInRound(int round) const;
    // The lines joining a round's variants, one per round and phase with two
    // variants.
    int joinCount() const { return m_joins; }

protected:
    void applyPalette() override;

private:
    void rebuild();

    std::vector<Point> m_points;
    int m_joins = 0;
};

} // namespace latprobe
