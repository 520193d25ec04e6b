#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace latprobe {

// LEB128: 7 bits a byte, the high bit set on every byte but the last. A
// long run's finished histograms and miss log are mostly small numbers (the
// next µs, a count of 3, 2 ms to the next miss): one to three bytes each
// where a fixed field took four or eight.
inline void appendVarint(std::vector<uint8_t> &out, uint64_t value)
{
    while (value >= 0x80) {
        out.push_back(static_cast<uint8_t>(value | 0x80));
        value >>= 7;
    }
    out.push_back(static_cast<uint8_t>(value));
}

// Reads one value at `at` and moves `at` past it. The bytes are our own,
// written by appendVarint(): no bounds to check but the caller's end.
inline uint64_t readVarint(const uint8_t *&at)
{
    uint64_t value = 0;
    for (int shift = 0;; shift += 7) {
        const uint8_t byte = *at++;
        value |= uint64_t{byte & 0x7fu} << shift;
        if (!(byte & 0x80))
            return value;
    }
}

// Signed differences (misses of two consumers arrive out of order) as
// small unsigned numbers: 0, -1, 1, -2 → 0, 1, 2, 3.
inline uint64_t zigzag(int64_t value)
{
    return (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
}

inline int64_t unzigzag(uint64_t value)
{
    return static_cast<int64_t>(value >> 1) ^ -static_cast<int64_t>(value & 1);
}

constexpr size_t kMaxVarintBytes = 10;

} // namespace latprobe
