#include "commandline.h"

#include "knobguardian.h"
#include "loadleader.h"
#include "processstarter.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <string_view>

namespace latprobe {

bool runAsHelper(int argc, char **argv, int &status)
{
    if (argc > 1 && std::string_view(argv[1]) == kStartProbeFlag)
        status = runStartProbe();
    else if (argc > 1 && std::string_view(argv[1]) == kLoadLeaderFlag)
        status = runLoadLeader(argc, argv);
    else if (argc > 1 && std::string_view(argv[1]) == kKnobGuardianFlag)
        status = runKnobGuardian(argc, argv);
    else
        return false;
    return true;
}

void addVerbosityFlags(CLI::App &app, bool &verbose, bool &quiet)
{
    app.add_flag("-v,--verbose", verbose, "More diagnostics on stderr");
    app.add_flag("-q,--quiet", quiet, "Only errors on stderr");
}

int parseCommandLine(CLI::App &app, int argc, char **argv)
{
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion &e) {
        return app.exit(e);
    } catch (const CLI::ParseError &e) {
        return refuseArguments(app.get_name(), e.what());
    }
    return -1;
}

int refuseArguments(const std::string &program, const std::string &message)
{
    fmt::print(stderr, "{}: {}; see '{} --help'\n", program, message, program);
    return 2;
}

void setUpLogging(const std::string &program, bool verbose, bool quiet)
{
    auto logger = spdlog::stderr_color_mt(program);
    logger->set_pattern(program + ": %^%l%$: %v");
    logger->set_level(verbose ? spdlog::level::debug
                      : quiet ? spdlog::level::err
                              : spdlog::level::info);
    spdlog::set_default_logger(logger);
}

} // namespace latprobe
