#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace latprobe {

// One thread running posted tasks in order: slow work (forking hundreds of
// workers, 200 ms of /proc sampling) off the caller's thread, never two at
// once. Idle, it sleeps on a condition variable and takes no wakeups.
class TaskThread
{
public:
    explicit TaskThread(std::string name);
    ~TaskThread(); // drops what is queued, finishes what runs, joins
    TaskThread(const TaskThread &) = delete;
    TaskThread &operator=(const TaskThread &) = delete;

    void post(std::function<void()> task);
    // Drops the tasks not yet begun.
    void clear();
    // Returns once the queue is empty and no task runs.
    void waitIdle();

private:
    void main();

    std::string m_name;
    std::mutex m_mutex;
    std::condition_variable m_wake, m_idle;
    std::deque<std::function<void()>> m_tasks;
    bool m_busy = false;
    bool m_quit = false;
    std::thread m_thread;
};

} // namespace latprobe
