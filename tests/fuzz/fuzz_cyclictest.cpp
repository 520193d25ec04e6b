// libFuzzer target for the cyclictest JSON importer (`latprobe compare`
// with cyclictest's --json output): any input imports or throws
// RunFileError, and an imported run must be a valid run file. Another
// exception escaping counts as a crash.
#include "cyclictestimport.h"
#include "runfile.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string text(reinterpret_cast<const char *>(data), size);
    (void)latprobe::isCyclictestJson(text);
    latprobe::Run run;
    try {
        run = latprobe::importCyclictestJson(text, "fuzz.json");
    } catch (const latprobe::RunFileError &) {
        return 0;
    }
    try {
        latprobe::runFromJson(latprobe::runToJson(run), "imported.json");
    } catch (const latprobe::RunFileError &e) {
        std::fprintf(stderr, "an imported run is not a valid run file: %s\n", e.what());
        std::abort();
    }
    return 0;
}
