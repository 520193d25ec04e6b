#pragma once

#include "loadlimits.h"
#include "loadsampler.h"
#include "loadspec.h"
#include "loadstatus.h"
#include "taskthread.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace latprobe {

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

    // Every group's figures read now, each worker's CPU time from the kernel
    // (a system call per process, without holding the lock start and stop
    // need): for a group's last figures as it stops.
    std::vector<GroupStatus> status() const;
    // The figures the sampler thread (LoadSampler) read last, at most a second
    // old, of the groups running now: what a view polls. Reads nothing.
    std::vector<GroupStatus> sampled() const { return m_sampler.snapshot(); }
    // Returns once the sampler has published what runs now (tests).
    void waitForSample() { m_sampler.waitForPass(); }
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
    std::vector<GroupView> views() const;
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
    LoadSampler m_sampler{[this] { return views(); }};
};

} // namespace latprobe
