#include "secondseries.h"

namespace latprobe {

void SecondSeries::grow(size_t seconds)
{
    if (seconds <= m_size)
        return;
    const size_t chunks = (seconds + kChunkSeconds - 1) / kChunkSeconds;
    while (m_chunks.size() < chunks) {
        if (!m_chunks.empty())
            m_chunks.back().items.resize(kChunkSeconds);
        m_chunks.emplace_back();
        m_chunks.back().items.reserve(kChunkSeconds);
    }
    m_chunks.back().items.resize(seconds - (chunks - 1) * kChunkSeconds);
    m_size = seconds;
    // The newest two stay: a period may still land in the one before.
    for (size_t i = 0; i + 2 < m_chunks.size(); ++i)
        m_chunks[i].park(m_store.get());
}

SecondBucket &SecondSeries::at(size_t second)
{
    Chunk &chunk = m_chunks.at(second / kChunkSeconds);
    chunk.unpark(m_store.get());
    return chunk.items[second % kChunkSeconds];
}

std::vector<SecondBucket> SecondSeries::all() const
{
    std::vector<SecondBucket> out(m_size);
    for (size_t i = 0; i < m_chunks.size(); ++i)
        m_chunks[i].readInto(m_store.get(), out.data() + i * kChunkSeconds);
    return out;
}

size_t SecondSeries::bytes() const
{
    size_t total = m_chunks.capacity() * sizeof(Chunk);
    for (const Chunk &chunk : m_chunks)
        total += chunk.heapBytes();
    return total;
}

} // namespace latprobe
