#pragma once

#include "run.h"

#include <string>

namespace latprobe {

class Session;

// The end of a run as `latprobe run` and the window's unattended mode end
// it, written once for both: why a load failed, the finished run (kept in
// the run library when the session keeps it), the report on stdout, the run
// file at `out` (if given), and the exit status the README promises: 0
// done, 1 the file could not be written or a load failed, 130 interrupted.
// `program` prefixes the lines on stderr.
int concludeRun(Session &session, RunEnd end, const std::string &out, const std::string &program);

} // namespace latprobe
