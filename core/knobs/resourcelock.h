#pragma once

#include <string>
#include <sys/types.h>
#include <vector>

namespace latprobe {

// What keeps two latprobe runs from changing the same setting at once: an
// flock(2) on <stateDir>/<resource>.lock for each resource a run changes,
// held by its guardian until everything is put back. The kernel drops a
// lock when its holder dies, so a run killed with its guardian blocks no
// one; the next run restores its journal (knobjournal.h). A lock file lives
// only while it is held: its holder unlinks it before letting go, and a
// taker whose locked file is no longer the one at the path takes it again.
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
    // Unlinks each lock file, then lets go of it.
    void release();

private:
    struct Held
    {
        std::string path;
        int fd;
    };
    std::vector<Held> m_held;
};

// Removes the lock files in `stateDir` that no one holds: those of a
// guardian killed before it could let go.
void removeUnheldLocks(const std::string &stateDir);

} // namespace latprobe
