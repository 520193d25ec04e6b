#pragma once

#include "../loadkind.h"

namespace latprobe {

int runMassiveIntr(WorkerContext &ctx);
int runOcbench(WorkerContext &ctx);
int runBurn(WorkerContext &ctx);

} // namespace latprobe
