#pragma once

#include <string>
#include <vector>

namespace latprobe {

// scx_loader's D-Bus service: org.scx.Loader, object /org/scx/Loader, on
// the system bus (DBUS_SYSTEM_BUS_ADDRESS names another). Where it runs, a
// variant's scheduler is switched to and stopped through it rather than
// started beside it, as the desktop's own switcher (scxctl) does: the
// service would otherwise start its default scheduler over ours. Its
// methods return once asked, not once the scheduler is in force; its
// names carry the scx_ prefix ("scx_lavd"), and it starts only the
// schedulers it lists in SupportedSchedulers.
inline constexpr const char *kScxLoaderService = "org.scx.Loader";

// Whether the service runs on the system bus, or D-Bus would start it on
// demand, and lists `scheduler`.
bool scxLoaderOffers(const std::string &scheduler);
// SwitchSchedulerWithArgs(scheduler, args). False with a one-line error.
bool scxLoaderSwitch(const std::string &scheduler, const std::vector<std::string> &args,
                     std::string &error);
// StopScheduler(). False with a one-line error.
bool scxLoaderStop(std::string &error);
// The shell line that stops it by hand.
std::string scxLoaderStopCommand();

} // namespace latprobe
