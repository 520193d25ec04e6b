#pragma once

#include "run.h"

#include <stdexcept>
#include <string>

namespace latprobe {

// The run file: JSON with a "file_version" of MAJOR.MINOR. A reader takes
// any minor version of its major and rejects the rest.
inline constexpr int kRunFileMajor = 1;
inline constexpr int kRunFileMinor = 1; // 1.1: per-consumer "failures"

// One line, naming the file and the field: "run.json: phases[0].name: ...".
class RunFileError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

std::string runToJson(const Run &run);
Run runFromJson(const std::string &text, const std::string &fileName);

// Written to a temp file beside `path`, fsync'd and renamed over it: a
// crash leaves the old file or the new one, never half of one. A temp file
// that a killed save left beside `path` is removed by the next save.
void writeRunFile(const Run &run, const std::string &path);
// Removes the temp files of saves to `path` whose process is gone; returns
// how many. `latprobe run --out` calls it before measuring, too.
int removeStaleSaveTemps(const std::string &path);
Run readRunFile(const std::string &path);

} // namespace latprobe
