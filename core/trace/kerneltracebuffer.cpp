#include "kerneltracebuffer.h"

#include "processalive.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sys/utsname.h>
#include <unistd.h>
#include <unordered_map>

#include "tracefsapi.h"

namespace latprobe {

// Named, not anonymous: KernelTraceBuffer::Parsers holds these, and a class
// with linkage may not hold a type from an anonymous namespace once this
// file is compiled as part of a unity (jumbo) source.
namespace kerneltracebuffer_detail {

// What each event's fields are, looked up once: the callback then reads
// numbers at known offsets instead of finding fields by name per event.
struct Parser
{
    SchedEvent::Type type;
    tep_format_field *pid = nullptr, *prio = nullptr, *comm = nullptr;
    tep_format_field *prevPid = nullptr, *prevPrio = nullptr, *prevState = nullptr,
                     *prevComm = nullptr;
    tep_format_field *target = nullptr, *orig = nullptr, *vec = nullptr;
    bool dynamicName = false;   // irq_handler_entry's __string name
    tep_event *event = nullptr; // for the dynamic name
    std::string name = {};      // an irq_vectors event's vector
};

} // namespace kerneltracebuffer_detail

namespace {

using kerneltracebuffer_detail::Parser;

constexpr const char *kPrefix = "latprobe-";
// The event systems recorded: their formats are parsed, and saved with a trace.
constexpr const char *kRecordedSystems[] = {"sched", "irq", "timer", "irq_vectors", nullptr};

struct ReadContext
{
    tep_handle *tep;
    const std::unordered_map<int, Parser> *parsers;
    const std::vector<KernelTraceBuffer::TimeRange> *wanted; // sorted, disjoint
    std::vector<SchedEvent> *out;
    int64_t start = 0;              // CLOCK_MONOTONIC, as the trace's "mono" clock
    size_t maxPastStart = SIZE_MAX; // of each CPU
};

bool isWanted(const std::vector<KernelTraceBuffer::TimeRange> &wanted, int64_t ts)
{
    return meetsWanted(wanted, ts, ts);
}

int64_t number(tep_format_field *field, const tep_record *record)
{
    unsigned long long value = 0;
    if (!field || tep_read_number_field(field, record->data, &value) != 0)
        return 0;
    return static_cast<int64_t>(value);
}

void copyText(char *to, size_t size, const void *from, size_t len)
{
    const size_t n = std::min(size - 1, strnlen(static_cast<const char *>(from), len));
    std::memcpy(to, from, n);
    to[n] = '\0';
}

void copyField(char *to, size_t size, tep_format_field *field, const tep_record *record)
{
    if (field)
        copyText(to, size, static_cast<const char *>(record->data) + field->offset,
                 static_cast<size_t>(field->size));
}

const char *softirqName(int64_t vec)
{
    static const char *const names[] = {"HI",       "TIMER",   "NET_TX", "NET_RX",  "BLOCK",
                                        "IRQ_POLL", "TASKLET", "SCHED",  "HRTIMER", "RCU"};
    return vec >= 0 && vec < 10 ? names[vec] : "?";
}

// Keeps `record` if it is wanted; false once its CPU's share of the
// present is kept (`pastStart`, that CPU's count): the read of it stops.
bool keepEvent(ReadContext *c, tep_record *record, int cpu, size_t &pastStart)
{
    const auto ts = static_cast<int64_t>(record->ts);
    if (!isWanted(*c->wanted, ts))
        return true;
    if (ts > c->start && pastStart++ >= c->maxPastStart)
        return false;
    const int id = tep_data_type(c->tep, record);
    auto it = c->parsers->find(id);
    if (it == c->parsers->end())
        return true;
    const Parser &p = it->second;
    SchedEvent &e = c->out->emplace_back(); // filled in place: no copy of its 96 bytes
    e.ts = ts;
    e.cpu = static_cast<int16_t>(cpu);
    e.type = p.type;
    switch (p.type) {
    case SchedEvent::Type::Switch:
        e.prevPid = static_cast<int32_t>(number(p.prevPid, record));
        e.prevPrio = static_cast<int32_t>(number(p.prevPrio, record));
        e.prevState = number(p.prevState, record);
        copyField(e.prevComm, sizeof e.prevComm, p.prevComm, record);
        [[fallthrough]];
    case SchedEvent::Type::Waking:
    case SchedEvent::Type::Wakeup:
    case SchedEvent::Type::Migrate:
        e.pid = static_cast<int32_t>(number(p.pid, record));
        e.prio = static_cast<int32_t>(number(p.prio, record));
        copyField(e.comm, sizeof e.comm, p.comm, record);
        if (p.target)
            e.targetCpu = static_cast<int16_t>(number(p.target, record));
        if (p.orig)
            e.origCpu = static_cast<int16_t>(number(p.orig, record));
        break;
    case SchedEvent::Type::IrqEntry:
        if (p.dynamicName) {
            int len = 0;
            const void *raw = tep_get_field_raw(nullptr, p.event, "name", record, &len, 0);
            if (raw)
                copyText(e.name, sizeof e.name, raw, static_cast<size_t>(len));
        } else {
            copyText(e.name, sizeof e.name, p.name.c_str(), p.name.size());
        }
        break;
    case SchedEvent::Type::SoftirqEntry: {
        const char *n = softirqName(number(p.vec, record));
        copyText(e.name, sizeof e.name, n, std::strlen(n));
        break;
    }
    default:
        break;
    }
    return true;
}

std::unordered_map<int, Parser> parsersFor(tep_handle *tep)
{
    std::unordered_map<int, Parser> table;
    auto add = [&](const char *system, const char *name, SchedEvent::Type type) -> Parser * {
        tep_event *ev = tep_find_event_by_name(tep, system, name);
        if (!ev)
            return nullptr;
        Parser p{type};
        p.event = ev;
        auto f = [&](const char *field) { return tep_find_field(ev, field); };
        switch (type) {
        case SchedEvent::Type::Switch:
            p.prevPid = f("prev_pid"), p.prevPrio = f("prev_prio"), p.prevState = f("prev_state");
            p.prevComm = f("prev_comm");
            p.pid = f("next_pid"), p.prio = f("next_prio"), p.comm = f("next_comm");
            break;
        case SchedEvent::Type::Waking:
        case SchedEvent::Type::Wakeup:
            p.pid = f("pid"), p.prio = f("prio"), p.comm = f("comm"), p.target = f("target_cpu");
            break;
        case SchedEvent::Type::Migrate:
            p.pid = f("pid"), p.prio = f("prio"), p.comm = f("comm"), p.target = f("dest_cpu");
            p.orig = f("orig_cpu");
            break;
        case SchedEvent::Type::SoftirqEntry:
        case SchedEvent::Type::SoftirqExit:
            p.vec = f("vec");
            break;
        default:
            break;
        }
        return &(table[ev->id] = std::move(p));
    };
    add("sched", "sched_switch", SchedEvent::Type::Switch);
    add("sched", "sched_waking", SchedEvent::Type::Waking);
    add("sched", "sched_wakeup", SchedEvent::Type::Wakeup);
    add("sched", "sched_migrate_task", SchedEvent::Type::Migrate);
    if (Parser *p = add("irq", "irq_handler_entry", SchedEvent::Type::IrqEntry))
        p->dynamicName = true;
    add("irq", "irq_handler_exit", SchedEvent::Type::IrqExit);
    add("irq", "softirq_entry", SchedEvent::Type::SoftirqEntry);
    add("irq", "softirq_exit", SchedEvent::Type::SoftirqExit);
    add("timer", "hrtimer_expire_entry", SchedEvent::Type::HrtimerExpire);
    // Every x86 vector's entry and exit: local_timer (the tick and hrtimers),
    // reschedule, call_function, irq_work...
    for (int i = 0; i < tep_get_events_count(tep); ++i) {
        tep_event *ev = tep_get_event(tep, i);
        if (!ev || std::strcmp(ev->system, "irq_vectors") != 0)
            continue;
        const std::string name = ev->name;
        for (const char *suffix : {"_entry", "_exit"}) {
            const size_t n = std::strlen(suffix);
            if (name.size() > n && name.compare(name.size() - n, n, suffix) == 0) {
                Parser p{n == 6 ? SchedEvent::Type::IrqEntry : SchedEvent::Type::IrqExit};
                p.name = name.substr(0, name.size() - n);
                table[ev->id] = std::move(p);
            }
        }
    }
    return table;
}

// A tracefs file of the top instance, whole; "" when it cannot be read.
std::string tracefsText(const char *file)
{
    int size = 0;
    char *text = tracefs_instance_file_read(nullptr, file, &size);
    std::string s = text && size > 0 ? std::string(text, static_cast<size_t>(size)) : "";
    free(text);
    return s;
}

// The format file of each of a system's events.
std::vector<std::string> eventFormats(const char *system)
{
    std::vector<std::string> formats;
    char **events = tracefs_system_events(nullptr, system);
    for (char **event = events; event && *event; ++event) {
        int length = 0;
        char *format = tracefs_event_file_read(nullptr, system, *event, "format", &length);
        if (format && length > 0)
            formats.emplace_back(format, static_cast<size_t>(length));
        free(format);
    }
    tracefs_list_free(events);
    return formats;
}

// The formats of these systems' events, and the buffer's page header: what
// tracefs_local_events_system() reads, without its symbol tables
// (/proc/kallsyms, 122,000 functions on this kernel: 3.9 MB held and a
// tenth of a second of CPU at every start, for names we never print).
tep_handle *loadEventFormats(const char *const *systems)
{
    tep_handle *tep = tep_alloc();
    if (!tep)
        return nullptr;
    std::string header = tracefsText("events/header_page");
    if (header.empty() ||
        tep_parse_header_page(tep, header.data(), static_cast<unsigned long>(header.size()),
                              static_cast<int>(sizeof(long))) != 0) {
        tep_free(tep);
        return nullptr;
    }
    for (const char *const *system = systems; *system; ++system)
        for (const std::string &format : eventFormats(*system))
            tep_parse_event(tep, format.data(), format.size(), *system);
    tep_set_cpus(tep, static_cast<int>(sysconf(_SC_NPROCESSORS_CONF)));
    tep_set_long_size(tep, tep_get_header_page_size(tep));
    return tep;
}

std::string cpuList(const std::vector<int> &cpus)
{
    return fmt::format("{}", fmt::join(cpus, ","));
}

// The process a stale instance's name points at is latprobe's while it lives.
bool latprobeAlive(pid_t pid)
{
    if (!processAlive(pid))
        return false;
    std::ifstream comm(fmt::format("/proc/{}/comm", pid));
    std::string name;
    std::getline(comm, name);
    return name.rfind("latprobe", 0) == 0;
}

// Why no instance of latprobe's can be made under `dir`, the tracefs
// mount, or "" when one can.
std::string instancesRefusal(const std::string &dir)
{
    if (access((dir + "/instances").c_str(), W_OK) == 0)
        return {};
    if (errno == ENOENT)
        return fmt::format("flight recorder off: tracefs is not mounted (as root: mount -t "
                           "tracefs nodev {}); misses are not explained",
                           dir);
    return fmt::format("flight recorder off: no write access to {}/instances ({}): run "
                       "as root, or give this user write access to tracefs; misses are "
                       "not explained",
                       dir, std::strerror(errno));
}

// The instance's clock, CPUs, overwriting and buffer: what failed, or
// nullptr (errno says why).
const char *setUpInstance(tracefs_instance *instance, const std::vector<int> &cpus)
{
    // The probe's clock, so that trace times and the samples' times agree.
    if (tracefs_instance_file_write(instance, "trace_clock", "mono") < 0)
        return "setting trace_clock to mono";
    if (!cpus.empty() && tracefs_instance_set_affinity(instance, cpuList(cpus).c_str()) < 0)
        return "setting tracing_cpumask";
    if (latprobe_tracefs_overwrite(instance) < 0)
        return "setting overwrite";
    if (tracefs_instance_set_buffer_size(instance, KernelTraceBuffer::kBufferKbPerCpu, -1) < 0)
        return "setting buffer_size_kb";
    return nullptr;
}

// Enables the events an explanation reads, their enable files into
// `enabled`: what failed, or "" (errno says why). Each event's enable file
// is written directly: tracefs_event_enable() takes regexes and stats every
// system's directory per call (6,700 stats of eventfs, most of the
// recorder's start-up CPU).
std::string enableEvents(tracefs_instance *instance, std::vector<std::string> &enabled)
{
    auto enable = [&](const char *system, const std::string &event) {
        std::string file = fmt::format("events/{}/{}/enable", system, event);
        if (tracefs_instance_file_write(instance, file.c_str(), "1") < 0)
            return false;
        enabled.push_back(std::move(file));
        return true;
    };
    struct Wanted
    {
        const char *system, *event;
    };
    for (const Wanted &w : {Wanted{"sched", "sched_switch"}, Wanted{"sched", "sched_waking"},
                            Wanted{"sched", "sched_wakeup"}, Wanted{"sched", "sched_migrate_task"},
                            Wanted{"irq", "irq_handler_entry"}, Wanted{"irq", "irq_handler_exit"},
                            Wanted{"irq", "softirq_entry"}, Wanted{"irq", "softirq_exit"},
                            Wanted{"timer", "hrtimer_expire_entry"}})
        if (!enable(w.system, w.event))
            return fmt::format("enabling {}:{}", w.system, w.event);
    // x86 only; elsewhere interrupts show through irq_handler_entry alone.
    for (const char *vector :
         {"local_timer", "reschedule", "call_function", "call_function_single", "irq_work",
          "x86_platform_ipi", "thermal_apic", "error_apic", "spurious_apic"})
        for (const char *end : {"_entry", "_exit"})
            enable("irq_vectors", std::string(vector) + end);
    return {};
}

// A reader of each recorded CPU's raw pipe (every CPU's when `cpus` is
// empty) into `readers`: what failed, or "" (errno says why).
std::string openReaders(tracefs_instance *instance, size_t pageSize, const std::vector<int> &cpus,
                        int cpuCount, std::vector<CpuPageReader> &readers)
{
    std::vector<int> recorded = cpus;
    if (recorded.empty())
        for (int c = 0; c < cpuCount; ++c)
            recorded.push_back(c);
    for (int cpu : recorded) {
        const std::string pipe = fmt::format("per_cpu/cpu{}/trace_pipe_raw", cpu);
        const int fd = tracefs_instance_file_open(instance, pipe.c_str(), O_RDONLY | O_NONBLOCK);
        if (fd < 0)
            return "opening " + pipe;
        readers.emplace_back(cpu, fd, pageSize);
    }
    return {};
}

} // namespace

struct KernelTraceBuffer::Parsers
{
    std::unordered_map<int, kerneltracebuffer_detail::Parser> byId;
};

KernelTraceBuffer::KernelTraceBuffer() = default;

int KernelTraceBuffer::removeStaleInstances()
{
    // Every instance, filtered here: libtracefs compiles its pattern as a
    // basic regex, where "[0-9]+" does not mean what it says.
    char **names = tracefs_instances(nullptr);
    if (!names)
        return 0;
    int removed = 0;
    const size_t prefix = std::strlen(kPrefix);
    for (char **n = names; *n; ++n) {
        // latprobe-<pid>, or latprobe-<pid>-<n> for a process's later sessions.
        const std::string name = *n;
        const size_t digitsEnd = name.find_first_not_of("0123456789", prefix);
        if (name.size() <= prefix || name.compare(0, prefix, kPrefix) != 0 || digitsEnd == prefix ||
            (digitsEnd != std::string::npos &&
             (name[digitsEnd] != '-' ||
              name.find_first_not_of("0123456789", digitsEnd + 1) != std::string::npos)))
            continue;
        const pid_t pid = static_cast<pid_t>(std::atol(name.c_str() + prefix));
        if (pid == getpid() || latprobeAlive(pid))
            continue;
        if (tracefs_instance *stale = tracefs_instance_alloc(nullptr, *n)) {
            if (tracefs_instance_destroy(stale) == 0)
                ++removed;
            tracefs_instance_free(stale);
        }
    }
    tracefs_list_free(names);
    return removed;
}

std::unique_ptr<KernelTraceBuffer> KernelTraceBuffer::open(const std::vector<int> &cpus,
                                                           std::string &error)
{
    // tracefs_tracing_dir() names where tracefs is mounted, or would be.
    const char *found = tracefs_tracing_dir();
    const std::string dir = found ? found : "/sys/kernel/tracing";
    if (std::string refusal = instancesRefusal(dir); !refusal.empty()) {
        error = std::move(refusal);
        return nullptr;
    }
    removeStaleInstances();
    std::unique_ptr<KernelTraceBuffer> r(new KernelTraceBuffer);
    // One instance per session: a process (the tests) may hold several.
    static std::atomic<int> sessions{0};
    const int n = sessions++;
    r->m_name = n == 0 ? fmt::format("{}{}", kPrefix, getpid())
                       : fmt::format("{}{}-{}", kPrefix, getpid(), n);
    r->m_cpus = cpus;
    r->m_instance = tracefs_instance_create(r->m_name.c_str());
    if (!r->m_instance || !tracefs_instance_is_new(r->m_instance)) {
        const int err = errno;
        error = fmt::format("flight recorder off: cannot create a tracefs instance in "
                            "{}/instances ({}): run as root, or give this user write access to "
                            "that directory; misses are not explained",
                            dir, std::strerror(err ? err : EEXIST));
        if (r->m_instance)
            tracefs_instance_free(r->m_instance);
        r->m_instance = nullptr;
        return nullptr;
    }
    tracefs_trace_off(r->m_instance);
    auto fail = [&](const std::string &what) {
        error = fmt::format("flight recorder off: {} in tracefs instance {} failed ({}); misses "
                            "are not explained",
                            what, r->m_name, std::strerror(errno));
        return nullptr;
    };
    if (const char *failed = setUpInstance(r->m_instance, cpus))
        return fail(failed);
    const ssize_t kb = tracefs_instance_get_buffer_size(r->m_instance, 0);
    r->m_bufferKb = kb > 0 ? static_cast<size_t>(kb) : kBufferKbPerCpu;
    r->m_cpuCount = cpus.empty() ? static_cast<int>(sysconf(_SC_NPROCESSORS_CONF))
                                 : static_cast<int>(cpus.size());
    if (const std::string failed = enableEvents(r->m_instance, r->m_enabledEvents); !failed.empty())
        return fail(failed);
    r->m_tep = loadEventFormats(kRecordedSystems);
    if (!r->m_tep)
        return fail("reading the events' formats");
    r->m_parsers = std::make_unique<Parsers>(Parsers{parsersFor(r->m_tep)});
    // The ring buffer's (sub-)page: what a read of trace_pipe_raw returns.
    const int subBuffer = tep_get_sub_buffer_size(r->m_tep);
    r->m_pageSize =
        static_cast<size_t>(subBuffer > 0 ? subBuffer : static_cast<int>(sysconf(_SC_PAGESIZE)));
    if (const std::string failed =
            openReaders(r->m_instance, r->m_pageSize, cpus, r->m_cpuCount, r->m_readers);
        !failed.empty())
        return fail(failed);
    // Missing, misses are not marked; everything else works.
    r->m_markerFd = tracefs_instance_file_open(r->m_instance, "trace_marker", O_WRONLY | O_CLOEXEC);
    if (tracefs_trace_on(r->m_instance) < 0)
        return fail("turning tracing on");
    return r;
}

KernelTraceBuffer::~KernelTraceBuffer()
{
    // Before the instance goes: tracefs refuses to remove one still open.
    m_readers.clear();
    if (m_markerFd >= 0)
        close(m_markerFd);
    if (m_tep)
        tep_free(m_tep);
    if (m_instance) {
        tracefs_trace_off(m_instance);
        tracefs_instance_destroy(m_instance);
        tracefs_instance_free(m_instance);
    }
}

bool KernelTraceBuffer::setRecording(bool on)
{
    // Off, the events too: with tracing_on alone, each tracepoint still
    // entered the tracer to find the buffer off, a part of the cost that
    // trace_overhead.py's paused steps would then have kept.
    if (!on) {
        const bool stopped = tracefs_trace_off(m_instance) == 0;
        return tracefs_instance_file_write(m_instance, "events/enable", "0") >= 0 && stopped;
    }
    bool enabled = true;
    for (const std::string &file : m_enabledEvents)
        enabled &= tracefs_instance_file_write(m_instance, file.c_str(), "1") >= 0;
    return tracefs_trace_on(m_instance) == 0 && enabled;
}

void KernelTraceBuffer::keepWalkedPages(std::vector<RawPagePtr> *into)
{
    for (CpuPageReader &reader : m_readers)
        reader.keepWalkedPages(into);
}

TraceDatFormats KernelTraceBuffer::traceDatFormats() const
{
    TraceDatFormats f;
    f.pageSize = static_cast<uint32_t>(m_pageSize);
    f.cpus = static_cast<int>(sysconf(_SC_NPROCESSORS_CONF));
    f.headerPage = tracefsText("events/header_page");
    f.headerEvent = tracefsText("events/header_event");
    f.ftrace = eventFormats("ftrace");
    for (const char *const *system = kRecordedSystems; *system; ++system)
        if (std::vector<std::string> formats = eventFormats(*system); !formats.empty())
            f.systems.emplace_back(*system, std::move(formats));
    utsname u{};
    if (uname(&u) == 0)
        f.uname =
            fmt::format("{} {} {} {} {}", u.sysname, u.nodename, u.release, u.version, u.machine);
    return f;
}

bool KernelTraceBuffer::followOnly(const std::vector<std::string> &threadNames)
{
    std::vector<std::string> tests;
    for (const std::string &name : threadNames)
        if (!name.empty())
            tests.push_back(fmt::format("comm == \"{}\"", name));
    // Writing 0 clears an event's filter.
    const std::string filter = tests.empty() ? "0" : fmt::format("{}", fmt::join(tests, " || "));
    bool applied = true;
    for (const char *event : {"sched_waking", "sched_wakeup", "sched_migrate_task"}) {
        const std::string file = fmt::format("events/sched/{}/filter", event);
        if (tracefs_instance_file_write(m_instance, file.c_str(), filter.c_str()) < 0) {
            tracefs_instance_file_write(m_instance, file.c_str(), "0");
            applied = false;
        }
    }
    return applied;
}

std::vector<SchedEvent> KernelTraceBuffer::read(int64_t from, int64_t to)
{
    std::vector<SchedEvent> events;
    readInto(events, {{from, to}});
    return events;
}

KernelTraceBuffer::PageCount KernelTraceBuffer::lastReadPages() const
{
    PageCount count;
    for (const CpuPageReader &reader : m_readers) {
        count.read += reader.pagesRead();
        count.walked += reader.pagesWalked();
    }
    return count;
}

size_t KernelTraceBuffer::readInto(std::vector<SchedEvent> &events, std::vector<TimeRange> wanted,
                                   size_t maxPastStart, int64_t startNs)
{
    if (startNs == 0) {
        timespec now{};
        clock_gettime(CLOCK_MONOTONIC, &now);
        startNs = int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
    }
    std::sort(wanted.begin(), wanted.end(),
              [](const TimeRange &a, const TimeRange &b) { return a.from < b.from; });
    std::vector<TimeRange> merged;
    for (const TimeRange &r : wanted) {
        if (!merged.empty() && r.from <= merged.back().to)
            merged.back().to = std::max(merged.back().to, r.to);
        else
            merged.push_back(r);
    }
    const size_t before = events.size();
    // Growing by doubling to a read's 100,000 events under hackbench copied
    // them and faulted fresh pages in at every step: a third of lp-explain's
    // CPU. The read before is the best guess, within what the buffer holds
    // (an event takes at least 32 bytes of it).
    const size_t mostInBuffer = m_bufferKb * 1024 / 32 * static_cast<size_t>(m_cpuCount);
    const size_t expected = before + std::min(m_lastRead + m_lastRead / 4, mostInBuffer);
    // Geometrically, as a push would, but before the read fills it: a
    // vector sized to each read's guess was grown again at most reads.
    if (expected > events.capacity())
        events.reserve(std::max(expected, 2 * events.capacity()));
    const size_t cpus = std::max<size_t>(1, m_readers.size());
    ReadContext context{
        m_tep,   &m_parsers->byId,
        &merged, &events,
        startNs, maxPastStart == SIZE_MAX ? SIZE_MAX : (maxPastStart + cpus - 1) / cpus};
    // The CPUs' events merged by time as they are walked, the earliest
    // first: sorting or merging them afterwards, 100,000 events of 96 bytes
    // a read under hackbench, was most of lp-explain's CPU.
    struct Walk
    {
        CpuPageReader *reader;
        size_t pastStart = 0;
    };
    std::vector<Walk> walks;
    for (CpuPageReader &reader : m_readers)
        if (reader.begin(&merged))
            walks.push_back({&reader});
    tep_record record{};
    while (!walks.empty()) {
        const auto next =
            std::min_element(walks.begin(), walks.end(), [](const Walk &a, const Walk &b) {
                return a.reader->ts() < b.reader->ts();
            });
        next->reader->fill(record);
        if (!keepEvent(&context, &record, next->reader->cpu(), next->pastStart) ||
            !next->reader->advance())
            walks.erase(next);
    }
    m_lastRead = events.size() - before;
    return m_lastRead;
}

} // namespace latprobe
