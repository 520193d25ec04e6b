#include "sessionparts.h"

#include "collector.h"
#include "isotime.h"
#include "loadmanager.h"
#include "probe.h"
#include "realclock.h"
#include "selfexe.h"
#include "version.h"

#include <algorithm>
#include <utility>

namespace latprobe {

SessionParts::SessionParts(SessionOptions givenOptions, SessionObserver *listener)
    : options(std::move(givenOptions)), observer(listener), system(readSystemInfo()),
      record(options.runName), m_externalGrants(options.consumers.size())
{
    if (options.workerBinary.empty())
        options.workerBinary = latprobeBinary();
    // Given away, not moved from: `options` keeps no stale list behind.
    probe = std::make_unique<Probe>(std::exchange(options.consumers, {}), options.params);
    if (options.alignNs >= 0)
        probe->alignToSecond(options.alignNs);
    if (options.drainIntervalNs > 0)
        probe->setDrainInterval(options.drainIntervalNs);
    loads = std::make_unique<LoadManager>(options.limits, options.workerBinary);
}

SessionParts::~SessionParts() = default;

int64_t SessionParts::runStart() const
{
    return running || finished ? probe->collector().runStart() : 0;
}

Collector &SessionParts::collector() const
{
    return probe->collector();
}

const std::vector<ConsumerConfig> &SessionParts::configs() const
{
    return probe->configs();
}

std::vector<ConsumerSetup> SessionParts::setups() const
{
    std::vector<ConsumerSetup> out = probe->setups();
    std::lock_guard lock(m_grantMutex);
    for (size_t i = 0; i < out.size(); ++i)
        if (m_externalGrants[i])
            out[i].grant = *m_externalGrants[i];
    return out;
}

void SessionParts::setExternalGrant(size_t consumer, const ThreadGrant &grant)
{
    std::lock_guard lock(m_grantMutex);
    if (consumer < m_externalGrants.size())
        m_externalGrants[consumer] = grant;
}

PhaseMark SessionParts::beginPhase(const std::string &name,
                                   const std::vector<std::string> &signature, int64_t at,
                                   const PhasePlace &place)
{
    PhaseMark mark;
    {
        std::lock_guard phaseLock(m_phaseMutex);
        std::string given = name;
        const int64_t start = collector().beginPhase(name, signature, at, place, &given);
        // A step measuring some consumers only: the others pause for it.
        probe->measureOnly(place.consumers);
        mark = {given, start};
        record.setPhase(mark, name);
    }
    if (observer)
        observer->phaseBegun(mark, false);
    return mark;
}

void SessionParts::stopEveryLoad()
{
    record.addEndedLoads(loads->status(), runStart(), RealClock::monotonicNow());
    loads->stopAll();
}

Run SessionParts::buildRun(const std::string &endReason, bool withRunningLoads) const
{
    Run run;
    run.version = kVersion;
    run.system = system;
    run.requested = options.params;
    run.consumers = setups();
    run.commandLine = options.commandLine;
    run.startTime = startTime;
    run.endReason = endReason;
    run.noise = noise;
    if (running || finished) {
        const Collector &c = collector();
        run.phases = c.phases(RealClock::monotonicNow());
        run.series = c.series();
        run.misses = c.missLog();
        run.missLogDropped = c.missLogDropped();
    }
    run.trace = evidence.traceSummary();
    run.explanations = evidence.explanations();
    std::stable_sort(
        run.explanations.begin(), run.explanations.end(),
        [](const MissExplanation &a, const MissExplanation &b) { return a.timeS < b.timeS; });
    run.endTime = isoTimeNow();
    if (withRunningLoads) {
        // As sampled, up to a second ago: a snapshot (Copy report, the
        // autosave) reads no /proc, on whatever thread asks.
        for (const GroupStatus &g : loads->sampled())
            run.loads.push_back(toLoadResult(g, runStart(), g.sampledAt));
    }
    record.fill(run);
    return run;
}

MissEvidence::Threads SessionParts::measuringThreads() const
{
    MissEvidence::Threads threads;
    for (size_t i = 0; i < configs().size(); ++i) {
        const ConsumerConfig &config = configs()[i];
        threads.tids.push_back(probe->measuringTid(i));
        threads.consumers.push_back(config.name);
        // Only a periodic consumer's misses are explained: start's 1-s
        // period set a 100-ms lookback for every read, half the events that
        // lp-explain parsed under hackbench.
        threads.periods.push_back(config.kind == ConsumerKind::Periodic ? config.periodNs : 0);
    }
    threads.loadOfPid = loads->processLabels();
    return threads;
}

KnobRun SessionParts::knobRun() const
{
    const SchedPolicy policy = options.params.policy;
    return {options.allowCommands,
            policy == SchedPolicy::Fifo || policy == SchedPolicy::RoundRobin};
}

KnobEnvironment SessionParts::knobEnvironment() const
{
    return options.knobs ? *options.knobs : KnobEnvironment::real();
}

} // namespace latprobe
