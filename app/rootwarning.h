#pragma once

#include <unistd.h>

namespace latprobe {

// latprobe needs root only for the flight recorder's tracefs, which can be
// granted otherwise: every consumer and load kind runs unprivileged (README,
// "Privileges"), and as root its files and loads belong to root.
// Said once per command by the process the user started; load leaders and
// start probes (latprobe re-executed) never get this far.
inline const char *rootWarning()
{
    return geteuid() == 0 ? "running as root, which latprobe needs only for its flight recorder: "
                            "run it as your own user (README \"Privileges\" tells how to allow "
                            "real-time policies and tracefs)"
                          : nullptr;
}

} // namespace latprobe
