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
    const LoadKind *kind = findLoadKind(spec.kind);
    const int each = kind && kind->processesPerWorker ? kind->processesPerWorker(spec) : 1;
    return spec.count * each;
}

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

// What a spec asks of one cap, all its workers together.
double memBytes(const LoadSpec &spec)
{
    return spec.kind == "memload" ? spec.count * loadParam(spec, "mb") * kMiB : 0;
}

double ioBytes(const LoadSpec &spec)
{
    return spec.kind == "io_write" || spec.kind == "io_read"
               ? spec.count * loadParam(spec, "mb") * kMiB
               : 0;
}

double spawnRate(const LoadSpec &spec)
{
    return spec.kind == "spawn" ? spec.count * loadParam(spec, "rate") : 0;
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
        mem += memBytes(r);
        io += ioBytes(r);
        rate += spawnRate(r);
    }
    const int wanted = processesFor(spec);
    if (processes + wanted > limits.maxProcesses)
        return fmt::format("{} would run {} processes, {} with those running; the cap is {} "
                           "(raise it with --max-workers, or in the window's Edit > Preferences)",
                           spec.label(), wanted, processes + wanted, limits.maxProcesses);
    // Refused here, before anything starts, rather than by mkdtemp later.
    if (const LoadKind *kind = findLoadKind(spec.kind);
        kind && kind->needsTempDir && access(tempBase().c_str(), W_OK | X_OK) != 0)
        return fmt::format("{} needs a temp dir, but {} is not writable ({}): set TMPDIR to a "
                           "writable directory",
                           spec.label(), tempBase(), std::strerror(errno));
    if (spec.kind == "memload") {
        // Conservative: what runs may already hold part of MemAvailable.
        const double available = static_cast<double>(memAvailableBytes());
        const double total = mem + memBytes(spec);
        // interbench's size is meant to push pages out to swap: free swap
        // is room for it, beside the share of RAM any memload gets.
        const auto mb = spec.params.find("mb");
        const double swapFree = mb != spec.params.end() && mb->second == "interbench"
                                    ? static_cast<double>(readMemInfo().swapFreeKb) * 1024
                                    : 0;
        const double cap = limits.memShare * available + swapFree;
        if (total > cap)
            return fmt::format(
                "{} would use {:.0f} MiB{}, over the cap of {:.0f} % of the {:.0f} "
                "MiB available{} ({:.0f} MiB): lower mb= or the count",
                spec.label(), memBytes(spec) / kMiB, besides(mem, total / kMiB, " MiB"),
                limits.memShare * 100, available / kMiB,
                swapFree > 0 ? fmt::format(" and {:.0f} MiB of free swap", swapFree / kMiB)
                             : std::string(),
                cap / kMiB);
    }
    if (spec.kind == "io_write" || spec.kind == "io_read") {
        const double total = io + ioBytes(spec);
        struct statvfs fs
        {};
        const double free =
            statvfs(tempBase().c_str(), &fs) == 0 ? double(fs.f_bavail) * fs.f_frsize : 0;
        if (total > static_cast<double>(limits.ioMaxBytes))
            return fmt::format("{} would write {:.0f} MiB{}, over the {:.0f} MiB io cap: lower mb= "
                               "or the count",
                               spec.label(), ioBytes(spec) / kMiB,
                               besides(io, total / kMiB, " MiB"), limits.ioMaxBytes / kMiB);
        if (total > limits.ioFreeShare * free)
            return fmt::format("{} would write {:.0f} MiB{}, over {:.0f} % of the {:.0f} MiB free "
                               "in {}: lower mb= or set TMPDIR elsewhere",
                               spec.label(), ioBytes(spec) / kMiB,
                               besides(io, total / kMiB, " MiB"), limits.ioFreeShare * 100,
                               free / kMiB, tempBase());
    }
    if (spec.kind == "spawn") {
        const double total = rate + spawnRate(spec);
        if (total > limits.spawnRateMax)
            return fmt::format("{} would start {:.0f} processes/s{}, over the cap of {:.0f}/s: "
                               "lower rate= or the count",
                               spec.label(), spawnRate(spec), besides(rate, total),
                               limits.spawnRateMax);
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
