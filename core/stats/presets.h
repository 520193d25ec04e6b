#pragma once

#include "consumerconfig.h"

#include <string>
#include <vector>

namespace latprobe {

// Audio: `frames` at `rateHz` per period; the device holds `bufferPeriods`
// periods, so a period may finish up to (bufferPeriods - 1) periods late.
ConsumerConfig audioConsumer(int frames = 256, int rateHz = 48000, int bufferPeriods = 2,
                             double cpuPct = 5);
ConsumerConfig audioConsumerByPeriod(int64_t periodNs, int bufferPeriods, double cpuPct);
// Video: one frame per period, due by the next frame.
ConsumerConfig videoConsumer(double fps = 60, double cpuPct = 40);
// cyclictest's method: no work, latency only.
ConsumerConfig wakeupConsumer(int64_t intervalUs = 1000);

// interbench's X: window after window of `windowMs`, it works 0, 1, ...
// windowMs ms (one `stepMs` more each window) and is due by the window's end.
ConsumerConfig xConsumer(int64_t windowMs = 100, int64_t stepMs = 1);
// interbench's Gaming: `burnMs` of work back to back, no deadline.
ConsumerConfig gamingConsumer(int64_t burnMs = 100);

// Starts a tiny process every period; slower than `deadlineMs` to exit is
// a slow start.
ConsumerConfig startConsumer(int64_t periodMs = 1000, int64_t deadlineMs = 100);

// The window's own event loop: a 60 Hz timer, due by the next frame, fed by
// the GUI thread (an External consumer) rather than a thread of the probe's.
ConsumerConfig guiConsumer();

struct Preset
{
    std::string name;
    std::string description;
    // audio, video, wakeup, start (the default set), x, gaming
    std::vector<ConsumerConfig> consumers;
};

const std::vector<Preset> &presets();
const Preset *findPreset(const std::string &name);

} // namespace latprobe
