#include "threadparams.h"

#include "enumnames.h"

#include <cerrno>
#include <cstring>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace latprobe {

namespace {

// Each policy's names: the kernel's, which run files and reports keep, and
// the word `--policy` and a load's policy= take; and the kernel's number.
struct PolicyRow
{
    SchedPolicy value;
    const char *name;
    const char *option;
    int kernel;
};
constexpr PolicyRow kPolicies[] = {
    {SchedPolicy::Other, "SCHED_OTHER", "other", SCHED_OTHER},
    {SchedPolicy::Fifo, "SCHED_FIFO", "fifo", SCHED_FIFO},
    {SchedPolicy::RoundRobin, "SCHED_RR", "rr", SCHED_RR},
    {SchedPolicy::Batch, "SCHED_BATCH", "batch", SCHED_BATCH},
    {SchedPolicy::Idle, "SCHED_IDLE", "idle", SCHED_IDLE},
};

int toLinux(SchedPolicy policy)
{
    const PolicyRow *row = findRow<&PolicyRow::value>(kPolicies, policy);
    return row ? row->kernel : SCHED_OTHER;
}

void addRefusal(std::string &refusal, const std::string &what)
{
    if (!refusal.empty())
        refusal += "; ";
    refusal += what;
}

} // namespace

ThreadGrant applyThreadParams(const ThreadParams &params)
{
    ThreadGrant grant;
    const pid_t tid = gettid();
    const bool realtime =
        params.policy == SchedPolicy::Fifo || params.policy == SchedPolicy::RoundRobin;

    sched_param sp{};
    sp.sched_priority = realtime ? params.priority : 0;
    if (sched_setscheduler(0, toLinux(params.policy), &sp) != 0)
        addRefusal(grant.refusal,
                   fmt::format("{} priority {} refused ({}); running SCHED_OTHER",
                               toString(params.policy), params.priority, std::strerror(errno)));
    // Linux applies nice per thread when given a thread id.
    if (!realtime && params.nice != 0 && setpriority(PRIO_PROCESS, tid, params.nice) != 0)
        addRefusal(grant.refusal,
                   fmt::format("nice {} refused ({})", params.nice, std::strerror(errno)));
    if (!params.cpus.empty()) {
        cpu_set_t set;
        CPU_ZERO(&set);
        for (int cpu : params.cpus)
            if (cpu >= 0 && cpu < CPU_SETSIZE)
                CPU_SET(cpu, &set);
        if (sched_setaffinity(0, sizeof set, &set) != 0)
            addRefusal(grant.refusal,
                       fmt::format("CPU affinity {} refused ({})", formatCpuList(params.cpus),
                                   std::strerror(errno)));
    }
    if (params.timerSlackNs >= 0 &&
        prctl(PR_SET_TIMERSLACK, static_cast<unsigned long>(params.timerSlackNs), 0, 0, 0) != 0)
        addRefusal(grant.refusal, fmt::format("timer slack refused ({})", std::strerror(errno)));

    const std::string refusal = std::move(grant.refusal);
    grant = currentThreadGrant();
    grant.refusal = refusal;
    return grant;
}

ThreadGrant currentThreadGrant()
{
    ThreadGrant grant;
    grant.policy = policyFromKernel(sched_getscheduler(0));
    sched_param got{};
    sched_getparam(0, &got);
    grant.priority = got.sched_priority;
    errno = 0;
    grant.nice = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
            if (CPU_ISSET(cpu, &set))
                grant.cpus.push_back(cpu);
    grant.timerSlackNs = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
    return grant;
}

const char *toString(SchedPolicy policy)
{
    return enumName(kPolicies, policy);
}

std::optional<SchedPolicy> policyFromName(std::string_view name)
{
    return enumFromName(kPolicies, name);
}

bool parsePolicy(const std::string &text, SchedPolicy &policy)
{
    const PolicyRow *row = findRow<&PolicyRow::option>(kPolicies, std::string_view(text));
    if (row)
        policy = row->value;
    return row != nullptr;
}

const char *policyOption(SchedPolicy policy)
{
    const PolicyRow *row = findRow<&PolicyRow::value>(kPolicies, policy);
    return row ? row->option : "other";
}

std::vector<std::string> policyOptions()
{
    std::vector<std::string> out;
    for (const PolicyRow &row : kPolicies)
        out.emplace_back(row.option);
    return out;
}

SchedPolicy policyFromKernel(int policy)
{
    const PolicyRow *row = findRow<&PolicyRow::kernel>(kPolicies, policy & ~SCHED_RESET_ON_FORK);
    return row ? row->value : SchedPolicy::Other;
}

bool parseCpuList(const std::string &text, std::vector<int> &cpus)
{
    cpus.clear();
    size_t pos = 0;
    while (pos < text.size()) {
        size_t comma = text.find(',', pos);
        if (comma == std::string::npos)
            comma = text.size();
        const std::string item = text.substr(pos, comma - pos);
        int first = 0, last = 0;
        char extra = 0;
        if (std::sscanf(item.c_str(), "%d-%d%c", &first, &last, &extra) == 2) {
        } else if (std::sscanf(item.c_str(), "%d%c", &first, &extra) == 1) {
            last = first;
        } else {
            return false;
        }
        // More CPUs than a cpu_set_t holds repeat some: refuse them before a
        // long list of "0-1023" asks for gigabytes.
        if (first < 0 || last < first || last >= CPU_SETSIZE ||
            cpus.size() + static_cast<size_t>(last - first) >= CPU_SETSIZE)
            return false;
        for (int cpu = first; cpu <= last; ++cpu)
            cpus.push_back(cpu);
        pos = comma + 1;
    }
    return !cpus.empty();
}

std::string formatCpuList(const std::vector<int> &cpus)
{
    std::vector<std::string> runs;
    for (size_t i = 0; i < cpus.size();) {
        size_t j = i;
        while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1)
            ++j;
        runs.push_back(j > i ? fmt::format("{}-{}", cpus[i], cpus[j]) : fmt::format("{}", cpus[i]));
        i = j + 1;
    }
    return fmt::format("{}", fmt::join(runs, ","));
}

} // namespace latprobe
