#pragma once

#include "probe.h"
#include "run.h"

namespace latprobe {

// Fills a Run from a stopped probe.
Run makeRun(Probe &probe, const SystemInfo &system);

} // namespace latprobe
