#include "runbuilder.h"

#include "isotime.h"
#include "realclock.h"
#include "version.h"

namespace latprobe {

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
