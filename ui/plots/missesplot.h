#pragma once

#include "consumerconfig.h"
#include "timeplot.h"

#include <vector>

class QCPBars;
class QCPGraph;
class QCPItemText;

namespace latprobe {

// Missed deadlines per second over the last minute: skips, dropped frames, stalls
// and slow starts stacked, one bar per second.
class MissesPlot : public TimePlot
{
    Q_OBJECT
public:
    MissesPlot(const std::vector<ConsumerConfig> &consumers, QWidget *parent = nullptr);

    // When (s since the run started) the flight recorder explained a miss:
    // each gets a mark over its second's bar, so the user sees where a
    // click finds an explanation (only the first misses of a phase are
    // explained). Shown at the next refresh.
    void setExplainedTimes(std::vector<double> timesS);
    // The marks within the plot's window at its last refresh.
    size_t explainedMarksShown() const { return m_explainedShown; }

signals:
    // A click on the plot, at `timeS` since the run started: who delayed
    // the misses there (WhoDelayedDialog).
    void clickedAt(double timeS);

protected:
    bool updateData(const LiveData &live, double lo) override;
    // A bar a second: the window moves with the seconds, not with every
    // refresh, so an idle plot (no miss) is redrawn once a second at most.
    double windowStepS() const override { return 1; }
    void applyPalette() override;

private:
    void placeExplainedMarks(const std::vector<double> &stack, int64_t firstSecond, double lo);

    std::vector<size_t> m_consumers; // indices with a deadline
    std::vector<std::string> m_names;
    std::vector<QCPBars *> m_bars;
    std::vector<int64_t> m_openSecond;
    QCPItemText *m_empty;
    QCPGraph *m_explained;
    std::vector<double> m_explainedTimes; // sorted
    size_t m_explainedShown = 0;
    double m_total = 0;
    double m_upper = 0;
    std::vector<double> m_drawn; // every bar and mark as last drawn, to skip a replot of the same
};

} // namespace latprobe
