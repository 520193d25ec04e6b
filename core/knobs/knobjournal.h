#pragma once

#include "knobenvironment.h"
#include "systemchange.h"

#include <nlohmann/json_fwd.hpp>

#include <functional>

#include <string>
#include <sys/types.h>
#include <vector>

namespace latprobe {

// The journal of one guardian: every system-wide change of one latprobe
// run, written before the change is made, so that whoever finds it can put
// the machine back. It lives in a directory of the guardian's own,
// <stateDir>/guardian-<pid>-XXXXXX/ (journal.json, the guardian's lock,
// the logs of the programs it ran). docs/DESIGN.md, "Variants: settings
// and their guardian", gives the format.
inline constexpr int kJournalVersion = 1;
inline constexpr const char *kJournalFormat = "latprobe knob journal";

struct Journal
{
    pid_t owner = 0;    // the latprobe the changes are for
    pid_t guardian = 0; // the process that keeps them
    std::vector<ChangeRecord> records;
};

std::string journalToText(const Journal &journal);
// False with "FILE: FIELD: what" for a journal this latprobe does not
// understand (another version, a missing field).
bool journalFromText(const std::string &text, const std::string &file, Journal &journal,
                     std::string &error);
nlohmann::json recordToJson(const ChangeRecord &record);
bool recordFromJson(const nlohmann::json &node, const std::string &where, ChangeRecord &record,
                    std::string &error);
nlohmann::json recordsToJson(const std::vector<ChangeRecord> &records);
bool recordsFromJson(const nlohmann::json &node, const std::string &where,
                     std::vector<ChangeRecord> &records, std::string &error);

// A guardian's directory, made and locked (flock on its `lock`) for the
// guardian's whole life: a recovery tells a dead guardian's journal from a
// live one by the pid in the name, and two recoveries take turns on the
// lock.
class JournalDir
{
public:
    JournalDir() = default;
    JournalDir(const JournalDir &) = delete;
    JournalDir &operator=(const JournalDir &) = delete;
    ~JournalDir();

    bool create(const std::string &stateDir, std::string &error);
    bool save(const Journal &journal, std::string &error) const;
    // Removes the directory (the journal with it) and drops the lock.
    void remove();
    const std::string &path() const { return m_path; }

private:
    std::string m_path;
    int m_lockFd = -1;
};

// What a recovery put back: every record as it ended, and a line for each
// change that could not be put back, with the command that does it by hand.
struct Recovery
{
    std::vector<ChangeRecord> records;
    std::vector<std::string> failures;
};

// Puts back the journals in `stateDir` whose guardian is gone (latprobe
// and its guardian both killed), newest change first, then removes them.
// A journal another process is putting back is waited for, so that no run
// reads a setting's value before while it is being restored. The lock
// files the dead guardians left go too.
Recovery recoverStaleJournals(const std::string &stateDir, const KnobEnvironment &env);
// The same for one guardian's directory, whose guardian is gone.
Recovery recoverJournal(const std::string &dir, const KnobEnvironment &env);

// One line for a change that was not put back: what, why, and by hand.
std::string restoreFailure(const ChangeRecord &record);
// Puts back, newest first, every record that needs it; `save` after each.
void restoreRecords(std::vector<ChangeRecord> &records, const ChangeContext &context,
                    const std::function<void()> &save);

} // namespace latprobe
