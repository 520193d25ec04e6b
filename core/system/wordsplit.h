#pragma once

#include <string>
#include <vector>

namespace latprobe {

// Splits a command line into argv words the way a shell would quote them
// ('single', "double", backslash), without expanding anything: a custom
// load runs its program directly, never through a shell.
bool splitWords(const std::string &text, std::vector<std::string> &words, std::string &error);
std::string joinWords(const std::vector<std::string> &words);

} // namespace latprobe
