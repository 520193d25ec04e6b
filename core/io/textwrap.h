#pragma once

#include <cstddef>
#include <string>

namespace latprobe {

// `text` broken at spaces into lines of at most `width` columns, each
// ending in '\n'; lines after the first start with the text's own leading
// spaces and `indent`. A word longer
// than a line is cut, so nothing ever runs past `width`: a mailing list's
// 72 columns are a promise, and a cut verdict would hide what it said.
std::string wrapText(const std::string &text, size_t width, const std::string &indent = "    ");

// `label` then `command` (a path, or a command line to copy), on one line
// when it fits in `width`; else the label's line, then the command whole on
// a line of its own after the label's leading spaces and `indent`, however
// long: a command cut inside a word would fail when pasted.
std::string commandLine(const std::string &label, const std::string &command, size_t width,
                        const std::string &indent = "    ");

} // namespace latprobe
