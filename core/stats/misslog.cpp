#include "misslog.h"

#include "varint.h"

namespace latprobe {

namespace {
// Five fields at most kMaxVarintBytes each: a chunk with less room left
// than this is closed.
constexpr size_t kMaxEntryBytes = 5 * kMaxVarintBytes;
} // namespace

void MissLog::append(const Entry &entry)
{
    if (m_chunks.empty() || m_chunks.back().items.size() + kMaxEntryBytes > kChunkBytes) {
        if (!m_chunks.empty())
            m_chunks.back().park(m_store.get());
        m_chunks.emplace_back();
        m_chunks.back().items.reserve(kChunkBytes);
    }
    std::vector<uint8_t> &out = m_chunks.back().items;
    // Consumers drain one after another: a miss may be older than the last.
    appendVarint(out, zigzag(entry.doneNs - m_previousNs));
    appendVarint(out, entry.latenessUs);
    appendVarint(out, entry.periodsLost);
    appendVarint(out, entry.phase);
    appendVarint(out, entry.consumer);
    m_previousNs = entry.doneNs;
    ++m_size;
}

size_t MissLog::bytes() const
{
    size_t total = m_chunks.capacity() * sizeof(Chunk);
    for (const Chunk &chunk : m_chunks)
        total += chunk.heapBytes();
    return total;
}

MissLog::Entry MissLog::Reader::next(const uint8_t *&at)
{
    Entry e;
    e.doneNs = previousNs + unzigzag(readVarint(at));
    e.latenessUs = static_cast<uint32_t>(readVarint(at));
    e.periodsLost = static_cast<uint32_t>(readVarint(at));
    e.phase = static_cast<uint32_t>(readVarint(at));
    e.consumer = static_cast<uint32_t>(readVarint(at));
    previousNs = e.doneNs;
    return e;
}

} // namespace latprobe
