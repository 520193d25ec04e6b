#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace latprobe {

// A file saved so that a crash, kill -9 or power cut leaves the old file or
// the new one, never half of one: `text` goes to a temp file beside `path`,
// "<name>.latprobe-<pid>-XXXXXX", which is fsync'd, made 0644 and renamed
// over `path`; then the directory is fsync'd. Before it writes, it removes
// the temp files that killed saves to `path` left. False, with `error`
// naming `path` and saying why, when the file could not be saved; no temp
// file is left then.
bool saveFileAtomically(const std::string &path, const std::string &text, std::string &error);

// The same for a text too large to hold whole: `produce` hands it over in
// pieces to the writer it is given, which passes them on to the file through
// a small buffer.
using TextWriter = std::function<void(std::string_view)>;
bool saveFileAtomically(const std::string &path,
                        const std::function<void(const TextWriter &)> &produce, std::string &error);

// Removes the temp files of saves to `path` whose process is gone; returns
// how many.
int removeStaleSaveTemps(const std::string &path);

} // namespace latprobe
