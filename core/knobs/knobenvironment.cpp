#include "knobenvironment.h"

#include "programsearch.h"
#include "taskslice.h"

#include <algorithm>
#include <cstdlib>
#include <unistd.h>

namespace latprobe {

KnobEnvironment KnobEnvironment::real()
{
    KnobEnvironment env;
    env.searchPath = programSearchPath();
    env.root = geteuid() == 0;
    env.stateDir = knobStateDir(env.root, std::getenv("XDG_RUNTIME_DIR"));
    env.sliceProbe = probeTaskSlice;
    return env;
}

std::string KnobEnvironment::sysctlFile(const std::string &name) const
{
    std::string relative = name;
    std::replace(relative.begin(), relative.end(), '.', '/');
    return procRoot + "/sys/" + relative;
}

std::string KnobEnvironment::autogroupFile() const
{
    return sysctlFile("kernel.sched_autogroup_enabled");
}

std::string KnobEnvironment::preemptFile() const
{
    return debugRoot + "/sched/preempt";
}

std::string KnobEnvironment::thpFile() const
{
    return sysRoot + "/kernel/mm/transparent_hugepage/enabled";
}

std::string KnobEnvironment::schedExtDir() const
{
    return sysRoot + "/kernel/sched_ext";
}

std::string knobStateDir(bool root, const char *xdgRuntimeDir)
{
    // /run is root's and cleared at boot, as a journal of this boot's
    // settings should be; a user's runtime dir is the same for one user.
    if (root)
        return "/run/latprobe";
    if (xdgRuntimeDir && *xdgRuntimeDir)
        return std::string(xdgRuntimeDir) + "/latprobe";
    return {};
}

} // namespace latprobe
