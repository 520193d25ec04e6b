#pragma once

// The entry points of the load kinds beyond the CPU loads (cpuloads.h), one
// file each; core/loads/loadkind.cpp puts them in the kinds table.

#include "../loadkind.h"

#include <string>

namespace latprobe {

// hackbench.cpp
int runHackbench(WorkerContext &ctx);
int hackbenchProcesses(const LoadSpec &spec);
int hackbenchHelpers(const LoadSpec &spec); // its senders and receivers

// compile.cpp
int runCompile(WorkerContext &ctx);
std::string prepareCompile(const LoadSpec &spec, const std::string &tempDir);
std::string precheckCompile(const LoadSpec &spec);
int compileProcesses(const LoadSpec &spec);

// io_write.cpp, io_read.cpp
int runIoWrite(WorkerContext &ctx);
int runIoRead(WorkerContext &ctx);
std::string prepareIoRead(const LoadSpec &spec, const std::string &tempDir);

// fsync_storm.cpp
int runFsyncStorm(WorkerContext &ctx);

// memload.cpp
int runMemload(WorkerContext &ctx);
std::string precheckMemload(const LoadSpec &spec);

// burnthreads.cpp: burn, with runBurn (cpuloads.cpp) for one thread
int runBurnThreads(WorkerContext &ctx);

// ring.cpp
int runRing(WorkerContext &ctx);

// spawn.cpp
int runSpawn(WorkerContext &ctx);
std::string precheckSpawn(const LoadSpec &spec);

// custom.cpp
int runCustom(WorkerContext &ctx);
std::string precheckCustom(const LoadSpec &spec);

} // namespace latprobe
