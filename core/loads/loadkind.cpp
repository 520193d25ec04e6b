#include "loadkind.h"

#include "interbenchsizing.h"
#include "workers/cpuloads.h"
#include "workers/workerkinds.h"

namespace latprobe {

// Long on purpose: the table itself, a row per kind.
const std::vector<LoadKind> &loadKinds()
{
    static const std::vector<LoadKind> kinds = {
        {.name = "massive_intr",
         .description = "work 8 ms, sleep 1 ms, count loops (massive_intr.c)",
         .unit = "loops",
         .params = {{"work_ms", 8, 0.01, 10000, "CPU time worked per loop, ms"},
                    {"sleep_ms", 1, 0, 10000, "sleep per loop, ms"}},
         .body = runMassiveIntr},
        {.name = "ocbench",
         .description = "busy R us, sleep S us (Willy Tarreau's ocbench)",
         .unit = "busy periods",
         .params = {{"run_us", 250000, 1, 1e8, "CPU time worked per period, us"},
                    {"sleep_us", 750000, 0, 1e8, "sleep time, us"}},
         .body = runOcbench},
        {.name = "burn",
         .description = "spin forever, threads per worker (stress-ng --cpu; interbench Burn is "
                        "burn:1:threads=nproc:session=same)",
         .unit = "Mspins",
         .params = {{"threads", 1, 1, 1024, "spinning threads per worker process, or nproc",
                     "nproc", onlineCpusValue}},
         .body = runBurnThreads},
        {.name = "ring",
         .description = "threads of one process wake each other in a circle, passing a token "
                        "(interbench Ring)",
         .unit = "passes",
         .params = {{"threads", 4, 2, 1024, "threads in the ring, or nproc", "nproc",
                     onlineCpusValue}},
         .body = runRing},
        {.name = "hackbench",
         .description = "one hackbench group per worker: senders write to receivers over pipes "
                        "(hackbench -p -g N)",
         .unit = "messages",
         .params = {{"fds", 20, 1, 250, "senders, and as many receivers, per worker"},
                    {"size", 100, 1, 65536, "message size, bytes"},
                    {"sockets", 0, 0, 1, "1: socketpairs instead of pipes"}},
         .body = runHackbench,
         .processesPerWorker = hackbenchProcesses,
         .liveHelpers = hackbenchHelpers},
        {.name = "compile",
         .description = "the system C compiler building a generated project, -j N (contest, "
                        "interbench Compile)",
         .unit = "files",
         .params = {{"files", 40, 1, 400, "C files in the project"},
                    {"funcs", 12, 1, 100, "functions per file (compile time per file)"},
                    {"opt", 2, 0, 3, "optimisation level, -O0..-O3"}},
         .body = runCompile,
         .prepare = prepareCompile,
         .precheck = precheckCompile,
         .processesPerWorker = compileProcesses,
         .reapsItsWork = true,
         .needsTempDir = true},
        {.name = "io_write",
         .description = "stream writes to an unnamed temp file of mb MiB, fsync every sync_mb, "
                        "rewind (contest io_load)",
         .unit = "MiB",
         .params = {{"mb", 64, 1, 65536,
                     "file size per worker, MiB, or interbench: RAM, at most 1000000 kB",
                     kInterbenchSize, interbenchFileMbValue},
                    {"sync_mb", 8, 0, 65536, "fsync after this many MiB (0: only at the end)"},
                    {"sync_end", 1, 0, 1,
                     "1: fsync at the end of each pass; 0: never, the kernel writes back "
                     "(interbench's Write)"},
                    {"block_kb", 1024, 4, 16384, "write size, KiB"},
                    {"truncate", 0, 0, 1,
                     "1: empty the file before each pass, as interbench's Write reopens it "
                     "(the file system frees and allocates its blocks again); 0: overwrite"},
                    {"close_flush", 0, 0, 1,
                     "1: start writing the pass back before it is emptied, as closing an "
                     "emptied file does on ext4, xfs and btrfs (interbench's Write closes "
                     "and reopens it); 0: the kernel writes back when it will"}},
         .body = runIoWrite,
         .needsTempDir = true,
         .cap = SharedCap::DiskMiB,
         .capParam = "mb"},
        {.name = "io_read",
         .description = "read a temp file of mb MiB, written before the workers start, "
                        "sequentially, dropped from the page cache each pass (contest read_load)",
         .unit = "MiB",
         .params = {{"mb", 64, 1, 65536,
                     "file size per worker, MiB, or interbench: RAM, at most 1000000 kB",
                     kInterbenchSize, interbenchFileMbValue},
                    {"block_kb", 1024, 4, 16384, "read size, KiB"},
                    {"drop", 1, 0, 1,
                     "1: drop the file from the page cache each pass; 0: keep it there "
                     "(interbench's Read)"}},
         .body = runIoRead,
         .prepare = prepareIoRead,
         .needsTempDir = true,
         .cap = SharedCap::DiskMiB,
         .capParam = "mb"},
        {.name = "fsync_storm",
         .description = "save small files the safe way, write, fsync, rename over the old one, "
                        "at rate per second (Firefox 3's fsync storm on ext4)",
         .unit = "files",
         .params = {{"kb", 4, 1, 1024, "file size, KiB"},
                    {"rate", 0, 0, 100000,
                     "files saved per second, per worker (0: as fast as it can)"},
                    {"rename", 1, 0, 1,
                     "1: rename over the saved file, as editors and browsers save; 0: unlink "
                     "it"}},
         .body = runFsyncStorm,
         .needsTempDir = true},
        {.name = "memload",
         .description = "map mb MiB, touch every page, unmap, repeat (contest mem_load, "
                        "interbench Memload)",
         .unit = "MiB",
         .params = {{"mb", 256, 1, 1048576,
                     "memory per worker, MiB, or interbench: 110 % of RAM, at most 2930 MiB "
                     "(needs swap)",
                     kInterbenchSize, interbenchMemloadMbValue}},
         .body = runMemload,
         .precheck = precheckMemload,
         .cap = SharedCap::MemoryMiB,
         .capParam = "mb"},
        {.name = "spawn",
         .description = "a storm of short-lived processes: fork+exec /bin/true at rate per second",
         .unit = "processes",
         .params = {{"rate", 50, 0.1, 100000, "processes started per second, per worker"}},
         .body = runSpawn,
         .precheck = precheckSpawn,
         .reapsItsWork = true,
         .cap = SharedCap::SpawnRate,
         .capParam = "rate"},
        {.name = "custom",
         .description = "a command, N copies, run directly (no shell); stdout is discarded",
         .unit = "-",
         .body = runCustom,
         .precheck = precheckCustom,
         .reapsItsWork = true,
         .runsCommand = true},
    };
    return kinds;
}

const LoadKind *findLoadKind(const std::string &name)
{
    for (const LoadKind &k : loadKinds())
        if (k.name == name)
            return &k;
    return nullptr;
}

} // namespace latprobe
