#pragma once

namespace latprobe {

// Ctrl-C and SIGTERM end a run early but cleanly: the first one asks the run
// to stop (loads gone, report printed, run file written); a second one
// kills the process the default way.
void installInterruptHandlers();
bool interruptRequested();
int interruptSignal();

} // namespace latprobe
