#pragma once

#include "threadparams.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace latprobe {

// One setting of a variant, as written: key "autogroup", value "0". A
// sysctl's value is "NAME=VALUE"; a program's (cmd=, undo=, scx=) is its
// command line, argv split as a shell quotes, never run by a shell.
struct Setting
{
    std::string key, value;
    std::string text() const { return key + "=" + value; }
    bool operator==(const Setting &) const = default;
};

// A variant of the system that a run plays in turns with others: a name
// and what it changes. No settings: the system as it is.
struct Variant
{
    std::string name;
    std::vector<Setting> settings;

    const Setting *find(const std::string &key) const;
    // As --variant takes it: "off:autogroup=0", the rest-of-text settings
    // last ("lavd:scx=scx_lavd --performance").
    std::string toString() const;
    // For progress lines and headlines: "off (autogroup=0)", "base (as the
    // system is)".
    std::string describe() const;
    bool operator==(const Variant &) const = default;
};

// Parses --variant NAME:SETTING[,SETTING...]. Settings are key=value,
// separated by commas; scx=, cmd= and undo= take the rest of the text up
// to the next of them (",undo="), commas and all, so they come last:
// "gov:cmd=cpupower frequency-set -g performance,undo=cpupower
// frequency-set -g schedutil". False with a one-line error naming the
// variant, what is wrong and what to write.
bool parseVariant(const std::string &text, Variant &variant, std::string &error);

// What is wrong with a variant however it was made (text or JSON): its
// name, each setting's key and value, a setting given twice, cmd= without
// undo= or the reverse. "" when nothing; else one line without the
// variant's name (the caller says where it came from).
std::string checkVariant(const Variant &variant);

// What latprobe applies itself each turn, typed: to every measuring thread
// (the slice) and every load group (nice, policy, over each spec's own).
struct PerRunSettings
{
    std::optional<uint64_t> sliceNs;
    std::optional<int> loadNice;
    std::optional<SchedPolicy> loadPolicy;
};
PerRunSettings perRunSettings(const Variant &variant);

// Variant names are a word: letters, digits, '-', '_', '.'; at most this long.
inline constexpr size_t kMaxVariantName = 32;

} // namespace latprobe
