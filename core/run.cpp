#include "run.h"

#include "realclock.h"
#include "version.h"

#include <ctime>

namespace latprobe {

std::string isoTimeNow()
{
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

Run makeRun(Probe &probe, const SystemInfo &system)
{
    Run run;
    run.version = kVersion;
    run.system = system;
    run.requested = probe.requested();
    run.consumers = probe.setups();
    Collector &c = probe.collector();
    run.phases = c.phases(RealClock::monotonicNow());
    run.series = c.series();
    run.misses = c.missLog();
    run.missLogDropped = c.missLogDropped();
    run.endTime = isoTimeNow();
    return run;
}

} // namespace latprobe
