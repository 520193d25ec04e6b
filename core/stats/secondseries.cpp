#include "secondseries.h"

#include <cstring>
#include <type_traits>

namespace latprobe {

static_assert(std::is_trivially_copyable_v<SecondBucket>, "parked as raw bytes");

void SecondSeries::grow(size_t seconds)
{
    if (seconds <= m_size)
        return;
    const size_t chunks = (seconds + kChunkSeconds - 1) / kChunkSeconds;
    while (m_chunks.size() < chunks) {
        if (!m_chunks.empty())
            m_chunks.back().buckets.resize(kChunkSeconds);
        m_chunks.emplace_back();
        m_chunks.back().buckets.reserve(kChunkSeconds);
    }
    m_chunks.back().buckets.resize(seconds - (chunks - 1) * kChunkSeconds);
    m_size = seconds;
    // The newest two stay: a period may still land in the one before.
    for (size_t i = 0; i + 2 < m_chunks.size(); ++i)
        if (!m_chunks[i].parked && !m_chunks[i].buckets.empty())
            park(m_chunks[i]);
}

void SecondSeries::park(Chunk &chunk)
{
    if (!m_store)
        return;
    const auto *bytes = reinterpret_cast<const uint8_t *>(chunk.buckets.data());
    if (const std::optional<ColdStore::Ref> ref =
            m_store->put(bytes, chunk.buckets.size() * sizeof(SecondBucket))) {
        chunk.parked = ref;
        std::vector<SecondBucket>().swap(chunk.buckets);
    }
}

SecondBucket &SecondSeries::at(size_t second)
{
    Chunk &chunk = m_chunks.at(second / kChunkSeconds);
    if (chunk.parked) {
        chunk.buckets.resize(kChunkSeconds);
        m_store->getInto(*chunk.parked, reinterpret_cast<uint8_t *>(chunk.buckets.data()));
        chunk.parked.reset(); // parked again, anew, when it falls behind
    }
    return chunk.buckets[second % kChunkSeconds];
}

std::vector<SecondBucket> SecondSeries::all() const
{
    std::vector<SecondBucket> out(m_size);
    for (size_t i = 0; i < m_chunks.size(); ++i) {
        SecondBucket *to = out.data() + i * kChunkSeconds;
        const Chunk &chunk = m_chunks[i];
        if (chunk.parked)
            m_store->getInto(*chunk.parked, reinterpret_cast<uint8_t *>(to));
        else
            std::memcpy(static_cast<void *>(to), chunk.buckets.data(),
                        chunk.buckets.size() * sizeof(SecondBucket));
    }
    return out;
}

size_t SecondSeries::bytes() const
{
    size_t total = m_chunks.capacity() * sizeof(Chunk);
    for (const Chunk &chunk : m_chunks)
        total += chunk.buckets.capacity() * sizeof(SecondBucket);
    return total;
}

} // namespace latprobe
