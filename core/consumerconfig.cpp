#include "consumerconfig.h"

namespace latprobe {

const char *toString(WorkMode mode)
{
    return mode == WorkMode::Loops ? "loops (calibrated)" : "cpu-time";
}

} // namespace latprobe
