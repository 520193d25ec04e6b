#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace latprobe {

// Single-writer/single-reader ring. The writer (a measuring thread) never
// blocks and never allocates: when the reader falls behind, the item is
// dropped and counted, as jitterdebugger's ring does.
template <typename T> class SpscRing
{
public:
    explicit SpscRing(size_t capacityPow2)
        : m_mask(roundUp(capacityPow2) - 1), m_items(new T[m_mask + 1])
    {}

    size_t capacity() const { return m_mask + 1; }

    bool push(const T &item)
    {
        const uint64_t head = m_head.load(std::memory_order_relaxed);
        const uint64_t tail = m_tail.load(std::memory_order_acquire);
        if (head - tail > m_mask) {
            m_overflows.fetch_add(1, std::memory_order_relaxed);
            return false;
        }
        m_items[head & m_mask] = item;
        m_head.store(head + 1, std::memory_order_release);
        return true;
    }

    // Reader side: hands each waiting item to `sink`, returns how many.
    template <typename Sink> size_t drain(Sink &&sink)
    {
        uint64_t tail = m_tail.load(std::memory_order_relaxed);
        const uint64_t head = m_head.load(std::memory_order_acquire);
        const size_t n = head - tail;
        for (; tail != head; ++tail)
            sink(m_items[tail & m_mask]);
        m_tail.store(tail, std::memory_order_release);
        return n;
    }

    uint64_t overflows() const { return m_overflows.load(std::memory_order_relaxed); }
    // Every push since the ring was made, dropped ones included.
    uint64_t pushed() const { return m_head.load(std::memory_order_relaxed) + overflows(); }

private:
    static size_t roundUp(size_t n)
    {
        size_t p = 2;
        while (p < n)
            p <<= 1;
        return p;
    }

    const size_t m_mask;
    std::unique_ptr<T[]> m_items;
    alignas(64) std::atomic<uint64_t> m_head{0};
    alignas(64) std::atomic<uint64_t> m_tail{0};
    alignas(64) std::atomic<uint64_t> m_overflows{0};
};

} // namespace latprobe
