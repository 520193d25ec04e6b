#include "scenariocheck.h"

#include "loadkind.h"

namespace latprobe {

std::string checkScenario(const Scenario &scenario, const LoadLimits &limits)
{
    for (const ScenarioStep &step : scenario.steps) {
        std::vector<LoadSpec> running; // a step's groups run together: caps count them all
        for (const LoadSpec &spec : step.loads) {
            if (const LoadKind *kind = spec.kind; kind && kind->precheck)
                if (std::string error = kind->precheck(spec); !error.empty())
                    return error;
            if (std::string error = checkLoadLimits(spec, limits, running); !error.empty())
                return error;
            running.push_back(spec);
        }
    }
    return {};
}

} // namespace latprobe
