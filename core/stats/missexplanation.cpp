#include "missexplanation.h"

#include "enumnames.h"

namespace latprobe {

namespace {
constexpr EnumName<DelayShare::Kind> kDelayKinds[] = {
    {DelayShare::Kind::Task, "task"},
    {DelayShare::Kind::Irq, "irq"},
    {DelayShare::Kind::Softirq, "softirq"},
    {DelayShare::Kind::Idle, "idle"},
};
} // namespace

const char *toString(DelayShare::Kind kind)
{
    return enumName(kDelayKinds, kind, "task");
}

std::optional<DelayShare::Kind> delayKindFromName(std::string_view name)
{
    return enumFromName(kDelayKinds, name);
}

} // namespace latprobe
