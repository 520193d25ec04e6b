#include "presets.h"

#include "consumertable.h"

#include <cmath>

namespace latprobe {

namespace {
int64_t share(int64_t periodNs, double pct)
{
    return static_cast<int64_t>(std::llround(static_cast<double>(periodNs) * pct / 100.0));
}

ConsumerConfig consumerOf(ConsumerRole role)
{
    const ConsumerTraits &t = consumerTraits(role);
    ConsumerConfig c;
    c.role = role;
    c.name = t.name;
    if (role != ConsumerRole::Wakeup && role != ConsumerRole::Gaming)
        c.missName = t.missName;
    return c;
}
} // namespace

ConsumerConfig audioConsumerByPeriod(int64_t periodNs, int bufferPeriods, double cpuPct)
{
    ConsumerConfig c = consumerOf(ConsumerRole::Audio);
    c.periodNs = periodNs;
    c.workNs = share(periodNs, cpuPct);
    c.slackNs = periodNs * (bufferPeriods > 1 ? bufferPeriods - 1 : 1);
    return c;
}

ConsumerConfig audioConsumer(int frames, int rateHz, int bufferPeriods, double cpuPct)
{
    const int64_t period = static_cast<int64_t>(std::llround(1e9 * frames / rateHz));
    return audioConsumerByPeriod(period, bufferPeriods, cpuPct);
}

ConsumerConfig videoConsumer(double fps, double cpuPct)
{
    ConsumerConfig c = consumerOf(ConsumerRole::Video);
    c.periodNs = static_cast<int64_t>(std::llround(1e9 / fps));
    c.workNs = share(c.periodNs, cpuPct);
    c.slackNs = c.periodNs;
    return c;
}

ConsumerConfig wakeupConsumer(int64_t intervalUs)
{
    ConsumerConfig c = consumerOf(ConsumerRole::Wakeup);
    c.periodNs = intervalUs * 1000;
    return c;
}

ConsumerConfig xConsumer(int64_t windowMs, int64_t stepMs)
{
    ConsumerConfig c = consumerOf(ConsumerRole::X);
    c.periodNs = windowMs * 1000000;
    c.rampStepNs = stepMs * 1000000;
    c.workNs = c.periodNs / 2; // the ramp's mean, for what is shown of it
    c.slackNs = c.periodNs;
    return c;
}

ConsumerConfig gamingConsumer(int64_t burnMs)
{
    ConsumerConfig c = consumerOf(ConsumerRole::Gaming);
    c.kind = ConsumerKind::Continuous;
    c.periodNs = burnMs * 1000000;
    c.workNs = c.periodNs;
    return c;
}

ConsumerConfig startConsumer(int64_t periodMs, int64_t deadlineMs)
{
    ConsumerConfig c = consumerOf(ConsumerRole::Start);
    c.kind = ConsumerKind::ProcessStart;
    c.periodNs = periodMs * 1000000;
    c.slackNs = deadlineMs * 1000000;
    return c;
}

ConsumerConfig guiConsumer()
{
    ConsumerConfig c = consumerOf(ConsumerRole::Gui);
    c.kind = ConsumerKind::External;
    c.periodNs = 16'666'667;
    c.slackNs = c.periodNs;
    return c;
}

namespace {
// interbench's method: every periodic consumer woken by a timekeeper.
std::vector<ConsumerConfig> wokenByTimekeeper(std::vector<ConsumerConfig> consumers)
{
    for (ConsumerConfig &c : consumers)
        if (c.kind == ConsumerKind::Periodic)
            c.wake = WakeMethod::Timekeeper;
    return consumers;
}
} // namespace

const std::vector<Preset> &presets()
{
    static const std::vector<Preset> all = {
        {"default",
         "audio 256 frames @ 48 kHz (5.33 ms, 5 %), video 60 Hz (40 %), wakeup 1 ms",
         {audioConsumer(), videoConsumer(), wakeupConsumer(), startConsumer(), xConsumer(),
          gamingConsumer()}},
        {"desktop",
         "audio 1024 frames @ 48 kHz (21.3 ms, 5 %), video 60 Hz, wakeup 1 ms",
         {audioConsumer(1024), videoConsumer(), wakeupConsumer(), startConsumer(), xConsumer(),
          gamingConsumer()}},
        {"pro",
         "audio 64 frames @ 48 kHz (1.33 ms, 5 %), video 60 Hz, wakeup 1 ms",
         {audioConsumer(64), videoConsumer(), wakeupConsumer(), startConsumer(), xConsumer(),
          gamingConsumer()}},
        {"interbench",
         "interbench's audio 50 ms / 5 % and video 16.67 ms / 40 %, wakeup 1 ms, woken "
         "by a timekeeper",
         wokenByTimekeeper({audioConsumerByPeriod(50000000, 2, 5), videoConsumer(60, 40),
                            wakeupConsumer(), startConsumer(), xConsumer(), gamingConsumer()})},
    };
    return all;
}

const Preset *findPreset(const std::string &name)
{
    for (const Preset &p : presets())
        if (p.name == name)
            return &p;
    return nullptr;
}
} // namespace latprobe
