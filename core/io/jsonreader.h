#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

namespace latprobe {

// How a reader reports a failure: it throws its own error type (RunFileError,
// ScenarioError) with the message, e.g. `throwError<RunFileError>`.
using ErrorThrower = void (*)(const std::string &message);
template <typename Error> [[noreturn]] void throwError(const std::string &message)
{
    throw Error(message);
}

// What the readers of run files, scenarios and cyclictest's JSON share:
// the file read whole, parsed, and typed fields taken out of it. Every
// failure is one line that names the file and the field's path,
// "run.json: phases[0].name: expected a string", thrown by the reader's
// ErrorThrower. A path is dotted keys and [indices]; "" is the top level.
class JsonReader
{
public:
    JsonReader(std::string file, ErrorThrower thrower) : m_file(std::move(file)), m_thrower(thrower)
    {}

    // "file: what".
    [[noreturn]] void failFile(const std::string &what) const;
    // "file: path: what".
    [[noreturn]] void fail(const std::string &path, const std::string &what) const;

    // The file, when it holds at most maxBytes.
    std::string readWhole(size_t maxBytes) const;
    // `text` as JSON. A syntax error names its line and column, then
    // `hint` (e.g. ": is it a latprobe run file?").
    nlohmann::json parse(const std::string &text, const std::string &hint = {}) const;

    // `path`.`key`, or `key` at the top level.
    static std::string join(const std::string &path, const char *key);

    // A field that must be there; `obj` must be an object.
    const nlohmann::json &field(const nlohmann::json &obj, const std::string &path,
                                const char *key) const;
    const nlohmann::json &array(const nlohmann::json &obj, const std::string &path,
                                const char *key) const;
    template <typename T>
    T get(const nlohmann::json &obj, const std::string &path, const char *key) const
    {
        return value<T>(field(obj, path, key), join(path, key));
    }
    // An optional field: `fallback` when it is absent, checked when present.
    template <typename T>
    T get(const nlohmann::json &obj, const std::string &path, const char *key, T fallback) const
    {
        if (!obj.is_object())
            fail(path, "is not an object");
        auto it = obj.find(key);
        return it == obj.end() ? fallback : value<T>(*it, join(path, key));
    }

    // `v`, found at `path`, as a T: a string, a bool, a number, or an
    // integer that fits T (get<T>() would wrap what does not).
    template <typename T> T value(const nlohmann::json &v, const std::string &path) const
    {
        if constexpr (std::is_same_v<T, std::string>) {
            if (!v.is_string())
                fail(path, "expected a string");
        } else if constexpr (std::is_same_v<T, bool>) {
            if (!v.is_boolean())
                fail(path, "expected true or false");
        } else if constexpr (std::is_floating_point_v<T>) {
            if (!v.is_number())
                fail(path, "expected a number");
        } else {
            static_assert(std::is_integral_v<T>);
            const int64_t n = integer(v, path, std::is_unsigned_v<T>);
            if (!std::in_range<T>(n))
                fail(path, v.dump() + " is out of range");
            return static_cast<T>(n);
        }
        return v.get<T>();
    }

private:
    // `v` as an int64_t, refusing what is not an integer, does not fit, or
    // is negative where it must not be.
    int64_t integer(const nlohmann::json &v, const std::string &path, bool nonNegative) const;

    std::string m_file;
    ErrorThrower m_thrower;
};

} // namespace latprobe
