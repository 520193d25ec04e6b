#pragma once

#include "knobjournal.h"
#include "scxscheduler.h"
#include "systemchange.h"
#include "variant.h"

#include <string>
#include <vector>

namespace latprobe {

// What one turn of a variant changed.
struct TurnResult
{
    std::string error;                 // "" when the variant is in force
    std::vector<ChangeRecord> applied; // its system-wide changes, as applied
    std::string loadCgroup;            // load_weight=: the cgroup to move the turn's loads into
};

// The system-wide changes of one run, each journalled before it is made:
// the work the guardian process does for latprobe (knobguardian.h). Every
// setting a run touches keeps the value it had before the run's first
// change, so a variant that leaves it alone, and the end, put that back.
class ChangeSet
{
public:
    ChangeSet(const KnobEnvironment &env, JournalDir &dir, pid_t owner);

    // Makes the machine as `variant` says: every change of an earlier turn
    // it does not make is put back (newest first), then its own are made,
    // each journalled first. Stops at the first that is not in force, with
    // the error; what was made stays journalled, to be put back.
    TurnResult applyVariant(const Variant &variant);
    // Puts everything back, newest first, and returns how each ended.
    std::vector<ChangeRecord> restoreAll();
    // How the running scheduler of this run stands; `exitStatus` >= 0 once
    // its parent reaped it.
    SchedulerStatus scheduler(int exitStatus) const;
    pid_t schedulerPid() const;
    const Journal &journal() const { return m_journal; }

private:
    void save();
    ChangeRecord *find(const std::string &resource);
    std::string restoreOthers(const std::vector<SystemChange> &keep);
    // Whether `record`, an earlier change of the same resource, settles
    // the turn for `change` (kept as it is, or its restore failed).
    bool giveWay(ChangeRecord &record, const SystemChange &change, TurnResult &turn);
    bool applyOne(const SystemChange &change, TurnResult &turn);

    ChangeContext m_context;
    JournalDir &m_dir;
    Journal m_journal;
};

} // namespace latprobe
