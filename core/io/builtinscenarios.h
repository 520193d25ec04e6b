#pragma once

#include <vector>

namespace latprobe {

struct BuiltinScenario
{
    const char *name;
    const char *json;
};

// Generated at build time from resources/scenarios/*.json.
const std::vector<BuiltinScenario> &builtinScenarioTexts();

} // namespace latprobe
