// libFuzzer target for the run-file reader (`latprobe report`, `compare`):
// any input reads or throws RunFileError, and what reads must write and
// read back. Another exception escaping counts as a crash.
#include "runfile.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string text(reinterpret_cast<const char *>(data), size);
    latprobe::Run run;
    try {
        run = latprobe::runFromJson(text, "fuzz.json");
    } catch (const latprobe::RunFileError &) {
        return 0;
    }
    try {
        latprobe::runFromJson(latprobe::runToJson(run), "written.json");
    } catch (const latprobe::RunFileError &e) {
        std::fprintf(stderr, "a run that was read cannot be read back: %s\n", e.what());
        std::abort();
    }
    return 0;
}
