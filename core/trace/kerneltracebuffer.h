#pragma once

#include "cpupagereader.h"
#include "rawpage.h"
#include "schedevent.h"
#include "tracedatfile.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct tracefs_instance;
struct tep_handle;

namespace latprobe {

// The flight recorder's kernel half, the buffer: a private tracefs
// instance, `latprobe-<pid>` (a process's later ones `latprobe-<pid>-<n>`),
// that records the scheduler, interrupt and timer events a miss's explanation
// needs on the probe's CPUs, in overwrite mode, so that the kernel keeps the
// last seconds at small cost and nobody reads them until a miss asks. Never
// the global buffer, which belongs to whoever else traces. The instance is
// removed with the recorder, and one left by a latprobe killed with -9 is
// removed by the next one's open().
class KernelTraceBuffer
{
public:
    // Per CPU. A miss is read back 0.25 to 0.5 s after it (the collector's
    // drain, then the session's tick); how much history 4 MiB holds depends
    // on the event rate (seconds when idle, less under hackbench), and an
    // explanation whose window was already overwritten says so in its note.
    static constexpr size_t kBufferKbPerCpu = 4096;

    // Starts recording on `cpus` (empty: every CPU). nullptr when it
    // cannot, with `error` one line saying what to grant.
    static std::unique_ptr<KernelTraceBuffer> open(const std::vector<int> &cpus,
                                                   std::string &error);
    ~KernelTraceBuffer(); // stops and removes the instance
    KernelTraceBuffer(const KernelTraceBuffer &) = delete;
    KernelTraceBuffer &operator=(const KernelTraceBuffer &) = delete;

    // Records wakeups and migrations of the threads so named only (the
    // consumers'; the kernel drops the rest before they reach the buffer):
    // the explanations follow no other task's, and under hackbench they were
    // most of the events read back. By name, not thread id: a consumer
    // measures on a new thread after each pause, which the filter then
    // follows from its first wakeup. Empty: everyone's. Returns false, and
    // everyone's are kept, when the kernel refuses the filter.
    bool followOnly(const std::vector<std::string> &threadNames);

    // Every event recorded from `from` to `to` (CLOCK_MONOTONIC ns), in
    // time order. Reading consumes: what is read is gone from the buffer.
    std::vector<SchedEvent> read(int64_t from, int64_t to);
    using TimeRange = latprobe::TimeRange;
    // The events in any of `wanted` (any order, overlaps allowed), appended
    // to `events` in time order; returns how many. The rest is read and
    // dropped: under hackbench most of a read is the seconds between the
    // misses asked about and the consumers' present, which no one needs.
    // A page none of `wanted` meets is dropped unparsed (CpuPageReader).
    // A read goes on while the kernel writes as fast as it is read (a
    // starved reader under hackbench held 104 MB of events in one read):
    // it stops reading a CPU once it has kept that CPU's share of
    // `maxPastStart` events stamped after it began (or after `startNs`,
    // when given); the next read will not find the rest of that page.
    size_t readInto(std::vector<SchedEvent> &events, std::vector<TimeRange> wanted,
                    size_t maxPastStart = SIZE_MAX, int64_t startNs = 0);

    // What the last read took from the kernel and how much of it it walked.
    struct PageCount
    {
        size_t read = 0, walked = 0;
    };
    PageCount lastReadPages() const;

    // Each page a read walks is also copied, whole, into `into` (nullptr:
    // none), for saving as trace.dat.
    void keepWalkedPages(std::vector<RawPagePtr> *into);
    // What a trace.dat of this instance's pages needs besides them: the
    // recorded systems' formats (and ftrace's, for the markers).
    TraceDatFormats traceDatFormats() const;
    // The instance's trace_marker, open for writing while the buffer lives:
    // a line written there is recorded among the events (ftrace's print).
    // -1 when it could not be opened.
    int markerFd() const { return m_markerFd; }

    // Pauses the kernel's recording (tracing_on, and the events disabled)
    // or resumes it.
    bool setRecording(bool on);

    const std::string &instanceName() const { return m_name; }
    size_t bufferKbPerCpu() const { return m_bufferKb; }
    int cpuCount() const { return m_cpuCount; }
    // Removes `latprobe-<pid>[-<n>]` instances whose latprobe is gone; returns how many.
    static int removeStaleInstances();

private:
    KernelTraceBuffer();
    struct Parsers; // each event's fields, looked up once

    std::string m_name;
    tracefs_instance *m_instance = nullptr;
    std::vector<std::string> m_enabledEvents; // their enable files, for setRecording()
    tep_handle *m_tep = nullptr;
    size_t m_bufferKb = 0;
    int m_cpuCount = 0;
    size_t m_lastRead = 0; // events the last read kept: the next one's reservation
    std::vector<int> m_cpus;
    int m_markerFd = -1;
    size_t m_pageSize = 0;
    std::vector<CpuPageReader> m_readers; // each recorded CPU's, open from start to end
    std::unique_ptr<Parsers> m_parsers;
};

} // namespace latprobe
