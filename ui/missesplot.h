#pragma once

#include "consumerconfig.h"
#include "timeplot.h"

#include <vector>

class QCPBars;
class QCPItemText;

namespace latprobe {

// Missed deadlines per second over the last minute: skips, dropped frames, stalls
// and slow starts stacked, one bar per second.
class MissesPlot : public TimePlot
{
    Q_OBJECT
public:
    MissesPlot(const std::vector<ConsumerConfig> &consumers, QWidget *parent = nullptr);

    double totalInWindow() const { return m_total; }

signals:
    // A click on the plot, at `timeS` since the run started: who delayed
    // the misses there (MissExplanationDialog).
    void clickedAt(double timeS);

protected:
    void updateData(const LiveData &live, double lo) override;
    void applyPalette() override;

private:
    std::vector<size_t> m_consumers; // indices with a deadline
    std::vector<std::string> m_names;
    std::vector<QCPBars *> m_bars;
    std::vector<int64_t> m_openSecond;
    QCPItemText *m_empty;
    double m_total = 0;
    double m_upper = 0;
};

} // namespace latprobe
