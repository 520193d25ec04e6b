#pragma once

#include <string>

namespace CLI {
class App;
}

namespace latprobe {

// `latprobe runs`: the run library (runlibrary.h) from a shell.
struct RunsOptions
{
    std::string format = "text"; // list: text or json
    double pruneToMb = -1;       // prune: keep at most this many MiB
    bool dir = false;            // print the folder and exit
};

CLI::App *addRunsCommand(CLI::App &app, RunsOptions &options);
int executeRuns(const RunsOptions &options);

} // namespace latprobe
