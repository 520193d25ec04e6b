#include "missexplanation.h"

namespace latprobe {

const char *toString(DelayShare::Kind kind)
{
    switch (kind) {
    case DelayShare::Kind::Task:
        return "task";
    case DelayShare::Kind::Irq:
        return "irq";
    case DelayShare::Kind::Softirq:
        return "softirq";
    case DelayShare::Kind::Idle:
        return "idle";
    }
    return "task";
}

} // namespace latprobe
