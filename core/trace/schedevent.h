#pragma once

#include <cstdint>

namespace latprobe {

// One scheduler, interrupt or timer event from the kernel's trace, parsed by
// libtraceevent into plain data: what missreplay.h replays. Fixed-size
// names keep a few hundred thousand of them cheap to hold and to copy.
struct SchedEvent
{
    enum class Type : uint8_t {
        Switch,        // sched_switch: prev* leaves the CPU, pid/comm/prio enters
        Waking,        // sched_waking: pid is woken, towards targetCpu
        Wakeup,        // sched_wakeup: pid is queued on targetCpu
        Migrate,       // sched_migrate_task: pid moves from origCpu to targetCpu
        IrqEntry,      // irq_handler_entry (name) or an irq_vectors *_entry
        IrqExit,       // irq_handler_exit or an irq_vectors *_exit
        SoftirqEntry,  // softirq_entry (name: the vector's)
        SoftirqExit,   // softirq_exit
        HrtimerExpire, // hrtimer_expire_entry
    };
    int64_t ts = 0; // CLOCK_MONOTONIC ns (trace clock "mono")
    Type type = Type::Switch;
    int16_t cpu = 0;        // where the event happened
    int16_t targetCpu = -1; // waking, wakeup, migrate
    int16_t origCpu = -1;   // migrate
    int32_t pid = 0;        // the task woken, moved, or switched in
    int32_t prio = 0;
    int32_t prevPid = 0; // switch
    int32_t prevPrio = 0;
    int64_t prevState = 0; // switch: 0 (or the preempted flag 0x100) when prev was still runnable
    char comm[16] = {};    // the task's (switch: the one switched in)
    char prevComm[16] = {};
    char name[24] = {}; // an interrupt's handler or vector, a softirq's vector
};

} // namespace latprobe
