#pragma once

#include "scenarioplayer.h"

#include <memory>
#include <string>
#include <vector>

namespace latprobe {

struct SessionParts;
class SystemVariants;

// What a scenario acts on in a real session (ScenarioPlayer's stage): the
// probe, the loads and the phases of SessionParts, and the system variants
// a scenario takes turns with. Its turns run on the session's control
// thread, as does everything here but guardVariants().
class SessionStage : public ScenarioStage
{
public:
    explicit SessionStage(SessionParts &parts);
    ~SessionStage() override;

    // Refuses `scenario`'s variants, or takes their settings' locks (their
    // guardian) into `out` before anything changes: "" or why not.
    std::string guardVariants(const Scenario &scenario, std::shared_ptr<SystemVariants> &out) const;
    // The scenario about to play takes turns with these (none: nullptr).
    void adopt(std::shared_ptr<SystemVariants> variants);
    // When the player asked to tick again (wakeAt()).
    int64_t stepEnd() const { return m_stepEnd; }

    int64_t now() override;
    int64_t runStart() const override;
    void endPhase(int64_t at) override;
    void discardPhase() override;
    void pauseConsumers() override;
    void stopLoads() override;
    std::string startLoad(const LoadSpec &spec) override;
    PhaseMark openPhase(const std::string &name, const std::vector<std::string> &loads, int64_t at,
                        const PhasePlace &place) override;
    void setTracing(bool on) override;
    std::string applyVariant(const Variant &variant) override;
    std::string variantTrouble() override;
    void leaveOut(int64_t from, int64_t to, const std::string &why) override;
    std::vector<PhaseResult> phases(int64_t now) override;
    void wakeAt(int64_t at) override { m_stepEnd = at; }
    bool interrupted() override;
    void progressed(const ScenarioProgress &progress) override;
    void stepBegun() override;
    void scenarioEnded(ScenarioOutcome &outcome, const Span &span) override;
    void scenarioFinished(const ScenarioOutcome &outcome) override;

private:
    // A scenario's own run: cut from the whole one.
    Run cutScenarioRun(const ScenarioOutcome &outcome, const Span &span) const;

    SessionParts &m_parts;
    std::shared_ptr<SystemVariants> m_variants; // while a scenario plays
    int64_t m_stepEnd = 0;
};

} // namespace latprobe
