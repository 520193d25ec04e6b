#include "knobjournal.h"

#include "atomicsave.h"
#include "childprocess.h"
#include "resourcelock.h"
#include "tempdir.h"
#include "textfile.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace latprobe {

namespace {

using nlohmann::json;

constexpr const char *kGuardianDirPrefix = "guardian-";
constexpr size_t kMaxJournalBytes = 1u << 20;

std::string journalFile(const std::string &dir)
{
    return dir + "/journal.json";
}

std::string lockFile(const std::string &dir)
{
    return dir + "/lock";
}

// The record's text fields, named once for both directions.
struct TextField
{
    const char *name;
    std::string ChangeRecord::*inRecord = nullptr;
    std::string SystemChange::*inChange = nullptr;
};
const TextField kTextFields[] = {
    {"key", nullptr, &SystemChange::key},
    {"setting", nullptr, &SystemChange::setting},
    {"resource", nullptr, &SystemChange::resource},
    {"target", nullptr, &SystemChange::target},
    {"value", nullptr, &SystemChange::value},
    {"undo", nullptr, &SystemChange::undo},
    {"before", &ChangeRecord::before},
    {"applied", &ChangeRecord::applied},
    {"restored", &ChangeRecord::restored},
    {"error", &ChangeRecord::error},
    {"by_hand", &ChangeRecord::byHand},
    {"program", &ChangeRecord::program},
};

std::string &textOf(ChangeRecord &r, const TextField &f)
{
    return f.inRecord ? r.*f.inRecord : r.change.*f.inChange;
}

bool fieldOf(const json &node, const std::string &where, const char *key, json::value_t type,
             const json *&out, std::string &error)
{
    const auto it = node.find(key);
    const bool numeric = type == json::value_t::number_unsigned;
    if (it == node.end() || (numeric ? !it->is_number_unsigned() : it->type() != type)) {
        error = fmt::format("{}{}: {}", where.empty() ? "" : where + ".", key,
                            it == node.end() ? "missing"
                            : numeric        ? "expected a whole number >= 0"
                                             : "expected a string");
        return false;
    }
    out = &*it;
    return true;
}

// A field named by a table of names (changeKindFromName).
template <typename Enum>
bool enumField(const json &node, const std::string &where, const char *key,
               std::optional<Enum> (*fromName)(std::string_view), Enum &out, std::string &error)
{
    const json *v = nullptr;
    if (!fieldOf(node, where, key, json::value_t::string, v, error))
        return false;
    const std::optional<Enum> found = fromName(v->get<std::string>());
    if (!found)
        error = fmt::format("{}.{}: unknown {} {}", where, key, key, v->dump());
    out = found.value_or(out);
    return found.has_value();
}

// The guardian pid in "guardian-<pid>-XXXXXX", or 0.
pid_t guardianOf(const char *name)
{
    const size_t prefix = std::strlen(kGuardianDirPrefix);
    if (std::strncmp(name, kGuardianDirPrefix, prefix) != 0)
        return 0;
    pid_t pid = 0;
    const char *end = name + std::strlen(name);
    const auto [dash, ec] = std::from_chars(name + prefix, end, pid);
    return ec == std::errc() && *dash == '-' && pid > 0 ? pid : 0;
}

bool journalBody(const json &root, Journal &journal, std::string &error)
{
    const json *v = nullptr;
    if (!fieldOf(root, "", "owner", json::value_t::number_unsigned, v, error))
        return false;
    journal.owner = v->get<pid_t>();
    if (!fieldOf(root, "", "guardian", json::value_t::number_unsigned, v, error))
        return false;
    journal.guardian = v->get<pid_t>();
    const auto changes = root.find("changes");
    return recordsFromJson(changes == root.end() ? json() : *changes, "changes", journal.records,
                           error);
}

} // namespace

json recordToJson(const ChangeRecord &record)
{
    json node = {{"kind", toString(record.change.kind)},
                 {"state", toString(record.state)},
                 {"pid", record.pid},
                 {"pid_start", record.pidStart},
                 {"launcher", toString(record.launcher)}};
    for (const TextField &f : kTextFields)
        node[f.name] = textOf(const_cast<ChangeRecord &>(record), f);
    return node;
}

bool recordFromJson(const json &node, const std::string &where, ChangeRecord &record,
                    std::string &error)
{
    record = {};
    if (!node.is_object()) {
        error = where + ": expected an object";
        return false;
    }
    const json *v = nullptr;
    for (const TextField &f : kTextFields) {
        if (!fieldOf(node, where, f.name, json::value_t::string, v, error))
            return false;
        textOf(record, f) = v->get<std::string>();
    }
    if (!enumField(node, where, "kind", changeKindFromName, record.change.kind, error) ||
        !enumField(node, where, "state", changeStateFromName, record.state, error))
        return false;
    if (!fieldOf(node, where, "pid", json::value_t::number_unsigned, v, error))
        return false;
    record.pid = v->get<pid_t>();
    if (!fieldOf(node, where, "pid_start", json::value_t::number_unsigned, v, error))
        return false;
    record.pidStart = v->get<uint64_t>();
    // A journal of a latprobe before scx_loader's: its schedulers were the
    // guardian's.
    return !node.contains("launcher") ||
           enumField(node, where, "launcher", schedulerLauncherFromName, record.launcher, error);
}

json recordsToJson(const std::vector<ChangeRecord> &records)
{
    json out = json::array();
    for (const ChangeRecord &r : records)
        out.push_back(recordToJson(r));
    return out;
}

bool recordsFromJson(const json &node, const std::string &where, std::vector<ChangeRecord> &records,
                     std::string &error)
{
    records.clear();
    if (!node.is_array()) {
        error = where + ": expected an array";
        return false;
    }
    for (size_t i = 0; i < node.size(); ++i) {
        ChangeRecord r;
        if (!recordFromJson(node[i], fmt::format("{}[{}]", where, i), r, error))
            return false;
        records.push_back(std::move(r));
    }
    return true;
}

std::string journalToText(const Journal &journal)
{
    return json{{"format", kJournalFormat},
                {"version", kJournalVersion},
                {"owner", journal.owner},
                {"guardian", journal.guardian},
                {"changes", recordsToJson(journal.records)}}
               .dump(1, ' ', false, json::error_handler_t::replace) +
           "\n";
}

bool journalFromText(const std::string &text, const std::string &file, Journal &journal,
                     std::string &error)
{
    journal = {};
    const json root = json::parse(text, nullptr, false);
    if (root.is_discarded() || !root.is_object() || !root.contains("format") ||
        root["format"] != kJournalFormat) {
        error = fmt::format("{}: not a latprobe knob journal", file);
        return false;
    }
    if (!root.contains("version") || root["version"] != kJournalVersion) {
        error = fmt::format("{}: version: {} is not {}, the version this latprobe reads", file,
                            root.value("version", json()).dump(), kJournalVersion);
        return false;
    }
    if (!journalBody(root, journal, error)) {
        error = file + ": " + error;
        return false;
    }
    return true;
}

JournalDir::~JournalDir()
{
    if (m_lockFd >= 0)
        close(m_lockFd);
}

bool JournalDir::create(const std::string &stateDir, std::string &error)
{
    // /run/latprobe is shared by every root run, readable so that a user
    // can see what a run changed; a user's own stays private.
    if (mkdir(stateDir.c_str(), geteuid() == 0 ? 0755 : 0700) != 0 && errno != EEXIST) {
        error = fmt::format("cannot make {} for the journal: {}", stateDir, std::strerror(errno));
        return false;
    }
    std::string path = stateDir + "/" + ownedTempTemplate(kGuardianDirPrefix);
    if (!mkdtemp(path.data())) {
        error = fmt::format("cannot make a journal directory in {}: {}", stateDir,
                            std::strerror(errno));
        return false;
    }
    m_path = path;
    m_lockFd = open(lockFile(path).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (m_lockFd < 0 || flock(m_lockFd, LOCK_EX) != 0) {
        error = fmt::format("cannot lock {}: {}", lockFile(path), std::strerror(errno));
        remove();
        return false;
    }
    return true;
}

bool JournalDir::save(const Journal &journal, std::string &error) const
{
    return saveFileAtomically(journalFile(m_path), journalToText(journal), error);
}

void JournalDir::remove()
{
    if (!m_path.empty())
        removeTree(m_path);
    m_path.clear();
    if (m_lockFd >= 0)
        close(m_lockFd);
    m_lockFd = -1;
}

std::string restoreFailure(const ChangeRecord &record)
{
    return fmt::format("could not put back {} ({}){}", record.change.setting, record.error,
                       record.byHand.empty() ? "" : "; put it back by hand: " + record.byHand);
}

void restoreRecords(std::vector<ChangeRecord> &records, const ChangeContext &context,
                    const std::function<void()> &save)
{
    for (auto it = records.rbegin(); it != records.rend(); ++it) {
        if (!needsRestore(*it))
            continue;
        std::string error;
        restoreChange(*it, context, error);
        save();
    }
}

Recovery recoverJournal(const std::string &dir, const KnobEnvironment &env)
{
    Recovery recovery;
    // Waits for a recovery under way elsewhere; the dead guardian's own
    // lock went with it.
    const int lock = open(lockFile(dir).c_str(), O_RDWR | O_CLOEXEC);
    if (lock >= 0)
        flock(lock, LOCK_EX);
    std::string text, error;
    Journal journal;
    if (readTextFile(journalFile(dir), kMaxJournalBytes, text, error) &&
        journalFromText(text, journalFile(dir), journal, error)) {
        const ChangeContext context{env, dir};
        restoreRecords(journal.records, context, [&] {
            std::string ignored;
            saveFileAtomically(journalFile(dir), journalToText(journal), ignored);
        });
        for (const ChangeRecord &r : journal.records)
            if (r.state == ChangeState::Failed)
                recovery.failures.push_back(restoreFailure(r));
        recovery.records = journal.records;
    } else if (access(journalFile(dir).c_str(), F_OK) == 0) {
        recovery.failures.push_back(fmt::format("cannot restore from {}", error));
    }
    removeTree(dir);
    if (lock >= 0)
        close(lock);
    return recovery;
}

Recovery recoverStaleJournals(const std::string &stateDir, const KnobEnvironment &env)
{
    Recovery all;
    DIR *dir = opendir(stateDir.c_str());
    if (!dir)
        return all;
    std::vector<std::string> stale;
    while (dirent *e = readdir(dir))
        if (const pid_t guardian = guardianOf(e->d_name); guardian > 0 && processGone(guardian, 0))
            stale.push_back(stateDir + "/" + e->d_name);
    closedir(dir);
    for (const std::string &path : stale) {
        Recovery one = recoverJournal(path, env);
        all.records.insert(all.records.end(), one.records.begin(), one.records.end());
        all.failures.insert(all.failures.end(), one.failures.begin(), one.failures.end());
    }
    removeUnheldLocks(stateDir);
    return all;
}

} // namespace latprobe
