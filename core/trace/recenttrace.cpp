#include "recenttrace.h"

#include <algorithm>

namespace latprobe {

void keepRecent(std::vector<SchedEvent> &events, int64_t spanNs, int64_t neededFrom,
                size_t maxEvents, size_t reuseEvents)
{
    if (neededFrom == INT64_MAX) {
        std::vector<SchedEvent>().swap(events);
        return;
    }
    if (events.empty())
        return;
    const int64_t from = std::min(events.back().ts - spanNs, neededFrom);
    auto first = std::lower_bound(events.begin(), events.end(), from,
                                  [](const SchedEvent &e, int64_t t) { return e.ts < t; });
    if (static_cast<size_t>(events.end() - first) > maxEvents)
        first = events.end() - static_cast<std::ptrdiff_t>(maxEvents);
    events.erase(events.begin(), first);
    // Large blocks are the system's again once freed (heappolicy.h).
    if (events.capacity() > std::max(2 * events.size() + 4096, reuseEvents))
        events.shrink_to_fit();
}

} // namespace latprobe
