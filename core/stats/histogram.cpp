#include "histogram.h"

#include "varint.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace latprobe {

Histogram::Histogram(uint32_t limitUs) : m_limitUs(limitUs) {}

namespace {
constexpr size_t kPendingLimit = 512;

// For lower_bound over the sorted (µs, count) list. A lambda, as the bucket
// type is private, but named as the function it is.
// NOLINTNEXTLINE(readability-identifier-naming)
constexpr auto bucketBelow = [](const auto &bucket, uint32_t us) { return bucket.us < us; };

[[noreturn]] void refuseBucket(size_t us)
{
    throw std::overflow_error("histogram bucket " + std::to_string(us) +
                              " µs would hold more than 2^32 - 1 samples");
}
} // namespace

void Histogram::reserveBucket(size_t us)
{
    if (us < m_buckets.size())
        return;
    const size_t size = std::min<size_t>(std::min(m_limitUs, kDenseUs),
                                         std::max<size_t>(us + 1, 2 * m_buckets.size()));
    m_buckets.reserve(size); // exactly: resize() alone may allocate up to twice that
    m_buckets.resize(size);
}

template <typename Visit> void Histogram::visitBuckets(Visit visit) const
{
    if (m_isCompact) {
        const std::vector<uint8_t> parked =
            m_store ? m_store->get(m_parked) : std::vector<uint8_t>();
        const std::vector<uint8_t> &packed = m_store ? parked : m_packed;
        uint64_t us = 0;
        for (const uint8_t *at = packed.data(), *end = at + packed.size(); at != end;) {
            const uint64_t token = readVarint(at);
            const uint64_t gapCode = token & kGapMask;
            us += gapCode == kGapFollows ? readVarint(at) : gapCode + 1;
            if (!visit(static_cast<size_t>(us), static_cast<uint32_t>(token >> kGapBits)))
                return;
        }
        return;
    }
    foldPending();
    for (size_t us = 0; us < m_used; ++us)
        if (m_buckets[us] && !visit(us, m_buckets[us]))
            return;
    for (const CompactBucket &b : m_sparse)
        if (!visit(size_t{b.us}, b.count))
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
    if (us >= static_cast<int64_t>(kDenseUs)) {
        if (count == 1) {
            m_pending.push_back(static_cast<uint32_t>(us));
            if (m_pending.size() >= kPendingLimit)
                foldPending();
        } else {
            addSparse(static_cast<uint32_t>(us), count);
        }
        m_count += count;
        return;
    }
    reserveBucket(static_cast<size_t>(us));
    if (count > std::numeric_limits<uint32_t>::max() - m_buckets[us])
        refuseBucket(static_cast<size_t>(us));
    m_buckets[us] += static_cast<uint32_t>(count);
    m_used = std::max(m_used, static_cast<size_t>(us) + 1);
    m_count += count;
}

void Histogram::addSparse(uint32_t us, uint64_t count)
{
    foldPending();
    auto at = std::lower_bound(m_sparse.begin(), m_sparse.end(), us, bucketBelow);
    const uint32_t held = at != m_sparse.end() && at->us == us ? at->count : 0;
    if (count > std::numeric_limits<uint32_t>::max() - held)
        refuseBucket(us);
    if (held)
        at->count += static_cast<uint32_t>(count);
    else
        m_sparse.insert(at, {us, static_cast<uint32_t>(count)});
}

void Histogram::foldPending() const
{
    if (m_pending.empty())
        return;
    std::sort(m_pending.begin(), m_pending.end());
    std::vector<CompactBucket> merged;
    merged.reserve(m_sparse.size() + m_pending.size());
    auto old = m_sparse.begin();
    for (size_t i = 0; i < m_pending.size();) {
        const uint32_t us = m_pending[i];
        uint64_t n = 0;
        for (; i < m_pending.size() && m_pending[i] == us; ++i)
            ++n;
        for (; old != m_sparse.end() && old->us < us; ++old)
            merged.push_back(*old);
        if (old != m_sparse.end() && old->us == us)
            n += (old++)->count;
        // 2^32 single samples in one µs past 8 ms: the add() that would
        // overflow is the one folding, or a query right after it.
        if (n > std::numeric_limits<uint32_t>::max())
            refuseBucket(us);
        merged.push_back({us, static_cast<uint32_t>(n)});
    }
    merged.insert(merged.end(), old, m_sparse.end());
    m_sparse = std::move(merged);
    m_pending.clear();
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
    m_sparse.clear();
    m_pending.clear();
    std::vector<uint8_t>().swap(m_packed);
    m_store.reset();
    m_isCompact = false;
    m_overflowValues.clear();
    m_count = 0;
    m_overflowSorted = true;
}

void Histogram::compact(const std::shared_ptr<ColdStore> &store)
{
    if (m_isCompact)
        return;
    std::vector<uint8_t> packed;
    size_t previous = 0;
    visitBuckets([&](size_t us, uint32_t n) {
        const size_t gap = us - previous;
        if (gap >= 1 && gap <= kGapFollows) {
            appendVarint(packed, uint64_t{n} << kGapBits | (gap - 1));
        } else {
            appendVarint(packed, uint64_t{n} << kGapBits | kGapFollows);
            appendVarint(packed, gap);
        }
        previous = us;
        return true;
    });
    if (const auto ref = store && !packed.empty() ? store->put(packed) : std::nullopt) {
        m_store = store;
        m_parked = *ref;
    } else {
        packed.shrink_to_fit();
        m_packed = std::move(packed);
    }
    // Give the memory back, not just the size.
    std::vector<uint32_t>().swap(m_buckets);
    std::vector<CompactBucket>().swap(m_sparse);
    std::vector<uint32_t>().swap(m_pending);
    m_used = 0;
    m_overflowValues.shrink_to_fit();
    m_isCompact = true;
}

void Histogram::expand()
{
    std::vector<std::pair<size_t, uint32_t>> buckets;
    visitBuckets([&](size_t us, uint32_t n) {
        buckets.emplace_back(us, n);
        return true;
    });
    std::vector<uint8_t>().swap(m_packed);
    m_store.reset();
    m_isCompact = false;
    for (const auto &[us, n] : buckets) {
        if (us < kDenseUs) {
            reserveBucket(us);
            m_buckets[us] = n;
            m_used = us + 1;
        } else {
            m_sparse.push_back({static_cast<uint32_t>(us), n});
        }
    }
}

size_t Histogram::bucketBytes() const
{
    return m_buckets.capacity() * sizeof(uint32_t) + m_sparse.capacity() * sizeof(CompactBucket) +
           m_pending.capacity() * sizeof(uint32_t) + m_packed.capacity() +
           m_overflowValues.capacity() * sizeof(int64_t);
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
