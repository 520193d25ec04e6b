#pragma once

#include <cstdint>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

namespace latprobe {

// linux/sched/types.h's struct sched_attr, which clashes with <sched.h>.
// For the fair policies (SCHED_OTHER, BATCH, IDLE), Linux 6.12+ takes
// sched_runtime as the task's EEVDF slice (clamped to 0.1-100 ms; 0: the
// default) and sched_getattr() reads it back.
struct SchedAttr
{
    uint32_t size = sizeof(SchedAttr);
    uint32_t sched_policy = 0;
    uint64_t sched_flags = 0;
    int32_t sched_nice = 0;
    uint32_t sched_priority = 0;
    uint64_t sched_runtime = 0, sched_deadline = 0, sched_period = 0;
};

// glibc 2.36 wraps neither call: the raw syscalls, 0 or -1 with errno.
// `tid` 0 is the calling thread.
inline int setSchedAttr(pid_t tid, const SchedAttr &attr)
{
    return static_cast<int>(syscall(SYS_sched_setattr, tid, &attr, 0));
}
inline int getSchedAttr(pid_t tid, SchedAttr &attr)
{
    return static_cast<int>(syscall(SYS_sched_getattr, tid, &attr, sizeof attr, 0));
}

} // namespace latprobe
