#pragma once

#include "schedevent.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace latprobe {

// What lp-explain keeps of the trace between two reads (a read consumes the
// kernel's buffer): the events in the last `spanNs` before the newest, and
// every one from `neededFrom` on (a miss still to be asked about), at most
// `maxEvents` of them (the newest), sorted by time as given. A burst that
// grew the vector gives its memory back: kept whole from one read to the
// next, 200,000 events of 96 bytes held 28 MB of the window's memory.
void keepRecent(std::vector<SchedEvent> &events, int64_t spanNs, int64_t neededFrom,
                size_t maxEvents);

} // namespace latprobe
