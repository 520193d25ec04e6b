#include "phasename.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace latprobe {

std::string phaseNameForLoads(const std::vector<std::string> &labels)
{
    return labels.empty() ? std::string("idle") : fmt::format("{}", fmt::join(labels, " + "));
}

std::string phaseNameForLoads(const std::vector<LoadSpec> &specs)
{
    std::vector<std::string> labels;
    for (const LoadSpec &spec : specs)
        labels.push_back(spec.label());
    return phaseNameForLoads(labels);
}

} // namespace latprobe
