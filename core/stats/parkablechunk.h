#pragma once

#include "coldstore.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

namespace latprobe {

// A piece of a long sequence (the miss log's bytes, a consumer's seconds)
// that can go to the cold store when it is no longer written, and come
// back when it is read or written again.
template <typename T> struct ParkableChunk
{
    static_assert(std::is_trivially_copyable_v<T>, "parked as raw bytes");

    std::vector<T> items; // empty while parked
    std::optional<ColdStore::Ref> parked;

    // To `store`, its memory freed; kept in memory when the write fails (a
    // full disk) or there is no store.
    void park(ColdStore *store)
    {
        if (!store || parked || items.empty())
            return;
        const auto *bytes = reinterpret_cast<const uint8_t *>(items.data());
        if (const std::optional<ColdStore::Ref> ref = store->put(bytes, items.size() * sizeof(T))) {
            parked = ref;
            std::vector<T>().swap(items);
        }
    }
    // Back in memory to be written again; parked anew by a later park().
    // `store`: the one it was parked in (a chunk never parked needs none).
    void unpark(const ColdStore *store)
    {
        if (!parked)
            return;
        items.resize(parked->size / sizeof(T));
        readInto(store, items.data());
        parked.reset();
    }
    size_t count() const { return parked ? parked->size / sizeof(T) : items.size(); }
    // The items, wherever they are, copied to `out` (count() of them).
    void readInto(const ColdStore *store, T *out) const
    {
        if (parked)
            store->getInto(*parked, reinterpret_cast<uint8_t *>(out));
        else
            std::copy(items.begin(), items.end(), out);
    }
    size_t heapBytes() const { return items.capacity() * sizeof(T); }
};

} // namespace latprobe
