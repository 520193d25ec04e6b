#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace latprobe {

struct LoadSpec;
struct WorkerSlot;
struct GroupHeader;

struct LoadParam
{
    std::string key;
    double defaultValue;
    double min, max;
    std::string help;
    // A word the value may be instead of a number (threads=nproc), resolved
    // where the load runs, so that a scenario means the same on any machine.
    std::string word = {};
    double (*wordValue)(const LoadSpec &) = nullptr;
};

// What a worker process is handed: its slot to count progress in, and the
// group's private temp dir (made by the group's leader, removed when the
// group ends, whoever ends first).
struct WorkerContext
{
    const LoadSpec &spec;
    GroupHeader &header;
    WorkerSlot &slot;
    int index = 0;
    std::string tempDir;
    // Where the worker leaves the pids of its live helpers (LoadKind::
    // liveHelpers), `helperCount` of them.
    std::atomic<int32_t> *helpers = nullptr;
    int helperCount = 0;
};

// A safety cap (LoadLimits) shared by every group that counts against it,
// whatever its kind.
enum class SharedCap {
    None,
    MemoryMiB, // LoadLimits::memShare of MemAvailable
    DiskMiB,   // LoadLimits::ioMaxBytes, and ioFreeShare of the temp dir's free space
    SpawnRate, // LoadLimits::spawnRateMax processes started a second
};

// One row per kind, written with designated initialisers: everything code
// asks of a kind is here, so nothing outside this table compares its name.
struct LoadKind
{
    std::string name;
    std::string description;
    std::string unit; // what progress counts: "loops", "bytes", ...
    std::vector<LoadParam> params = {};
    // Runs in each worker process until it is killed; returns only on an
    // error, with a message on stderr and a non-zero exit code.
    int (*body)(WorkerContext &) = nullptr;
    // Runs once in the group leader before its workers start (e.g. write the
    // project to compile); returns an error message or "".
    std::string (*prepare)(const LoadSpec &, const std::string &tempDir) = nullptr;
    // Checked in latprobe before anything starts (e.g. a compiler exists).
    std::string (*precheck)(const LoadSpec &) = nullptr;
    // Processes per worker, for the worker cap (hackbench forks its pairs).
    int (*processesPerWorker)(const LoadSpec &) = nullptr;
    // A worker's CPU time is its process's (all its threads), plus what the
    // kind says is its work besides: helpers that live as long as it does,
    // whose pids it leaves in the group's memory (hackbench's senders and
    // receivers: their count), and children it reaps (compile's compilers,
    // spawn's /bin/true, a command's children), whose CPU the kernel adds to
    // it once reaped (/proc/<pid>/stat). Live children are found by no other
    // way this cheap: /proc/<pid>/task/<tid>/children is not in every kernel.
    int (*liveHelpers)(const LoadSpec &) = nullptr;
    bool reapsItsWork = false;
    bool needsTempDir = false;
    // The shared cap each worker takes a part of, and the parameter that
    // says how much: MiB for memory and disk, processes a second for spawn.
    SharedCap cap = SharedCap::None;
    std::string capParam = {};
    // Runs the user's own program, written last as cmd=PROGRAM ARGS: a spec
    // must give one, and a scenario with one asks the user's consent first.
    bool runsCommand = false;
};

// Records the first error of a group where latprobe shows it, and on stderr.
void reportWorkerError(WorkerContext &ctx, const std::string &message);

const std::vector<LoadKind> &loadKinds();
const LoadKind *findLoadKind(const std::string &name);

} // namespace latprobe
