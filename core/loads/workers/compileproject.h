#pragma once

#include <string>

namespace latprobe {

// File number `file` of the generated C project the compile load builds:
// the same prelude, then `funcs` functions of ordinary C whose constants
// differ per file and function, so that no two compile alike.
std::string compileProjectFile(int file, int funcs);

} // namespace latprobe
