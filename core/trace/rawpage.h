#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace latprobe {

// One page of a CPU's ring buffer as the kernel handed it over
// (trace_pipe_raw), kept whole: trace.dat holds such pages as they are, so a
// saved window is the kernel's own record of it, every event of the page
// (the markers among them), not latprobe's parse of it.
struct RawPage
{
    int cpu = 0;
    int64_t from = 0;        // the page's first stamp (CLOCK_MONOTONIC ns)
    int64_t to = INT64_MAX;  // the next page's first stamp; INT64_MAX unknown
    std::vector<char> bytes; // the whole page, header included
};

// Shared: a page stays in the recent store and in the windows saving it
// without a copy. Not const: the last page a read took from a CPU learns
// its end (`to`) only from the next read's first page of that CPU.
using RawPagePtr = std::shared_ptr<RawPage>;

} // namespace latprobe
