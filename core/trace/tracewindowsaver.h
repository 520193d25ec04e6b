#pragma once

#include "cpupagereader.h"
#include "rawpage.h"
#include "schedevent.h"
#include "tracedatfile.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <unordered_set>
#include <vector>

namespace latprobe {

// The kernel's own record of each explained miss, kept as trace.dat
// (`latprobe run --save-trace`): lp-explain hands it the raw pages each
// read walked, and each miss's window; it writes the pages that window
// meets, windows that overlap merged into one file, so that a maintainer
// sees in trace-cmd or KernelShark what the explanation summed up. Used by
// lp-explain alone.
class TraceWindowSaver
{
public:
    // Files `trace-<n>.dat` in `dir` (which exists), at most `maxBytes` of
    // them in all.
    TraceWindowSaver(std::string dir, uint64_t maxBytes, TraceDatFormats formats);

    // The pages a read walked, in any order; kept until trimmed.
    void addPages(std::vector<RawPagePtr> &&pages);
    // Forgets the pages that end before `from` (no window asked for later
    // can reach them); every page when `from` is INT64_MAX.
    void trim(int64_t from);
    // A miss's window: its pages (and the names of the tasks `events` shows
    // in it) join the file under way when the two overlap, else a new one,
    // and the one under way is written. Returns the file's name (no
    // folder), or "" when the cap leaves no room for it (overCap() counts).
    std::string add(TimeRange window, std::span<const SchedEvent> events);
    // Writes the file under way if no window from `from` on can meet it.
    void writeBefore(int64_t from);
    void writeAll();

    struct Totals
    {
        size_t files = 0;
        uint64_t bytes = 0;
        size_t overCap = 0;              // windows not saved: the cap was reached
        std::string error;               // the last write's failure, one line; "" none
        std::vector<std::string> failed; // files named to windows but not written
    };
    const Totals &totals() const { return m_totals; }
    size_t recentPages() const { return m_recent.size(); }

private:
    struct Pending
    {
        std::string name;
        TimeRange range;
        std::vector<RawPagePtr> pages;
        std::unordered_set<const RawPage *> saved; // of `pages`
        std::map<int, std::string> comms;
        uint64_t bytes = 0;
    };
    void write();

    std::string m_dir;
    uint64_t m_maxBytes;
    TraceDatFormats m_formats;
    uint64_t m_headerBytes = 0; // of each file, before its pages
    std::vector<RawPagePtr> m_recent;
    bool m_pending = false;
    Pending m_file;
    int m_next = 1;
    Totals m_totals;
};

} // namespace latprobe
