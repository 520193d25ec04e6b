#include "loadkind.h"

#include "workers/cpuloads.h"

namespace latprobe {

const std::vector<LoadKind> &loadKinds()
{
    static const std::vector<LoadKind> kinds = [] {
        std::vector<LoadKind> k;
        k.push_back({"massive_intr",
                     "work 8 ms, sleep 1 ms, count loops (massive_intr.c)",
                     "loops",
                     {{"work_ms", 8, 0.01, 10000, "busy time per loop, ms"},
                      {"sleep_ms", 1, 0, 10000, "sleep per loop, ms"}},
                     runMassiveIntr});
        k.push_back({"ocbench",
                     "busy R us, sleep S us (Willy Tarreau's ocbench)",
                     "busy periods",
                     {{"run_us", 250000, 1, 1e8, "busy time, us"},
                      {"sleep_us", 750000, 0, 1e8, "sleep time, us"}},
                     runOcbench});
        k.push_back(
            {"burn", "spin forever (interbench Burn, stress-ng --cpu)", "Mspins", {}, runBurn});
        return k;
    }();
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
