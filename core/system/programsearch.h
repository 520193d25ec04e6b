#pragma once

#include <string>

namespace latprobe {

// The full path of an executable: `name` itself if it holds a '/', else the
// first match in the colon-separated `searchPath` (an empty entry is the
// current directory, as a shell takes it). "" if none.
std::string findExecutable(const std::string &name, const std::string &searchPath);
// The same in $PATH (a usual default where it is unset).
std::string findExecutable(const std::string &name);
// $PATH, or that default.
std::string programSearchPath();

} // namespace latprobe
