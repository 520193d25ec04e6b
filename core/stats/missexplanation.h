#pragma once

#include "label.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace latprobe {

// One cause of a miss's delay, on the consumer's CPU (docs/DESIGN.md, "Who
// delayed me").
struct DelayShare
{
    enum class Kind { Task, Irq, Softirq, Idle };
    Kind kind = Kind::Task;
    Label name;    // a task's comm, an interrupt's handler, a softirq's vector
    int pid = 0;   // tasks only
    int prio = -1; // the kernel's prio as the trace saw it (tasks only)
    Label policy;  // "SCHED_FIFO 10", "SCHED_OTHER nice 0"; "" unknown
    Label load;    // the latprobe load group it belongs to, "" when none
    int64_t ns = 0;
};

const char *toString(DelayShare::Kind kind); // "task", "irq", "softirq", "idle"
std::optional<DelayShare::Kind> delayKindFromName(std::string_view name);

// Why one miss happened: the time from its period's start to the work done,
// split by what the consumer's CPU did meanwhile, from the kernel's trace.
struct MissExplanation
{
    double timeS = 0; // the period's start, since the run started
    std::string consumer;
    std::string phase;
    // The collector's index of its phase, while the run is live (not
    // saved): the phase's name may change after the miss (Session names it).
    size_t phaseIndex = SIZE_MAX;
    int tid = 0;
    int cpu = -1;          // where it finally ran
    int64_t windowNs = 0;  // period start to work done
    int64_t expiryNs = -1; // period start to its timer's expiry; -1 unseen
    int64_t timerNs = 0;   // period start to its wakeup: the timer's lateness
    int64_t irqNs = 0;     // interrupts and softirqs while it was runnable or running
    int64_t waitNs = 0;    // runnable while other tasks (or nothing) ran
    int64_t selfNs = 0;    // it ran itself
    int64_t unknownNs = 0; // the trace had nothing to say (lost or not recorded)
    int migrations = 0;
    // How its longest wait ended: "tick-bound: preempt=none", "wakeup
    // preemption", "the task ahead blocked", "idle CPU"; "" when it never waited.
    Label waitEnd;
    std::string waitEndTask;        // who had the CPU when that wait ended: "comm[pid]"
    std::vector<DelayShare> shares; // tasks and handlers, the largest first
    // The smallest shares past kMaxShares, summed: under hackbench one
    // window had 46, and a run keeps 400 explanations for an hour's window.
    static constexpr size_t kMaxShares = 12;
    int otherShares = 0;
    int64_t otherSharesNs = 0;
    std::string note; // what the trace could not say, or ""
    // The kernel's trace of its window (`--save-trace`): a trace.dat's name
    // in the run file's folder, or its path; "" when none was saved.
    std::string traceFile;

    // The late time this explains: all of the window but the consumer's own running.
    int64_t delayNs() const { return windowNs - selfNs; }
};

// What the flight recorder was and cost (kerneltracebuffer.h): reported in the
// run beside the explanations.
struct TraceSummary
{
    bool on = false;
    std::string message; // why it was off, one line; "" when on or not asked for
    size_t bufferKbPerCpu = 0;
    int cpus = 0;            // CPUs recorded
    uint64_t reads = 0;      // times the buffer was read back
    uint64_t events = 0;     // events read back
    double cpuS = 0;         // CPU time reading and explaining (the recording is the kernel's)
    double cpuBudgetPct = 0; // lp-explain's share of a CPU, 0 unbounded
    uint64_t overBudget = 0; // misses asked about while that share was spent: not explained
    // `--save-trace`: the trace.dat files written, their bytes, the windows
    // left out by the cap, and why a file could not be written ("" none).
    bool savingTraces = false;
    uint64_t tracesSaved = 0;
    uint64_t traceBytes = 0;
    uint64_t tracesOverCap = 0;
    std::string traceError;
};

} // namespace latprobe
