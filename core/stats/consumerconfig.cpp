#include "consumerconfig.h"

#include "enumnames.h"

namespace latprobe {

namespace {

struct WakeRow
{
    WakeMethod value;
    const char *name;
    const char *latency;
};
constexpr WakeRow kWakeMethods[] = {
    {WakeMethod::Timer, "timer", "wake"},
    {WakeMethod::Timekeeper, "timekeeper", "interbench"},
};

const WakeRow &wakeRow(WakeMethod method)
{
    const WakeRow *row = findRow<&WakeRow::value>(kWakeMethods, method);
    return row ? *row : kWakeMethods[0];
}

} // namespace

const char *toString(WakeMethod method)
{
    return wakeRow(method).name;
}

bool parseWakeMethod(const std::string &text, WakeMethod &method)
{
    const std::optional<WakeMethod> named = enumFromName(kWakeMethods, text);
    if (named)
        method = *named;
    return named.has_value();
}

std::vector<std::string> wakeMethodNames()
{
    std::vector<std::string> out;
    for (const WakeRow &row : kWakeMethods)
        out.emplace_back(row.name);
    return out;
}

const char *latencyDefinition(WakeMethod method)
{
    return wakeRow(method).latency;
}

} // namespace latprobe
