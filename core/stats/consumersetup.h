#pragma once

#include "consumerconfig.h"
#include "loopcalibrator.h"
#include "threadparams.h"

namespace latprobe {

// A consumer as it ran: what was asked and what the kernel granted.
struct ConsumerSetup
{
    ConsumerConfig config;
    ThreadGrant grant;
    // WakeMethod::Timekeeper only: what its timekeeper thread was granted
    // (SCHED_FIFO 96, or SCHED_OTHER where that was refused).
    ThreadGrant timekeeperGrant;
    // Loop-calibrated work mode only: the speed worked at, measured before
    // the run; the speed the work then ran at; the same measure as the first
    // once the run ended. The machine may have changed speed in between.
    LoopCalibration loopSpeed;
    LoopCalibration workLoopSpeed;
    LoopCalibration endLoopSpeed;
};

} // namespace latprobe
