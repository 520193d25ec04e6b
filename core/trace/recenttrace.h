#pragma once

#include "schedevent.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace latprobe {

// What lp-explain keeps of the trace between two reads (a read consumes the
// kernel's buffer): the events in the last `spanNs` before the newest, and
// every one from `neededFrom` on (a miss still to be asked about), at most
// `maxEvents` of them (the newest), sorted by time as given. Room for
// `reuseEvents` stays for the next read: handing each read's memory back
// and faulting it in again at the next was a third of lp-explain's CPU
// under hackbench. A burst that grew the vector past that gives its memory
// back: kept whole from one read to the next, 200,000 events of 96 bytes
// held 28 MB of the window's memory.
// `neededFrom` INT64_MAX says no miss will be asked about until more are
// (the phase's or the run's explanations all taken): then nothing is kept.
// The last span stayed until the next read, which never came once a run's
// were all taken: up to megabytes held for the rest of a window's run.
void keepRecent(std::vector<SchedEvent> &events, int64_t spanNs, int64_t neededFrom,
                size_t maxEvents, size_t reuseEvents);

} // namespace latprobe
