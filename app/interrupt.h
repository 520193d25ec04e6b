#pragma once

#include <functional>

namespace latprobe {

// Ctrl-C and SIGTERM end a run early but cleanly: the first one asks the run
// to stop (loads gone, report printed, run file written); a second one
// kills the process the default way.
void installInterruptHandlers();
bool interruptRequested();
// SIGUSR1 calls `handler` from a watcher thread (not from the signal).
void setCaptureHandler(std::function<void()> handler);
int interruptSignal();

} // namespace latprobe
