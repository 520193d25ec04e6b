#include "interrupt.h"

#include <csignal>
#include <mutex>
#include <pthread.h>
#include <thread>

namespace latprobe {

namespace {
volatile std::sig_atomic_t g_signal = 0;

void onSignal(int sig)
{
    g_signal = sig;
}
} // namespace

void installInterruptHandlers()
{
    struct sigaction sa
    {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGHUP, &sa, nullptr);
}

bool interruptRequested()
{
    return g_signal != 0;
}

int interruptSignal()
{
    return g_signal;
}

void setCaptureHandler(std::function<void()> handler)
{
    // A thread waits for SIGUSR1 with sigwait, so the handler may do
    // anything; the signal must be blocked in every thread, so this is
    // called before the measuring threads start.
    static std::function<void()> s_handler;
    s_handler = std::move(handler);
    static std::once_flag once;
    std::call_once(once, [] {
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, SIGUSR1);
        pthread_sigmask(SIG_BLOCK, &set, nullptr);
        std::thread([set] {
            int sig = 0;
            while (sigwait(&set, &sig) == 0)
                if (s_handler)
                    s_handler();
        }).detach();
    });
}

} // namespace latprobe
