#pragma once

#include <cstddef>
#include <string>

namespace latprobe {

// The files latprobe reads are parsed whole into a JSON tree several times
// their size, so each reader states the largest file it takes and refuses a
// bigger one before reading it, instead of exhausting memory.
inline constexpr size_t kMaxRunFileBytes = 64u << 20;     // run files, cyclictest JSON
inline constexpr size_t kMaxScenarioFileBytes = 1u << 20; // scenario files

// The whole of `path` in `text`, or false with `error` saying why ("cannot
// open (No such file or directory)", "is 80 MiB, more than the 64 MiB ...").
bool readTextFile(const std::string &path, size_t maxBytes, std::string &text, std::string &error);

} // namespace latprobe
