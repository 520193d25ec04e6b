#include "interrupt.h"

#include <csignal>

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

} // namespace latprobe
