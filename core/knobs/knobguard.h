#pragma once

#include "changeset.h"
#include "knobenvironment.h"
#include "knobjournal.h"
#include "scxscheduler.h"
#include "selfexe.h"
#include "variant.h"

#include <nlohmann/json_fwd.hpp>

#include <memory>
#include <string>
#include <sys/types.h>
#include <vector>

namespace latprobe {

class LineChannel;

// How a run's changes ended: each with its value before, as applied and as
// restored, and a line for each that was not put back (restoreFailure()),
// for stderr and the report.
struct FinishResult
{
    std::vector<ChangeRecord> records;
    std::vector<std::string> failures;
};

// latprobe's side of the guardian (knobguardian.h): the one handle a run
// has on the system-wide settings of its variants. Not thread-safe: one
// thread (the session's control thread) drives it.
class KnobGuard
{
public:
    // Starts the guardian, `program` run with kKnobGuardianFlag (the
    // latprobe binary; a test passes its own executable). The guardian
    // takes the lock of everything `variants` change, refusing when
    // another run holds one, and first puts back what dead runs left (see
    // recovered()). nullptr with a one-line `error`. Check the variants
    // with refuseVariants() first: this refuses nothing else.
    static std::unique_ptr<KnobGuard> start(const std::vector<Variant> &variants,
                                            const KnobEnvironment &env, std::string &error,
                                            const std::string &program = latprobeBinary());
    KnobGuard(const KnobGuard &) = delete;
    KnobGuard &operator=(const KnobGuard &) = delete;
    // finish(), unless done.
    ~KnobGuard();

    // Makes the machine as `variant` says (ChangeSet::applyVariant).
    TurnResult apply(const Variant &variant);
    // The scheduler of the variant in force, to poll each tick: a round
    // during which it exited or was ejected is not that variant's.
    SchedulerStatus scheduler();
    // Puts everything back; the guardian then removes its journal and ends.
    FinishResult finish();

    // What stale journals held when this guard started, as put back.
    const std::vector<ChangeRecord> &recovered() const { return m_recovered; }
    const std::vector<std::string> &recoveryFailures() const { return m_recoveryFailures; }
    pid_t guardianPid() const { return m_pid; }
    const std::string &journalDir() const { return m_journalDir; }

private:
    KnobGuard(pid_t pid, int fd, KnobEnvironment env);
    // A request and its reply; false with `error` when the guardian is gone.
    bool ask(const nlohmann::json &request, nlohmann::json &reply, int timeoutMs,
             std::string &error);
    // The guardian is gone: put its journal back from here.
    void takeOver(const std::string &why);

    pid_t m_pid;
    std::unique_ptr<LineChannel> m_channel;
    KnobEnvironment m_env;
    std::string m_journalDir;
    std::vector<ChangeRecord> m_recovered;
    std::vector<std::string> m_recoveryFailures;
    bool m_finished = false;
    FinishResult m_result; // once finished
};

// Whether any of `variants` changes the machine, so a run needs a guard.
bool changesSystem(const std::vector<Variant> &variants);

} // namespace latprobe
