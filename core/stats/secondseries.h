#pragma once

#include "coldstore.h"
#include "parkablechunk.h"
#include "phase.h"

#include <cstddef>
#include <memory>
#include <vector>

namespace latprobe {

// One consumer's per-second buckets for the whole run, in chunks of
// kChunkSeconds: with a store, every chunk but the two newest is parked
// there. Held in memory, the four series of a four-consumer run grew the
// window by 230 KB an hour (issue 15's soak), and only a save reads them.
// Samples arrive in order per consumer, so a parked chunk is seldom
// written again; when it is (a period lost over a quarter of an hour
// before), it comes back into memory.
class SecondSeries
{
public:
    static constexpr size_t kChunkSeconds = 256; // 4 KiB: a page

    explicit SecondSeries(std::shared_ptr<ColdStore> store = nullptr) : m_store(std::move(store)) {}

    size_t size() const { return m_size; }
    // Grows the series to `seconds`, parking chunks that fell behind.
    // Buckets are only ever parked here: a reference from at() stays
    // valid until the next grow().
    void grow(size_t seconds);
    // `second` < size(). A parked chunk is brought back.
    SecondBucket &at(size_t second);
    std::vector<SecondBucket> all() const;
    // Heap bytes held (not those parked in the store).
    size_t bytes() const;

private:
    using Chunk = ParkableChunk<SecondBucket>;

    std::shared_ptr<ColdStore> m_store;
    std::vector<Chunk> m_chunks;
    size_t m_size = 0;
};

} // namespace latprobe
