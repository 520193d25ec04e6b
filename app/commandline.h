#pragma once

#include <string>

namespace CLI {
class App;
}

namespace latprobe {

// What latprobe and latprobe-gui both do with their command lines.

// Run as the start consumer's tiny process, a load group's leader or the
// variants' guardian (the binary re-executed with a flag of its own): true with the exit status,
// dispatched before anything else is set up, so a worker costs no more
// than the exec.
bool runAsHelper(int argc, char **argv, int &status);

// -v/--verbose and -q/--quiet.
void addVerbosityFlags(CLI::App &app, bool &verbose, bool &quiet);
// Parses into `app`'s options. Returns -1 to go on, or the exit status:
// 0 after --help or --version, 2 after one line on stderr naming the bad
// argument and pointing at --help.
int parseCommandLine(CLI::App &app, int argc, char **argv);
// spdlog's default logger: "<program>: warning: ..." on stderr.
void setUpLogging(const std::string &program, bool verbose, bool quiet);
// One line on stderr, as a bad argument gets it; returns 2.
int refuseArguments(const std::string &program, const std::string &message);

} // namespace latprobe
