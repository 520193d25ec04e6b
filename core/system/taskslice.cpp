#include "taskslice.h"

#include "schedattr.h"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <sched.h>
#include <thread>

namespace latprobe {

namespace {

constexpr uint64_t kResetOnForkFlag = 0x01; // SCHED_FLAG_RESET_ON_FORK

bool fairPolicy(uint32_t policy)
{
    return policy == SCHED_OTHER || policy == SCHED_BATCH || policy == SCHED_IDLE;
}

const char *realtimeName(uint32_t policy)
{
    return policy == SCHED_FIFO ? "SCHED_FIFO" : policy == SCHED_RR ? "SCHED_RR" : "SCHED_DEADLINE";
}

} // namespace

bool readTaskSlice(pid_t tid, uint64_t &ns, std::string &error)
{
    SchedAttr attr;
    if (getSchedAttr(tid, attr) != 0) {
        error = fmt::format("sched_getattr of thread {}: {}", tid, std::strerror(errno));
        return false;
    }
    ns = attr.sched_runtime;
    return true;
}

bool setTaskSlice(pid_t tid, uint64_t ns, std::string &error)
{
    SchedAttr attr;
    if (getSchedAttr(tid, attr) != 0) {
        error = fmt::format("sched_getattr of thread {}: {}", tid, std::strerror(errno));
        return false;
    }
    if (!fairPolicy(attr.sched_policy)) {
        error = fmt::format("slice_us applies to SCHED_OTHER threads, and thread {} runs {}: "
                            "measure with --policy other",
                            tid, realtimeName(attr.sched_policy));
        return false;
    }
    // Everything else as it was: sched_setattr sets the nice too, and
    // the reset-on-fork flag is the thread's own.
    attr.size = sizeof attr;
    attr.sched_flags &= kResetOnForkFlag;
    attr.sched_runtime = ns;
    if (setSchedAttr(tid, attr) != 0) {
        error = fmt::format("sched_setattr of thread {}: {}", tid, std::strerror(errno));
        return false;
    }
    uint64_t granted = 0;
    if (!readTaskSlice(tid, granted, error))
        return false;
    // Before 6.12 a fair thread reads back no runtime at all.
    if (ns != 0 && granted == 0) {
        error = "the kernel ignores per-task slices (sched_getattr reads back none): slice_us "
                "needs Linux 6.12 or later";
        return false;
    }
    if (ns != 0 && granted != ns) {
        error = fmt::format("the kernel set thread {}'s slice to {} us when {} us was asked (it "
                            "clamps to 100-100000 us)",
                            tid, granted / 1000, ns / 1000);
        return false;
    }
    return true;
}

std::string probeTaskSlice()
{
    // On a thread of its own: the caller's slice stays untouched.
    std::string error;
    std::thread probe([&error] { setTaskSlice(0, 300'000, error); });
    probe.join();
    return error;
}

} // namespace latprobe
