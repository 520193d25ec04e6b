// A stand-in for scx_loader's D-Bus service in the knobs tests, built on
// the same sd-bus as latprobe's side: it owns org.scx.Loader on the bus
// DBUS_SYSTEM_BUS_ADDRESS names (a test's private one), serves
// SwitchSchedulerWithArgs and StopScheduler as the real service does
// (answering at once), and plays the kernel in a fake sysfs as
// fakebin/scx_fake does: a switch writes root/ops (the name without scx_)
// and state "enabled", a stop state "disabled" and no ops. Each call it
// served is a line of CALL_LOG. It ends with its bus, or on SIGTERM.
//
//   fake_scx_loader SCHED_EXT_DIR CALL_LOG SUPPORTED...

#include <systemd/sd-bus.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

struct Loader
{
    std::string schedExtDir;
    std::string callLog;
    std::vector<std::string> supported;
};

void writeFile(const std::string &path, const std::string &text)
{
    std::ofstream(path, std::ios::trunc) << text;
}

void logCall(const Loader &loader, const std::string &line)
{
    std::ofstream(loader.callLog, std::ios::app) << line << "\n";
}

int onSwitch(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
    const Loader &loader = *static_cast<Loader *>(userdata);
    const char *name = nullptr;
    char **args = nullptr;
    if (const int rc = sd_bus_message_read(m, "s", &name); rc < 0)
        return rc;
    if (const int rc = sd_bus_message_read_strv(m, &args); rc < 0)
        return rc;
    std::string line = std::string("SwitchSchedulerWithArgs ") + name;
    for (char **arg = args; arg && *arg; ++arg) {
        line += std::string(" ") + *arg;
        std::free(*arg);
    }
    std::free(args);
    bool listed = false;
    for (const std::string &s : loader.supported)
        listed = listed || s == name;
    if (!listed) // as zbus refuses a name outside its enum
        return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS, "%s is not supported", name);
    logCall(loader, line);
    std::string ops = name;
    if (ops.rfind("scx_", 0) == 0)
        ops = ops.substr(4);
    writeFile(loader.schedExtDir + "/root/ops", ops + "\n");
    writeFile(loader.schedExtDir + "/state", "enabled\n");
    return sd_bus_reply_method_return(m, "");
}

int onStop(sd_bus_message *m, void *userdata, sd_bus_error *)
{
    const Loader &loader = *static_cast<Loader *>(userdata);
    logCall(loader, "StopScheduler");
    writeFile(loader.schedExtDir + "/state", "disabled\n");
    writeFile(loader.schedExtDir + "/root/ops", "");
    return sd_bus_reply_method_return(m, "");
}

int supportedSchedulers(sd_bus *, const char *, const char *, const char *, sd_bus_message *reply,
                        void *userdata, sd_bus_error *)
{
    const Loader &loader = *static_cast<Loader *>(userdata);
    std::vector<char *> names;
    for (const std::string &s : loader.supported)
        names.push_back(const_cast<char *>(s.c_str()));
    names.push_back(nullptr);
    return sd_bus_message_append_strv(reply, names.data());
}

const sd_bus_vtable kLoaderVtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_PROPERTY("SupportedSchedulers", "as", supportedSchedulers, 0,
                    SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_METHOD("SwitchSchedulerWithArgs", "sas", "", onSwitch, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("StopScheduler", "", "", onStop, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_VTABLE_END,
};

} // namespace

int main(int argc, char **argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s SCHED_EXT_DIR CALL_LOG SUPPORTED...\n", argv[0]);
        return 2;
    }
    Loader loader{argv[1], argv[2], {argv + 3, argv + argc}};
    sd_bus *bus = nullptr;
    int rc = sd_bus_open_system(&bus);
    if (rc >= 0)
        rc = sd_bus_add_object_vtable(bus, nullptr, "/org/scx/Loader", "org.scx.Loader",
                                      kLoaderVtable, &loader);
    if (rc >= 0)
        rc = sd_bus_request_name(bus, "org.scx.Loader", 0);
    if (rc < 0) {
        std::fprintf(stderr, "fake_scx_loader: cannot serve org.scx.Loader: %d\n", rc);
        sd_bus_flush_close_unref(bus);
        return 1;
    }
    std::printf("ready\n");
    std::fflush(stdout);
    for (;;) {
        rc = sd_bus_process(bus, nullptr);
        if (rc < 0)
            break;
        if (rc > 0)
            continue;
        if (sd_bus_wait(bus, UINT64_MAX) < 0)
            break;
    }
    sd_bus_flush_close_unref(bus);
    return 0;
}
