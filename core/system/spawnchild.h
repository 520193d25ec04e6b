#pragma once

#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace latprobe {

// Every child latprobe starts goes through spawnChild(), so that the rules
// are kept in one place. A child:
// - execs `program` at once (a path; no PATH search, no shell);
// - starts with an empty signal mask, and SIGINT, SIGTERM, SIGHUP and
//   SIGPIPE at their defaults, whatever the starting thread had;
// - keeps stdin, stdout, stderr and the descriptors `fds` puts in place,
//   no other (the rest are closed across the exec);
// - a program that cannot be run is an error of spawnChild() itself, never
//   an exit status to decode later.
// What a load's leader and workers fork or exec (its workers, compile's cc,
// spawn's processes) is the load's work, not a child start: it stays there.
struct ChildSpec
{
    enum class Group {
        Same,       // the caller's process group and session
        OwnGroup,   // a process group of its own (setpgid), in the caller's session
        OwnSession, // a session of its own (setsid): its own autogroup too
    };

    std::string program = {};
    std::vector<std::string> argv = {}; // argv[0] included
    bool inheritEnvironment = true;
    std::vector<std::string> environment = {}; // "KEY=value", without inheritEnvironment
    // {a descriptor of the caller, the number the child has it under}.
    std::vector<std::pair<int, int>> fds = {};
    Group group = Group::Same;
    // The signal the child gets when the *thread* that started it ends
    // (PR_SET_PDEATHSIG); 0 for none. posix_spawn() cannot set it, so such
    // a child is forked, which costs a threaded caller more.
    int deathSignal = 0;
};

// The child's pid, or -1 with `error` one line ("cannot run PROGRAM: why").
pid_t spawnChild(const ChildSpec &spec, std::string &error);

} // namespace latprobe
