#pragma once

#include "runoptions.h"

namespace CLI {
class App;
}

namespace latprobe {

// Registers the run options on `app` (`latprobe run`, or latprobe-gui's own):
// CLI11 is the front ends' business, so core/session keeps only the values
// (RunOptions) and their checks (resolveRunPlan).
void addRunOptions(CLI::App &app, RunOptions &options, RunFrontEnd frontEnd);

// The --load help: every kind of the load kinds' table with its own keys,
// so a new kind is listed without anyone remembering to.
std::string loadOptionHelp();
// --consumers' help: the default consumers, then every other one a preset has.
std::string consumersOptionHelp();
// --variant's help: the form, then a line per setting of the table.
std::string variantOptionHelp();

} // namespace latprobe
