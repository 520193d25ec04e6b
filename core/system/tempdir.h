#pragma once

#include <functional>
#include <string>

namespace latprobe {

// latprobe's temp files and dirs carry the pid of the process that made
// them, "<prefix><pid>-XXXXXX", so that a later latprobe can tell whether
// their owner still lives, and remove what a killed one (a crash, kill -9)
// left.

// "<prefix><pid>-XXXXXX" with this process's pid, for mkstemp or mkdtemp.
std::string ownedTempTemplate(const std::string &prefix);

// For each entry of `dir` named "<prefix><pid>-" and six characters whose
// process <pid> no longer exists, calls `remove` with `dir`'s descriptor and
// the entry's name. Returns how many it removed (`remove` returned true).
int removeOrphanedTemps(const std::string &dir, const std::string &prefix,
                        const std::function<bool(int dirFd, const char *name)> &remove);

// A private (0700, mkdtemp) directory under $TMPDIR or /tmp, named
// latprobe-<pid>-XXXXXX, made in place in `path` (`size` bytes): the name is
// there before the directory exists, so a process that shares `path` and
// outlives its maker can always remove what was made. Returns false and sets
// `error` on failure.
bool createPrivateTempDir(char *path, size_t size, std::string &error);

// rm -rf, without following symlinks. Returns false if anything was left.
bool removeTree(const std::string &path);

// Removes the temp dirs of latprobe processes that no longer exist (after a
// crash or kill -9). Returns how many were removed.
int removeStaleTempDirs();

std::string tempBase();

} // namespace latprobe
