#pragma once

namespace latprobe {

// The guardian: the latprobe binary re-executed with argv[1] ==
// kKnobGuardianFlag, in a session of its own (Ctrl-C at the terminal and
// the terminal's hangup are latprobe's, not its), talking to latprobe over
// a socket on kGuardianFd (guardianprotocol.h). It makes every
// system-wide change of a run for latprobe, journalled first (ChangeSet),
// holds the run's locks, and runs the schedulers as its children. When
// latprobe ends without saying "finish" (kill -9, a crash, an error), the
// socket's end of file tells it, whichever thread of latprobe was running:
// it puts everything back, stops the scheduler, runs the undo commands,
// removes the cgroup and the journal, and ends. SIGTERM does the same.
inline constexpr const char *kKnobGuardianFlag = "--knob-guardian";
inline constexpr const char *kKnobGuardianName = "latprobe:guardian"; // its argv[0]
inline constexpr int kGuardianFd = 3;

int runKnobGuardian(int argc, char **argv);

} // namespace latprobe
