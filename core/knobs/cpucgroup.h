#pragma once

#include <string>
#include <sys/types.h>

namespace latprobe {

// The cgroup the load groups run in for load_weight=: made by latprobe at
// the top of the cpu controller's hierarchy (the root cgroup may hold
// processes beside it under v2 too), removed at the end.
struct CpuController
{
    int version = 0;     // 2 (cpu.weight), 1 (cpu.shares), 0: none
    std::string root;    // the hierarchy's top directory
    std::string refusal; // version 0: what to grant or enable
};

// Looks for the cpu controller under `cgroupRoot`: cgroup v2 there (or in
// its unified/ of a hybrid layout) when its cgroup.controllers lists cpu,
// else a v1 hierarchy cpu/ or cpu,cpuacct/.
CpuController findCpuController(const std::string &cgroupRoot);

// load_weight is in v2 units (cpu.weight, 1-10000, default 100); v1 gets
// cpu.shares = weight * 1024 / 100 (default 1024).
const char *weightFile(int version);
long weightValue(int version, int weight);

// Makes `dir` (an existing one is taken as is) and writes `file` = `value`
// in it, read back into `readBack`. False with a one-line error.
bool makeCgroup(const std::string &dir, const std::string &file, const std::string &value,
                std::string &readBack, std::string &error);
// Moves process `pid` (all its threads) into `dir`.
bool moveIntoCgroup(const std::string &dir, pid_t pid, std::string &error);
// Moves whatever is still in `dir` to its parent and removes it, waiting a
// few seconds for processes that are dying. True when it is gone.
bool removeCgroup(const std::string &dir, std::string &error);

} // namespace latprobe
