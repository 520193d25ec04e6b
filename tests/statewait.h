#pragma once

// How long a test waits for a state (a process to appear, a worker to
// count, a program to end) before it calls the state never reached. Only a
// broken program waits that long: a passing test goes on as soon as the
// state holds. So the bound is generous, minutes, for a machine saturated by
// a load running beside the tests (1000 busy workers on 2 CPUs), where a
// start or a /proc scan can take many seconds. Never sleep a guessed time
// and then check: wait for the state (QTRY_VERIFY_WITH_TIMEOUT and the like)
// with this bound.
inline constexpr int kStateWaitMs = 120'000;
