#pragma once

#include "spawnchild.h"

#include <cstdint>
#include <string>

namespace latprobe {

// Starts one short-lived process and tells when its first instruction ran
// and when its exit was seen (CLOCK_MONOTONIC ns). Tests inject their own.
class ProcessStarter
{
public:
    virtual ~ProcessStarter() = default;
    virtual bool start(int64_t &firstInstruction, int64_t &exited) = 0;
};

inline constexpr const char *kStartProbeFlag = "--start-probe";

// Runs `binary --start-probe`: the child writes its clock at main()'s first
// line to a pipe and exits.
class SelfStarter final : public ProcessStarter
{
public:
    explicit SelfStarter(std::string binary);
    bool start(int64_t &firstInstruction, int64_t &exited) override;

private:
    ChildSpec m_child; // with an empty environment
};

// The child side: called first thing in main() when argv[1] is the flag.
int runStartProbe();

} // namespace latprobe
