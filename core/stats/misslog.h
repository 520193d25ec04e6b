#pragma once

#include "coldstore.h"
#include "parkablechunk.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace latprobe {

// The run's misses in the order they were drained, packed: each field a
// varint, the time as the difference from the previous miss. About ten
// bytes a miss where the plain struct took 24, and appended into fixed
// chunks, so a full log of Collector::kMissLogLimit misses holds about
// 1 MB and never doubles a vector to grow (issue 15: an hour's soak of
// the window filled the log). With a store, each full chunk goes there.
class MissLog
{
public:
    explicit MissLog(std::shared_ptr<ColdStore> store = nullptr) : m_store(std::move(store)) {}

    struct Entry
    {
        int64_t doneNs = 0;
        uint32_t latenessUs = 0;
        uint32_t periodsLost = 0;
        uint32_t phase = 0;
        uint32_t consumer = 0;
    };

    void append(const Entry &entry);
    size_t size() const { return m_size; }
    // Heap bytes held (not those parked in the store).
    size_t bytes() const;

    // Calls visit(const Entry &) for every entry, oldest first.
    template <typename Visit> void forEach(Visit visit) const
    {
        Reader reader;
        std::vector<uint8_t> readBack;
        for (const Chunk &chunk : m_chunks) {
            const std::vector<uint8_t> *bytes = &chunk.items;
            if (chunk.parked) {
                readBack.resize(chunk.count());
                chunk.readInto(m_store.get(), readBack.data());
                bytes = &readBack;
            }
            for (const uint8_t *at = bytes->data(), *end = at + bytes->size(); at != end;)
                visit(reader.next(at));
        }
    }

private:
    static constexpr size_t kChunkBytes = 64 * 1024;

    struct Reader
    {
        int64_t previousNs = 0;
        Entry next(const uint8_t *&at);
    };

    using Chunk = ParkableChunk<uint8_t>;

    std::shared_ptr<ColdStore> m_store;
    std::vector<Chunk> m_chunks;
    size_t m_size = 0;
    int64_t m_previousNs = 0;
};

} // namespace latprobe
