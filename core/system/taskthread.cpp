#include "taskthread.h"

#include "realclock.h"

#include <chrono>
#include <future>
#include <memory>
#include <pthread.h>

namespace latprobe {

TaskThread::TaskThread(std::string name) : m_name(std::move(name))
{
    m_thread = std::thread(&TaskThread::main, this);
}

TaskThread::~TaskThread()
{
    stop();
}

void TaskThread::stop()
{
    {
        std::lock_guard lock(m_mutex);
        m_quit = true;
        m_tasks.clear();
        m_timed = nullptr;
    }
    m_wake.notify_all();
    if (m_thread.joinable() && !onThisThread())
        m_thread.join();
}

void TaskThread::post(std::function<void()> task)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_quit)
            return;
        m_tasks.push_back(std::move(task));
    }
    m_wake.notify_one();
}

void TaskThread::run(const std::function<void()> &task)
{
    if (onThisThread()) {
        task();
        return;
    }
    // The promise goes with the task: dropped unrun (stop(), clear()), it
    // breaks, and the wait below ends instead of hanging.
    auto done = std::make_shared<std::promise<void>>();
    std::future<void> ran = done->get_future();
    post([&task, done] {
        task();
        done->set_value();
    });
    ran.wait();
}

void TaskThread::runAt(int64_t at, std::function<void()> task)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_quit)
            return;
        m_timed = std::move(task);
        m_timedAt = at;
    }
    m_wake.notify_one();
}

void TaskThread::clear()
{
    std::lock_guard lock(m_mutex);
    m_tasks.clear();
    m_timed = nullptr;
    if (!m_busy)
        m_idle.notify_all();
}

void TaskThread::waitIdle()
{
    std::unique_lock lock(m_mutex);
    m_idle.wait(lock, [this] { return (m_tasks.empty() && !m_busy) || m_quit; });
}

void TaskThread::main()
{
    pthread_setname_np(pthread_self(), m_name.substr(0, 15).c_str());
    std::unique_lock lock(m_mutex);
    while (!m_quit) {
        std::function<void()> task;
        if (!m_tasks.empty()) {
            task = std::move(m_tasks.front());
            m_tasks.pop_front();
        } else if (m_timed && RealClock::monotonicNow() >= m_timedAt) {
            task = std::move(m_timed);
            m_timed = nullptr;
        } else {
            // A timed task given or moved from another thread meanwhile
            // wakes it too: asleep with none, it would wait for a post.
            const int64_t timedAt = m_timed ? m_timedAt : -1;
            const auto ready = [this, timedAt] {
                return m_quit || !m_tasks.empty() || (m_timed ? m_timedAt : -1) != timedAt;
            };
            if (m_timed)
                m_wake.wait_for(
                    lock, std::chrono::nanoseconds(m_timedAt - RealClock::monotonicNow()), ready);
            else
                m_wake.wait(lock, ready);
            continue;
        }
        m_busy = true;
        lock.unlock();
        task();
        lock.lock();
        m_busy = false;
        if (m_tasks.empty())
            m_idle.notify_all();
    }
    m_busy = false;
    m_idle.notify_all();
}

} // namespace latprobe
