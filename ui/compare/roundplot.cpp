#include "roundplot.h"

#include "cdfplot.h"

#include <qcustomplot.h>

#include <algorithm>
#include <map>
#include <utility>

namespace latprobe {

RoundPlot::RoundPlot(QWidget *parent) : PlotPanel(tr("Round by round"), parent)
{
    setExportName(QStringLiteral("rounds"));
    setToolTip(tr("Each round's value under each variant, the variants of a round joined.\n"
                  "Rounds that drift move both ends of their line together: the turns cancel "
                  "it. A setting's effect keeps one variant above in every round.\nRight-click "
                  "to export."));
    QCustomPlot *p = plot();
    p->xAxis->setLabel(tr("round"));
    QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
    ticker->setTickStep(1);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    p->xAxis->setTicker(ticker);
    p->xAxis->setNumberFormat(QStringLiteral("f"));
    p->xAxis->setNumberPrecision(0);
    placeLegendUnderTitle(2);
    RoundPlot::applyPalette();
}

void RoundPlot::setPoints(std::vector<Point> points, const QString &valueLabel)
{
    m_points = std::move(points);
    plot()->yAxis->setLabel(valueLabel);
    rebuild();
}

int RoundPlot::pointsInRound(int round) const
{
    return static_cast<int>(std::count_if(m_points.begin(), m_points.end(),
                                          [round](const Point &p) { return p.round == round; }));
}

void RoundPlot::applyPalette()
{
    PlotPanel::applyPalette();
    rebuild();
}

void RoundPlot::rebuild()
{
    QCustomPlot *p = plot();
    p->clearPlottables();
    p->clearItems();
    m_joins = 0;
    int variants = 1, rounds = 1;
    double lo = 0, hi = 1;
    for (const Point &pt : m_points) {
        variants = std::max(variants, pt.variant + 1);
        rounds = std::max(rounds, pt.round);
        hi = std::max(hi, pt.value);
        lo = std::min(lo, pt.value);
    }
    // A round's variants side by side, in their order, so its line slants.
    auto xOf = [variants](const Point &pt) {
        return pt.round + (variants > 1 ? 0.3 * (pt.variant / (variants - 1.0) - 0.5) : 0);
    };
    static const QCPScatterStyle::ScatterShape shapes[] = {
        QCPScatterStyle::ssDisc, QCPScatterStyle::ssSquare, QCPScatterStyle::ssTriangle,
        QCPScatterStyle::ssDiamond, QCPScatterStyle::ssCross};
    std::map<QString, QCPGraph *> graphs;
    std::map<std::pair<int, int>, std::vector<const Point *>> byRound; // (phase, round)
    for (const Point &pt : m_points) {
        QCPGraph *&g = graphs[pt.series];
        if (!g) {
            g = p->addGraph();
            g->setName(pt.series);
            g->setLineStyle(QCPGraph::lsNone);
            const QColor c = CdfPlot::seriesColour(pt.variant, palette());
            g->setPen(QPen(c));
            g->setScatterStyle(QCPScatterStyle(
                shapes[static_cast<size_t>(pt.phase) % std::size(shapes)], c, c, 8));
        }
        g->addData(xOf(pt), pt.value);
        byRound[{pt.phase, pt.round}].push_back(&pt);
    }
    const QPen join(palette().color(QPalette::Mid), 1.2);
    for (auto &[key, pts] : byRound) {
        std::sort(pts.begin(), pts.end(),
                  [](const Point *a, const Point *b) { return a->variant < b->variant; });
        for (size_t i = 1; i < pts.size(); ++i) {
            auto *line = new QCPItemLine(p);
            line->setPen(join);
            line->start->setCoords(xOf(*pts[i - 1]), pts[i - 1]->value);
            line->end->setCoords(xOf(*pts[i]), pts[i]->value);
            ++m_joins;
        }
    }
    p->xAxis->setRange(0.5, rounds + 0.5);
    const double pad = (hi - lo) * 0.08;
    p->yAxis->setRange(lo - (lo < 0 ? pad : 0), hi + pad);
    requestReplot();
}

} // namespace latprobe
