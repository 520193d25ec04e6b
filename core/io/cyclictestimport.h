#pragma once

#include "run.h"

#include <string>

namespace latprobe {

// Reads the --json output of rt-tests' cyclictest (file_version 1, as
// Debian's rt-tests 2.4 writes it) as a wakeup-only run, so its numbers sit
// in the same compare table as latprobe's. Each cyclictest thread becomes a
// consumer "wakeup" (one thread) or "wakeup#N". Throws RunFileError.
Run importCyclictestJson(const std::string &text, const std::string &fileName);

// True when the text looks like cyclictest's JSON rather than a run file.
bool isCyclictestJson(const std::string &text);

// A run file or a cyclictest JSON, whichever the text or `path` holds.
Run runFromAnyJson(const std::string &text, const std::string &fileName);
Run readAnyRunFile(const std::string &path);

} // namespace latprobe
