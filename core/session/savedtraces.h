#pragma once

#include "run.h"

#include <map>
#include <string>

namespace latprobe {

// Where a run's trace.dat files (`--save-trace`) live: written while it runs
// into a folder of their own, ".latprobe-traces-<pid>-<n>" inside the
// folder they are for, then moved beside the run file at its end, named
// after it (RunLibrary::traceFileName), so the library prunes and deletes
// them with it. The folder goes with this object; one left by a latprobe
// killed mid-run is removed by the next that saves traces there.
class SavedTraces
{
public:
    SavedTraces() = default;
    ~SavedTraces();
    SavedTraces(const SavedTraces &) = delete;
    SavedTraces &operator=(const SavedTraces &) = delete;

    // Makes `dir` (the traces' place at the end) and the folder inside it
    // where they are written meanwhile; false with `error` one line.
    bool open(const std::string &dir, std::string &error);
    const std::string &writingDir() const { return m_writing; }
    const std::string &dir() const { return m_dir; }

    // Moves the traces `run`'s explanations name into place for the run
    // file `runPath`, and names them there: by file name when they are in
    // its folder, else by path.
    void place(Run &run, const std::string &runPath);
    // Where the trace an explanation names (as lp-explain named it) is
    // now: in the writing folder, or where place() put it; "" for "".
    std::string pathOf(const std::string &name) const;

    // Removes the writing folders in `dir` of latprobes no longer running;
    // returns how many.
    static int removeStale(const std::string &dir);

private:
    std::string m_dir, m_writing;
    std::map<std::string, std::string> m_placed; // lp-explain's name: the path now
};

// A run file written to `toPath` after `fromPath` names its traces so that
// they are found from there (by path when the folders differ).
void rebaseTraceFiles(Run &run, const std::string &fromPath, const std::string &toPath);

} // namespace latprobe
