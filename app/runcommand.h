#pragma once

#include "runoptions.h"

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace latprobe {

// Registers `latprobe run` and its options on `app`.
CLI::App *addRunCommand(CLI::App &app, RunOptions &options);

// Plays the run headless: noise check, the plan's steps, the report on
// stdout, the run file; returns the exit status.
int executeRun(const RunOptions &options, const std::vector<std::string> &commandLine);

} // namespace latprobe
