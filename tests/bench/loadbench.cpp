// Start and stop-all times for N massive_intr workers, beside the anchor:
// N plain spinning processes killed with `pkill -KILL`, in one invocation.
//
//   loadbench [--rounds R] [--counts 100,400,800] [--settle-ms 1000]
//             [--give-up-ms 60000]
//
// Prints, per count, the median over the rounds of: latprobe start,
// latprobe stop-all, pkill stop, and the ratio stop-all / pkill.
// --give-up-ms 0 skips the pkill anchor (for quick work on start and stop).
#include "loadmanager.h"
#include "loadspec.h"
#include "realclock.h"
#include "selfexe.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace latprobe;

namespace {

double ms(int64_t ns)
{
    return static_cast<double>(ns) / 1e6;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// Time from `pkill -KILL -x lp-spinner` to the last spinner reaped, or
// `giveUpMs` if that takes longer (pkill itself starves behind hundreds of
// spinners: the seeds' "killall takes 10 seconds"); then the rest is killed
// directly so the next round starts clean.
double pkillRound(int count, int settleMs, int giveUpMs)
{
    // Spinners hold on a pipe until all exist: spinning at once, they
    // starved this process's fork loop (800 took minutes to start).
    int go[2];
    if (pipe(go) != 0)
        return 0;
    std::vector<pid_t> pids;
    for (int i = 0; i < count; ++i) {
        const pid_t pid = fork();
        if (pid == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            prctl(PR_SET_NAME, "lp-spinner");
            setpgid(0, pids.empty() ? 0 : pids.front());
            close(go[1]);
            char c;
            while (read(go[0], &c, 1) < 0) {
            }
            for (;;)
                asm volatile("" ::: "memory");
        }
        if (pid > 0) {
            setpgid(pid, pids.empty() ? pid : pids.front()); // either side may win the race
            pids.push_back(pid);
        }
    }
    close(go[0]);
    close(go[1]);
    std::this_thread::sleep_for(std::chrono::milliseconds(settleMs));
    const int64_t t0 = RealClock::monotonicNow();
    const pid_t pkill = fork();
    if (pkill == 0) {
        execlp("pkill", "pkill", "-KILL", "-x", "lp-spinner", static_cast<char *>(nullptr));
        _exit(127);
    }
    const int64_t deadline = t0 + int64_t(giveUpMs) * 1'000'000;
    size_t reaped = 0;
    while (reaped < pids.size() && RealClock::monotonicNow() < deadline) {
        const pid_t pid = waitpid(-1, nullptr, WNOHANG);
        if (pid > 0 && pid != pkill)
            ++reaped;
        else if (pid <= 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    const double took = ms(RealClock::monotonicNow() - t0);
    // One kill(2) for all: this process gets one turn in `count`, and a
    // kill per spinner took minutes to clean up after a short give-up.
    if (!pids.empty())
        kill(-pids.front(), SIGKILL);
    while (waitpid(-1, nullptr, 0) > 0) {
    }
    return reaped < pids.size() ? giveUpMs : took;
}

} // namespace

int main(int argc, char **argv)
{
    setvbuf(stdout, nullptr, _IOLBF, 0); // each row as it is measured, even into a pipe
    int rounds = 3, settleMs = 1000, giveUpMs = 60000;
    std::vector<int> counts = {100, 400, 800};
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string opt = argv[i];
        if (opt == "--rounds")
            rounds = std::atoi(argv[i + 1]);
        else if (opt == "--settle-ms")
            settleMs = std::atoi(argv[i + 1]);
        else if (opt == "--give-up-ms")
            giveUpMs = std::atoi(argv[i + 1]);
        else if (opt == "--counts") {
            counts.clear();
            for (char *tok = std::strtok(argv[i + 1], ","); tok; tok = std::strtok(nullptr, ","))
                counts.push_back(std::atoi(tok));
        } else {
            std::fprintf(stderr, "usage: loadbench [--rounds R] [--counts 100,400,800] "
                                 "[--settle-ms MS] [--give-up-ms MS]\n");
            return 2;
        }
    }
    // Leaders and workers are latprobe re-executed: use the one built beside
    // this benchmark unless LATPROBE_BINARY names another.
    if (!std::getenv("LATPROBE_BINARY")) {
        const std::string self = selfExecutable();
        const std::string built = self.substr(0, self.rfind('/')) + "/../../app/latprobe";
        if (access(built.c_str(), X_OK) != 0) {
            std::fprintf(stderr,
                         "loadbench: %s not found: build latprobe, or set "
                         "LATPROBE_BINARY to a latprobe binary\n",
                         built.c_str());
            return 2;
        }
        setenv("LATPROBE_BINARY", built.c_str(), 1);
    }
    if (system("command -v pkill >/dev/null") != 0) {
        std::fprintf(stderr, "loadbench: pkill not found: apt install procps\n");
        return 2;
    }
    std::printf("loadbench: latprobe %s, %ld CPUs, %d rounds, workers spin %d ms before stop\n",
                latprobeBinary().c_str(), sysconf(_SC_NPROCESSORS_ONLN), rounds, settleMs);
    std::printf("%7s %12s %14s %12s %10s\n", "workers", "start ms", "stop-all ms", "pkill ms",
                "stop/pkill");
    LoadManager loads(LoadLimits{}, latprobeBinary());
    for (int count : counts) {
        std::vector<double> starts, stops, pkills;
        for (int r = 0; r < rounds; ++r) {
            LoadSpec spec;
            std::string error;
            parseLoadSpec("massive_intr:" + std::to_string(count), spec, error);
            int64_t t0 = RealClock::monotonicNow();
            if (loads.start(spec, error) < 0) {
                std::fprintf(stderr, "loadbench: %s\n", error.c_str());
                return 1;
            }
            starts.push_back(ms(RealClock::monotonicNow() - t0));
            std::this_thread::sleep_for(std::chrono::milliseconds(settleMs));
            t0 = RealClock::monotonicNow();
            loads.stopAll();
            stops.push_back(ms(RealClock::monotonicNow() - t0));
            pkills.push_back(giveUpMs > 0 ? pkillRound(count, settleMs, giveUpMs) : 0);
            std::fprintf(stderr,
                         "  %d workers, round %d: start %.1f ms, stop-all %.1f ms, "
                         "pkill %s%.1f ms\n",
                         count, r + 1, starts.back(), stops.back(),
                         giveUpMs > 0 && pkills.back() >= giveUpMs ? ">" : "", pkills.back());
        }
        const double stop = median(stops), pkill = median(pkills);
        std::printf("%7d %12.1f %14.1f %12.1f %10.2f\n", count, median(starts), stop, pkill,
                    pkill > 0 ? stop / pkill : 0);
        std::fflush(stdout);
    }
    return 0;
}
