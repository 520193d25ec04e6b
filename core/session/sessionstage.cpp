#include "sessionstage.h"

#include "collector.h"
#include "knobcheck.h"
#include "loadmanager.h"
#include "probe.h"
#include "realclock.h"
#include "sessionparts.h"
#include "systemvariants.h"

#include <spdlog/spdlog.h>

namespace latprobe {

SessionStage::SessionStage(SessionParts &parts) : m_parts(parts) {}

SessionStage::~SessionStage() = default;

std::string SessionStage::guardVariants(const Scenario &scenario,
                                        std::shared_ptr<SystemVariants> &out) const
{
    if (scenario.variants.empty())
        return {};
    const KnobEnvironment env = m_parts.knobEnvironment();
    if (std::string refusal = refuseVariants(scenario.variants, env, m_parts.knobRun());
        !refusal.empty())
        return refusal;
    auto variants = std::make_shared<SystemVariants>(scenario.variants, env);
    if (std::string refusal = variants->start(); !refusal.empty())
        return refusal;
    out = std::move(variants);
    return {};
}

void SessionStage::adopt(std::shared_ptr<SystemVariants> variants)
{
    m_variants = std::move(variants);
}

int64_t SessionStage::now()
{
    return RealClock::monotonicNow();
}

int64_t SessionStage::runStart() const
{
    return m_parts.runStart();
}

void SessionStage::endPhase(int64_t at)
{
    m_parts.collector().endPhase(at);
}

void SessionStage::discardPhase()
{
    m_parts.collector().discardPhase();
}

void SessionStage::pauseConsumers()
{
    m_parts.probe->pauseAll();
}

void SessionStage::stopLoads()
{
    m_parts.stopEveryLoad();
}

std::string SessionStage::startLoad(const LoadSpec &spec)
{
    std::string error;
    m_parts.loads->start(m_variants ? m_variants->forLoads(spec) : spec, error);
    return error;
}

PhaseMark SessionStage::openPhase(const std::string &name, const std::vector<std::string> &loads,
                                  int64_t at, const PhasePlace &place)
{
    return m_parts.beginPhase(name, loads, at, place);
}

void SessionStage::setTracing(bool on)
{
    m_parts.evidence.setTracing(on);
}

std::string SessionStage::applyVariant(const Variant &variant)
{
    if (!m_variants)
        return "the variants' settings are not under latprobe's guard";
    std::string error = m_variants->apply(variant);
    m_parts.probe->setSlice(m_variants->sliceNs());
    if (error.empty())
        m_parts.record.addVariantSwitch(RealClock::monotonicNow(), variant.name);
    return error;
}

std::string SessionStage::variantTrouble()
{
    return m_variants ? m_variants->schedulerTrouble() : std::string();
}

void SessionStage::leaveOut(int64_t from, int64_t to, const std::string &why)
{
    const auto since = [this](int64_t at) { return static_cast<double>(at - runStart()) / 1e9; };
    m_parts.record.leaveOut(since(from), since(to), why);
    spdlog::warn("{}", why);
}

std::vector<PhaseResult> SessionStage::phases(int64_t now)
{
    return m_parts.collector().phases(now);
}

bool SessionStage::interrupted()
{
    return m_parts.options.interrupted && m_parts.options.interrupted();
}

void SessionStage::progressed(const ScenarioProgress &progress)
{
    if (m_parts.observer)
        m_parts.observer->scenarioProgressed(progress);
}

void SessionStage::stepBegun()
{
    if (m_parts.observer)
        m_parts.observer->loadsChanged();
}

void SessionStage::scenarioEnded(ScenarioOutcome &outcome, const Span &span)
{
    if (m_variants) {
        // Everything is put back before the run is cut or its file written.
        std::vector<std::string> failures;
        m_parts.record.setVariants(m_variants->finish(failures));
        for (const std::string &line : failures)
            spdlog::error("{}", line);
        m_variants.reset();
        m_parts.probe->setSlice(0);
    }
    if (span.endsRun)
        m_parts.record.setSpanningScenario(outcome);
    else
        outcome.run = cutScenarioRun(outcome, span);
}

void SessionStage::scenarioFinished(const ScenarioOutcome &outcome)
{
    if (m_parts.observer) {
        m_parts.observer->loadsChanged();
        m_parts.observer->scenarioFinished(outcome);
    }
}

Run SessionStage::cutScenarioRun(const ScenarioOutcome &outcome, const Span &span) const
{
    // From its first step's phase (which may be an empty one it renamed, or
    // the run's first) to its end; loads from the moment it was asked to play.
    Run run = cutRun(m_parts.buildRun(toString(outcome.end), false), span.fromS,
                     static_cast<double>(span.endedAt - runStart()) / 1e9, span.askedS);
    run.startTime = span.startTime;
    run.scenario = outcome.name;
    run.thresholdStep = outcome.thresholdStep;
    run.stopVerdict = outcome.stopVerdict;
    run.untilDecided = outcome.untilDecided;
    run.partial = isPartial(outcome.end);
    return run;
}

} // namespace latprobe
