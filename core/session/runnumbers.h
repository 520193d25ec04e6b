#pragma once

#include "consumerconfig.h"
#include "phase.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace latprobe {

// The numbers of a run being measured, as a front end polls them (the
// window's LiveData, `latprobe run`'s progress line): copies, taken under
// the collector's lock, never the collector itself.
class RunNumbers
{
public:
    virtual const std::vector<ConsumerConfig> &configs() const = 0;
    virtual int64_t runStart() const = 0; // 0 before start()
    // The 100 ms buckets (FineBucket::kNs) of one consumer from `fromIndex`,
    // and the first bucket boundary at or after `t`.
    virtual std::vector<FineBucket> fineSeries(size_t consumer, int64_t fromIndex) const = 0;
    virtual int64_t fineBoundary(int64_t t) const = 0;
    // The phases, those before `histogramsFrom` without their histograms
    // and none with its 5-s blocks: what a poll each second can afford.
    virtual std::vector<PhaseResult> phases(int64_t now, size_t histogramsFrom) const = 0;
    // The open phase alone, without its histograms: a progress line's.
    virtual PhaseResult openPhase(int64_t now) const = 0;

protected:
    ~RunNumbers() = default;
};

} // namespace latprobe
