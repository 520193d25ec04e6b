#pragma once

#include "consumerconfig.h"
#include "threadparams.h"

namespace latprobe {

// A consumer as it ran: what was asked and what the kernel granted.
struct ConsumerSetup
{
    ConsumerConfig config;
    ThreadGrant grant;
    double loopsPerUs = 0; // loop-calibrated work mode only
};

} // namespace latprobe
