#include "taskthread.h"

#include <pthread.h>

namespace latprobe {

TaskThread::TaskThread(std::string name) : m_name(std::move(name))
{
    m_thread = std::thread(&TaskThread::main, this);
}

TaskThread::~TaskThread()
{
    {
        std::lock_guard lock(m_mutex);
        m_quit = true;
        m_tasks.clear();
    }
    m_wake.notify_all();
    m_thread.join();
}

void TaskThread::post(std::function<void()> task)
{
    {
        std::lock_guard lock(m_mutex);
        m_tasks.push_back(std::move(task));
    }
    m_wake.notify_one();
}

void TaskThread::clear()
{
    std::lock_guard lock(m_mutex);
    m_tasks.clear();
    if (!m_busy)
        m_idle.notify_all();
}

void TaskThread::waitIdle()
{
    std::unique_lock lock(m_mutex);
    m_idle.wait(lock, [this] { return m_tasks.empty() && !m_busy; });
}

void TaskThread::main()
{
    pthread_setname_np(pthread_self(), m_name.substr(0, 15).c_str());
    std::unique_lock lock(m_mutex);
    while (true) {
        m_wake.wait(lock, [this] { return m_quit || !m_tasks.empty(); });
        if (m_quit)
            break;
        std::function<void()> task = std::move(m_tasks.front());
        m_tasks.pop_front();
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
