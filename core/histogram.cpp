#include "histogram.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace latprobe {

Histogram::Histogram(uint32_t limitUs) : m_limitUs(limitUs) {}

void Histogram::reserveBucket(size_t us)
{
    if (us >= m_buckets.size())
        m_buckets.resize(
            std::min<size_t>(m_limitUs, std::max<size_t>(us + 1, 2 * m_buckets.size())));
}

template <typename Visit> void Histogram::visitBuckets(Visit visit) const
{
    if (m_isCompact) {
        for (const CompactBucket &b : m_compact)
            if (!visit(size_t{b.us}, b.count))
                return;
        return;
    }
    for (size_t us = 0; us < m_used; ++us)
        if (m_buckets[us] && !visit(us, m_buckets[us]))
            return;
}

void Histogram::add(int64_t us)
{
    add(us, 1);
}

void Histogram::add(int64_t us, uint64_t count)
{
    if (count == 0)
        return;
    if (us < 0)
        us = 0;
    if (us >= static_cast<int64_t>(m_limitUs)) {
        // Stays unsorted once one value came out of order, whatever follows.
        m_overflowSorted =
            m_overflowSorted && (m_overflowValues.empty() || m_overflowValues.back() <= us);
        m_overflowValues.insert(m_overflowValues.end(), count, us);
        m_count += count;
        return;
    }
    if (m_isCompact)
        expand();
    reserveBucket(static_cast<size_t>(us));
    if (count > std::numeric_limits<uint32_t>::max() - m_buckets[us])
        throw std::overflow_error("histogram bucket " + std::to_string(us) +
                                  " µs would hold more than 2^32 - 1 samples");
    m_buckets[us] += static_cast<uint32_t>(count);
    m_used = std::max(m_used, static_cast<size_t>(us) + 1);
    m_count += count;
}

void Histogram::merge(const Histogram &other)
{
    // What lies past this histogram's limit goes to its overflow values.
    other.visitBuckets([&](size_t us, uint32_t n) {
        add(static_cast<int64_t>(us), n);
        return true;
    });
    for (int64_t us : other.m_overflowValues)
        add(us);
}

void Histogram::clear()
{
    std::fill(m_buckets.begin(), m_buckets.begin() + m_used, 0);
    m_used = 0;
    m_compact.clear();
    m_isCompact = false;
    m_overflowValues.clear();
    m_count = 0;
    m_overflowSorted = true;
}

void Histogram::compact()
{
    if (m_isCompact)
        return;
    std::vector<CompactBucket> buckets;
    buckets.reserve(static_cast<size_t>(std::count_if(m_buckets.begin(), m_buckets.begin() + m_used,
                                                      [](uint32_t n) { return n; })));
    visitBuckets([&](size_t us, uint32_t n) {
        buckets.push_back({static_cast<uint32_t>(us), n});
        return true;
    });
    m_compact = std::move(buckets);
    std::vector<uint32_t>().swap(m_buckets); // give the memory back, not just the size
    m_used = 0;
    m_overflowValues.shrink_to_fit();
    m_isCompact = true;
}

void Histogram::expand()
{
    m_isCompact = false;
    if (!m_compact.empty()) {
        reserveBucket(m_compact.back().us);
        for (const CompactBucket &b : m_compact)
            m_buckets[b.us] = b.count;
        m_used = size_t{m_compact.back().us} + 1;
    }
    std::vector<CompactBucket>().swap(m_compact);
}

int64_t Histogram::percentile(double q) const
{
    if (m_count == 0)
        return 0;
    q = std::clamp(q, 0.0, 1.0);
    uint64_t rank = static_cast<uint64_t>(std::ceil(q * static_cast<double>(m_count)));
    rank = std::clamp<uint64_t>(rank, 1, m_count);
    uint64_t seen = 0;
    int64_t found = -1;
    visitBuckets([&](size_t us, uint32_t n) {
        seen += n;
        if (seen < rank)
            return true;
        found = static_cast<int64_t>(us);
        return false;
    });
    if (found >= 0)
        return found;
    if (!m_overflowSorted) {
        std::sort(m_overflowValues.begin(), m_overflowValues.end());
        m_overflowSorted = true;
    }
    return m_overflowValues[rank - seen - 1];
}

std::vector<std::pair<int64_t, uint64_t>> Histogram::sparse() const
{
    std::vector<std::pair<int64_t, uint64_t>> out;
    visitBuckets([&](size_t us, uint32_t n) {
        out.emplace_back(static_cast<int64_t>(us), n);
        return true;
    });
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
