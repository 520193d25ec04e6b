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

// One miss's window replayed event by event: the consumer's state, who
// runs on each CPU, and the window's time charged so far.
class MissReplay
{
public:
    MissReplay(std::span<const SchedEvent> events, const MissWindow &miss,
               const std::string &preemption);
    MissExplanation run();

private:
    // Charged between every two events of the window (100,000 under
    // hackbench): by plain key, most often the one charged last, and made
    // into DelayShares, whose names are interned Labels, once at the end.
    using Key = std::tuple<DelayShare::Kind, int, std::string>; // kind, pid, name
    struct Charged
    {
        int prio = -1; // as first seen
        int64_t ns = 0;
    };

    Cpu &cpuAt(int cpu);
    void findFirstOccupants();
    void findFirstState();
    void startCursor();
    void charge(DelayShare::Kind kind, int pid, int prio, const std::string &name, int64_t ns);
    void account(int64_t until);
    void replay(const SchedEvent &e);
    void onSwitch(const SchedEvent &e, Cpu &c);
    void endWait(const SchedEvent &e, const Cpu &c);
    void onWake(const SchedEvent &e);
    void onMigrate(const SchedEvent &e);
    void findExpiry();
    void keepLargestShares();

    std::span<const SchedEvent> m_events;
    const MissWindow &m_miss;
    const std::string &m_preemption;
    const int64_t m_from, m_to;
    MissExplanation m_out;

    // By CPU number; a consumer queued on a CPU not known yet (-1) gets the
    // spare, which never has an occupant.
    std::vector<Cpu> m_cpus;
    Cpu m_unknownCpu;

    State m_state = State::Unknown;
    int m_queuedOn = -1;
    int m_lastCpu = -1;
    int64_t m_cursor = 0;
    int64_t m_waitFrom = -1;   // runnable since
    int64_t m_longestWait = 0; // its ending is the one told
    int64_t m_wokenAt = -1;    // the wakeup that ended its sleep
    int m_wokenOn = -1;        // the CPU that woke it

    std::map<Key, Charged> m_shares;
    std::map<Key, Charged>::iterator m_last = m_shares.end();
};

MissReplay::MissReplay(std::span<const SchedEvent> events, const MissWindow &miss,
                       const std::string &preemption)
    : m_events(events), m_miss(miss), m_preemption(preemption), m_from(miss.periodStart),
      m_to(miss.done)
{
    m_out.tid = miss.tid;
    m_out.windowNs = std::max<int64_t>(0, miss.done - miss.periodStart);
}

MissExplanation MissReplay::run()
{
    findFirstOccupants();
    findFirstState();
    startCursor();
    m_lastCpu = m_queuedOn;
    for (const SchedEvent &e : m_events) {
        if (e.ts > m_to)
            break;
        account(e.ts);
        m_cursor = std::max(m_cursor, e.ts);
        replay(e);
    }
    account(m_to);
    if (!m_events.empty() && m_events.back().ts < m_to && m_out.note.empty())
        m_out.note = "the trace ends before the work was done";
    findExpiry();
    m_out.cpu = m_lastCpu;
    keepLargestShares();
    return std::move(m_out);
}

Cpu &MissReplay::cpuAt(int cpu)
{
    if (cpu < 0)
        return m_unknownCpu = Cpu{};
    if (static_cast<size_t>(cpu) >= m_cpus.size())
        m_cpus.resize(static_cast<size_t>(cpu) + 1);
    return m_cpus[static_cast<size_t>(cpu)];
}

// Who ran on a CPU before its first switch in the trace: the task that
// first switch takes off it.
void MissReplay::findFirstOccupants()
{
    for (const SchedEvent &e : m_events)
        if (e.type == SchedEvent::Type::Switch) {
            Cpu &c = cpuAt(e.cpu);
            if (!c.occupant.known)
                c.occupant = {true, e.prevPid, e.prevPrio, commOf(e.prevComm)};
        }
}

// The consumer's state before the trace's first word about it.
void MissReplay::findFirstState()
{
    for (const SchedEvent &e : m_events) {
        if (e.type == SchedEvent::Type::Switch && e.prevPid == m_miss.tid) {
            m_state = State::Running;
            m_queuedOn = e.cpu;
            return;
        }
        if (e.type == SchedEvent::Type::Switch && e.pid == m_miss.tid) {
            m_state = State::Runnable;
            m_queuedOn = e.cpu;
            return;
        }
        if ((e.type == SchedEvent::Type::Waking || e.type == SchedEvent::Type::Wakeup) &&
            e.pid == m_miss.tid) {
            m_state = State::Sleeping;
            return;
        }
    }
}

// Where the replay begins; a window that opens before the trace does is
// unknown up to its first event.
void MissReplay::startCursor()
{
    m_cursor = m_events.empty() ? m_to : std::max(m_from, m_events.front().ts);
    if (!m_events.empty() && m_events.front().ts > m_from) {
        m_out.unknownNs += std::min(m_events.front().ts, m_to) - m_from;
        m_out.note = "the trace begins " +
                     std::to_string((std::min(m_events.front().ts, m_to) - m_from) / 1000) +
                     " us into the window (its buffer was overwritten)";
    }
}

void MissReplay::charge(DelayShare::Kind kind, int pid, int prio, const std::string &name,
                        int64_t ns)
{
    if (m_last == m_shares.end() || std::get<0>(m_last->first) != kind ||
        std::get<1>(m_last->first) != pid || std::get<2>(m_last->first) != name)
        m_last = m_shares.try_emplace(Key{kind, pid, name}, Charged{prio, 0}).first;
    m_last->second.ns += ns;
}

// The time from the cursor to `until`, within the window, to whatever the
// consumer was doing or waiting for.
void MissReplay::account(int64_t until)
{
    const int64_t a = std::max(m_cursor, m_from), b = std::min(until, m_to);
    if (b <= a)
        return;
    const int64_t d = b - a;
    switch (m_state) {
    case State::Unknown:
        m_out.unknownNs += d;
        return;
    case State::Sleeping:
        // Asleep once woken: it blocked (a page fault's I/O), not its timer.
        if (m_wokenAt >= 0) {
            m_out.unknownNs += d;
            if (m_out.note.empty())
                m_out.note = "it blocked again before its work was done";
        } else {
            m_out.timerNs += d;
        }
        return;
    case State::Runnable:
    case State::Running:
        break;
    }
    Cpu &c = cpuAt(m_queuedOn);
    if (!c.handlers.empty()) {
        const Handler &h = c.handlers.back();
        charge(h.kind, 0, -1, h.name, d);
        m_out.irqNs += d;
    } else if (m_state == State::Running) {
        m_out.selfNs += d;
    } else if (!c.occupant.known) {
        m_out.unknownNs += d;
    } else if (c.occupant.pid == 0) {
        static const std::string idle = "idle";
        charge(DelayShare::Kind::Idle, 0, c.occupant.prio, idle, d);
        m_out.waitNs += d;
    } else {
        charge(DelayShare::Kind::Task, c.occupant.pid, c.occupant.prio, c.occupant.comm, d);
        m_out.waitNs += d;
    }
}

void MissReplay::replay(const SchedEvent &e)
{
    Cpu &c = cpuAt(e.cpu);
    switch (e.type) {
    case SchedEvent::Type::Switch:
        onSwitch(e, c);
        break;
    case SchedEvent::Type::Waking:
    case SchedEvent::Type::Wakeup:
        onWake(e);
        break;
    case SchedEvent::Type::Migrate:
        onMigrate(e);
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

void MissReplay::onSwitch(const SchedEvent &e, Cpu &c)
{
    c.handlers.clear(); // a switch happens outside any handler
    c.occupant = {true, e.pid, e.prio, commOf(e.comm)};
    if (e.prevPid == m_miss.tid) {
        m_state = stillRunnable(e.prevState) ? State::Runnable : State::Sleeping;
        if (m_state == State::Runnable)
            m_waitFrom = e.ts;
    }
    if (e.pid != m_miss.tid)
        return;
    if (m_state == State::Runnable && m_waitFrom >= 0 && e.ts >= m_from)
        endWait(e, c);
    m_state = State::Running;
    m_queuedOn = m_lastCpu = e.cpu;
    m_waitFrom = -1;
}

// The consumer runs after waiting since m_waitFrom: how the wait ended,
// when it is the longest so far.
void MissReplay::endWait(const SchedEvent &e, const Cpu &c)
{
    const int64_t wait = e.ts - std::max(m_waitFrom, m_from);
    if (wait <= m_longestWait)
        return;
    m_longestWait = wait;
    m_out.waitEndTask = e.prevPid == 0 ? std::string("idle")
                                       : commOf(e.prevComm) + "[" + std::to_string(e.prevPid) + "]";
    if (e.prevPid == 0)
        m_out.waitEnd = "idle CPU";
    else if (!stillRunnable(e.prevState))
        m_out.waitEnd = "the task ahead blocked";
    else if (c.lastIrq == "local_timer" && c.lastIrqAt > m_waitFrom &&
             e.ts - c.lastIrqAt < 1'000'000)
        m_out.waitEnd = "tick-bound: preempt=" + m_preemption;
    else
        m_out.waitEnd = "wakeup preemption";
}

void MissReplay::onWake(const SchedEvent &e)
{
    if (e.pid != m_miss.tid || m_state == State::Running ||
        (m_state == State::Runnable && e.type != SchedEvent::Type::Wakeup))
        return;
    if (m_state != State::Runnable) {
        if (m_wokenAt < 0 && e.ts >= m_from) { // its timer's wakeup, not a later one
            m_wokenAt = e.ts;
            m_wokenOn = e.cpu;
        }
        m_waitFrom = e.ts;
    }
    m_state = State::Runnable;
    m_queuedOn = e.targetCpu >= 0 ? e.targetCpu : e.cpu;
}

void MissReplay::onMigrate(const SchedEvent &e)
{
    if (e.pid != m_miss.tid)
        return;
    if (e.ts >= m_from)
        ++m_out.migrations;
    if (m_state == State::Runnable || m_state == State::Running)
        m_queuedOn = e.targetCpu;
}

// Its timer expired in the interrupt that woke it: the last expiry on the
// waking CPU before the wakeup.
void MissReplay::findExpiry()
{
    if (m_wokenAt < 0)
        return;
    for (const SchedEvent &e : m_events) {
        if (e.ts > m_wokenAt)
            break;
        if (e.type == SchedEvent::Type::HrtimerExpire && e.cpu == m_wokenOn && e.ts >= m_from &&
            m_wokenAt - e.ts < 200'000)
            m_out.expiryNs = e.ts - m_from;
    }
}

// The shares, largest first, the smallest past kMaxShares summed.
void MissReplay::keepLargestShares()
{
    std::vector<DelayShare> all;
    all.reserve(m_shares.size());
    for (const auto &[key, charged] : m_shares) {
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
        ++m_out.otherShares;
        m_out.otherSharesNs += all[i].ns;
    }
    // Exactly: a run keeps up to Collector::kExplainLimit explanations, and
    // push_back's doubling left a quarter of their shares' slots unused.
    m_out.shares.reserve(kept);
    std::move(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(kept),
              std::back_inserter(m_out.shares));
}

} // namespace

MissExplanation explainMiss(std::span<const SchedEvent> events, const MissWindow &miss,
                            const std::string &preemption)
{
    return MissReplay(events, miss, preemption).run();
}

} // namespace latprobe
