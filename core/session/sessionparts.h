#pragma once

#include "consumersetup.h"
#include "knobcheck.h"
#include "missevidence.h"
#include "noisecheck.h"
#include "runrecord.h"
#include "sessionoptions.h"
#include "sysinfo.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace latprobe {

class Collector;
class LoadManager;
class Probe;

// What one session measures with, owned by Session and lent to its jobs
// (SessionStage plays scenarios on it, RunKeeper keeps what it builds).
// Every phase begins in beginPhase() and every Run is built by buildRun(),
// whichever job asks.
struct SessionParts
{
    SessionParts(SessionOptions options, SessionObserver *observer);
    ~SessionParts();
    SessionParts(const SessionParts &) = delete;
    SessionParts &operator=(const SessionParts &) = delete;

    int64_t runStart() const; // 0 before start()
    Collector &collector() const;
    const std::vector<ConsumerConfig> &configs() const;
    std::vector<ConsumerSetup> setups() const;
    // An External consumer's owner says what its thread runs with.
    void setExternalGrant(size_t consumer, const ThreadGrant &grant);
    // `signature`: each group's KIND:N:key=value, the phase's loads.
    PhaseMark beginPhase(const std::string &name, const std::vector<std::string> &signature,
                         int64_t at, const PhasePlace &place = {});
    // The threads whose misses the flight recorder explains, and whose
    // load processes may have delayed them.
    MissEvidence::Threads measuringThreads() const;
    // Every group ends now, in the run's record too.
    void stopEveryLoad();
    Run buildRun(const std::string &endReason, bool withRunningLoads) const;
    // What its variants may do, and where they find the machine.
    KnobRun knobRun() const;
    KnobEnvironment knobEnvironment() const;

    SessionOptions options; // its consumers handed to the probe: configs()
    SessionObserver *const observer;
    const SystemInfo system;
    std::unique_ptr<Probe> probe;
    std::unique_ptr<LoadManager> loads;
    NoiseCheck noise;
    std::string startTime;
    std::atomic<bool> running{false};
    std::atomic<bool> finished{false};
    RunRecord record;
    MissEvidence evidence{record, observer};

private:
    std::mutex m_phaseMutex; // one phase opens at a time
    mutable std::mutex m_grantMutex;
    std::vector<std::optional<ThreadGrant>> m_externalGrants; // by consumer
};

} // namespace latprobe
