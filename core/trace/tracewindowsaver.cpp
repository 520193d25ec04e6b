#include "tracewindowsaver.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <utility>

namespace latprobe {

namespace {

bool meets(const RawPage &page, TimeRange window)
{
    return page.from <= window.to && page.to >= window.from;
}

void nameTasks(std::map<int, std::string> &comms, std::span<const SchedEvent> events,
               TimeRange window)
{
    for (const SchedEvent &e : events) {
        if (e.ts < window.from || e.ts > window.to)
            continue;
        if (e.type == SchedEvent::Type::IrqEntry || e.type == SchedEvent::Type::IrqExit ||
            e.type == SchedEvent::Type::SoftirqEntry || e.type == SchedEvent::Type::SoftirqExit ||
            e.type == SchedEvent::Type::HrtimerExpire)
            continue;
        if (e.pid > 0 && e.comm[0])
            comms[e.pid] = std::string(e.comm, strnlen(e.comm, sizeof e.comm));
        if (e.type == SchedEvent::Type::Switch && e.prevPid > 0 && e.prevComm[0])
            comms[e.prevPid] = std::string(e.prevComm, strnlen(e.prevComm, sizeof e.prevComm));
    }
}

} // namespace

TraceWindowSaver::TraceWindowSaver(std::string dir, uint64_t maxBytes, TraceDatFormats formats)
    : m_dir(std::move(dir)), m_maxBytes(maxBytes), m_formats(std::move(formats)),
      m_headerBytes(traceDatBytes(m_formats, {}, {}).size())
{}

void TraceWindowSaver::addPages(std::vector<RawPagePtr> &&pages)
{
    // A CPU's last page of the read before ended where this read's first
    // page of that CPU begins: until now it seemed to meet every window.
    std::map<int, int64_t> firstOfCpu;
    for (const RawPagePtr &p : pages) {
        auto [it, added] = firstOfCpu.emplace(p->cpu, p->from);
        if (!added)
            it->second = std::min(it->second, p->from);
    }
    for (const RawPagePtr &p : m_recent)
        if (auto it = firstOfCpu.find(p->cpu); it != firstOfCpu.end() && p->to == INT64_MAX)
            p->to = std::max(p->from, it->second);
    m_recent.insert(m_recent.end(), std::make_move_iterator(pages.begin()),
                    std::make_move_iterator(pages.end()));
    pages.clear();
}

void TraceWindowSaver::trim(int64_t from)
{
    std::erase_if(m_recent,
                  [from](const RawPagePtr &p) { return from == INT64_MAX || p->to < from; });
}

std::string TraceWindowSaver::add(TimeRange window, std::span<const SchedEvent> events)
{
    if (m_pending && (window.from > m_file.range.to || window.to < m_file.range.from))
        write();
    std::vector<RawPagePtr> fresh;
    uint64_t freshBytes = 0;
    for (const RawPagePtr &p : m_recent)
        if (meets(*p, window) && (!m_pending || !m_file.saved.contains(p.get()))) {
            fresh.push_back(p);
            freshBytes += p->bytes.size();
        }
    // The pages and, for each file, its header (the formats: tens of KiB).
    if (fresh.empty() && !m_pending)
        return {}; // nothing of it was read (its pages went before)
    const uint64_t pendingBytes = m_pending ? m_file.bytes : m_headerBytes;
    if (m_totals.bytes + pendingBytes + freshBytes > m_maxBytes) {
        ++m_totals.overCap;
        return {};
    }
    if (!m_pending) {
        m_file = Pending{fmt::format("trace-{}.dat", m_next++), window, {}, {}, {}, m_headerBytes};
        m_pending = true;
    }
    m_file.range.from = std::min(m_file.range.from, window.from);
    m_file.range.to = std::max(m_file.range.to, window.to);
    for (const RawPagePtr &p : fresh)
        m_file.saved.insert(p.get());
    m_file.pages.insert(m_file.pages.end(), fresh.begin(), fresh.end());
    m_file.bytes += freshBytes;
    nameTasks(m_file.comms, events, window);
    return m_file.name;
}

void TraceWindowSaver::writeBefore(int64_t from)
{
    if (m_pending && m_file.range.to < from)
        write();
}

void TraceWindowSaver::writeAll()
{
    if (m_pending)
        write();
}

void TraceWindowSaver::write()
{
    m_pending = false;
    Pending file = std::exchange(m_file, {});
    std::string error;
    if (writeTraceDat(m_dir + "/" + file.name, m_formats, file.pages, file.comms, error)) {
        ++m_totals.files;
        m_totals.bytes += file.bytes;
    } else {
        m_totals.error = std::move(error);
        m_totals.failed.push_back(file.name);
    }
}

} // namespace latprobe
