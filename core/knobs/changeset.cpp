#include "changeset.h"

#include "knobcheck.h"

#include <fmt/format.h>
#include <unistd.h>

namespace latprobe {

ChangeSet::ChangeSet(const KnobEnvironment &env, JournalDir &dir, pid_t owner)
    : m_context{env, dir.path()}, m_dir(dir)
{
    m_journal.owner = owner;
    m_journal.guardian = getpid();
    save();
}

void ChangeSet::save()
{
    // A journal that cannot be written is still in memory, and restored
    // from there at the end; only a kill -9 would then leave a change.
    std::string error;
    m_dir.save(m_journal, error);
}

ChangeRecord *ChangeSet::find(const std::string &resource)
{
    for (ChangeRecord &r : m_journal.records)
        if (r.change.resource == resource)
            return &r;
    return nullptr;
}

std::string ChangeSet::restoreOthers(const std::vector<SystemChange> &keep)
{
    std::string firstError;
    for (auto it = m_journal.records.rbegin(); it != m_journal.records.rend(); ++it) {
        bool kept = false;
        for (const SystemChange &c : keep)
            kept = kept || c.resource == it->change.resource;
        if (kept || !needsRestore(*it))
            continue;
        std::string error;
        if (!restoreChange(*it, m_context, error) && firstError.empty())
            firstError = restoreFailure(*it);
        save();
    }
    return firstError;
}

bool ChangeSet::giveWay(ChangeRecord &record, const SystemChange &change, TurnResult &turn)
{
    const bool same = record.change == change;
    if (same && keptWhenSame(change.kind) && record.state == ChangeState::Applied &&
        record.error.empty()) {
        turn.applied.push_back(record);
        return true;
    }
    if (!same && restoresBeforeReplacing(change.kind) && needsRestore(record)) {
        std::string error;
        const bool restored = restoreChange(record, m_context, error);
        save();
        if (!restored) {
            turn.error = restoreFailure(record);
            return true;
        }
    }
    return false;
}

bool ChangeSet::applyOne(const SystemChange &change, TurnResult &turn)
{
    ChangeRecord *record = find(change.resource);
    std::string error;
    if (record && giveWay(*record, change, turn))
        return turn.error.empty();
    if (!record) {
        ChangeRecord fresh;
        fresh.change = change;
        if (!readBefore(fresh, m_context, error)) {
            turn.error = fmt::format("{}: {}", change.setting, error);
            return false;
        }
        m_journal.records.push_back(std::move(fresh));
        record = &m_journal.records.back();
    }
    record->change = change;
    planChange(*record, m_context);
    record->state = ChangeState::Pending;
    save(); // before the change: a kill from here on finds it journalled
    const bool ok = applyChange(*record, m_context, error);
    save();
    turn.applied.push_back(*record);
    if (change.kind == ChangeKind::Cgroup)
        turn.loadCgroup = change.target;
    if (!ok)
        turn.error = fmt::format("{}: {}", change.setting, error);
    return ok;
}

TurnResult ChangeSet::applyVariant(const Variant &variant)
{
    TurnResult turn;
    const std::vector<SystemChange> changes =
        systemChanges(variant, m_journal.owner, m_context.env);
    turn.error = restoreOthers(changes);
    if (!turn.error.empty())
        return turn;
    for (const SystemChange &change : changes)
        if (!applyOne(change, turn))
            break;
    return turn;
}

std::vector<ChangeRecord> ChangeSet::restoreAll()
{
    restoreRecords(m_journal.records, m_context, [this] { save(); });
    return m_journal.records;
}

pid_t ChangeSet::schedulerPid() const
{
    for (const ChangeRecord &r : m_journal.records)
        if (r.change.kind == ChangeKind::Scheduler && r.state == ChangeState::Applied)
            return r.pid;
    return 0;
}

SchedulerStatus ChangeSet::scheduler(int exitStatus) const
{
    for (const ChangeRecord &r : m_journal.records) {
        if (r.change.kind != ChangeKind::Scheduler || r.state != ChangeState::Applied ||
            r.applied == "none")
            continue;
        if (r.pid > 0)
            return schedulerStatus(r.pid, r.pidStart, r.program, r.inForce, m_context.env,
                                   exitStatus, schedulerLog(m_context.logDir));
        if (r.launcher == SchedulerLauncher::ScxLoader)
            return scxLoaderSchedulerStatus(r.program, r.inForce, m_context.env);
    }
    return {};
}

} // namespace latprobe
