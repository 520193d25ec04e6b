#pragma once

namespace latprobe {

// A load group runs as a leader process — the latprobe binary re-executed
// with argv[1] == kLoadLeaderFlag — that forks the group's workers, holds
// them until all exist, then releases them together, reaps them, and cleans
// up if latprobe dies.
//
// The start is decided by one byte the leader writes on kLoadVerdictFd, the
// write end of a pipe latprobe reads: kVerdictStarted once every worker
// exists, written *before* they are released, or kVerdictRefused with the
// reason in the shared header's `error`. Since no worker runs before the
// verdict, a worker that fails at once is a run-time error of a started
// group, never a refused start. End of file without a byte: the leader died
// before deciding (its exit status says why).
inline constexpr const char *kLoadLeaderFlag = "--load-leader";
inline constexpr int kLoadShmFd = 3;
inline constexpr int kLoadVerdictFd = 4;
// argv[3] of a group that needs a temp dir: the leader makes it (in the
// shared GroupHeader) once its cleaner is armed; "-" for none.
inline constexpr const char *kLoadLeaderMakesTempDir = "+";
// argv[5]: the cgroup directory the leader joins before its workers start
// (LoadSpec::cgroup), or "-".
inline constexpr char kVerdictStarted = 'S';
inline constexpr char kVerdictRefused = 'R';

int runLoadLeader(int argc, char **argv);

} // namespace latprobe
