#include "variantjson.h"

#include "settingkind.h"
#include "wordsplit.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace latprobe {

namespace {

using nlohmann::json;

// A scalar value as text: a string as is, a whole number written out.
bool scalarText(const json &v, std::string &text)
{
    if (v.is_string())
        text = v.get<std::string>();
    else if (v.is_number_integer())
        text = v.dump();
    else
        return false;
    return true;
}

// argv words joined as a shell would quote them, or a command line as is.
bool commandText(const json &v, std::string &text)
{
    if (v.is_string()) {
        text = v.get<std::string>();
        return true;
    }
    if (!v.is_array() || v.empty())
        return false;
    std::vector<std::string> words;
    for (const json &w : v) {
        if (!w.is_string())
            return false;
        words.push_back(w.get<std::string>());
    }
    text = joinWords(words);
    return true;
}

// One key of "settings" into `variant`; "" or what is wrong with it.
std::string readSetting(const SettingKind &kind, const json &v, Variant &variant)
{
    std::string text;
    if (kind.onePerName) {
        if (!v.is_object())
            return "expected an object of NAME: VALUE";
        for (const auto &[name, value] : v.items()) {
            if (!scalarText(value, text))
                return fmt::format("{}: expected a string or a whole number", name);
            variant.settings.push_back({kind.key, name + "=" + text});
        }
        return {};
    }
    if (kind.takesRest ? !commandText(v, text) : !scalarText(v, text))
        return kind.takesRest ? "expected a command line or an array of its words"
                              : "expected a string or a whole number";
    variant.settings.push_back({kind.key, text});
    return {};
}

bool readSettings(const json &settings, const std::string &where, Variant &variant,
                  std::string &error)
{
    if (!settings.is_object()) {
        error = fmt::format("{}.settings: expected an object", where);
        return false;
    }
    for (const auto &[key, value] : settings.items())
        if (!findSettingKind(key)) {
            error = fmt::format("{}.settings: unknown setting \"{}\": use one of {}", where, key,
                                settingKeys());
            return false;
        }
    // In the table's order, whatever the file's.
    for (const SettingKind &kind : settingKinds()) {
        const auto it = settings.find(kind.key);
        if (it == settings.end())
            continue;
        if (std::string why = readSetting(kind, *it, variant); !why.empty()) {
            error = fmt::format("{}.settings.{}: {}", where, kind.key, why);
            return false;
        }
    }
    return true;
}

} // namespace

bool variantFromJson(const json &node, const std::string &where, Variant &variant,
                     std::string &error)
{
    variant = {};
    if (!node.is_object()) {
        error = fmt::format("{}: expected an object with \"name\" and \"settings\"", where);
        return false;
    }
    for (const auto &[key, value] : node.items())
        if (key != "name" && key != "settings") {
            error = fmt::format("{}: unknown field \"{}\" (a variant has name and settings)", where,
                                key);
            return false;
        }
    const auto name = node.find("name");
    if (name == node.end() || !name->is_string()) {
        error = fmt::format("{}.name: expected a string", where);
        return false;
    }
    variant.name = name->get<std::string>();
    if (const auto settings = node.find("settings");
        settings != node.end() && !readSettings(*settings, where, variant, error))
        return false;
    if (std::string why = checkVariant(variant); !why.empty()) {
        error = fmt::format("{}: variant {}: {}", where, variant.name, why);
        return false;
    }
    return true;
}

bool variantsFromJson(const json &array, const std::string &where, std::vector<Variant> &variants,
                      std::string &error)
{
    variants.clear();
    if (!array.is_array()) {
        error = fmt::format("{}: expected an array of variants", where);
        return false;
    }
    for (size_t i = 0; i < array.size(); ++i) {
        Variant v;
        if (!variantFromJson(array[i], fmt::format("{}[{}]", where, i), v, error))
            return false;
        variants.push_back(std::move(v));
    }
    return true;
}

json variantToJson(const Variant &variant)
{
    json settings = json::object();
    for (const Setting &s : variant.settings) {
        const SettingKind *kind = findSettingKind(s.key);
        if (kind && kind->onePerName) {
            const size_t eq = s.value.find('=');
            settings[s.key][s.value.substr(0, eq)] = s.value.substr(eq + 1);
        } else {
            settings[s.key] = s.value;
        }
    }
    return {{"name", variant.name}, {"settings", settings}};
}

} // namespace latprobe
