#include "guardianprotocol.h"

#include "knobjournal.h"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace latprobe {

using nlohmann::json;

bool LineChannel::send(const json &message, std::string &error)
{
    // A value read from the kernel or a log may not be UTF-8: replaced,
    // never thrown over.
    const std::string line = message.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
    size_t sent = 0;
    while (sent < line.size()) {
        // MSG_NOSIGNAL: a peer that died is an error here, not a SIGPIPE.
        const ssize_t n = ::send(m_fd, line.data() + sent, line.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            error = std::strerror(errno);
            return false;
        }
        sent += static_cast<size_t>(n);
    }
    return true;
}

bool LineChannel::takeLine(json &message, std::string &error)
{
    const size_t end = m_buffer.find('\n');
    if (end == std::string::npos)
        return false;
    message = json::parse(m_buffer.substr(0, end), nullptr, false);
    m_buffer.erase(0, end + 1);
    if (message.is_discarded() || !message.is_object())
        error = "a line that is not a JSON object";
    return true;
}

LineChannel::Got LineChannel::receive(json &message, int timeoutMs, std::string &error)
{
    error.clear();
    for (;;) {
        if (takeLine(message, error))
            return error.empty() ? Got::Line : Got::Failed;
        pollfd p{m_fd, POLLIN, 0};
        const int ready = poll(&p, 1, timeoutMs);
        if (ready < 0 && errno != EINTR) {
            error = std::strerror(errno);
            return Got::Failed;
        }
        if (ready <= 0)
            return Got::TimedOut;
        char buf[4096];
        const ssize_t n = read(m_fd, buf, sizeof buf);
        if (n == 0 || (n < 0 && errno == ECONNRESET))
            return Got::EndOfFile;
        if (n < 0 && errno != EINTR) {
            error = std::strerror(errno);
            return Got::Failed;
        }
        if (n > 0)
            m_buffer.append(buf, static_cast<size_t>(n));
    }
}

json environmentToJson(const KnobEnvironment &env)
{
    return {{"proc_root", env.procRoot},
            {"sys_root", env.sysRoot},
            {"debug_root", env.debugRoot},
            {"cgroup_root", env.cgroupRoot},
            {"kernel_log", env.kernelLog},
            {"search_path", env.searchPath},
            {"state_dir", env.stateDir},
            {"root", env.root},
            {"scheduler_start_ms", env.schedulerStartMs},
            {"command_timeout_ms", env.commandTimeoutMs}};
}

KnobEnvironment environmentFromJson(const json &node)
{
    // Written by environmentToJson in the same binary: taken as it comes.
    KnobEnvironment env;
    env.procRoot = node.value("proc_root", env.procRoot);
    env.sysRoot = node.value("sys_root", env.sysRoot);
    env.debugRoot = node.value("debug_root", env.debugRoot);
    env.cgroupRoot = node.value("cgroup_root", env.cgroupRoot);
    env.kernelLog = node.value("kernel_log", env.kernelLog);
    env.searchPath = node.value("search_path", env.searchPath);
    env.stateDir = node.value("state_dir", env.stateDir);
    env.root = node.value("root", env.root);
    env.schedulerStartMs = node.value("scheduler_start_ms", env.schedulerStartMs);
    env.commandTimeoutMs = node.value("command_timeout_ms", env.commandTimeoutMs);
    return env;
}

} // namespace latprobe
