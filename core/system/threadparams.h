#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace latprobe {

enum class SchedPolicy { Other, Fifo, RoundRobin, Batch, Idle };

// What a measuring thread asks of the kernel. The kernel may grant less;
// ThreadGrant records what it did grant.
struct ThreadParams
{
    SchedPolicy policy = SchedPolicy::Other;
    int priority = 0;          // for fifo/rr, 1..99
    int nice = 0;              // for other/batch
    std::vector<int> cpus;     // empty: no affinity set
    int64_t timerSlackNs = -1; // -1: leave the kernel's default
};

struct ThreadGrant
{
    SchedPolicy policy = SchedPolicy::Other;
    int priority = 0;
    int nice = 0;
    std::vector<int> cpus;
    int64_t timerSlackNs = 0;
    std::string refusal; // empty when everything asked was granted
};

// Applies `params` to the calling thread and reads back what the kernel
// actually granted. Never throws: refusals are described in the grant.
ThreadGrant applyThreadParams(const ThreadParams &params);
// What the calling thread runs with, read and never set (the GUI thread).
ThreadGrant currentThreadGrant();

// "SCHED_FIFO", the kernel's name, as run files and reports keep it.
const char *toString(SchedPolicy policy);
std::optional<SchedPolicy> policyFromName(std::string_view name);
// "fifo", as --policy and a load's policy= take it.
bool parsePolicy(const std::string &text, SchedPolicy &policy);
const char *policyOption(SchedPolicy policy);
std::vector<std::string> policyOptions(); // every one, for --policy's check
// sched_getscheduler()'s answer; SCHED_OTHER for one latprobe has no name for.
SchedPolicy policyFromKernel(int policy);
// "0,2-3" -> {0,2,3}; false on malformed text.
bool parseCpuList(const std::string &text, std::vector<int> &cpus);
std::string formatCpuList(const std::vector<int> &cpus);

} // namespace latprobe
