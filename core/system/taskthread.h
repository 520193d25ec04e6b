#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace latprobe {

// One thread running posted tasks in order: slow work (forking hundreds of
// workers, 200 ms of /proc sampling) off the caller's thread, never two at
// once. Idle, it sleeps on a condition variable and takes no wakeups but
// the one timed task it may hold (a session's tick, a scenario step's end).
// The same thread lives as long as its owner: PR_SET_PDEATHSIG fires when
// the *thread* that forked a child exits, so load groups are forked here.
class TaskThread
{
public:
    explicit TaskThread(std::string name);
    ~TaskThread(); // as stop()
    TaskThread(const TaskThread &) = delete;
    TaskThread &operator=(const TaskThread &) = delete;

    void post(std::function<void()> task);
    // Runs `task` on this thread and returns once it has run; from this
    // thread itself, runs it at once.
    void run(const std::function<void()> &task);
    // Runs `task` once CLOCK_MONOTONIC reaches `at` (ns), after the tasks
    // posted by then; a later call replaces a timed task not yet run.
    void runAt(int64_t at, std::function<void()> task);
    // Drops the tasks not yet begun, the timed one included.
    void clear();
    // Returns once the queue is empty and no task runs (a timed task that
    // is not due yet does not count).
    void waitIdle();
    // Drops what is queued, lets the running task finish and joins; what is
    // posted afterwards never runs. Idempotent.
    void stop();
    bool onThisThread() const { return std::this_thread::get_id() == m_thread.get_id(); }

private:
    void main();

    std::string m_name;
    std::mutex m_mutex;
    std::condition_variable m_wake, m_idle;
    std::deque<std::function<void()>> m_tasks;
    std::function<void()> m_timed;
    int64_t m_timedAt = 0;
    bool m_busy = false;
    bool m_quit = false;
    std::thread m_thread;
};

} // namespace latprobe
