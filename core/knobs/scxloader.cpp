#include "scxloader.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <functional>
#include <memory>
#include <string_view>
#include <systemd/sd-bus.h>

namespace latprobe {

namespace {

constexpr const char *kObjectPath = "/org/scx/Loader";
constexpr const char *kInterface = "org.scx.Loader";
// The service answers at once and starts the scheduler afterwards; a bus
// that takes this long is not one to wait for.
constexpr uint64_t kCallTimeoutUs = 10'000'000;

struct BusUnref
{
    void operator()(sd_bus *bus) const { sd_bus_flush_close_unref(bus); }
};
using Bus = std::unique_ptr<sd_bus, BusUnref>;

struct MessageUnref
{
    void operator()(sd_bus_message *m) const { sd_bus_message_unref(m); }
};
using Message = std::unique_ptr<sd_bus_message, MessageUnref>;

// An sd_bus_error freed on every path.
struct BusError
{
    // All null, as SD_BUS_ERROR_NULL is: a C compound literal, which
    // -Wpedantic refuses in C++.
    sd_bus_error error{};
    BusError() = default;
    BusError(const BusError &) = delete;
    BusError &operator=(const BusError &) = delete;
    ~BusError() { sd_bus_error_free(&error); }
    std::string describe(int rc) const
    {
        return error.message ? error.message : std::strerror(-rc);
    }
};

Bus systemBus(std::string &error)
{
    sd_bus *bus = nullptr;
    if (const int rc = sd_bus_open_system(&bus); rc < 0) {
        error = fmt::format("cannot reach the system bus: {}", std::strerror(-rc));
        return nullptr;
    }
    return Bus(bus);
}

// Whether the strv sd-bus gave holds `wanted`; frees it.
bool takeListing(char **names, std::string_view wanted)
{
    bool listed = false;
    for (char **name = names; name && *name; ++name) {
        listed = listed || wanted == *name;
        std::free(*name);
    }
    std::free(names);
    return listed;
}

bool serviceRuns(sd_bus *bus)
{
    BusError e;
    sd_bus_message *reply = nullptr;
    const int rc = sd_bus_call_method(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                      "org.freedesktop.DBus", "NameHasOwner", &e.error, &reply, "s",
                                      kScxLoaderService);
    const Message owned(reply);
    int has = 0;
    return rc >= 0 && sd_bus_message_read(reply, "b", &has) >= 0 && has;
}

// Installed for the bus to start on the first call (its
// org.scx.Loader.service), though not running yet.
bool serviceActivatable(sd_bus *bus)
{
    BusError e;
    sd_bus_message *reply = nullptr;
    const int rc =
        sd_bus_call_method(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                           "org.freedesktop.DBus", "ListActivatableNames", &e.error, &reply, "");
    const Message owned(reply);
    char **names = nullptr;
    return rc >= 0 && sd_bus_message_read_strv(reply, &names) >= 0 &&
           takeListing(names, kScxLoaderService);
}

// A call of the service's with no reply to read. False with `error`.
bool call(const char *method, const std::string &what, std::string &error,
          const std::function<int(sd_bus_message *)> &append)
{
    const Bus bus = systemBus(error);
    if (!bus)
        return false;
    sd_bus_message *request = nullptr;
    int rc = sd_bus_message_new_method_call(bus.get(), &request, kScxLoaderService, kObjectPath,
                                            kInterface, method);
    const Message ownedRequest(request);
    if (rc >= 0)
        rc = append(request);
    BusError e;
    sd_bus_message *reply = nullptr;
    if (rc >= 0)
        rc = sd_bus_call(bus.get(), request, kCallTimeoutUs, &e.error, &reply);
    const Message ownedReply(reply);
    if (rc < 0) {
        error = fmt::format("scx_loader ({} {}) could not {}: {} (journalctl -u scx_loader "
                            "may say why)",
                            kScxLoaderService, method, what, e.describe(rc));
        return false;
    }
    return true;
}

} // namespace

bool scxLoaderOffers(const std::string &scheduler)
{
    std::string error;
    const Bus bus = systemBus(error);
    if (!bus || (!serviceRuns(bus.get()) && !serviceActivatable(bus.get())))
        return false;
    // Read from an activatable service, the property starts it.
    BusError e;
    char **names = nullptr;
    return sd_bus_get_property_strv(bus.get(), kScxLoaderService, kObjectPath, kInterface,
                                    "SupportedSchedulers", &e.error, &names) >= 0 &&
           takeListing(names, scheduler);
}

bool scxLoaderSwitch(const std::string &scheduler, const std::vector<std::string> &args,
                     std::string &error)
{
    std::vector<char *> strv;
    for (const std::string &arg : args)
        strv.push_back(const_cast<char *>(arg.c_str()));
    strv.push_back(nullptr);
    return call("SwitchSchedulerWithArgs", "switch to " + scheduler, error, [&](sd_bus_message *m) {
        const int rc = sd_bus_message_append(m, "s", scheduler.c_str());
        return rc < 0 ? rc : sd_bus_message_append_strv(m, strv.data());
    });
}

bool scxLoaderStop(std::string &error)
{
    return call("StopScheduler", "stop its scheduler", error, [](sd_bus_message *) { return 0; });
}

std::string scxLoaderStopCommand()
{
    return fmt::format("busctl call {} {} {} StopScheduler", kScxLoaderService, kObjectPath,
                       kInterface);
}

} // namespace latprobe
