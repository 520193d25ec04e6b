#include "run.h"

#include "enumnames.h"

namespace latprobe {

namespace {
constexpr EnumName<RunEnd> kRunEnds[] = {
    {RunEnd::Completed, "completed"},
    {RunEnd::Threshold, "stopped at threshold"},
    {RunEnd::Interrupted, "interrupted"},
    {RunEnd::LoadFailed, "load failed"},
};
} // namespace

const char *toString(RunEnd end)
{
    return enumName(kRunEnds, end);
}

} // namespace latprobe
