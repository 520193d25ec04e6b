#include "missreplay.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>

namespace latprobe {

namespace {

enum class State { Unknown, Sleeping, Runnable, Running };

struct Occupant
{
    bool known = false;
    int pid = 0;
    int prio = 0;
    std::string comm;
};

struct Handler
{
    DelayShare::Kind kind;
    std::string name;
};

struct Cpu
{
    Occupant occupant;
    std::vector<Handler> handlers; // nested interrupt handlers, innermost last
    // The last hard interrupt begun here: a wait that ends just after a
    // timer interrupt begun after the wakeup ended at the tick.
    std::string lastIrq;
    int64_t lastIrqAt = -1;
};

// A task that was switched out with nothing but the preempted flag (0x100
// since Linux 4.14) in prev_state was still runnable: it was preempted.
bool stillRunnable(int64_t prevState)
{
    return (prevState & 0xff) == 0;
}

std::string commOf(const char (&comm)[16])
{
    return std::string(comm, strnlen(comm, sizeof comm));
}

} // namespace

MissExplanation explainMiss(std::span<const SchedEvent> events, const MissWindow &miss,
                            const std::string &preemption)
{
    MissExplanation out;
    out.tid = miss.tid;
    out.windowNs = std::max<int64_t>(0, miss.done - miss.periodStart);

    // By CPU number; a consumer queued on a CPU not known yet (-1) gets the
    // spare, which never has an occupant.
    std::vector<Cpu> cpus;
    Cpu unknownCpu;
    auto cpuAt = [&](int cpu) -> Cpu & {
        if (cpu < 0)
            return unknownCpu = Cpu{};
        if (static_cast<size_t>(cpu) >= cpus.size())
            cpus.resize(static_cast<size_t>(cpu) + 1);
        return cpus[static_cast<size_t>(cpu)];
    };
    // Who ran on a CPU before its first switch in the trace: the task that
    // first switch takes off it.
    for (const SchedEvent &e : events)
        if (e.type == SchedEvent::Type::Switch) {
            Cpu &c = cpuAt(e.cpu);
            if (!c.occupant.known)
                c.occupant = {true, e.prevPid, e.prevPrio, commOf(e.prevComm)};
        }

    // The consumer's state before the trace's first word about it.
    State state = State::Unknown;
    int queuedOn = -1;
    for (const SchedEvent &e : events) {
        if (e.type == SchedEvent::Type::Switch && e.prevPid == miss.tid) {
            state = State::Running;
            queuedOn = e.cpu;
            break;
        }
        if (e.type == SchedEvent::Type::Switch && e.pid == miss.tid) {
            state = State::Runnable;
            queuedOn = e.cpu;
            break;
        }
        if ((e.type == SchedEvent::Type::Waking || e.type == SchedEvent::Type::Wakeup) &&
            e.pid == miss.tid) {
            state = State::Sleeping;
            break;
        }
    }

    // Charged between every two events of the window (100,000 under
    // hackbench): by plain key, most often the one charged last, and made
    // into DelayShares, whose names are interned Labels, once at the end.
    using Key = std::tuple<DelayShare::Kind, int, std::string>; // kind, pid, name
    struct Charged
    {
        int prio = -1; // as first seen
        int64_t ns = 0;
    };
    std::map<Key, Charged> shares;
    auto last = shares.end();
    auto charge = [&](DelayShare::Kind kind, int pid, int prio, const std::string &name,
                      int64_t ns) {
        if (last == shares.end() || std::get<0>(last->first) != kind ||
            std::get<1>(last->first) != pid || std::get<2>(last->first) != name)
            last = shares.try_emplace(Key{kind, pid, name}, Charged{prio, 0}).first;
        last->second.ns += ns;
    };

    const int64_t from = miss.periodStart, to = miss.done;
    int64_t cursor = events.empty() ? to : std::max(from, events.front().ts);
    if (!events.empty() && events.front().ts > from) {
        out.unknownNs += std::min(events.front().ts, to) - from;
        out.note = "the trace begins " +
                   std::to_string((std::min(events.front().ts, to) - from) / 1000) +
                   " us into the window (its buffer was overwritten)";
    }
    int64_t waitFrom = -1;   // runnable since
    int64_t longestWait = 0; // its ending is the one told
    int lastCpu = queuedOn;

    int64_t wokenAt = -1; // the wakeup that ended its sleep
    int wokenOn = -1;     // the CPU that woke it
    auto account = [&](int64_t until) {
        const int64_t a = std::max(cursor, from), b = std::min(until, to);
        if (b <= a)
            return;
        const int64_t d = b - a;
        switch (state) {
        case State::Unknown:
            out.unknownNs += d;
            return;
        case State::Sleeping:
            // Asleep once woken: it blocked (a page fault's I/O), not its timer.
            if (wokenAt >= 0) {
                out.unknownNs += d;
                if (out.note.empty())
                    out.note = "it blocked again before its work was done";
            } else {
                out.timerNs += d;
            }
            return;
        case State::Runnable:
        case State::Running:
            break;
        }
        Cpu &c = cpuAt(queuedOn);
        if (!c.handlers.empty()) {
            const Handler &h = c.handlers.back();
            charge(h.kind, 0, -1, h.name, d);
            out.irqNs += d;
        } else if (state == State::Running) {
            out.selfNs += d;
        } else if (!c.occupant.known) {
            out.unknownNs += d;
        } else if (c.occupant.pid == 0) {
            static const std::string idle = "idle";
            charge(DelayShare::Kind::Idle, 0, c.occupant.prio, idle, d);
            out.waitNs += d;
        } else {
            charge(DelayShare::Kind::Task, c.occupant.pid, c.occupant.prio, c.occupant.comm, d);
            out.waitNs += d;
        }
    };

    for (const SchedEvent &e : events) {
        if (e.ts > to)
            break;
        account(e.ts);
        cursor = std::max(cursor, e.ts);
        Cpu &c = cpuAt(e.cpu);
        switch (e.type) {
        case SchedEvent::Type::Switch:
            c.handlers.clear(); // a switch happens outside any handler
            c.occupant = {true, e.pid, e.prio, commOf(e.comm)};
            if (e.prevPid == miss.tid) {
                state = stillRunnable(e.prevState) ? State::Runnable : State::Sleeping;
                if (state == State::Runnable)
                    waitFrom = e.ts;
            }
            if (e.pid == miss.tid) {
                if (state == State::Runnable && waitFrom >= 0 && e.ts >= from) {
                    const int64_t wait = e.ts - std::max(waitFrom, from);
                    if (wait > longestWait) {
                        longestWait = wait;
                        out.waitEndTask = e.prevPid == 0 ? std::string("idle")
                                                         : commOf(e.prevComm) + "[" +
                                                               std::to_string(e.prevPid) + "]";
                        if (e.prevPid == 0)
                            out.waitEnd = "idle CPU";
                        else if (!stillRunnable(e.prevState))
                            out.waitEnd = "the task ahead blocked";
                        else if (c.lastIrq == "local_timer" && c.lastIrqAt > waitFrom &&
                                 e.ts - c.lastIrqAt < 1'000'000)
                            out.waitEnd = "tick-bound: preempt=" + preemption;
                        else
                            out.waitEnd = "wakeup preemption";
                    }
                }
                state = State::Running;
                queuedOn = lastCpu = e.cpu;
                waitFrom = -1;
            }
            break;
        case SchedEvent::Type::Waking:
        case SchedEvent::Type::Wakeup:
            if (e.pid == miss.tid && state != State::Running &&
                (state != State::Runnable || e.type == SchedEvent::Type::Wakeup)) {
                if (state != State::Runnable) {
                    if (wokenAt < 0 && e.ts >= from) { // its timer's wakeup, not a later one
                        wokenAt = e.ts;
                        wokenOn = e.cpu;
                    }
                    waitFrom = e.ts;
                }
                state = State::Runnable;
                queuedOn = e.targetCpu >= 0 ? e.targetCpu : e.cpu;
            }
            break;
        case SchedEvent::Type::Migrate:
            if (e.pid == miss.tid) {
                if (e.ts >= from)
                    ++out.migrations;
                if (state == State::Runnable || state == State::Running)
                    queuedOn = e.targetCpu;
            }
            break;
        case SchedEvent::Type::IrqEntry:
            c.handlers.push_back({DelayShare::Kind::Irq, e.name});
            if (c.handlers.size() == 1) {
                c.lastIrq = e.name;
                c.lastIrqAt = e.ts;
            }
            break;
        case SchedEvent::Type::SoftirqEntry:
            c.handlers.push_back({DelayShare::Kind::Softirq, e.name});
            break;
        case SchedEvent::Type::IrqExit:
        case SchedEvent::Type::SoftirqExit:
            if (!c.handlers.empty())
                c.handlers.pop_back();
            break;
        case SchedEvent::Type::HrtimerExpire:
            break;
        }
    }
    account(to);
    if (!events.empty() && events.back().ts < to && out.note.empty())
        out.note = "the trace ends before the work was done";

    // Its timer expired in the interrupt that woke it: the last expiry on
    // the waking CPU before the wakeup.
    if (wokenAt >= 0) {
        for (const SchedEvent &e : events) {
            if (e.ts > wokenAt)
                break;
            if (e.type == SchedEvent::Type::HrtimerExpire && e.cpu == wokenOn && e.ts >= from &&
                wokenAt - e.ts < 200'000)
                out.expiryNs = e.ts - from;
        }
    }
    out.cpu = lastCpu;
    std::vector<DelayShare> all;
    all.reserve(shares.size());
    for (const auto &[key, charged] : shares) {
        DelayShare share;
        share.kind = std::get<0>(key);
        share.pid = std::get<1>(key);
        share.name = std::get<2>(key);
        share.prio = charged.prio;
        share.ns = charged.ns;
        all.push_back(std::move(share));
    }
    std::stable_sort(all.begin(), all.end(),
                     [](const DelayShare &a, const DelayShare &b) { return a.ns > b.ns; });
    const size_t kept = std::min(all.size(), MissExplanation::kMaxShares);
    for (size_t i = kept; i < all.size(); ++i) {
        ++out.otherShares;
        out.otherSharesNs += all[i].ns;
    }
    // Exactly: a run keeps up to Collector::kExplainLimit explanations, and
    // push_back's doubling left a quarter of their shares' slots unused.
    out.shares.reserve(kept);
    std::move(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(kept),
              std::back_inserter(out.shares));
    return out;
}

} // namespace latprobe
