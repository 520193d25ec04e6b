#include "loadspec.h"

#include "loadkind.h"
#include "wordsplit.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sstream>

namespace latprobe {

namespace {

bool parseNumber(const std::string &text, double &value)
{
    if (text.empty())
        return false;
    char *end = nullptr;
    errno = 0;
    value = std::strtod(text.c_str(), &end);
    return errno == 0 && end && *end == '\0' && std::isfinite(value);
}

std::vector<std::string> splitColons(const std::string &text)
{
    std::vector<std::string> parts;
    std::string part;
    std::stringstream in(text);
    while (std::getline(in, part, ':'))
        parts.push_back(part);
    return parts;
}

} // namespace

bool LoadSpec::runsCommand() const
{
    return kind && kind->runsCommand;
}

const std::string &LoadSpec::kindName() const
{
    static const std::string none;
    return kind ? kind->name : none;
}

std::string LoadSpec::label() const
{
    return fmt::format("{} x{}", kindName(), count);
}

std::string LoadSpec::toString() const
{
    std::string out = fmt::format("{}:{}", kindName(), count);
    for (const auto &[key, value] : params)
        out += fmt::format(":{}={}", key, value);
    if (sched.nice)
        out += fmt::format(":nice={}", sched.nice);
    if (sched.policy != SchedPolicy::Other)
        out += fmt::format(":policy={}", policyOption(sched.policy));
    if (!sched.cpus.empty())
        out += ":cpus=" + formatCpuList(sched.cpus);
    if (!ownSession)
        out += ":session=same";
    if (!command.empty())
        out += ":cmd=" + joinWords(command);
    return out;
}

namespace {

// The keys every kind takes: nice, policy, cpus and session. `known` says
// whether `key` is one of them; false with `error` on a bad value.
bool parseSharedKey(const std::string &text, const std::string &key, const std::string &value,
                    LoadSpec &spec, bool &known, std::string &error)
{
    known = true;
    double number = 0;
    if (key == "nice") {
        if (!parseNumber(value, number) || number < -20 || number > 19) {
            error = fmt::format("load \"{}\": nice must be -20..19", text);
            return false;
        }
        spec.sched.nice = static_cast<int>(number);
    } else if (key == "policy") {
        if (value != "other" && value != "batch" && value != "idle") {
            error = fmt::format("load \"{}\": policy must be other, batch or idle", text);
            return false;
        }
        parsePolicy(value, spec.sched.policy);
    } else if (key == "cpus") {
        if (!parseCpuList(value, spec.sched.cpus)) {
            error = fmt::format("load \"{}\": cpus \"{}\" is not a CPU list (e.g. 0 or 0-1)", text,
                                value);
            return false;
        }
    } else if (key == "session") {
        if (value != "own" && value != "same") {
            error = fmt::format("load \"{}\": session must be own or same", text);
            return false;
        }
        spec.ownSession = value == "own";
    } else {
        known = false;
    }
    return true;
}

// One of the kind's own parameters, within its row's range (or its word).
bool parseKindParam(const std::string &text, const LoadKind &kind, const std::string &key,
                    const std::string &value, LoadSpec &spec, std::string &error)
{
    const LoadParam *param = nullptr;
    for (const LoadParam &p : kind.params)
        if (p.key == key)
            param = &p;
    if (!param) {
        std::string keys = "nice, policy, cpus, session";
        for (const LoadParam &p : kind.params)
            keys += ", " + p.key;
        error = fmt::format("load \"{}\": {} has no parameter \"{}\" (it takes {})", text,
                            kind.name, key, keys);
        return false;
    }
    double number = 0;
    const bool isWord = !param->word.empty() && value == param->word;
    if (!isWord && (!parseNumber(value, number) || number < param->min || number > param->max)) {
        error =
            fmt::format("load \"{}\": {} must be a number from {} to {}{}", text, key, param->min,
                        param->max, param->word.empty() ? "" : " or " + param->word);
        return false;
    }
    spec.params[key] = value;
    return true;
}

// cmd=, which only a kind that runs a command takes, and needs.
bool parseCommandKey(const std::string &text, const LoadKind &kind, const std::string &cmd,
                     LoadSpec &spec, std::string &error)
{
    if (!cmd.empty()) {
        if (!kind.runsCommand) {
            std::vector<std::string> takers;
            for (const LoadKind &k : loadKinds())
                if (k.runsCommand)
                    takers.push_back(k.name);
            error = fmt::format("load \"{}\": only {} takes cmd=", text, fmt::join(takers, ", "));
            return false;
        }
        if (!splitWords(cmd, spec.command, error)) {
            error = fmt::format("load \"{}\": cmd: {}", text, error);
            return false;
        }
    }
    if (kind.runsCommand && spec.command.empty()) {
        error = fmt::format("load \"{}\": {} needs a command: {}:N:cmd=PROGRAM ARGS", text,
                            kind.name, kind.name);
        return false;
    }
    return true;
}

} // namespace

bool parseLoadSpec(const std::string &text, LoadSpec &spec, std::string &error)
{
    spec = LoadSpec{};
    // cmd= takes the rest of the text, colons and all.
    std::string head = text, cmd;
    const auto cmdPos = text.find(":cmd=");
    if (cmdPos != std::string::npos) {
        head = text.substr(0, cmdPos);
        cmd = text.substr(cmdPos + 5);
    }
    const std::vector<std::string> parts = splitColons(head);
    if (parts.size() < 2) {
        error = fmt::format("load \"{}\": write KIND:N[:key=value...], e.g. massive_intr:8", text);
        return false;
    }
    const LoadKind *kind = findLoadKind(parts[0]);
    if (!kind) {
        std::vector<std::string> names;
        for (const LoadKind &k : loadKinds())
            names.push_back(k.name);
        error = fmt::format("unknown load kind \"{}\": use one of {}", parts[0],
                            fmt::join(names, ", "));
        return false;
    }
    spec.kind = kind;
    double count = 0;
    if (!parseNumber(parts[1], count) || count < 1 || count != std::floor(count) || count > 1e6) {
        error = fmt::format("load \"{}\": the worker count \"{}\" must be a whole number >= 1",
                            text, parts[1]);
        return false;
    }
    spec.count = static_cast<int>(count);
    for (size_t i = 2; i < parts.size(); ++i) {
        const auto eq = parts[i].find('=');
        if (eq == std::string::npos || eq == 0) {
            error = fmt::format("load \"{}\": \"{}\" is not key=value", text, parts[i]);
            return false;
        }
        const std::string key = parts[i].substr(0, eq), value = parts[i].substr(eq + 1);
        bool known = false;
        if (!parseSharedKey(text, key, value, spec, known, error) ||
            (!known && !parseKindParam(text, *kind, key, value, spec, error)))
            return false;
    }
    return parseCommandKey(text, *kind, cmd, spec, error);
}

double loadParam(const LoadSpec &spec, const std::string &key)
{
    const LoadParam *param = nullptr;
    if (spec.kind)
        for (const LoadParam &p : spec.kind->params)
            if (p.key == key)
                param = &p;
    auto it = spec.params.find(key);
    if (it == spec.params.end())
        return param ? param->defaultValue : 0;
    if (param && param->wordValue && it->second == param->word)
        return param->wordValue(spec);
    return std::strtod(it->second.c_str(), nullptr);
}

} // namespace latprobe
