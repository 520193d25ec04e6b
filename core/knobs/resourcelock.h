#pragma once

#include <string>
#include <sys/types.h>
#include <vector>

namespace latprobe {

// What keeps two latprobe runs from changing the same setting at once: an
// flock(2) on <stateDir>/<resource>.lock for each resource a run changes,
// held by its guardian until everything is put back. The kernel drops a
// lock when its holder dies, so a run killed with its guardian blocks no
// one; the next run restores its journal (knobjournal.h).
class ResourceLocks
{
public:
    ResourceLocks() = default;
    ResourceLocks(const ResourceLocks &) = delete;
    ResourceLocks &operator=(const ResourceLocks &) = delete;
    ~ResourceLocks();

    // Takes every lock or none. "" or one line naming the resource, the
    // process that holds it and what to do. `owner` is written into each
    // lock file, for that line.
    std::string acquire(const std::string &stateDir, const std::vector<std::string> &resources,
                        pid_t owner);
    void release();

private:
    std::vector<int> m_fds;
};

} // namespace latprobe
