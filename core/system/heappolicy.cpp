#include "heappolicy.h"

#include <malloc.h>

namespace latprobe {

void returnLargeBlocksToTheSystem()
{
    // Setting the threshold at all is what stops glibc moving it (and the
    // trim threshold with it); 128 KiB is its own default starting point.
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
}

} // namespace latprobe
