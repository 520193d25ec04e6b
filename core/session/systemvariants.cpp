#include "systemvariants.h"

#include <algorithm>

namespace latprobe {

SystemVariants::SystemVariants(std::vector<Variant> variants, KnobEnvironment env)
    : m_variants(std::move(variants)), m_env(std::move(env)), m_applied(m_variants.size())
{}

SystemVariants::~SystemVariants()
{
    if (!m_finished && m_guard)
        m_guard->finish();
}

std::string SystemVariants::start()
{
    if (!changesSystem(m_variants))
        return {};
    std::string error;
    m_guard = KnobGuard::start(m_variants, m_env, error);
    return error;
}

std::string SystemVariants::apply(const Variant &variant)
{
    const auto it = std::find(m_variants.begin(), m_variants.end(), variant);
    if (it == m_variants.end())
        return "variant " + variant.name + " is not one of the run's";
    m_current = &*it;
    m_perRun = perRunSettings(variant);
    m_sliceNs = m_perRun.sliceNs.value_or(0);
    m_loadCgroup.clear();
    if (!m_guard)
        return {};
    TurnResult turn = m_guard->apply(variant);
    m_loadCgroup = turn.loadCgroup;
    if (turn.error.empty())
        m_applied[static_cast<size_t>(it - m_variants.begin())] = std::move(turn.applied);
    return turn.error;
}

LoadSpec SystemVariants::forLoads(LoadSpec spec) const
{
    if (m_perRun.loadNice)
        spec.sched.nice = *m_perRun.loadNice;
    if (m_perRun.loadPolicy)
        spec.sched.policy = *m_perRun.loadPolicy;
    spec.cgroup = m_loadCgroup;
    return spec;
}

std::string SystemVariants::schedulerTrouble()
{
    if (!m_guard || !m_current || !m_current->find("scx"))
        return {};
    const SchedulerStatus status = m_guard->scheduler();
    return status.state == SchedulerState::Running ? std::string() : status.detail;
}

std::vector<VariantRecord> SystemVariants::finish(std::vector<std::string> &failures)
{
    FinishResult result;
    if (m_guard && !m_finished)
        result = m_guard->finish();
    m_finished = true;
    failures = result.failures;
    std::vector<VariantRecord> out;
    for (size_t i = 0; i < m_variants.size(); ++i) {
        VariantRecord v;
        v.name = m_variants[i].name;
        for (const Setting &s : m_variants[i].settings)
            v.settings.push_back(s.text());
        // Each change as put back at the end: the journal's last word on it.
        for (const ChangeRecord &applied : m_applied[i]) {
            SettingRecord c;
            c.setting = applied.change.setting;
            c.target = applied.change.target;
            c.before = applied.before;
            c.applied = applied.applied;
            const auto end = std::find_if(result.records.begin(), result.records.end(),
                                          [&](const ChangeRecord &r) {
                                              return r.change.resource == applied.change.resource;
                                          });
            c.restored = end != result.records.end() ? end->restored : applied.restored;
            c.error = end != result.records.end() ? end->error : applied.error;
            c.restoreBy = end != result.records.end() ? end->byHand : applied.byHand;
            v.changes.push_back(c);
        }
        out.push_back(std::move(v));
    }
    return out;
}

} // namespace latprobe
