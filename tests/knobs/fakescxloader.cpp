// A stand-in for scx_loader's D-Bus service in the knobs tests, built on
// the same sd-bus as latprobe's side: it owns org.scx.Loader on the bus
// DBUS_SYSTEM_BUS_ADDRESS names (a test's private one, where it also runs
// started on demand), serves SwitchSchedulerWithArgs and StopScheduler as
// the real service does (answering at once), and plays the kernel in a
// fake sysfs and kernel log as fakebin/scx_fake does: a switch writes
// root/ops (the name without scx_, with the version suffix of scx 1.0.16
// on, or the OPS given), state "enabled", and enable_seq one up a moment
// later; a stop state "disabled", no ops and the kernel's "disabled" line.
// A file "fail" in the sysfs makes the scheduler fail and the service
// start it again, as scx_loader does up to 5 times. Each call it served
// is a line of CALL_LOG. It ends with its bus, or on SIGTERM.
//
//   fake_scx_loader SCHED_EXT_DIR KERNEL_LOG CALL_LOG SUPPORTED[=OPS]...

#include <systemd/sd-bus.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Loader
{
    std::string schedExtDir;
    std::string kernelLog;
    std::string callLog;
    std::vector<std::string> supported; // "scx_fake" or "scx_fake=OPS"
    std::string ops;                    // the one in force, or ""
    Clock::time_point countAt{};        // when the kernel counts its enable
    bool counting = false;
};

// Written whole, as sysfs shows a file.
void writeFile(const std::string &path, const std::string &text)
{
    std::ofstream(path + ".new", std::ios::trunc) << text;
    std::rename((path + ".new").c_str(), path.c_str());
}

std::string readFile(const std::string &path)
{
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), {}};
}

// A record as /dev/kmsg gives it, numbered after the ones there.
void logKernel(const Loader &loader, const std::string &text)
{
    const std::string before = readFile(loader.kernelLog);
    size_t lines = 0;
    for (char c : before)
        lines += c == '\n';
    std::ofstream(loader.kernelLog, std::ios::app) << "6," << lines + 1 << ",0,-;" << text << "\n";
}

void enable(Loader &loader)
{
    writeFile(loader.schedExtDir + "/root/ops", loader.ops + "\n");
    writeFile(loader.schedExtDir + "/state", "enabled\n");
    logKernel(loader, "sched_ext: BPF scheduler \"" + loader.ops + "\" enabled");
    loader.countAt = Clock::now() + std::chrono::milliseconds(100);
    loader.counting = true;
}

void disable(Loader &loader, const std::string &reason)
{
    writeFile(loader.schedExtDir + "/state", "disabling\n");
    logKernel(loader, "sched_ext: BPF scheduler \"" + loader.ops + "\" disabled (" + reason + ")");
    writeFile(loader.schedExtDir + "/root/ops", "");
    writeFile(loader.schedExtDir + "/state", "disabled\n");
    loader.ops.clear();
}

// What the kernel and the service do on their own, between calls.
void tick(Loader &loader)
{
    if (loader.counting && Clock::now() >= loader.countAt) {
        const std::string path = loader.schedExtDir + "/enable_seq";
        writeFile(path, std::to_string(std::atol(readFile(path).c_str()) + 1) + "\n");
        loader.counting = false;
    }
    const std::string fail = loader.schedExtDir + "/fail";
    if (!loader.ops.empty() && access(fail.c_str(), F_OK) == 0) {
        unlink(fail.c_str());
        const std::string ops = loader.ops;
        disable(loader, "runtime error");
        loader.ops = ops;
        enable(loader);
    }
}

void logCall(const Loader &loader, const std::string &line)
{
    std::ofstream(loader.callLog, std::ios::app) << line << "\n";
}

int onSwitch(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
    Loader &loader = *static_cast<Loader *>(userdata);
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
    std::string ops;
    for (const std::string &s : loader.supported)
        if (s.substr(0, s.find('=')) == name)
            ops = s.find('=') != std::string::npos
                      ? s.substr(s.find('=') + 1)
                      : std::string(name).substr(4) + "_1.0.16_g0123abcd_x86_64_unknown_linux_gnu";
    if (ops.empty()) // as zbus refuses a name outside its enum
        return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS, "%s is not supported", name);
    logCall(loader, line);
    if (!loader.ops.empty())
        disable(loader, "unregistered from user space");
    loader.ops = ops;
    enable(loader);
    return sd_bus_reply_method_return(m, "");
}

int onStop(sd_bus_message *m, void *userdata, sd_bus_error *)
{
    Loader &loader = *static_cast<Loader *>(userdata);
    logCall(loader, "StopScheduler");
    if (!loader.ops.empty())
        disable(loader, "unregistered from user space");
    return sd_bus_reply_method_return(m, "");
}

int supportedSchedulers(sd_bus *, const char *, const char *, const char *, sd_bus_message *reply,
                        void *userdata, sd_bus_error *)
{
    const Loader &loader = *static_cast<Loader *>(userdata);
    std::vector<std::string> names;
    std::vector<char *> strv;
    strv.reserve(loader.supported.size() + 1);
    for (const std::string &s : loader.supported)
        names.push_back(s.substr(0, s.find('=')));
    for (std::string &name : names)
        strv.push_back(name.data());
    strv.push_back(nullptr);
    return sd_bus_message_append_strv(reply, strv.data());
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
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s SCHED_EXT_DIR KERNEL_LOG CALL_LOG SUPPORTED[=OPS]...\n",
                     argv[0]);
        return 2;
    }
    Loader loader{argv[1], argv[2], argv[3], {argv + 4, argv + argc}, {}, {}, false};
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
        tick(loader);
        if (sd_bus_wait(bus, 20'000) < 0)
            break;
    }
    sd_bus_flush_close_unref(bus);
    return 0;
}
