#include "run.h"

namespace latprobe {

const char *toString(RunEnd end)
{
    switch (end) {
    case RunEnd::Completed:
        return "completed";
    case RunEnd::Threshold:
        return "stopped at threshold";
    case RunEnd::Interrupted:
        return "interrupted";
    case RunEnd::LoadFailed:
        return "load failed";
    }
    return "?";
}

} // namespace latprobe
