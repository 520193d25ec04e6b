// Compiled as C: tracefs.h first, then tracefsapi.h, whose declarations the
// compiler thereby checks against the library's own.
#include <tracefs.h>

#include "tracefsapi.h"

int latprobe_tracefs_overwrite(struct tracefs_instance *instance)
{
    return tracefs_option_enable(instance, TRACEFS_OPTION_OVERWRITE);
}
