#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace latprobe {

// Why a sched_ext scheduler left, in its own words (its output, which the
// guardian logs) or the kernel's (its log, /dev/kmsg): a round left out
// says it in one line.

// `text` without ANSI escape sequences: the Rust schedulers' log lines come
// coloured (tracing_subscriber), even into a file.
std::string withoutAnsi(std::string_view text);
// The size of the file at `path` (0 when absent): where the lines of a
// scheduler started next begin in its log.
uint64_t fileSize(const std::string &path);
// The scheduler's own word on why it left, from byte `from` of its log on:
// its last "EXIT: REASON (MSG)" line (scx_utils' UserExitInfo::report(),
// the C schedulers' UEI_REPORT), though other lines followed it, else its
// last line; without colours, cut to 200 characters. "" when it said
// nothing.
std::string schedulerOwnWord(const std::string &logPath, uint64_t from);

// The sequence number of the kernel log's last record; 0 when it cannot be
// read (not root, kernel.dmesg_restrict).
uint64_t kernelLogSeq(const std::string &kernelLog);
// The kernel's first `sched_ext: BPF scheduler "OPS" disabled (REASON)`
// record after sequence number `after` (kernel/sched/ext.c prints it on
// every disable, with the exit kind's reason), or "".
std::string kernelDisabledLine(const std::string &kernelLog, uint64_t after);

} // namespace latprobe
