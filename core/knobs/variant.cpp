#include "variant.h"

#include "settingkind.h"

#include <fmt/format.h>
#include <set>

namespace latprobe {

namespace {

bool isRestKey(const std::string &key)
{
    const SettingKind *kind = findSettingKind(key);
    return kind && kind->takesRest;
}

// Where a rest-of-text value ends: at ",KEY=" of the next setting that
// takes the rest (cmd=...,undo=...), else at the end.
size_t restValueEnd(const std::string &text, size_t from)
{
    for (size_t comma = text.find(',', from); comma != std::string::npos;
         comma = text.find(',', comma + 1)) {
        const size_t eq = text.find('=', comma);
        if (eq != std::string::npos && isRestKey(text.substr(comma + 1, eq - comma - 1)))
            return comma;
    }
    return std::string::npos;
}

// The settings after the colon, each checked alone.
bool parseSettings(const std::string &rest, Variant &variant, std::string &error)
{
    size_t pos = 0;
    while (pos < rest.size()) {
        const size_t eq = rest.find('=', pos);
        const size_t comma = rest.find(',', pos);
        if (eq == std::string::npos || (comma != std::string::npos && comma < eq)) {
            const std::string item =
                rest.substr(pos, comma == std::string::npos ? comma : comma - pos);
            error = item.empty() ? "an empty setting (a comma too many?)"
                                 : fmt::format("\"{}\" is not key=value", item);
            return false;
        }
        const std::string key = rest.substr(pos, eq - pos);
        const SettingKind *kind = findSettingKind(key);
        if (!kind) {
            error = fmt::format("unknown setting \"{}\": use one of {}", key, settingKeys());
            return false;
        }
        const size_t end = kind->takesRest ? restValueEnd(rest, eq + 1) : rest.find(',', eq + 1);
        const size_t stop = end == std::string::npos ? rest.size() : end;
        variant.settings.push_back({key, rest.substr(eq + 1, stop - eq - 1)});
        if (end != std::string::npos && end + 1 == rest.size()) {
            error = "an empty setting at the end (a comma too many?)";
            return false;
        }
        pos = end == std::string::npos ? rest.size() : end + 1;
    }
    return true;
}

std::string checkName(const std::string &name)
{
    if (name.empty())
        return "a variant needs a name before the colon, e.g. base: or off:autogroup=0";
    const bool word =
        name.size() <= kMaxVariantName &&
        name.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                               "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") == std::string::npos;
    return word ? ""
                : fmt::format("the name \"{}\" must be letters, digits, '-', '_' or '.', at "
                              "most {} of them",
                              name, kMaxVariantName);
}

// A setting given twice, or a cmd=/undo= without its other half.
std::string checkRepeats(const Variant &variant)
{
    std::set<std::string> seen;
    for (const Setting &s : variant.settings) {
        const SettingKind *kind = findSettingKind(s.key);
        const std::string what =
            kind->onePerName ? s.key + " " + s.value.substr(0, s.value.find('=')) : s.key;
        if (!seen.insert(what).second)
            return fmt::format("{} is given twice", what);
    }
    if (seen.count("cmd") && !seen.count("undo"))
        return "cmd= needs undo=PROGRAM ARGS, the command that puts back what it changed, "
               "written after it: cmd=...,undo=...";
    if (seen.count("undo") && !seen.count("cmd"))
        return "undo= goes with cmd=: give the command it undoes first";
    return {};
}

} // namespace

const Setting *Variant::find(const std::string &key) const
{
    for (const Setting &s : settings)
        if (s.key == key)
            return &s;
    return nullptr;
}

std::string Variant::toString() const
{
    std::string out = name + ":";
    bool first = true;
    for (bool rest : {false, true})
        for (const SettingKind &kind : settingKinds())
            for (const Setting &s : settings)
                if (s.key == kind.key && kind.takesRest == rest) {
                    out += (first ? "" : ",") + s.text();
                    first = false;
                }
    return out;
}

std::string Variant::describe() const
{
    const std::string settingsText = toString().substr(name.size() + 1);
    return fmt::format("{} ({})", name, settings.empty() ? "as the system is" : settingsText);
}

bool parseVariant(const std::string &text, Variant &variant, std::string &error)
{
    variant = {};
    const size_t colon = text.find(':');
    std::string why;
    if (colon == std::string::npos)
        why = "write NAME:SETTING[,SETTING...], e.g. off:autogroup=0, or NAME: for the system "
              "as it is";
    else {
        variant.name = text.substr(0, colon);
        if (parseSettings(text.substr(colon + 1), variant, why))
            why = checkVariant(variant);
    }
    if (why.empty())
        return true;
    error = fmt::format("variant \"{}\": {}", text, why);
    return false;
}

std::string checkVariant(const Variant &variant)
{
    if (std::string why = checkName(variant.name); !why.empty())
        return why;
    for (const Setting &s : variant.settings) {
        const SettingKind *kind = findSettingKind(s.key);
        if (!kind)
            return fmt::format("unknown setting \"{}\": use one of {}", s.key, settingKeys());
        if (std::string why = kind->check(s.value); !why.empty())
            return why;
    }
    return checkRepeats(variant);
}

PerRunSettings perRunSettings(const Variant &variant)
{
    PerRunSettings out;
    if (const Setting *s = variant.find("slice_us"))
        out.sliceNs = std::stoull(s->value) * 1000;
    if (const Setting *s = variant.find("load_nice"))
        out.loadNice = std::stoi(s->value);
    if (const Setting *s = variant.find("load_policy")) {
        SchedPolicy policy = SchedPolicy::Other;
        if (parsePolicy(s->value, policy))
            out.loadPolicy = policy;
    }
    return out;
}

} // namespace latprobe
