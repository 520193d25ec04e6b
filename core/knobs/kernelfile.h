#pragma once

#include <string>
#include <vector>

namespace latprobe {

// The kernel's setting files (/proc/sys, debugfs, cgroupfs), read and
// written whole. Values compare with their whitespace collapsed, since the
// kernel prints a multi-value sysctl with tabs ("4096\t131072") where it
// was written with spaces.

// `path`'s content, whitespace collapsed. False with `error` ("cannot read
// /proc/sys/vm/swappiness: Permission denied") when it cannot be read.
bool readKernelFile(const std::string &path, std::string &value, std::string &error);
// Writes `value` as one write(2), as `echo` would; the kernel takes or
// refuses it whole. False with `error` naming the file and errno.
bool writeKernelFile(const std::string &path, const std::string &value, std::string &error);
std::string collapseSpaces(const std::string &text);
// Whether anything is at `path` (a file, a directory).
bool pathExists(const std::string &path);

// A file that lists choices and marks the one in force, in parentheses as
// debugfs sched/preempt does ("none voluntary (full) lazy") or in brackets
// as sysfs does ("always [madvise] never").
std::string choiceInForce(const std::string &text);               // "full", or ""
std::vector<std::string> choicesOffered(const std::string &text); // every word, unmarked

// The shell line that writes `value` to `path` by hand, for a restore that
// failed: echo 1 > /proc/sys/kernel/sched_autogroup_enabled (quoted where
// the value needs it).
std::string echoCommand(const std::string &value, const std::string &path);
// `word` as a shell reads it back: as is when it is plain, else in single
// quotes.
std::string shellQuote(const std::string &word);

} // namespace latprobe
