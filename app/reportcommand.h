#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace latprobe {

struct ReportOptions
{
    std::string file;
    std::string format = "text";
    bool state = false;
};

struct CompareOptions
{
    std::vector<std::string> files;
    std::string format = "text";
};

CLI::App *addReportCommand(CLI::App &app, ReportOptions &options);
CLI::App *addCompareCommand(CLI::App &app, CompareOptions &options);
int executeReport(const ReportOptions &options);
int executeCompare(const CompareOptions &options);

} // namespace latprobe
