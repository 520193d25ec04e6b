#pragma once

#include "consumerconfig.h"
#include "timeplot.h"

#include <vector>

class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;

namespace latprobe {

// Worst latency per 100 ms of every consumer over the last minute, on a log
// scale, with each deadline drawn as a dashed line in its consumer's colour.
// 600 points per consumer: never more points than pixels.
class LatencyPlot : public TimePlot
{
    Q_OBJECT
public:
    LatencyPlot(const std::vector<ConsumerConfig> &consumers, QWidget *parent = nullptr);

    int pointCount(size_t consumer) const;

protected:
    bool updateData(const LiveData &live, double lo) override;
    void applyPalette() override;

private:
    struct Deadline
    {
        double ms;
        QString label;
        std::string colourOf;
        QCPItemStraightLine *line;
        QCPItemText *text;
    };

    bool fitValueRange(double maxMs);

    std::vector<ConsumerConfig> m_consumers;
    std::vector<QCPGraph *> m_graphs;
    std::vector<int64_t> m_open; // per consumer: the first bucket index that may still change
    std::vector<Deadline> m_deadlines;
    double m_upper = 0;
};

} // namespace latprobe
