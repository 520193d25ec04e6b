#include "cpupagereader.h"

#include <algorithm>
#include <unistd.h>
#include <utility>

#include "tracefsapi.h"

namespace latprobe {

bool meetsWanted(const std::vector<TimeRange> &wanted, int64_t from, int64_t to)
{
    auto after = std::upper_bound(wanted.begin(), wanted.end(), to,
                                  [](int64_t t, const TimeRange &r) { return t < r.from; });
    return after != wanted.begin() && from <= std::prev(after)->to;
}

CpuPageReader::CpuPageReader(int cpu, int fd, size_t pageSize)
    : m_cpu(cpu), m_fd(fd), m_pageSize(pageSize),
      m_kbuf(kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST, KBUFFER_ENDIAN_SAME_AS_HOST)),
      m_pages(2 * pageSize)
{
    m_walked = m_pages.data();
    m_ahead = m_pages.data() + pageSize;
}

CpuPageReader::CpuPageReader(CpuPageReader &&other) noexcept
    : m_cpu(other.m_cpu), m_fd(std::exchange(other.m_fd, -1)), m_pageSize(other.m_pageSize),
      m_kbuf(std::exchange(other.m_kbuf, nullptr)), m_pages(std::move(other.m_pages)),
      m_keep(other.m_keep)
{
    m_walked = m_pages.data();
    m_ahead = m_pages.data() + m_pageSize;
}

CpuPageReader::~CpuPageReader()
{
    if (m_fd >= 0)
        close(m_fd);
    if (m_kbuf)
        kbuffer_free(m_kbuf);
}

bool CpuPageReader::begin(const std::vector<TimeRange> *wanted)
{
    m_wanted = wanted;
    m_haveAhead = false;
    m_event = nullptr;
    m_pagesRead = m_pagesWalked = 0;
    return m_kbuf && nextWantedPage();
}

bool CpuPageReader::advance()
{
    m_event = kbuffer_next_event(m_kbuf, &m_ts);
    return m_event || nextWantedPage();
}

bool CpuPageReader::nextWantedPage()
{
    for (;;) {
        if (!m_haveAhead && ::read(m_fd, m_ahead, m_pageSize) <= 0)
            return false;
        m_pagesRead += !m_haveAhead;
        std::swap(m_walked, m_ahead);
        m_haveAhead = ::read(m_fd, m_ahead, m_pageSize) > 0;
        m_pagesRead += m_haveAhead;
        // A page's events are stamped from its own stamp to the next page's.
        const auto from = static_cast<int64_t>(kbuffer_subbuf_timestamp(m_kbuf, m_walked));
        const int64_t to = m_haveAhead
                               ? static_cast<int64_t>(kbuffer_subbuf_timestamp(m_kbuf, m_ahead))
                               : INT64_MAX;
        if (!meetsWanted(*m_wanted, from, to) || kbuffer_load_subbuffer(m_kbuf, m_walked) < 0)
            continue;
        ++m_pagesWalked;
        if (m_keep)
            m_keep->push_back(std::make_shared<RawPage>(
                RawPage{m_cpu, from, to, std::vector<char>(m_walked, m_walked + m_pageSize)}));
        m_event = kbuffer_read_event(m_kbuf, &m_ts);
        if (m_event)
            return true;
    }
}

void CpuPageReader::fill(tep_record &record) const
{
    record = {};
    record.ts = m_ts;
    record.cpu = m_cpu;
    record.data = m_event;
    record.size = kbuffer_event_size(m_kbuf);
}

} // namespace latprobe
