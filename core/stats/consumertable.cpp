#include "consumertable.h"

#include <fmt/format.h>

#include <array>

namespace latprobe {

namespace {

std::string ms(int64_t ns)
{
    return fmt::format("{:.2f}", static_cast<double>(ns) / 1e6);
}

double cpuPct(const ConsumerConfig &c)
{
    return c.periodNs ? 100.0 * static_cast<double>(c.workNs) / static_cast<double>(c.periodNs) : 0;
}

std::string describeAudio(const ConsumerConfig &c)
{
    return fmt::format("Audio skips: periods the simulated audio player lost. It wakes every {} "
                       "ms, works {:.0f} % of that, and must finish within {} ms (its buffer); a "
                       "late or never-served period is an audible click.",
                       ms(c.periodNs), cpuPct(c), ms(c.slackNs));
}

std::string describeVideo(const ConsumerConfig &c)
{
    return fmt::format("Dropped frames: frames the simulated video player lost. It renders "
                       "every {} ms with {:.0f} % CPU and must finish before the next frame.",
                       ms(c.periodNs), cpuPct(c));
}

std::string describeX(const ConsumerConfig &c)
{
    return fmt::format("X late windows: windows the simulated X server did not finish in. "
                       "Window after window it burns 0, 1, ... {0} ms of CPU and sleeps the "
                       "rest of its {0} ms (interbench's X); a burn that ends past its window "
                       "is late, and every window it swallows counts.",
                       ms(c.periodNs));
}

std::string describeGaming(const ConsumerConfig &c)
{
    return fmt::format("Gaming CPU: a simulated game burns {} ms of CPU back to back and never "
                       "sleeps (interbench's Gaming). No deadline: what counts is the share of "
                       "the time it ran that it got the CPU.",
                       ms(c.workNs));
}

std::string describeGui(const ConsumerConfig &c)
{
    return fmt::format("GUI stalls: the window's own event loop ran its {} ms timer more than a "
                       "frame ({} ms) late; a desktop application would have felt stuck.",
                       ms(c.periodNs), ms(c.slackNs));
}

std::string describeStart(const ConsumerConfig &c)
{
    return fmt::format("Slow starts: every {:.0f} s a tiny process is started (fork+exec); one "
                       "that takes longer than {:.0f} ms to run and exit is slow, like an "
                       "application that takes long to open.",
                       static_cast<double>(c.periodNs) / 1e9, static_cast<double>(c.slackNs) / 1e6);
}

std::string describeWakeup(const ConsumerConfig &c)
{
    return fmt::format("Wakeups: a thread sleeping {} ms at a time (cyclictest's method); how "
                       "late it wakes is its latency. No deadline, no misses.",
                       ms(c.periodNs));
}

// One row per role; the code asks these rows, never a consumer's name.
const std::array<ConsumerTraits, 8> kTable{{
    {.role = ConsumerRole::Audio,
     .name = "audio",
     .missName = "skips",
     .missTitle = "Audio skips",
     .summary = SummaryFigure::Misses,
     .column = "Skips",
     .columnTip = "Audio periods lost (skips)",
     .simulates = "an audio player filling its buffer",
     .lightRgb = 0x0072b2,
     .darkRgb = 0x56b4e9,
     .describe = describeAudio},
    {.role = ConsumerRole::Video,
     .name = "video",
     .missName = "dropped frames",
     .missTitle = "Dropped frames",
     .summary = SummaryFigure::Misses,
     .column = "Drops",
     .columnTip = "Video frames lost (dropped frames)",
     .simulates = "a video player rendering frames",
     .lightRgb = 0xd55e00,
     .darkRgb = 0xf0a040,
     .describe = describeVideo},
    {.role = ConsumerRole::X,
     .name = "x",
     .missName = "late windows",
     .missTitle = "X late windows",
     .summary = SummaryFigure::None,
     .simulates = "an X server redrawing: bursts of 0 to 100 % CPU (interbench's X)",
     .lightRgb = 0x7b3294,
     .darkRgb = 0xc2a5cf,
     .describe = describeX},
    {.role = ConsumerRole::Gaming,
     .name = "gaming",
     .missName = "misses",
     .missTitle = "Gaming CPU",
     .summary = SummaryFigure::None,
     .simulates = "a game with an unlocked frame rate: all the CPU it gets (interbench's Gaming)",
     .lightRgb = 0x5a5a5a,
     .darkRgb = 0xc8c8c8,
     .describe = describeGaming},
    {.role = ConsumerRole::Gui,
     .name = "gui",
     .missName = "stalls",
     .missTitle = "GUI stalls",
     .summary = SummaryFigure::Misses,
     .column = "Stalls",
     .columnTip = "Times this window's event loop was more than a frame late",
     .simulates = "this window's own event loop",
     .lightRgb = 0xcc79a7,
     .darkRgb = 0xe08ec4,
     .describe = describeGui},
    {.role = ConsumerRole::Start,
     .name = "start",
     .missName = "slow starts",
     .missTitle = "Slow starts",
     .summary = SummaryFigure::Misses,
     .column = "Slow",
     .columnTip = "Process starts slower than their deadline",
     .simulates = "an application being opened",
     .lightRgb = 0x8a7a00,
     .darkRgb = 0xe8d850,
     .describe = describeStart},
    {.role = ConsumerRole::Wakeup,
     .name = "wakeup",
     .missName = "misses",
     .missTitle = "Wakeup misses",
     .summary = SummaryFigure::P99,
     .column = "Wakeup p99",
     .columnTip = "99th percentile of the wakeup consumer's latency, in ms",
     .simulates = "a thread sleeping on a timer, cyclictest's method",
     .lightRgb = 0x009e73,
     .darkRgb = 0x3dd6a6,
     .describe = describeWakeup,
     .shownFirst = true},
    {.role = ConsumerRole::Unknown,
     .name = "",
     .missName = "misses",
     .missTitle = "",
     .summary = SummaryFigure::None,
     .simulates = "",
     .lightRgb = 0x000000,
     .darkRgb = 0xffffff},
}};

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

std::string describeConsumer(const ConsumerConfig &c)
{
    const ConsumerTraits &t = consumerTraits(c.role);
    std::string text = t.describe ? t.describe(c) : missTitle(c.name);
    if (c.wake == WakeMethod::Timekeeper && c.kind == ConsumerKind::Periodic)
        text += " Woken by a timekeeper thread, as interbench's are: the timekeeper's own "
                "oversleep is not charged, a period is for each period lost.";
    return text;
}

} // namespace latprobe
