// libFuzzer target for the scenario reader (`latprobe run --scenario FILE`):
// any input reads or throws ScenarioError; another exception escaping
// counts as a crash.
#include "scenario.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string text(reinterpret_cast<const char *>(data), size);
    try {
        const latprobe::Scenario s = latprobe::parseScenario(text, "fuzz.json");
        // What the runner asks of every scenario before it starts.
        if (s.steps.empty() || !(s.totalS() > 0)) {
            std::fprintf(stderr, "a scenario without a step to run was accepted\n");
            std::abort();
        }
        (void)s.runsCommands();
    } catch (const latprobe::ScenarioError &) {
    }
    return 0;
}
