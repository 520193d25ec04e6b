#pragma once

// A stand-in for latprobe in the guardian tests, the test binary run again
// with --knob-applier: it starts a guardian (the test binary once more,
// --knob-guardian), makes the first variant's settings through it, prints
// "applied <guardian pid> <journal dir>" and then does what it is told:
// waits to be killed ("wait"), crashes ("abort") or ends normally
// ("return", which puts everything back as latprobe's normal end does).
// KNOBS_TEST_GUARDIAN names another guardian program (the latprobe binary).
//
//   tst_x --knob-applier PROC SYS DEBUG CGROUP PATH STATEDIR ACTION VARIANT...

#include "knobguard.h"
#include "knobguardian.h"
#include "selfexe.h"
#include "variant.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

inline constexpr const char *kKnobApplierFlag = "--knob-applier";

inline int runKnobApplier(int argc, char **argv)
{
    using namespace latprobe;
    if (argc < 10)
        return 2;
    KnobEnvironment env;
    env.procRoot = argv[2];
    env.sysRoot = argv[3];
    env.kernelLog = env.sysRoot + "/../dev/kmsg"; // the fake tree's (faketree.h)
    env.debugRoot = argv[4];
    env.cgroupRoot = argv[5];
    env.searchPath = argv[6];
    env.stateDir = argv[7];
    env.root = geteuid() == 0;
    const std::string_view action = argv[8];
    std::vector<Variant> variants;
    for (int i = 9; i < argc; ++i) {
        Variant v;
        std::string error;
        if (!parseVariant(argv[i], v, error)) {
            std::fprintf(stderr, "%s\n", error.c_str());
            return 2;
        }
        variants.push_back(v);
    }
    std::string error;
    const char *guardian = std::getenv("KNOBS_TEST_GUARDIAN");
    auto guard =
        KnobGuard::start(variants, env, error, guardian && *guardian ? guardian : selfExecutable());
    if (!guard) {
        std::fprintf(stderr, "refused: %s\n", error.c_str());
        return 3;
    }
    const TurnResult turn = guard->apply(variants.front());
    std::printf("%s %d %s\n", turn.error.empty() ? "applied" : "failed", guard->guardianPid(),
                guard->journalDir().c_str());
    std::fflush(stdout);
    if (action == "abort")
        std::abort();
    if (action == "wait")
        for (;;)
            pause();
    return 0;
}

// The test binaries' main(): the applier and the guardian first.
inline int dispatchKnobHelpers(int argc, char **argv)
{
    if (argc > 1 && std::string_view(argv[1]) == latprobe::kKnobGuardianFlag)
        return latprobe::runKnobGuardian(argc, argv);
    if (argc > 1 && std::string_view(argv[1]) == kKnobApplierFlag)
        return runKnobApplier(argc, argv);
    return -1;
}
