#pragma once

namespace latprobe {

// A load group runs as a leader process — the latprobe binary re-executed
// with argv[1] == kLoadLeaderFlag — that forks the group's workers, holds
// them until all exist, then releases them together, reaps them, and cleans
// up if latprobe dies.
inline constexpr const char *kLoadLeaderFlag = "--load-leader";
inline constexpr int kLoadShmFd = 3;

int runLoadLeader(int argc, char **argv);

} // namespace latprobe
