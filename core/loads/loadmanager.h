#pragma once

#include "fairness.h"
#include "loadlimits.h"
#include "loadspec.h"
#include "taskthread.h"
#include "workerslot.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace latprobe {

struct WorkerStatus
{
    pid_t pid = 0;
    uint64_t progress = 0;
    WorkerState state = WorkerState::Starting;
    double cpuPct = 0; // of one CPU, since the group started
    // Time on a CPU as the kernel counts it (schedstat), its reaped
    // children's included; -1 once the worker is gone.
    int64_t cpuNs = -1;
};

struct GroupStatus
{
    int id = 0;
    LoadSpec spec;
    std::string unit;
    pid_t leader = 0;
    int64_t startedAt = 0; // CLOCK_MONOTONIC ns
    std::vector<WorkerStatus> workers;
    Fairness fairness;         // over the workers' progress
    Fairness cpuFairness;      // over their CPU time (s): even here but not above, the CPUs differ
    double throughputPerS = 0; // all workers' progress per second
    double cpuSharePct = 0;    // of the whole machine
    std::string error;         // the first worker error, if any
};

struct LoadEvent
{
    int64_t at = 0; // CLOCK_MONOTONIC ns
    int groupId = 0;
    std::string label;
    bool started = true;
};

// Starts and stops load groups as real processes, and guarantees that none
// outlives a stop, a stopAll() or latprobe itself.
class LoadManager
{
public:
    explicit LoadManager(LoadLimits limits = {}, std::string workerBinary = {});
    ~LoadManager();
    LoadManager(const LoadManager &) = delete;
    LoadManager &operator=(const LoadManager &) = delete;

    // Returns the group id, or -1 with a one-line `error` (nothing started).
    int start(const LoadSpec &spec, std::string &error);
    bool stop(int id);
    // Kills every group at once, then reaps; returns when none is left.
    void stopAll();

    // Every group's figures, each worker's CPU time read from /proc: costly.
    std::vector<GroupStatus> status() const;
    // What runs, without sampling a worker: a phase's load signature.
    std::vector<LoadSpec> specs() const;
    // Each leader's and worker's pid, with its group's label.
    std::map<int, std::string> processLabels() const;
    std::vector<LoadEvent> timeline() const;
    std::vector<std::string> activeLabels() const;
    int runningProcesses() const;
    // Its own: any thread may read them and set them for the starts to come.
    LoadLimits limits() const;
    void setLimits(const LoadLimits &limits);

private:
    struct Group;

    bool launch(Group &group, std::string &error);
    void killGroup(Group &group);
    void reapGroup(Group &group);

    std::string m_binary;
    mutable std::mutex m_mutex;
    LoadLimits m_limits; // under m_mutex
    std::vector<std::unique_ptr<Group>> m_groups;
    std::vector<LoadEvent> m_timeline;
    int m_nextId = 1;

    // Leaders are forked from this one long-lived thread: PR_SET_PDEATHSIG
    // fires when the *thread* that forked a child exits.
    TaskThread m_spawner{"lp-spawner"};
};

} // namespace latprobe
