#include "consumerconfig.h"

namespace latprobe {

const char *toString(WakeMethod method)
{
    return method == WakeMethod::Timekeeper ? "timekeeper" : "timer";
}

bool parseWakeMethod(const std::string &text, WakeMethod &method)
{
    if (text == "timer")
        method = WakeMethod::Timer;
    else if (text == "timekeeper")
        method = WakeMethod::Timekeeper;
    else
        return false;
    return true;
}

const char *latencyDefinition(WakeMethod method)
{
    return method == WakeMethod::Timekeeper ? "interbench" : "wake";
}

} // namespace latprobe
