#pragma once

#include "knobenvironment.h"
#include "systemchange.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace latprobe {

// latprobe and its guardian talk over a socketpair, one JSON object a
// line each way, a request and then its reply:
//   {"op":"start","env":{...},"owner":PID,"resources":[...]} -> {"journal":DIR,
//        "recovered":[records],"failures":[...]} or {"error":"..."}
//   {"op":"apply","variant":{...}} -> {"error":"","applied":[records],"load_cgroup":DIR}
//   {"op":"scheduler"}             -> {"state":"running","detail":""}
//   {"op":"finish"}                -> {"records":[...]}, and the guardian ends
// End of file on the guardian's side means latprobe is gone.
class LineChannel
{
public:
    explicit LineChannel(int fd) : m_fd(fd) {}

    bool send(const nlohmann::json &message, std::string &error);
    enum class Got { Line, EndOfFile, TimedOut, Failed };
    // Waits up to `timeoutMs` for the next line. TimedOut also when a
    // signal interrupted the wait.
    Got receive(nlohmann::json &message, int timeoutMs, std::string &error);
    int fd() const { return m_fd; }

private:
    bool takeLine(nlohmann::json &message, std::string &error);

    int m_fd;
    std::string m_buffer;
};

nlohmann::json environmentToJson(const KnobEnvironment &env);
KnobEnvironment environmentFromJson(const nlohmann::json &node);

} // namespace latprobe
