#pragma once

#include "livesession.h"

#include <QPalette>

#include <vector>

class QCustomPlot;
class QCPItemStraightLine;
class QCPItemText;

namespace latprobe {

// The vertical, labelled lines a time plot draws where a load started or
// stopped, or the counters were reset. Items leave the plot once their time
// has slid out of the window, so a long session does not pile them up.
class LoadMarkers
{
public:
    explicit LoadMarkers(QCustomPlot *plot);

    void setEvents(const std::vector<MarkerEvent> &events);
    // Drops markers older than `lo`; call as the window slides. A label
    // with no room left of its line moves to the right of it; labels that
    // would meet stack in rows.
    void setWindow(double lo, double hi);
    void applyPalette(const QPalette &palette);
    size_t size() const { return m_items.size(); }

private:
    struct Item
    {
        double timeS;
        MarkerEvent::Kind kind;
        QCPItemStraightLine *line;
        QCPItemText *text;
    };

    void style(Item &item);

    QCustomPlot *m_plot;
    QPalette m_palette;
    std::vector<Item> m_items;
    size_t m_seen = 0; // events already turned into items
    double m_lo = 0;
    double m_hi = 60;
};

} // namespace latprobe
