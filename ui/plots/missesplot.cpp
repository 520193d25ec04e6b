#include "missesplot.h"

#include "consumerstyle.h"
#include "consumertable.h"
#include "livedata.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace latprobe {

MissesPlot::MissesPlot(const std::vector<ConsumerConfig> &consumers, QWidget *parent)
    : TimePlot(tr("Missed deadlines per second"), parent)
{
    setExportName(QStringLiteral("misses"));
    setToolTip(tr("Periods lost each second, stacked: audio skips, dropped video frames, GUI "
                  "stalls (the event loop more than a frame late) and slow process starts.\n"
                  "A period is lost when its work finished after its deadline, or never "
                  "ran because an earlier one was late (interbench's accounting).\n"
                  "Click a bar: who delayed those misses, from the kernel's trace; a "
                  "\u25BC over a bar marks a miss the flight recorder explained."));
    QCustomPlot *p = plot();
    connect(p, &QCustomPlot::mousePress, this, [this](QMouseEvent *event) {
        if (event->button() == Qt::LeftButton)
            emit clickedAt(plot()->xAxis->pixelToCoord(event->position().x()));
    });
    p->yAxis->setLabel(tr("misses / s"));
    QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
    ticker->setTickStep(1);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    p->yAxis->setTicker(ticker);
    p->yAxis->setNumberFormat(QStringLiteral("f"));
    p->yAxis->setNumberPrecision(0);

    QCPBars *below = nullptr;
    for (size_t i = 0; i < consumers.size(); ++i) {
        if (!consumers[i].hasDeadline())
            continue;
        auto *bars = new QCPBars(p->xAxis, p->yAxis);
        bars->setName(QString::fromStdString(missTitle(consumers[i].name)));
        bars->setWidth(0.8);
        bars->setStackingGap(0);
        if (below)
            bars->moveAbove(below);
        below = bars;
        m_bars.push_back(bars);
        m_consumers.push_back(i);
        m_names.push_back(consumers[i].name);
        m_openSecond.push_back(0);
    }
    m_explained = new QCPGraph(p->xAxis, p->yAxis);
    m_explained->setName(tr("explained"));
    m_explained->setLineStyle(QCPGraph::lsNone);
    m_explained->removeFromLegend();
    m_explained->setSelectable(QCP::stNone);
    m_empty = new QCPItemText(p);
    m_empty->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_empty->position->setCoords(0.5, 0.45);
    // Two lines: one was cut ("...in the last mir") in a narrow plot.
    m_empty->setText(tr("No missed deadlines\nin the last minute"));
    m_empty->setTextAlignment(Qt::AlignHCenter | Qt::AlignTop);

    placeLegendUnderTitle(static_cast<int>(m_bars.size()));
    p->legend->setIconSize(10, 10);
    p->yAxis->setRange(0, 5);
    MissesPlot::applyPalette();
}

void MissesPlot::applyPalette()
{
    TimePlot::applyPalette();
    const QPalette pal = palette();
    for (size_t i = 0; i < m_bars.size(); ++i) {
        const QColor c = consumerColor(m_names[i], pal);
        m_bars[i]->setPen(Qt::NoPen);
        m_bars[i]->setBrush(c);
    }
    QColor placeholder = pal.color(QPalette::WindowText);
    placeholder.setAlpha(140);
    m_empty->setColor(placeholder);
    m_explained->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssTriangleInverted,
                                                 pal.color(QPalette::WindowText),
                                                 pal.color(QPalette::WindowText), 7));
    m_empty->setFont(font());
}

bool MissesPlot::updateData(const LiveData &live, double lo)
{
    m_total = 0;
    double stackMax = 0;
    std::vector<double> stack; // per second of the window, for the y range
    stack.reserve(64);
    const int64_t firstSecond = static_cast<int64_t>(std::floor(lo));
    for (size_t b = 0; b < m_bars.size(); ++b) {
        const auto &recent = live.recent(m_consumers[b]);
        QCPBarsDataContainer &container = *m_bars[b]->data();
        if (!recent.empty()) {
            const int64_t from = m_openSecond[b];
            container.removeAfter(static_cast<double>(from) - 1e-6);
            auto it = std::lower_bound(
                recent.begin(), recent.end(), from * 10,
                [](const FineBucket &x, int64_t index) { return x.index < index; });
            int64_t second = -1;
            double sum = 0;
            for (; it != recent.end(); ++it) {
                const int64_t s = it->index / 10;
                if (s != second && sum > 0)
                    container.add(QCPBarsData(static_cast<double>(second) + 0.5, sum));
                if (s != second)
                    sum = 0;
                second = s;
                sum += it->misses;
            }
            if (sum > 0)
                container.add(QCPBarsData(static_cast<double>(second) + 0.5, sum));
            m_openSecond[b] = recent.back().index / 10;
        }
        container.removeBefore(lo - 1);
        for (const QCPBarsData &d : container) {
            const int64_t s = static_cast<int64_t>(d.key) - firstSecond;
            if (s < 0)
                continue;
            if (stack.size() <= static_cast<size_t>(s))
                stack.resize(s + 1, 0);
            stack[s] += d.value;
            m_total += d.value;
        }
    }
    for (double v : stack)
        stackMax = std::max(stackMax, v);
    m_empty->setVisible(m_total == 0);
    // Integer steps; the scale grows with the worst second and stays there
    // for the window, so bars do not jump at every tick.
    const double upper = std::max(5.0, std::ceil(stackMax * 1.15));
    if (upper != m_upper) {
        m_upper = upper;
        plot()->yAxis->setRange(0, upper);
        auto ticker = qSharedPointerCast<QCPAxisTickerFixed>(plot()->yAxis->ticker());
        ticker->setTickStep(std::max(1.0, std::pow(10.0, std::floor(std::log10(upper / 2)))));
    }
    placeExplainedMarks(stack, firstSecond, lo);

    std::vector<double> drawn{m_upper};
    drawn.reserve(m_drawn.size() + 1);
    for (const QCPBars *bars : m_bars) {
        drawn.push_back(static_cast<double>(bars->data()->size()));
        for (const QCPBarsData &d : *bars->data())
            drawn.insert(drawn.end(), {d.key, d.value});
    }
    for (const QCPGraphData &d : *m_explained->data())
        drawn.insert(drawn.end(), {d.key, d.value});
    if (drawn == m_drawn)
        return false;
    m_drawn = std::move(drawn);
    return true;
}

void MissesPlot::setExplainedTimes(std::vector<double> timesS)
{
    std::sort(timesS.begin(), timesS.end());
    m_explainedTimes = std::move(timesS);
}

void MissesPlot::placeExplainedMarks(const std::vector<double> &stack, int64_t firstSecond,
                                     double lo)
{
    // Over the bar of the miss's second, clear of it by a few % of the scale.
    QVector<double> keys, values;
    int64_t lastSecond = INT64_MIN;
    for (auto it = std::lower_bound(m_explainedTimes.begin(), m_explainedTimes.end(), lo);
         it != m_explainedTimes.end(); ++it) {
        const int64_t second = static_cast<int64_t>(std::floor(*it));
        if (second == lastSecond)
            continue; // one mark a bar
        lastSecond = second;
        const auto s = static_cast<size_t>(second - firstSecond); // times start at lo
        const double height = s < stack.size() ? stack[s] : 0;
        keys.push_back(static_cast<double>(second) + 0.5);
        values.push_back(height + m_upper * 0.06);
    }
    m_explainedShown = static_cast<size_t>(keys.size());
    m_explained->setData(keys, values, true);
}

} // namespace latprobe
