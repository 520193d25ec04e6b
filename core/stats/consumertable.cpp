#include "consumertable.h"

#include <fmt/format.h>

#include <array>

namespace latprobe {

namespace {

constexpr std::array<ConsumerTraits, 8> kTable{{
    {ConsumerRole::Audio, "audio", "skips", "Audio skips", "an audio player filling its buffer",
     0x0072b2, 0x56b4e9},
    {ConsumerRole::Video, "video", "dropped frames", "Dropped frames",
     "a video player rendering frames", 0xd55e00, 0xf0a040},
    {ConsumerRole::X, "x", "late windows", "X late windows",
     "an X server redrawing: bursts of 0 to 100 % CPU (interbench's X)", 0x7b3294, 0xc2a5cf},
    {ConsumerRole::Gaming, "gaming", "misses", "Gaming CPU",
     "a game with an unlocked frame rate: all the CPU it gets (interbench's Gaming)", 0x5a5a5a,
     0xc8c8c8},
    {ConsumerRole::Gui, "gui", "stalls", "GUI stalls", "this window's own event loop", 0xcc79a7,
     0xe08ec4},
    {ConsumerRole::Start, "start", "slow starts", "Slow starts", "an application being opened",
     0x8a7a00, 0xe8d850},
    {ConsumerRole::Wakeup, "wakeup", "misses", "Wakeup misses",
     "a thread sleeping on a timer, cyclictest's method", 0x009e73, 0x3dd6a6},
    {ConsumerRole::Unknown, "", "misses", "", "", 0x000000, 0xffffff},
}};

std::string ms(int64_t ns)
{
    return fmt::format("{:.2f}", static_cast<double>(ns) / 1e6);
}

} // namespace

const ConsumerTraits *consumerTable(size_t &count)
{
    count = kTable.size() - 1; // the Unknown row is not a consumer
    return kTable.data();
}

const ConsumerTraits &consumerTraits(ConsumerRole role)
{
    for (const ConsumerTraits &t : kTable)
        if (t.role == role)
            return t;
    return kTable.back();
}

ConsumerRole consumerRole(std::string_view name)
{
    const std::string_view base = name.substr(0, name.find('#'));
    for (const ConsumerTraits &t : kTable)
        if (t.role != ConsumerRole::Unknown && t.name == base)
            return t.role;
    return ConsumerRole::Unknown;
}

const ConsumerTraits &consumerTraits(std::string_view name)
{
    return consumerTraits(consumerRole(name));
}

std::string missTitle(std::string_view name)
{
    const ConsumerTraits &t = consumerTraits(name);
    return t.role == ConsumerRole::Unknown ? fmt::format("{} misses", name)
                                           : std::string(t.missTitle);
}

namespace {

std::string describeRole(const ConsumerConfig &c)
{
    const double cpu =
        c.periodNs ? 100.0 * static_cast<double>(c.workNs) / static_cast<double>(c.periodNs) : 0;
    switch (c.role) {
    case ConsumerRole::Audio:
        return fmt::format("Audio skips: periods the simulated audio player lost. It wakes every "
                           "{} ms, works {:.0f} % of that, and must finish within {} ms (its "
                           "buffer); a late or never-served period is an audible click.",
                           ms(c.periodNs), cpu, ms(c.slackNs));
    case ConsumerRole::Video:
        return fmt::format("Dropped frames: frames the simulated video player lost. It renders "
                           "every {} ms with {:.0f} % CPU and must finish before the next frame.",
                           ms(c.periodNs), cpu);
    case ConsumerRole::X:
        return fmt::format("X late windows: windows the simulated X server did not finish in. "
                           "Window after window it burns 0, 1, ... {0} ms of CPU and sleeps the "
                           "rest of its {0} ms (interbench's X); a burn that ends past its "
                           "window is late, and every window it swallows counts.",
                           ms(c.periodNs));
    case ConsumerRole::Gaming:
        return fmt::format("Gaming CPU: a simulated game burns {} ms of CPU back to back and "
                           "never sleeps (interbench's Gaming). No deadline: what counts is the "
                           "share of the time it ran that it got the CPU.",
                           ms(c.workNs));
    case ConsumerRole::Gui:
        return fmt::format("GUI stalls: the window's own event loop ran its {} ms timer more "
                           "than a frame ({} ms) late; a desktop application would have felt "
                           "stuck.",
                           ms(c.periodNs), ms(c.slackNs));
    case ConsumerRole::Start:
        return fmt::format("Slow starts: every {:.0f} s a tiny process is started (fork+exec); "
                           "one that takes longer than {:.0f} ms to run and exit is slow, like "
                           "an application that takes long to open.",
                           static_cast<double>(c.periodNs) / 1e9,
                           static_cast<double>(c.slackNs) / 1e6);
    case ConsumerRole::Wakeup:
        return fmt::format("Wakeups: a thread sleeping {} ms at a time (cyclictest's method); "
                           "how late it wakes is its latency. No deadline, no misses.",
                           ms(c.periodNs));
    case ConsumerRole::Unknown:
        break;
    }
    return missTitle(c.name);
}

} // namespace

std::string describeConsumer(const ConsumerConfig &c)
{
    if (c.wake != WakeMethod::Timekeeper || c.kind != ConsumerKind::Periodic)
        return describeRole(c);
    return describeRole(c) + " Woken by a timekeeper thread, as interbench's are: the "
                             "timekeeper's own oversleep is not charged, a period is for "
                             "each period lost.";
}

} // namespace latprobe
