#pragma once

#include "loadlimits.h"
#include "loadspec.h"
#include "phase.h"
#include "scenario.h"
#include "sessionobserver.h"
#include "stopjudge.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace latprobe {

struct ConsumerConfig;

// What a scenario acts on: the session's probe, loads and phases, or a
// test's fake with a clock of its own. Called on the thread that plays.
class ScenarioStage
{
public:
    virtual ~ScenarioStage() = default;
    virtual int64_t now() = 0;
    virtual int64_t runStart() const = 0;
    // Ends the open phase at `at`: until the next opens, nothing counts.
    virtual void endPhase(int64_t at) = 0;
    // Forgets the run's first phase: the first step takes its place.
    virtual void discardPhase() = 0;
    // Every consumer thread pauses until the next phase measures it.
    virtual void pauseConsumers() = 0;
    virtual void stopLoads() = 0;
    virtual std::string startLoad(const LoadSpec &spec) = 0; // "" or why not
    // Returns the phase as opened (its name may be numbered).
    virtual PhaseMark openPhase(const std::string &name, const std::vector<std::string> &loads,
                                int64_t at, const PhasePlace &place) = 0;
    // The flight recorder records or rests (ScenarioStep::trace).
    virtual void setTracing(bool on) = 0;
    // Puts `variant` in force for the turn to come (its system-wide settings,
    // and those latprobe applies to its threads and loads): "" or why not.
    virtual std::string applyVariant(const Variant &variant) = 0;
    // "" while the variant applied is still in force, else what happened
    // (its scheduler exited or was ejected): one clause, "scx_lavd exited
    // mid-round (state: disabled)".
    virtual std::string variantTrouble() = 0;
    // The phases begun from `from` to `to` are left out of the variants'
    // comparison, each saying `why` (a line that also goes to the user).
    virtual void leaveOut(int64_t from, int64_t to, const std::string &why) = 0;
    // The phases measured so far, the open one last, for a stop condition.
    virtual std::vector<PhaseResult> phases(int64_t now) = 0;
    // The player wants tick() again no later than `at`.
    virtual void wakeAt(int64_t at) = 0;
    virtual bool interrupted() = 0;
    virtual void progressed(const ScenarioProgress &progress) = 0;
    virtual void stepBegun() = 0;
    // The scenario ended; `outcome` is filled but for its own run, which the
    // stage cuts from `fromS` (since the run started) to `endedAt` when the
    // measurement goes on after it. Called before waiters hear of the end.
    struct Span
    {
        double askedS = 0; // when it was asked to play
        double fromS = 0;  // where its first phase begins
        int64_t endedAt = 0;
        std::string startTime;
        bool endsRun = false; // Play::endsRun: the run goes no further
    };
    virtual void scenarioEnded(ScenarioOutcome &outcome, const Span &span) = 0;
    // Once any thread can see that it ended.
    virtual void scenarioFinished(const ScenarioOutcome &outcome) = 0;
};

// Plays a scenario's steps and rounds on one thread (the session's control
// thread), and tells any thread how far it got. Each turn (a step of a
// round) stops the loads, starts the step's, opens its phase and ends when
// its time is up; a stop condition may end the scenario or play a step
// again (StopJudge). A variant no longer in force mid-turn (its scheduler
// exited) ends that turn at once and leaves its whole round out; the next
// turn of the variant applies it again (docs/scenarios.md, "Variants").
class ScenarioPlayer
{
public:
    struct Play
    {
        // Its first step is the run's first phase when nothing happened
        // before (`latprobe run`, a scenario given when the window opens).
        bool fromRunStart = false;
        // The run ends with it (`latprobe run`, the window's unattended
        // mode): no idle phase after it, and the run carries its name.
        bool endsRun = false;
    };

    explicit ScenarioPlayer(ScenarioStage &stage);
    ~ScenarioPlayer();
    ScenarioPlayer(const ScenarioPlayer &) = delete;
    ScenarioPlayer &operator=(const ScenarioPlayer &) = delete;

    // Any thread: "" when `scenario` is taken (begin() then plays it), or
    // one line saying why not. `untouched`: nothing was measured by hand
    // yet, so the first step may be the run's first phase.
    std::string accept(const Scenario &scenario, Play play, const LoadLimits &limits,
                       const std::vector<ConsumerConfig> &consumers, bool untouched);
    // Any thread: ends what plays, as interrupted, at its next tick.
    void cancel() { m_cancel = true; }
    bool active() const { return m_active; }
    std::string playingName() const; // "" when none plays
    std::string name() const;        // the one playing, else the last played
    ScenarioProgress progress() const;
    std::optional<ScenarioOutcome> lastOutcome() const;
    // Blocks until the scenario taken ends; returns how.
    RunEnd wait();

    // The playing thread.
    void begin();
    // At the stage's wakeups and ticks: the step's progress, its end.
    void tick(int64_t now);
    // Ends what plays with `end` (finish(), once the playing thread stopped).
    void endNow(RunEnd end);
    bool playing() const { return m_playing != nullptr; }

private:
    struct Playing;

    bool beginStep(int index, bool again = false);
    // With variants: switches to the round's `turn`-th and settles.
    void beginTurn(int turn);
    // The variant is not in force: the rest of its turn is skipped and its
    // round left out.
    void troubleInTurn(const std::string &trouble);
    void stepsEnded();
    // The step playing ends at `at`: its phase closes.
    void endStep(int64_t at);
    void turnEnded();
    // Rounds until decided, at a round's end: whether the variants'
    // comparison of the rounds so far decides every row it judges.
    bool lookDecides();
    // This scenario's phases so far, as a run the variants' comparison reads.
    Run runSoFar(int64_t now);
    // The round's phases are left out when something went wrong in it.
    void roundEnded(int64_t at);
    void endScenario(RunEnd end);
    ScenarioProgress progressAt(int64_t now) const;

    ScenarioStage &m_stage;
    std::shared_ptr<Playing> m_next;    // taken, not begun (under m_mutex)
    std::shared_ptr<Playing> m_playing; // the playing thread's
    std::atomic<bool> m_active{false};
    std::atomic<bool> m_cancel{false};
    mutable std::mutex m_mutex;
    std::condition_variable m_ended;
    std::string m_name; // what plays, for refusals
    ScenarioProgress m_progress;
    std::optional<ScenarioOutcome> m_outcome;
};

} // namespace latprobe
