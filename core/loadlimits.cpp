#include "loadlimits.h"

#include "loadkind.h"
#include "loadspec.h"
#include "tempdir.h"

#include <cstdio>
#include <fmt/format.h>
#include <fstream>
#include <sys/statvfs.h>

namespace latprobe {

uint64_t memAvailableBytes()
{
    std::ifstream in("/proc/meminfo");
    std::string key;
    uint64_t kb = 0;
    std::string unit;
    while (in >> key >> kb >> unit)
        if (key == "MemAvailable:")
            return kb * 1024;
    return 0;
}

int processesFor(const LoadSpec &spec)
{
    const LoadKind *kind = findLoadKind(spec.kind);
    const int each = kind && kind->processesPerWorker ? kind->processesPerWorker(spec) : 1;
    return spec.count * each;
}

std::string checkLoadLimits(const LoadSpec &spec, const LoadLimits &limits, int running)
{
    const int wanted = processesFor(spec);
    if (running + wanted > limits.maxProcesses)
        return fmt::format("{} would run {} processes, {} with those running; the cap is {} "
                           "(raise it with --max-workers)",
                           spec.label(), wanted, running + wanted, limits.maxProcesses);
    const double count = spec.count;
    if (spec.kind == "memload") {
        const double total = count * loadParam(spec, "mb") * 1024 * 1024;
        const double cap = limits.memShare * static_cast<double>(memAvailableBytes());
        if (total > cap)
            return fmt::format("{} would use {:.0f} MiB, over the cap of {:.0f} % of the {:.0f} "
                               "MiB available ({:.0f} MiB): lower mb= or the count",
                               spec.label(), total / 1048576, limits.memShare * 100,
                               static_cast<double>(memAvailableBytes()) / 1048576, cap / 1048576);
    }
    if (spec.kind == "io_write" || spec.kind == "io_read") {
        const double total = count * loadParam(spec, "mb") * 1024 * 1024;
        struct statvfs fs
        {};
        const double free =
            statvfs(tempBase().c_str(), &fs) == 0 ? double(fs.f_bavail) * fs.f_frsize : 0;
        if (total > static_cast<double>(limits.ioMaxBytes))
            return fmt::format("{} would write {:.0f} MiB, over the {:.0f} MiB io cap: lower mb= "
                               "or the count",
                               spec.label(), total / 1048576, limits.ioMaxBytes / 1048576.0);
        if (total > limits.ioFreeShare * free)
            return fmt::format("{} would write {:.0f} MiB, over {:.0f} % of the {:.0f} MiB free "
                               "in {}: lower mb= or set TMPDIR elsewhere",
                               spec.label(), total / 1048576, limits.ioFreeShare * 100,
                               free / 1048576, tempBase());
    }
    if (spec.kind == "spawn") {
        const double rate = count * loadParam(spec, "rate");
        if (rate > limits.spawnRateMax)
            return fmt::format("{} would start {:.0f} processes/s, over the cap of {:.0f}/s: "
                               "lower rate= or the count",
                               spec.label(), rate, limits.spawnRateMax);
    }
    return {};
}

} // namespace latprobe
