#pragma once

#include "threadparams.h"

#include <map>
#include <string>

namespace latprobe {

struct LoadKind;

// What the user asked for: `massive_intr:8:nice=5:work_ms=4`.
struct LoadSpec
{
    // Its row in loadKinds(), set by parseLoadSpec: everything a kind
    // decides is asked of it. Its name is the spec's text form.
    const LoadKind *kind = nullptr;
    int count = 1;
    std::map<std::string, std::string> params; // kind-specific, validated by LoadKind
    ThreadParams sched;                        // nice, policy (other/batch/idle), cpus
    bool ownSession = true;                    // setsid: its own autogroup
    std::vector<std::string> command;          // the argv to run, if its kind runsCommand
    // A cgroup directory the leader joins before its workers start (a
    // variant's load_weight=). Not part of what ran: toString() leaves it out.
    std::string cgroup = {};

    // Its kind runs the user's program (LoadKind::runsCommand): it needs
    // their consent.
    bool runsCommand() const;
    // The kind's name, "" without a kind.
    const std::string &kindName() const;
    // "massive_intr x8" for phase names and plot markers.
    std::string label() const;
    // The canonical KIND:N:key=value form, which parseLoadSpec reads back.
    std::string toString() const;
};

// Parses and validates KIND:N[:key=value...] against the kind's table.
// A kind that runsCommand takes its command as cmd=..., split into words
// (`command`).
bool parseLoadSpec(const std::string &text, LoadSpec &spec, std::string &error);

// Integer/double parameter lookup with the kind's default applied, and a
// word (threads=nproc) resolved on this machine.
double loadParam(const LoadSpec &spec, const std::string &key);

} // namespace latprobe
