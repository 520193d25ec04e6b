#include "phasematch.h"

#include "loadspec.h"
#include "phasename.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

namespace latprobe {

namespace {

std::string canonicalLoad(const std::string &text)
{
    LoadSpec spec;
    std::string error;
    if (parseLoadSpec(text, spec, error))
        return spec.toString();
    // A label, as files before 1.2 kept: "massive_intr x8".
    const size_t x = text.rfind(" x");
    if (x != std::string::npos && x + 2 < text.size() &&
        std::all_of(text.begin() + static_cast<std::ptrdiff_t>(x + 2), text.end(),
                    [](char c) { return c >= '0' && c <= '9'; }))
        return text.substr(0, x) + ":" + text.substr(x + 2);
    return text;
}

} // namespace

std::string loadSignature(const std::vector<std::string> &loads)
{
    std::vector<std::string> canonical;
    for (const std::string &l : loads)
        canonical.push_back(canonicalLoad(l));
    // An empty load (a hand-made file's) names nothing.
    std::erase(canonical, std::string());
    std::sort(canonical.begin(), canonical.end());
    return phaseNameForLoads(canonical);
}

std::vector<PhaseGroup> groupPhases(const Run &run)
{
    std::vector<PhaseGroup> groups;
    // Occurrences of each signature within each round (round 0: by hand).
    std::map<std::pair<int, std::string>, int> seen;
    std::map<std::string, int> namesUsed;
    for (size_t i = 0; i < run.phases.size(); ++i) {
        const PhaseResult &p = run.phases[i];
        const std::string signature = loadSignature(p.loads);
        const int occurrence = ++seen[{p.round, signature}];
        const std::string key = fmt::format("{}#{}", signature, occurrence);
        auto it = std::find_if(groups.begin(), groups.end(),
                               [&](const PhaseGroup &g) { return g.key == key; });
        // The same occurrence in a later round is a round of the same phase;
        // by hand (round 0), a repeat has the next occurrence and a group
        // of its own.
        if (it != groups.end()) {
            it->phases.push_back(i);
            continue;
        }
        PhaseGroup g;
        g.key = key;
        const int n = ++namesUsed[p.name];
        g.name = n == 1 ? p.name : fmt::format("{} {}", p.name, n);
        g.phases.push_back(i);
        groups.push_back(std::move(g));
    }
    return groups;
}

} // namespace latprobe
