#pragma once

#include "plotpanel.h"

#include <memory>
#include <vector>

namespace latprobe {

class LiveData;
class LoadMarkers;
struct MarkerEvent;

// A plot over the last minute: the x axis slides with time (an axis range,
// not a copy of the data), and load starts/stops are marked on it.
class TimePlot : public PlotPanel
{
    Q_OBJECT
public:
    static constexpr double kWindowS = 60;

    TimePlot(const QString &title, QWidget *parent = nullptr);
    ~TimePlot() override;

    // Takes the buckets that arrived since the last call, slides the
    // window to `live.nowS()` and asks for one replot, unless neither the
    // window nor what is drawn in it changed.
    void refresh(const LiveData &live);
    void setMarkers(const std::vector<MarkerEvent> &events);
    size_t markerCount() const;

protected:
    // Appends (or rewrites, from `fromIndex` on) the data of the window;
    // returns whether anything it draws changed.
    virtual bool updateData(const LiveData &live, double lo) = 0;
    // The window's right edge moves in steps of this many seconds (0: with
    // every refresh).
    virtual double windowStepS() const { return 0; }
    void applyPalette() override;

private:
    std::unique_ptr<LoadMarkers> m_markers;
};

} // namespace latprobe
