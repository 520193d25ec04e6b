#pragma once

#include "delayexplainer.h"
#include "missexplanation.h"
#include "runrecord.h"
#include "sessionobserver.h"
#include "taskthread.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace latprobe {

class Collector;

// What a run gathers about its misses beside the numbers, each on a thread
// of its own so that the control thread never waits: the system's state at
// each phase's first miss and on demand (lp-capture, into the RunRecord),
// and who delayed a miss, from the kernel's trace (the flight recorder,
// DelayExplainer on lp-explain).
class MissEvidence
{
public:
    // Who the explanations may name (the measuring threads, the load
    // processes running now), asked for only when misses wait; the rest of
    // the context is filled in here.
    using Threads = DelayExplainer::Context;

    MissEvidence(RunRecord &record, SessionObserver *observer);

    // Opens the flight recorder on `cpus` (empty: all); off, a warning
    // says what to grant.
    void openRecorder(const std::vector<int> &cpus);
    // Once the probe runs: the collector that asks, and the measuring
    // threads the recorder follows (by name).
    void attach(Collector &collector, const std::vector<std::string> &threadNames,
                size_t explainPerPhase, std::string preemption);

    // The collector's first misses of a phase; `automatic` false drops them.
    void takeCaptureRequests(bool automatic);
    void capture(const std::string &reason, double timeS, const std::string &phase);
    void waitForCaptures() { m_capturer.waitIdle(); }
    // The misses the collector asks about, handed to lp-explain.
    void takeExplainRequests(const std::function<Threads()> &threads);
    void waitForExplanations();

    // The recorder's trace_marker (MissMarker), -1 when it is off.
    int markerFd() const { return recording() ? m_recorder->markerFd() : -1; }
    // Each explained miss's window saved as trace.dat in `dir`
    // (DelayExplainer::saveTraces()); false when the recorder is off.
    bool saveTraces(const std::string &dir, uint64_t maxBytes)
    {
        return recording() && m_recorder->saveTraces(dir, maxBytes);
    }
    void finishTraces()
    {
        if (recording())
            m_recorder->finishTraces();
    }

    // A scenario step without the recorder (ScenarioStep::trace).
    void setTracing(bool on);
    std::vector<MissExplanation> explanations() const; // named after their phases
    size_t explainedCount() const;
    TraceSummary traceSummary() const;
    bool recording() const { return m_recorder && m_recorder->on(); }
    // The next `count` misses of each consumer in the open phase.
    bool explainMore(size_t count);

private:
    RunRecord &m_record;
    SessionObserver *m_observer;
    Collector *m_collector = nullptr;
    std::unique_ptr<DelayExplainer> m_recorder;
    std::string m_preemption;
    bool m_tracing = true;
    std::map<int, std::string> m_loadOfPid; // every load process seen
    TaskThread m_capturer{"lp-capture"};    // last: stops first
};

} // namespace latprobe
