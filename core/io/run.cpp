#include "run.h"

#include "enumnames.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace latprobe {

namespace {
constexpr EnumName<RunEnd> kRunEnds[] = {
    {RunEnd::Completed, "completed"},          {RunEnd::Threshold, "stopped at threshold"},
    {RunEnd::Interrupted, "interrupted"},      {RunEnd::LoadFailed, "load failed"},
    {RunEnd::SettingFailed, "setting failed"},
};
} // namespace

const char *toString(RunEnd end)
{
    return enumName(kRunEnds, end);
}

std::string VariantRecord::describe() const
{
    return fmt::format("{} ({})", name,
                       settings.empty() ? std::string("as the system is")
                                        : fmt::format("{}", fmt::join(settings, ", ")));
}

std::string traceFilePath(const Run &run, const MissExplanation &x)
{
    if (x.traceFile.empty() || x.traceFile.front() == '/' || run.folder.empty())
        return x.traceFile;
    return run.folder + "/" + x.traceFile;
}

} // namespace latprobe
