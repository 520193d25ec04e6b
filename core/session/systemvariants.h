#pragma once

#include "knobenvironment.h"
#include "knobguard.h"
#include "loadspec.h"
#include "run.h"
#include "variant.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace latprobe {

// A session's side of the variants it plays in turns (docs/scenarios.md,
// "Variants"): the guardian that changes the machine and puts it back
// (KnobGuard), and what latprobe applies itself each turn, over the
// measuring threads (their EEVDF slice) and the loads (nice, policy, the
// cgroup of load_weight=). Driven by one thread, the session's control
// thread, once start() has run on the caller's.
class SystemVariants
{
public:
    SystemVariants(std::vector<Variant> variants, KnobEnvironment env);
    ~SystemVariants(); // puts everything back, unless finish() did

    // Starts the guardian when a variant changes the machine (it takes the
    // settings' locks). "" or one line why not; nothing has changed then.
    std::string start();
    // Puts `variant` in force: "" or why not.
    std::string apply(const Variant &variant);
    // The slice the measuring threads take under the variant in force; 0
    // the kernel's default.
    uint64_t sliceNs() const { return m_sliceNs; }
    // A load group's spec under the variant in force: nice, policy and
    // cgroup over the spec's own. What ran stays the spec's own text.
    LoadSpec forLoads(LoadSpec spec) const;
    // Each tick: "" while the variant's scheduler (scx=) runs as it should,
    // else what happened to it (the round is then not that variant's).
    std::string schedulerTrouble();
    // Puts everything back. Each variant as the run file keeps it: its
    // settings and the changes it made, before, applied and as put back.
    std::vector<VariantRecord> finish(std::vector<std::string> &failures);

private:
    std::vector<Variant> m_variants;
    KnobEnvironment m_env;
    std::unique_ptr<KnobGuard> m_guard;
    const Variant *m_current = nullptr;
    uint64_t m_sliceNs = 0;
    PerRunSettings m_perRun;
    std::string m_loadCgroup;
    std::vector<std::vector<ChangeRecord>> m_applied; // by variant, as last applied
    bool m_finished = false;
};

} // namespace latprobe
