#include "loadlimits.h"

#include "interbenchsizing.h"
#include "loadkind.h"
#include "loadspec.h"
#include "tempdir.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>

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
    const LoadKind *kind = spec.kind;
    const int each = kind && kind->processesPerWorker ? kind->processesPerWorker(spec) : 1;
    return spec.count * each;
}

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

// What a spec asks of one shared cap, all its workers together: bytes, or
// processes a second.
double demand(const LoadSpec &spec, SharedCap cap)
{
    const LoadKind *kind = spec.kind;
    if (!kind || kind->cap != cap)
        return 0;
    const double unit = cap == SharedCap::SpawnRate ? 1 : kMiB;
    return spec.count * loadParam(spec, kind->capParam) * unit;
}

// ", 900 with those running" when other groups count towards a cap.
std::string besides(double others, double total, const char *unit = "")
{
    return others > 0 ? fmt::format(", {:.0f}{} with those running", total, unit) : std::string();
}

} // namespace

std::string checkLoadLimits(const LoadSpec &spec, const LoadLimits &limits,
                            const std::vector<LoadSpec> &running)
{
    int processes = 0;
    double mem = 0, io = 0, rate = 0;
    for (const LoadSpec &r : running) {
        processes += processesFor(r);
        mem += demand(r, SharedCap::MemoryMiB);
        io += demand(r, SharedCap::DiskMiB);
        rate += demand(r, SharedCap::SpawnRate);
    }
    const int wanted = processesFor(spec);
    if (processes + wanted > limits.maxProcesses)
        return fmt::format("{} would run {} processes, {} with those running; the cap is {} "
                           "(raise it with --max-workers, or in the window's Edit > Preferences)",
                           spec.label(), wanted, processes + wanted, limits.maxProcesses);
    const LoadKind *kind = spec.kind;
    if (!kind)
        return {};
    // Refused here, before anything starts, rather than by mkdtemp later.
    if (kind->needsTempDir && access(tempBase().c_str(), W_OK | X_OK) != 0)
        return fmt::format("{} needs a temp dir, but {} is not writable ({}): set TMPDIR to a "
                           "writable directory",
                           spec.label(), tempBase(), std::strerror(errno));
    if (kind->cap == SharedCap::MemoryMiB) {
        // Conservative: what runs may already hold part of MemAvailable.
        const double available = static_cast<double>(memAvailableBytes());
        const double asked = demand(spec, kind->cap), total = mem + asked;
        // interbench's size is meant to push pages out to swap: free swap
        // is room for it, beside the share of RAM any memory load gets.
        const auto size = spec.params.find(kind->capParam);
        const double swapFree = size != spec.params.end() && size->second == kInterbenchSize
                                    ? static_cast<double>(readMemInfo().swapFreeKb) * 1024
                                    : 0;
        const double cap = limits.memShare * available + swapFree;
        if (total > cap)
            return fmt::format("{} would use {:.0f} MiB{}, over the cap of {:.0f} % of the {:.0f} "
                               "MiB available{} ({:.0f} MiB): lower {}= or the count",
                               spec.label(), asked / kMiB, besides(mem, total / kMiB, " MiB"),
                               limits.memShare * 100, available / kMiB,
                               swapFree > 0
                                   ? fmt::format(" and {:.0f} MiB of free swap", swapFree / kMiB)
                                   : std::string(),
                               cap / kMiB, kind->capParam);
    }
    if (kind->cap == SharedCap::DiskMiB) {
        const double asked = demand(spec, kind->cap), total = io + asked;
        struct statvfs fs
        {};
        const double free =
            statvfs(tempBase().c_str(), &fs) == 0 ? double(fs.f_bavail) * fs.f_frsize : 0;
        if (total > static_cast<double>(limits.ioMaxBytes))
            return fmt::format("{} would write {:.0f} MiB{}, over the {:.0f} MiB io cap: lower {}= "
                               "or the count",
                               spec.label(), asked / kMiB, besides(io, total / kMiB, " MiB"),
                               limits.ioMaxBytes / kMiB, kind->capParam);
        if (total > limits.ioFreeShare * free)
            return fmt::format("{} would write {:.0f} MiB{}, over {:.0f} % of the {:.0f} MiB free "
                               "in {}: lower {}= or set TMPDIR elsewhere",
                               spec.label(), asked / kMiB, besides(io, total / kMiB, " MiB"),
                               limits.ioFreeShare * 100, free / kMiB, tempBase(), kind->capParam);
    }
    if (kind->cap == SharedCap::SpawnRate) {
        const double asked = demand(spec, kind->cap), total = rate + asked;
        if (total > limits.spawnRateMax)
            return fmt::format("{} would start {:.0f} processes/s{}, over the cap of {:.0f}/s: "
                               "lower {}= or the count",
                               spec.label(), asked, besides(rate, total), limits.spawnRateMax,
                               kind->capParam);
    }
    return {};
}

std::string checkDescriptorLimit()
{
    constexpr rlim_t kMinFds = 16;
    rlimit fds{};
    if (getrlimit(RLIMIT_NOFILE, &fds) != 0 || fds.rlim_cur >= kMinFds)
        return {};
    return fmt::format("only {} open files allowed, it needs {}: raise the limit, "
                       "e.g. ulimit -n 1024",
                       fds.rlim_cur, kMinFds);
}

} // namespace latprobe
