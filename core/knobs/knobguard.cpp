#include "knobguard.h"

#include "childprocess.h"
#include "guardianprotocol.h"
#include "knobcheck.h"
#include "knobguardian.h"
#include "settingkind.h"
#include "spawnchild.h"
#include "variantjson.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fmt/format.h>
#include <set>
#include <sys/socket.h>
#include <unistd.h>

namespace latprobe {

namespace {

using nlohmann::json;

// How long a start may take: putting back a dead run's scheduler and
// commands comes first.
constexpr int kStartReplyMs = 120'000;
constexpr int kQuickReplyMs = 30'000;

// The guardian, in a session of its own, the socket's other end on
// kGuardianFd. -1 with `error`.
pid_t spawnGuardian(const std::string &program, int fd, std::string &error)
{
    const pid_t pid = spawnChild({.program = program,
                                  .argv = {kKnobGuardianName, kKnobGuardianFlag},
                                  .fds = {{fd, kGuardianFd}},
                                  .group = ChildSpec::Group::OwnSession},
                                 error);
    if (pid < 0)
        error = "cannot start the guardian: " + error;
    return pid;
}

std::vector<std::string> resourcesOf(const std::vector<Variant> &variants,
                                     const KnobEnvironment &env)
{
    std::set<std::string> resources;
    for (const Variant &v : variants)
        for (const SystemChange &c : systemChanges(v, getpid(), env))
            if (c.exclusive)
                resources.insert(c.resource);
    return {resources.begin(), resources.end()};
}

} // namespace

bool changesSystem(const std::vector<Variant> &variants)
{
    for (const Variant &v : variants)
        for (const Setting &s : v.settings)
            if (const SettingKind *k = findSettingKind(s.key);
                k && k->scope == SettingScope::SystemWide)
                return true;
    return false;
}

KnobGuard::KnobGuard(pid_t pid, int fd, KnobEnvironment env)
    : m_pid(pid), m_channel(std::make_unique<LineChannel>(fd)), m_env(std::move(env))
{}

std::unique_ptr<KnobGuard> KnobGuard::start(const std::vector<Variant> &variants,
                                            const KnobEnvironment &env, std::string &error,
                                            const std::string &program)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        error = fmt::format("cannot talk to a guardian: socketpair: {}", std::strerror(errno));
        return nullptr;
    }
    const pid_t pid = spawnGuardian(program, sv[1], error);
    close(sv[1]);
    if (pid < 0) {
        close(sv[0]);
        return nullptr;
    }
    std::unique_ptr<KnobGuard> guard(new KnobGuard(pid, sv[0], env));
    json reply;
    const bool answered = guard->ask({{"op", "start"},
                                      {"env", environmentToJson(env)},
                                      {"owner", getpid()},
                                      {"resources", resourcesOf(variants, env)}},
                                     reply, kStartReplyMs, error);
    if (!answered || reply.contains("error")) {
        error = answered ? reply.value("error", "") : error;
        guard->m_finished = true; // it changed nothing, and ends by itself
        return nullptr;
    }
    guard->m_journalDir = reply.value("journal", "");
    recordsFromJson(reply.value("recovered", json::array()), "recovered", guard->m_recovered,
                    error);
    guard->m_recoveryFailures = reply.value("failures", std::vector<std::string>{});
    error.clear();
    return guard;
}

KnobGuard::~KnobGuard()
{
    if (!m_finished)
        finish();
    close(m_channel->fd());
    int status = 0;
    if (m_pid > 0 && !waitForChild(m_pid, kQuickReplyMs, status)) {
        kill(m_pid, SIGKILL);
        waitForChild(m_pid, kQuickReplyMs, status);
    }
}

bool KnobGuard::ask(const json &request, json &reply, int timeoutMs, std::string &error)
{
    if (m_finished) {
        error = "the variants' settings were put back already";
        return false;
    }
    using Got = LineChannel::Got;
    const Got got = m_channel->send(request, error) ? m_channel->receive(reply, timeoutMs, error)
                                                    : Got::EndOfFile; // it is gone
    if (got == Got::Line)
        return true;
    takeOver(got == Got::TimedOut
                 ? fmt::format("the guardian (pid {}) did not answer within {} s; what it "
                               "changed was put back from its journal",
                               m_pid, timeoutMs / 1000)
                 : fmt::format("the guardian (pid {}) ended; what it changed was put back "
                               "from its journal",
                               m_pid));
    error = m_result.failures.front();
    return false;
}

void KnobGuard::takeOver(const std::string &why)
{
    // A guardian that hangs is ended first: its lock must go before its
    // journal can be taken.
    kill(m_pid, SIGKILL);
    int status = 0;
    waitForChild(m_pid, kQuickReplyMs, status);
    m_pid = -1;
    const Recovery recovery =
        m_journalDir.empty() ? Recovery{} : recoverJournal(m_journalDir, m_env);
    m_result = {recovery.records, recovery.failures};
    m_result.failures.insert(m_result.failures.begin(), why);
    m_finished = true;
}

TurnResult KnobGuard::apply(const Variant &variant)
{
    json reply;
    TurnResult turn;
    const int timeoutMs = m_env.schedulerStartMs + 2 * m_env.commandTimeoutMs + kQuickReplyMs;
    if (!ask({{"op", "apply"}, {"variant", variantToJson(variant)}}, reply, timeoutMs, turn.error))
        return turn;
    turn.error = reply.value("error", "");
    turn.loadCgroup = reply.value("load_cgroup", "");
    std::string error;
    if (!recordsFromJson(reply.value("applied", json::array()), "applied", turn.applied, error))
        turn.error = error;
    return turn;
}

SchedulerStatus KnobGuard::scheduler()
{
    json reply;
    SchedulerStatus status;
    if (!ask({{"op", "scheduler"}}, reply, kQuickReplyMs, status.detail)) {
        status.state = SchedulerState::Exited;
        return status;
    }
    status.state =
        schedulerStateFromName(reply.value("state", "")).value_or(SchedulerState::Exited);
    status.detail = reply.value("detail", "");
    return status;
}

FinishResult KnobGuard::finish()
{
    if (m_finished)
        return m_result;
    json reply;
    std::string error;
    const int timeoutMs = 2 * m_env.commandTimeoutMs + kQuickReplyMs;
    if (!ask({{"op", "finish"}}, reply, timeoutMs, error))
        return m_result;
    m_finished = true;
    recordsFromJson(reply.value("records", json::array()), "records", m_result.records, error);
    for (const ChangeRecord &r : m_result.records)
        if (r.state == ChangeState::Failed)
            m_result.failures.push_back(restoreFailure(r));
    return m_result;
}

} // namespace latprobe
