#include "jsonreader.h"

#include "textfile.h"

#include <cstdlib>
#include <fmt/format.h>

namespace latprobe {

using nlohmann::json;

void JsonReader::failFile(const std::string &what) const
{
    m_thrower(fmt::format("{}: {}", m_file, what));
    std::abort(); // an ErrorThrower throws
}

void JsonReader::fail(const std::string &path, const std::string &what) const
{
    failFile(fmt::format("{}: {}", path, what));
}

std::string JsonReader::readWhole(size_t maxBytes) const
{
    std::string text, error;
    if (!readTextFile(m_file, maxBytes, text, error))
        failFile(error);
    return text;
}

json JsonReader::parse(const std::string &text, const std::string &hint) const
{
    try {
        return json::parse(text);
    } catch (const json::parse_error &e) {
        // nlohmann names the line and column: keep that part of its message.
        const std::string what = e.what();
        const auto at = what.find("at line");
        failFile(fmt::format("not valid JSON {}{}",
                             at == std::string::npos ? what : what.substr(at), hint));
    } catch (const json::out_of_range &) {
        // How nlohmann reports a number past a double's range, like 1e400.
        failFile("not valid JSON: a number out of range");
    }
}

std::string JsonReader::join(const std::string &path, const char *key)
{
    return path.empty() ? key : path + "." + key;
}

const json &JsonReader::field(const json &obj, const std::string &path, const char *key) const
{
    if (!obj.is_object())
        fail(path, "is not an object");
    auto it = obj.find(key);
    if (it == obj.end())
        fail(join(path, key), "missing");
    return *it;
}

const json &JsonReader::array(const json &obj, const std::string &path, const char *key) const
{
    const json &v = field(obj, path, key);
    if (!v.is_array())
        fail(join(path, key), "expected an array");
    return v;
}

int64_t JsonReader::integer(const json &v, const std::string &path, bool nonNegative) const
{
    if (!v.is_number_integer())
        fail(path, "expected an integer");
    if (v.is_number_unsigned() && !std::in_range<int64_t>(v.get<uint64_t>()))
        fail(path, v.dump() + " is out of range");
    const int64_t n = v.get<int64_t>();
    if (nonNegative && n < 0)
        fail(path, "must not be negative");
    return n;
}

} // namespace latprobe
