#pragma once

#include <string>
#include <vector>

namespace latprobe {

struct CpuNoise
{
    int cpu = 0;
    double gapsPerS = 0; // clock gaps over the threshold, per second
    double lostPct = 0;  // share of the CPU the spinning thread did not get
    double maxGapUs = 0;
};

// How quiet the machine is before a run: on a VM the host's hiccups look
// exactly like scheduler latency, so the report says which numbers to trust.
struct NoiseCheck
{
    bool ran = false;
    double durationS = 0;
    double gapThresholdUs = 10;
    std::vector<CpuNoise> cpus;
    double loopMedianUs = 0, loopMinUs = 0, loopMaxUs = 0;
    double loopCvPct = 0; // how steady a fixed loop's speed is (fastest 90 %)
    std::string verdict;  // "quiet", "noisy", "very noisy"

    // "noisy: 6.1 % CPU lost to gaps > 10 us, loop speed CV 12 %"
    std::string summary() const;
    bool trustMax() const { return verdict == "quiet"; }
};

// A spinning gap detector pinned to each online CPU at once, then a fixed
// loop timed again and again. Takes about `seconds`.
NoiseCheck runNoiseCheck(double seconds = 3.0);

// The verdict from the figures, kept apart so tests can drive it.
std::string noiseVerdict(double lostPct, double loopCvPct);

} // namespace latprobe
