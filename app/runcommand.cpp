#include "runcommand.h"

#include "consumertable.h"
#include "interrupt.h"
#include "realclock.h"
#include "rootwarning.h"
#include "runconclusion.h"
#include "runfile.h"
#include "runoptionscli.h"
#include "scenario.h"
#include "session.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <cstdio>
#include <optional>
#include <unistd.h>

namespace latprobe {

CLI::App *addRunCommand(CLI::App &app, RunOptions &o)
{
    CLI::App *run = app.add_subcommand("run", "Measure headless and print a report");
    addRunOptions(*run, o, RunFrontEnd::Headless);
    return run;
}

namespace {

// A line on stderr, rewritten once a second while a terminal watches.
class ProgressLine : public SessionObserver
{
public:
    explicit ProgressLine(bool enabled) : m_enabled(enabled) {}
    void attach(const RunView &session) { m_session = &session; }
    void scenarioProgressed(const ScenarioProgress &p) override
    {
        const int64_t now = RealClock::monotonicNow();
        if (!m_enabled || !m_session || now - m_last < 1'000'000'000)
            return;
        m_last = now;
        const std::string round =
            p.rounds > 1 ? fmt::format(" r{}/{}{}", p.round, p.untilDecided ? "<=" : "", p.rounds)
                         : std::string();
        // "round 3/6 · variant off (autogroup=0)" leads while variants take turns.
        // Until decided: "round 6/<=12 (7 of 9 rows decided, next look after round 6)".
        const std::string rounds = p.untilDecided
                                       ? fmt::format("{}/<={} ({})", p.round, p.rounds, p.decision)
                                       : fmt::format("{}/{}", p.round, p.rounds);
        const std::string variant = p.variant.empty()
                                        ? std::string()
                                        : fmt::format("round {} · variant {}{} ", rounds, p.variant,
                                                      p.settling ? ", settling" : "");
        fmt::print(stderr, "\r{}[{}/{}{} {} {:.0f}/{:.0f} s, {:.0f} s left]{}\033[K", variant,
                   p.step + 1, p.steps, round, p.stepName.substr(0, 24), p.stepElapsedS, p.stepS,
                   p.leftS, counters());
        m_shown = true;
    }
    void clear() const
    {
        if (m_shown)
            fmt::print(stderr, "\r\033[K");
    }

private:
    std::string counters() const
    {
        std::string line;
        for (const ConsumerStats &c : m_session->openPhase(RealClock::monotonicNow()).consumers) {
            if (c.hasDeadline)
                line +=
                    fmt::format("  {} {} {}", c.name, c.misses, consumerTraits(c.name).missName);
            else if (c.hasCpuTarget)
                line += fmt::format("  {} cpu {:.1f} %", c.name, c.desiredCpuPct);
            else
                line += fmt::format("  {} p99 {:.3f} ms", c.name, c.p99Us / 1000.0);
        }
        return line;
    }

    bool m_enabled;
    const RunView *m_session = nullptr;
    int64_t m_last = 0;
    bool m_shown = false;
};

} // namespace

int executeRun(const RunOptions &o, const std::vector<std::string> &commandLine)
{
    RunPlan plan;
    std::string error;
    if (!resolveRunPlan(o, RunFrontEnd::Headless, plan, error) ||
        !(error = checkRunEnvironment(o)).empty()) {
        fmt::print(stderr, "latprobe run: {}\n", error);
        return 2;
    }
    if (const char *warning = rootWarning())
        spdlog::warn("{}", warning);
    if (!o.out.empty())
        removeStaleSaveTemps(o.out); // what a killed save to the same file left

    installInterruptHandlers();
    // Before any thread starts (the session's own among them), so that they
    // all inherit SIGUSR1 blocked.
    static std::atomic<Session *> active{nullptr};
    setCaptureHandler([] {
        if (Session *s = active.load())
            s->requestCapture();
    });
    SessionOptions options = sessionOptions(plan, o, RunFrontEnd::Headless, commandLine);
    options.interrupted = interruptRequested;
    ProgressLine progress(!o.noProgress && isatty(STDERR_FILENO));
    Session session(std::move(options), &progress);
    progress.attach(session);
    active = &session;
    struct Detach
    {
        ~Detach() { active = nullptr; }
    } detach;

    if (!o.noLibrary)
        session.keepInLibrary(RunLibrary());
    session.start();
    for (const ConsumerSetup &s : session.setups())
        if (!s.grant.refusal.empty()) {
            spdlog::warn("{}: {}", s.config.name, s.grant.refusal);
            break;
        }
    spdlog::info("{}", describePlay(plan.scenario));
    if (std::string refusal = session.playScenario(plan.scenario, {true, true}); !refusal.empty()) {
        fmt::print(stderr, "latprobe run: {}\n", refusal);
        session.discardKept(); // nothing was measured of what was asked
        return 2;
    }
    const RunEnd end = session.waitForScenario();
    progress.clear();
    return concludeRun(session, end, o.out, "latprobe run");
}

} // namespace latprobe
