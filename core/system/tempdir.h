#pragma once

#include <string>

namespace latprobe {

// A private (0700, mkdtemp) directory under $TMPDIR or /tmp, named
// latprobe-<pid>-XXXXXX so that a later latprobe can tell whether its owner
// still lives. Returns "" and sets `error` on failure.
std::string createPrivateTempDir(std::string &error);

// rm -rf, without following symlinks. Returns false if anything was left.
bool removeTree(const std::string &path);

// Removes the temp dirs of latprobe processes that no longer exist (after a
// crash or kill -9). Returns how many were removed.
int removeStaleTempDirs();

std::string tempBase();

} // namespace latprobe
