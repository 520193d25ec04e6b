#include "missmarker.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <unistd.h>

namespace latprobe {

namespace {

// "15.373", "-3.270": ns as ms with three decimals, in integers (no float
// formatting, whose buffers are fmt's to choose).
struct Millis
{
    int64_t ns;
};

struct Seconds
{
    int64_t ns;
};

} // namespace

} // namespace latprobe

template <> struct fmt::formatter<latprobe::Millis> : fmt::formatter<std::string_view>
{
    template <typename Context> auto format(latprobe::Millis m, Context &ctx) const
    {
        const int64_t us = (m.ns < 0 ? -m.ns : m.ns) / 1000;
        return fmt::format_to(ctx.out(), "{}{}.{:03}", m.ns < 0 ? "-" : "", us / 1000, us % 1000);
    }
};

template <> struct fmt::formatter<latprobe::Seconds> : fmt::formatter<std::string_view>
{
    template <typename Context> auto format(latprobe::Seconds s, Context &ctx) const
    {
        return fmt::format_to(ctx.out(), "{}.{:09}", s.ns / 1'000'000'000, s.ns % 1'000'000'000);
    }
};

namespace latprobe {

MissMarker::MissMarker(const std::atomic<int> &fd, std::string_view consumer) : m_fd(fd)
{
    m_consumerLength = std::min(consumer.size(), sizeof m_consumer - 1);
    std::memcpy(m_consumer, consumer.data(), m_consumerLength);
}

size_t MissMarker::format(char *out, size_t size, std::string_view consumer, const Sample &s)
{
    const auto end = fmt::format_to_n(
        out, size,
        "latprobe: {} miss {} ms, period start {} ms, woke {} ms [start {} woke {} done {}]",
        consumer, Millis{s.done - s.periodStart}, Millis{s.periodStart - s.done},
        Millis{s.woke - s.done}, Seconds{s.periodStart}, Seconds{s.woke}, Seconds{s.done});
    return std::min(end.size, size);
}

void MissMarker::mark(const Sample &s) const
{
    const int fd = m_fd.load(std::memory_order_relaxed);
    if (fd < 0)
        return;
    char line[kMaxLine];
    const size_t n = format(line, sizeof line, {m_consumer, m_consumerLength}, s);
    // Best effort: a paused recorder refuses the write, and a lost mark
    // costs only the mark.
    [[maybe_unused]] const ssize_t written = ::write(fd, line, n);
}

} // namespace latprobe
