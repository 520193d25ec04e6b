#pragma once

namespace latprobe {

// Makes every heap block of 128 KiB or more its own mapping, returned to
// the system when freed, in every thread. glibc otherwise raises that
// threshold to the largest block freed (up to 32 MiB) and then keeps up to
// twice as much free at the top of each thread's heap: a long run's
// autosave, which builds and frees megabytes every few seconds on a thread
// of its own, grew the process by several MiB an hour that way. Call it
// first thing in main(), before any thread starts.
void returnLargeBlocksToTheSystem();

} // namespace latprobe
