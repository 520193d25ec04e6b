#include "histogram.h"

#include <algorithm>
#include <cmath>

namespace latprobe {

Histogram::Histogram(uint32_t limitUs) : m_limitUs(limitUs) {}

void Histogram::reserveBucket(size_t us)
{
    if (us >= m_buckets.size())
        m_buckets.resize(
            std::min<size_t>(m_limitUs, std::max<size_t>(us + 1, 2 * m_buckets.size())));
}

void Histogram::add(int64_t us)
{
    if (us < 0)
        us = 0;
    if (us < static_cast<int64_t>(m_limitUs)) {
        reserveBucket(static_cast<size_t>(us));
        ++m_buckets[us];
        m_used = std::max(m_used, static_cast<size_t>(us) + 1);
    } else {
        // Stays unsorted once one value came out of order, whatever follows.
        m_overflowSorted =
            m_overflowSorted && (m_overflowValues.empty() || m_overflowValues.back() <= us);
        m_overflowValues.push_back(us);
    }
    ++m_count;
}

void Histogram::add(int64_t us, uint64_t count)
{
    if (us >= 0 && us < static_cast<int64_t>(m_limitUs)) {
        reserveBucket(static_cast<size_t>(us));
        m_buckets[us] += static_cast<uint32_t>(count);
        m_used = std::max(m_used, static_cast<size_t>(us) + 1);
        m_count += count;
        return;
    }
    for (uint64_t i = 0; i < count; ++i)
        add(us);
}

void Histogram::merge(const Histogram &other)
{
    const size_t n = std::min(m_limitUs, other.m_limitUs);
    if (std::min(n, other.m_used) > 0)
        reserveBucket(std::min(n, other.m_used) - 1);
    for (size_t i = 0; i < std::min(n, other.m_used); ++i) {
        m_buckets[i] += other.m_buckets[i];
        m_count += other.m_buckets[i];
    }
    m_used = std::max(m_used, std::min(n, other.m_used));
    // What lies past either limit goes through add(): into this histogram's
    // buckets when it reaches further than the other's, else its overflow.
    for (size_t i = n; i < other.m_used; ++i)
        add(static_cast<int64_t>(i), other.m_buckets[i]);
    for (int64_t us : other.m_overflowValues)
        add(us);
}

void Histogram::clear()
{
    std::fill(m_buckets.begin(), m_buckets.begin() + m_used, 0);
    m_used = 0;
    m_overflowValues.clear();
    m_count = 0;
    m_overflowSorted = true;
}

int64_t Histogram::percentile(double q) const
{
    if (m_count == 0)
        return 0;
    q = std::clamp(q, 0.0, 1.0);
    uint64_t rank = static_cast<uint64_t>(std::ceil(q * static_cast<double>(m_count)));
    rank = std::clamp<uint64_t>(rank, 1, m_count);
    uint64_t seen = 0;
    for (size_t us = 0; us < m_used; ++us) {
        seen += m_buckets[us];
        if (seen >= rank)
            return static_cast<int64_t>(us);
    }
    if (!m_overflowSorted) {
        std::sort(m_overflowValues.begin(), m_overflowValues.end());
        m_overflowSorted = true;
    }
    return m_overflowValues[rank - seen - 1];
}

std::vector<std::pair<int64_t, uint64_t>> Histogram::sparse() const
{
    std::vector<std::pair<int64_t, uint64_t>> out;
    for (size_t us = 0; us < m_used; ++us)
        if (m_buckets[us])
            out.emplace_back(static_cast<int64_t>(us), m_buckets[us]);
    std::vector<int64_t> over = m_overflowValues;
    std::sort(over.begin(), over.end());
    for (int64_t v : over) {
        if (!out.empty() && out.back().first == v)
            ++out.back().second;
        else
            out.emplace_back(v, 1);
    }
    return out;
}

} // namespace latprobe
