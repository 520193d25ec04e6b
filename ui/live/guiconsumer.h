#pragma once

#include "consumerconfig.h"
#include "sample.h"
#include "spscring.h"

#include <QObject>

class QTimer;

namespace latprobe {

// Measures the Qt event loop itself: a precise single-shot timer aimed at
// each 16.67 ms period; how late its slot runs is the event loop's
// lateness, and more than a frame late is a stall. Runs in the GUI thread
// and is the single writer of its consumer's ring (an External consumer).
class GuiConsumer : public QObject
{
    Q_OBJECT
public:
    // `config` is the session's, read where it lives: it outlives this.
    GuiConsumer(const ConsumerConfig &config, SpscRing<Sample> &ring, int64_t origin,
                QObject *parent = nullptr);

    void start();
    void stop();
    bool isActive() const;
    uint64_t ticks() const { return m_ticks; }

private:
    void onTimeout();
    void scheduleNext();

    const ConsumerConfig &m_config;
    SpscRing<Sample> &m_ring;
    QTimer *m_timer;
    int64_t m_next = 0; // the period's start on the grid origin + k * period
    int64_t m_due = 0;  // when the timer was set to fire
    uint64_t m_ticks = 0;
};

} // namespace latprobe
