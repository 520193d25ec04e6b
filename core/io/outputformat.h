#pragma once

#include "compare.h"
#include "run.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace latprobe {

// A way to print a run or a comparison: one row per format. `latprobe
// report` and `latprobe compare` offer, check and dispatch --format from
// these rows, and tst_loaddocs holds the man page and the completion to
// them, so a format is added here and in its own writer, nowhere else.
template <typename Value> struct OutputFormat
{
    std::string_view name;
    std::string_view help; // a few words for --help: "md (Markdown tables)"
    std::string (*write)(const Value &value);
};

using RunFormat = OutputFormat<Run>;
using ComparisonFormat = OutputFormat<Comparison>;

// The first row is the default.
std::span<const RunFormat> runFormats();
std::span<const ComparisonFormat> comparisonFormats();

template <typename Value>
const OutputFormat<Value> *findFormat(std::span<const OutputFormat<Value>> formats,
                                      std::string_view name)
{
    for (const OutputFormat<Value> &f : formats)
        if (f.name == name)
            return &f;
    return nullptr;
}

template <typename Value>
std::vector<std::string> formatNames(std::span<const OutputFormat<Value>> formats)
{
    std::vector<std::string> names;
    for (const OutputFormat<Value> &f : formats)
        names.emplace_back(f.name);
    return names;
}

// "text (72 columns, default), md, csv or json": the option's help.
template <typename Value> std::string formatHelp(std::span<const OutputFormat<Value>> formats)
{
    std::string help;
    for (size_t i = 0; i < formats.size(); ++i) {
        if (i > 0)
            help += i + 1 == formats.size() ? " or " : ", ";
        help += formats[i].help;
    }
    return help;
}

} // namespace latprobe
