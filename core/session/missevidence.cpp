#include "missevidence.h"

#include "collector.h"
#include "statecapture.h"

#include <spdlog/spdlog.h>

namespace latprobe {

MissEvidence::MissEvidence(RunRecord &record, SessionObserver *observer)
    : m_record(record), m_observer(observer)
{}

void MissEvidence::openRecorder(const std::vector<int> &cpus)
{
    m_recorder = std::make_unique<DelayExplainer>(cpus);
    if (!m_recorder->on())
        spdlog::warn("{}", m_recorder->summary().message);
}

void MissEvidence::attach(Collector &collector, const std::vector<std::string> &threadNames,
                          size_t explainPerPhase, std::string preemption)
{
    m_collector = &collector;
    m_preemption = std::move(preemption);
    if (!recording())
        return;
    m_recorder->follow(threadNames);
    collector.setExplainPerPhase(explainPerPhase);
}

void MissEvidence::takeCaptureRequests(bool automatic)
{
    if (!m_collector)
        return;
    const std::vector<Collector::CaptureRequest> requests = m_collector->takeCaptureRequests();
    if (!automatic)
        return;
    for (const Collector::CaptureRequest &r : requests)
        capture("first miss of " + r.consumer, r.timeS, r.phase);
}

void MissEvidence::capture(const std::string &reason, double timeS, const std::string &phase)
{
    m_capturer.post([this, reason, timeS, phase] {
        StateCapture s = captureSystemState(reason);
        s.timeS = timeS;
        s.phase = phase;
        m_record.addState(std::move(s));
        if (m_observer)
            m_observer->stateCaptured(reason);
    });
}

void MissEvidence::takeExplainRequests(const std::function<Threads()> &threads)
{
    if (!m_collector)
        return;
    int64_t explainableFrom = INT64_MAX;
    std::vector<Collector::ExplainRequest> requests =
        m_collector->takeExplainRequests(&explainableFrom);
    if (!m_recorder || requests.empty())
        return;
    DelayExplainer::Context context = threads();
    context.explainableFrom = explainableFrom;
    // A process that ended since is still named: it may be in the trace.
    for (auto &[pid, label] : context.loadOfPid)
        m_loadOfPid[pid] = std::move(label);
    context.loadOfPid = m_loadOfPid;
    context.preemption = m_preemption;
    context.runStart = m_collector->runStart();
    m_recorder->explain(std::move(requests), std::move(context));
}

void MissEvidence::waitForExplanations()
{
    if (m_recorder)
        m_recorder->waitIdle();
}

void MissEvidence::setTracing(bool on)
{
    // Which misses are asked about is the phase's own (PhasePlace::traced),
    // so that no thread's timing decides it; this only spares the kernel the
    // tracing while a step does not want it.
    if (!recording() || on == m_tracing)
        return;
    m_tracing = on;
    m_recorder->setRecording(on);
}

std::vector<MissExplanation> MissEvidence::explanations() const
{
    if (!m_recorder)
        return {};
    std::vector<MissExplanation> out = m_recorder->explanations();
    if (m_collector)
        for (MissExplanation &x : out)
            if (std::string name = m_collector->phaseName(x.phaseIndex); !name.empty())
                x.phase = std::move(name);
    return out;
}

size_t MissEvidence::explainedCount() const
{
    return m_recorder ? m_recorder->explainedCount() : 0;
}

TraceSummary MissEvidence::traceSummary() const
{
    return m_recorder ? m_recorder->summary() : TraceSummary{};
}

bool MissEvidence::explainMore(size_t count)
{
    return recording() && m_collector && m_collector->explainMore(count);
}

} // namespace latprobe
