#include "probe.h"

#include "gameloop.h"
#include "periodicloop.h"
#include "realclock.h"
#include "selfexe.h"
#include "startloop.h"
#include "taskslice.h"
#include "timekeeper.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <system_error>
#include <thread>

#include <pthread.h>
#include <unistd.h>

namespace latprobe {

Probe::Probe(std::vector<ConsumerConfig> consumers, ThreadParams params)
    : m_configs(std::make_shared<const std::vector<ConsumerConfig>>(std::move(consumers))),
      m_params(std::move(params)), m_consumers(m_configs->size()), m_helperBinary(latprobeBinary())
{}

std::vector<ConsumerSetup> Probe::setups() const
{
    // Each consumer's thread writes its setup, then counts itself ready;
    // start() gives the go once all have. Before the go (an autosave due
    // while the probe starts), only the configs are known.
    const bool given = m_go.load();
    std::vector<ConsumerSetup> out;
    for (size_t i = 0; i < m_consumers.size(); ++i) {
        out.push_back(given ? m_consumers[i].setup : ConsumerSetup{});
        out.back().config = (*m_configs)[i];
    }
    return out;
}

Probe::~Probe()
{
    stop();
}

void Probe::start()
{
    if (m_running)
        return;
    m_stop = false;
    for (Consumer &c : m_consumers) {
        c.halt = false;
        c.measured = true;
        c.periodStarts = 0;
    }
    m_ready = 0;
    m_go = false;
    int threads = 0;
    for (size_t i = 0; i < m_configs->size(); ++i)
        if ((*m_configs)[i].kind != ConsumerKind::External) {
            m_threads.emplace_back(&Probe::consumerMain, this, i);
            ++threads;
        }
    while (m_ready.load() < threads)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));

    int64_t runStart = RealClock::monotonicNow() + kSettleNs;
    if (m_secondOffsetNs >= 0)
        runStart = nextSecondPlus(runStart, m_secondOffsetNs);
    m_collector = std::make_unique<Collector>(m_configs, runStart);
    m_go = true;
    m_go.notify_all();
    m_drainThread = std::thread([this] {
        pthread_setname_np(pthread_self(), "lp-collector");
        std::unique_lock lock(m_drainMutex);
        while (!m_stop.load()) {
            m_collector->drain();
            // Woken early by stop(), which should not wait a whole interval.
            m_drainWake.wait_for(lock, std::chrono::nanoseconds(m_drainIntervalNs),
                                 [this] { return m_stop.load(); });
        }
    });
    m_running = true;
}

int64_t Probe::nextSecondPlus(int64_t earliest, int64_t offsetNs)
{
    constexpr int64_t second = 1'000'000'000;
    const int64_t candidate = earliest / second * second + offsetNs;
    return candidate >= earliest ? candidate : candidate + second;
}

std::string Probe::threadName(const ConsumerConfig &config)
{
    return ("lp-" + config.name).substr(0, 15); // the kernel's comm holds 15
}

void Probe::consumerMain(size_t index)
{
    const ConsumerConfig &config = (*m_configs)[index];
    pthread_setname_np(pthread_self(), ("lp-ctl-" + config.name).substr(0, 15).c_str());
    Consumer &self = m_consumers[index];
    ConsumerSetup &setup = self.setup;
    // The measuring threads this one starts inherit what it is granted:
    // policy, priority, nice, CPUs and timer slack.
    setup.grant = applyThreadParams(m_params);
    RealClock clock(config.workMode);
    clock.setAbortFlag(&m_stop);
    const bool loops = config.workMode == WorkMode::Loops && config.workNs > 0;
    if (loops)
        setup.loopSpeed = clock.calibrate();
    // interbench's wake path: its timekeeper runs before the go, so that the
    // run records what it was granted.
    RealClock timekeeperClock(WorkMode::CpuTime);
    timekeeperClock.setAbortFlag(&m_stop);
    std::optional<Timekeeper> timekeeper;
    if (config.kind == ConsumerKind::Periodic && config.wake == WakeMethod::Timekeeper) {
        timekeeper.emplace(timekeeperClock, clock, m_params);
        setup.timekeeperGrant = timekeeper->grant();
    }
    ++m_ready;
    m_go.wait(false);
    if (m_stop.load())
        return;
    std::optional<SelfStarter> starter;
    std::optional<StartLoop> startLoop;
    std::optional<GameLoop> gameLoop;
    std::optional<PeriodicLoop> periodicLoop;
    const MissMarker marker(m_traceMarker, config.name);
    if (config.kind == ConsumerKind::ProcessStart) {
        starter.emplace(m_helperBinary);
        startLoop.emplace(config, clock, *starter, m_collector->ring(index));
        startLoop->markMisses(&marker);
    } else if (config.kind == ConsumerKind::Continuous) {
        gameLoop.emplace(config, clock, m_collector->ring(index));
        gameLoop->setRunEndFlag(&m_stop);
    } else {
        periodicLoop.emplace(config, clock, m_collector->ring(index),
                             timekeeper ? &*timekeeper : nullptr);
        periodicLoop->markMisses(&marker);
    }
    std::atomic<bool> &halt = self.halt;
    // Each stretch on a thread of its own, as interbench forks a process for
    // each benchmark: Gaming against Burn x2 on a 2-vCPU VM (Linux 6.18)
    // got 61-64 % of a CPU when its thread slept through the loads' start
    // and woke to measure, 65-68 % on a thread made after they started, as
    // interbench's own gets (tests/bench/README.md).
    for (bool first = true; !m_stop.load(); first = false) {
        measureOnFreshThread(index, [&] {
            const int64_t start = first ? m_collector->runStart() : RealClock::monotonicNow();
            ++self.periodStarts;
            if (startLoop)
                startLoop->run(start, halt);
            else if (gameLoop)
                gameLoop->run(start, halt);
            else
                periodicLoop->run(start, halt);
            clock.settleWork();
        });
        if (!awaitMeasured(index))
            break;
    }
    // stop() copies them into the setup once this thread is joined: a
    // snapshot may be reading the setups until then.
    if (loops) {
        self.workLoopSpeed = clock.workedLoopSpeed();
        self.endLoopSpeed = RealClock::measureLoopSpeed();
    }
}

void Probe::measureOnFreshThread(size_t index, const std::function<void()> &stretch)
{
    const std::string name = threadName((*m_configs)[index]);
    std::atomic<int> &tid = m_consumers[index].measuringTid;
    const auto measuring = [&] {
        pthread_setname_np(pthread_self(), name.c_str());
        tid = static_cast<int>(gettid());
        // Checked before the run (knobcheck.h): the kernel takes it.
        if (const uint64_t ns = m_sliceNs.load(); ns > 0) {
            std::string error;
            setTaskSlice(0, ns, error);
        }
        stretch();
        tid = 0;
    };
    try {
        std::thread(measuring).join();
    } catch (const std::system_error &) {
        char own[16] = {};
        pthread_getname_np(pthread_self(), own, sizeof own);
        measuring();
        pthread_setname_np(pthread_self(), own);
    }
}

void Probe::stop()
{
    if (!m_running && m_threads.empty())
        return;
    {
        std::lock_guard lock(m_drainMutex);
        m_stop = true;
    }
    for (Consumer &c : m_consumers)
        c.halt = true;
    m_drainWake.notify_all();
    m_go = true;
    m_go.notify_all();
    for (std::thread &t : m_threads)
        t.join();
    m_threads.clear();
    for (Consumer &c : m_consumers)
        if (c.endLoopSpeed.measured()) {
            c.setup.workLoopSpeed = c.workLoopSpeed;
            c.setup.endLoopSpeed = c.endLoopSpeed;
        }
    if (m_drainThread.joinable())
        m_drainThread.join();
    if (m_collector)
        m_collector->finish(RealClock::monotonicNow());
    m_running = false;
}

bool Probe::awaitMeasured(size_t index)
{
    // A poll, as rare as a pause is long: nothing waits on a paused thread.
    Consumer &c = m_consumers[index];
    while (!m_stop.load()) {
        const uint32_t pauses = c.pauses.load();
        if (c.measured.load()) {
            c.halt = false;
            // A pause between the two looks set the halt this store may have
            // undone: look again.
            if (c.pauses.load() == pauses)
                return true;
            continue;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

void Probe::pause(size_t index)
{
    // In this order: awaitMeasured() sees the count change before the halt.
    Consumer &c = m_consumers[index];
    c.measured = false;
    ++c.pauses;
    c.halt = true;
}

void Probe::measureOnly(const std::vector<std::string> &consumers)
{
    if (m_stop.load())
        return; // stop() has halted every loop for good
    for (size_t i = 0; i < m_configs->size(); ++i) {
        if (consumers.empty() ||
            std::find(consumers.begin(), consumers.end(), (*m_configs)[i].name) != consumers.end())
            m_consumers[i].measured = true;
        else if (m_consumers[i].measured.load())
            pause(i);
    }
}

void Probe::pauseAll()
{
    if (m_stop.load())
        return;
    for (size_t i = 0; i < m_consumers.size(); ++i)
        pause(i);
}

} // namespace latprobe
