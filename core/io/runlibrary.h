#pragma once

#include "consumersummary.h"
#include "run.h"
#include "runfile.h"

#include <cstdint>
#include <string>
#include <vector>

namespace latprobe {

// The run library: every run latprobe makes (the window's, autosaved as it
// goes, and `latprobe run`'s), kept in one folder so that nothing is lost to
// a forgotten close, a crash or a Ctrl-C. The folder is the user's: latprobe
// only ever lists, prunes or deletes the files it named itself
// ("latprobe-<date>-<kernel>[-<scenario>].json"), never anything else.
class RunLibrary
{
public:
    // $LATPROBE_LIBRARY, else $XDG_DATA_HOME/latprobe/runs, else
    // ~/.local/share/latprobe/runs (the XDG base directory default).
    static std::string defaultDir();
    // Pruned to this after every save, the oldest first.
    static constexpr uint64_t kDefaultMaxBytes = 512ull << 20;

    explicit RunLibrary(std::string dir = defaultDir(), uint64_t maxBytes = kDefaultMaxBytes);
    const std::string &dir() const { return m_dir; }

    // Whether `name` (a file name, no folder) is one latprobe wrote here.
    static bool isLibraryFile(const std::string &name);
    // A run's saved traces (`--save-trace`) are part of it: beside its file,
    // "<its name without .json>.trace-<n>.dat". They are counted in its
    // size, pruned and deleted with it.
    static std::string traceFileName(const std::string &runPath, const std::string &traceName);
    static std::vector<std::string> tracesOf(const std::string &runPath);
    // "latprobe-2026-12-01T03-12-40-6.1.0-13-amd64-quick.json": when it
    // started, the kernel and the scenario, so that a file manager sorts and
    // tells them apart. A name taken by another run gets "-2", "-3", ...
    std::string pathFor(const Run &run) const;

    // Saves atomically (a crash leaves the old file or the new one), making
    // the folder first; then prunes. False with `error` when it could not.
    bool save(const Run &run, const std::string &path, std::string &error,
              JsonLayout layout = JsonLayout::Indented) const;

    struct Entry
    {
        std::string path;
        std::string startTime, kernel, scheduler, scenario, endReason;
        bool partial = false;
        double durationS = 0;
        size_t phases = 0;
        std::vector<ConsumerSummary> consumers; // every phase's, a column each
        uint64_t bytes = 0;                     // its file and its traces
        size_t traces = 0;                      // trace.dat files saved with it
        // A run that played variants: one verdict line per variant after
        // the first, as its report ends ("off (autogroup=0) worse than on: ...").
        std::vector<std::string> headlines;
        std::string error; // not readable: why (the entry is listed anyway)
    };
    // Newest first.
    std::vector<Entry> list() const;

    // Deletes one of the library's files; refuses any other path.
    bool remove(const std::string &path, std::string &error) const;

    struct Pruned
    {
        int files = 0;
        uint64_t bytes = 0;
    };
    // Deletes the oldest library files until the rest fit in `maxBytes`;
    // `keep` (the run being autosaved) is never deleted.
    Pruned prune(uint64_t maxBytes, const std::string &keep = {}) const;
    uint64_t maxBytes() const { return m_maxBytes; }

private:
    std::string m_dir;
    uint64_t m_maxBytes;
};

} // namespace latprobe
