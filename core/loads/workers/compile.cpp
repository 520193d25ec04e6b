// A compile like contest's and interbench's: the system C compiler building
// a generated project of `files` C files, `-j N` (one compiler per worker),
// over and over. Counts files compiled.
#include "workerkinds.h"

#include "../loadspec.h"
#include "compileproject.h"
#include "wordsplit.h"
#include "workerutil.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace latprobe {

namespace {

std::string sourcePath(const std::string &tempDir, int file)
{
    return fmt::format("{}/src/f{:03}.c", tempDir, file);
}

// The compiler's argv: $CC split into words, else cc, gcc or clang.
bool findCompiler(std::vector<std::string> &argv, std::string &error)
{
    argv.clear();
    if (const char *cc = std::getenv("CC"); cc && *cc) {
        std::string splitError;
        if (!splitWords(cc, argv, splitError) || argv.empty()) {
            error = fmt::format("compile: CC=\"{}\" is not a command line: fix CC or unset it", cc);
            return false;
        }
        const std::string path = findExecutable(argv[0]);
        if (path.empty()) {
            error = fmt::format("compile: no C compiler found (tried $CC={}): fix CC, or unset it "
                                "to use cc, gcc or clang",
                                argv[0]);
            return false;
        }
        argv[0] = path;
        return true;
    }
    for (const char *name : {"cc", "gcc", "clang"})
        if (const std::string path = findExecutable(name); !path.empty()) {
            argv.push_back(path);
            return true;
        }
    error = "compile: no C compiler found (tried $CC, cc, gcc, clang): install one, e.g. apt "
            "install gcc";
    return false;
}

// The line of the compiler's messages that says what went wrong: the first
// "error" line, else the first line; at most 200 characters.
std::string errorLine(int fd)
{
    char buf[4096];
    const ssize_t n = pread(fd, buf, sizeof buf, 0);
    if (n <= 0)
        return {};
    const std::string text(buf, static_cast<size_t>(n));
    std::string first, line;
    for (size_t begin = 0; begin < text.size();) {
        const size_t end = std::min(text.find('\n', begin), text.size());
        line = text.substr(begin, end - begin);
        if (first.empty())
            first = line;
        if (line.find("error") != std::string::npos)
            break;
        line.clear();
        begin = end + 1;
    }
    if (line.empty())
        line = first;
    if (line.size() > 200) {
        line.resize(200);
        line += "...";
    }
    return line;
}

// Between the worker and the compiler: a subreaper that outlives the
// compiler's own children (cc1, as), which carry no death signal. When the
// worker dies it kills them all, so that no compiler outlives latprobe.
[[noreturn]] void compileRunner(pid_t worker, const std::vector<const char *> &argv, int errFd)
{
    // SIGTERM (the worker died) and SIGCHLD stay blocked and are taken with
    // sigwaitinfo: no window where one is lost.
    sigset_t wanted, none;
    sigemptyset(&wanted);
    sigaddset(&wanted, SIGTERM);
    sigaddset(&wanted, SIGCHLD);
    sigemptyset(&none);
    sigprocmask(SIG_BLOCK, &wanted, nullptr);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != worker)
        _exit(1);
    prctl(PR_SET_CHILD_SUBREAPER, 1);

    const pid_t runner = getpid();
    const pid_t cc = fork();
    if (cc == 0) {
        sigprocmask(SIG_SETMASK, &none, nullptr);
        if (!armWorkerChild(runner))
            _exit(1);
        const int null = open("/dev/null", O_RDWR);
        dup2(null, STDIN_FILENO);
        dup2(null, STDOUT_FILENO);
        dup2(errFd, STDERR_FILENO);
        execv(argv[0], const_cast<char *const *>(argv.data()));
        dprintf(STDERR_FILENO, "cannot run %s: %s\n", argv[0], std::strerror(errno));
        _exit(127);
    }
    if (cc < 0) {
        dprintf(errFd, "cannot start the compiler: %s (raise ulimit -u)\n", std::strerror(errno));
        _exit(126);
    }
    int rc = 126;
    for (;;) {
        for (;;) {
            int status = 0;
            const pid_t pid = waitpid(-1, &status, WNOHANG);
            if (pid == cc)
                rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            if (pid > 0)
                continue;
            if (pid < 0 && errno == ECHILD)
                _exit(rc); // the compiler and all it started are done
            break;
        }
        siginfo_t info;
        if (sigwaitinfo(&wanted, &info) == SIGTERM)
            break;
    }
    // The worker is gone: kill everything below us until nothing is left
    // (orphans of a killed compiler are re-parented to us).
    for (;;) {
        for (pid_t child : childrenOfSelf())
            kill(child, SIGKILL);
        if (waitpid(-1, nullptr, 0) < 0 && errno == ECHILD)
            _exit(1);
    }
}

} // namespace

int compileProcesses(const LoadSpec &)
{
    // The worker, its runner, the compiler driver, cc1 and as.
    return 5;
}

std::string precheckCompile(const LoadSpec &)
{
    std::vector<std::string> argv;
    std::string error;
    return findCompiler(argv, error) ? std::string() : error;
}

std::string prepareCompile(const LoadSpec &spec, const std::string &tempDir)
{
    if (tempDir.empty())
        return "compile: no temp dir for the project";
    const int files = static_cast<int>(loadParam(spec, "files"));
    const int funcs = static_cast<int>(loadParam(spec, "funcs"));
    if (mkdir((tempDir + "/src").c_str(), 0700) != 0)
        return fmt::format("compile: cannot create {}/src: {}", tempDir, std::strerror(errno));
    for (int f = 0; f < files; ++f) {
        const std::string text = compileProjectFile(f, funcs);
        const std::string path = sourcePath(tempDir, f);
        FILE *out = std::fopen(path.c_str(), "w");
        const bool ok = out && std::fwrite(text.data(), 1, text.size(), out) == text.size();
        if (out && std::fclose(out) != 0)
            out = nullptr;
        if (!ok || !out)
            return fmt::format("compile: cannot write {}: {} (free space in {} or set TMPDIR "
                               "elsewhere)",
                               path, std::strerror(errno), tempDir);
    }
    return {};
}

int runCompile(WorkerContext &ctx)
{
    std::vector<std::string> compiler;
    std::string error;
    if (!findCompiler(compiler, error)) {
        reportWorkerError(ctx, error);
        return 1;
    }
    const int files = static_cast<int>(loadParam(ctx.spec, "files"));
    const std::string opt = fmt::format("-O{}", static_cast<int>(loadParam(ctx.spec, "opt")));
    // No temp files from the compiler (-pipe), and any it makes anyway land
    // in the group's temp dir, which latprobe removes.
    setenv("TMPDIR", ctx.tempDir.c_str(), 1);
    // The compiler's messages, kept for an error report, in memory.
    const int errFd = memfd_create("cc-stderr", MFD_CLOEXEC);
    if (errFd < 0) {
        reportWorkerError(ctx, fmt::format("compile: memfd_create: {}", std::strerror(errno)));
        return 1;
    }
    const pid_t self = getpid();
    // -j N: worker i takes files i, i+N, i+2N, ... and starts over, as a
    // rebuild loop would.
    for (int64_t k = ctx.index;; k += ctx.spec.count) {
        const std::string source = sourcePath(ctx.tempDir, static_cast<int>(k % files));
        std::vector<std::string> words = compiler;
        for (const char *w : {opt.c_str(), "-pipe", "-w", "-c", source.c_str(), "-o", "/dev/null"})
            words.emplace_back(w);
        std::vector<const char *> argv;
        for (const std::string &w : words)
            argv.push_back(w.c_str());
        argv.push_back(nullptr);
        // The compiler's stderr shares this file offset: truncate and rewind.
        if (ftruncate(errFd, 0) != 0 || lseek(errFd, 0, SEEK_SET) != 0) {
            reportWorkerError(ctx, fmt::format("compile: cannot reset the message buffer: {}",
                                               std::strerror(errno)));
            return 1;
        }

        const pid_t runner = fork();
        if (runner == 0)
            compileRunner(self, argv, errFd);
        if (runner < 0) {
            reportWorkerError(ctx, fmt::format("compile: cannot start the compiler: {} (raise "
                                               "ulimit -u or lower the count)",
                                               std::strerror(errno)));
            return 1;
        }
        int status = 0;
        while (waitpid(runner, &status, 0) < 0 && errno == EINTR) {
        }
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
            addProgress(ctx.slot, 1);
            continue;
        }
        const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        std::string why = errorLine(errFd);
        if (why.empty())
            why = code > 128 ? fmt::format("killed by signal {}", code - 128)
                             : fmt::format("exit status {}", code);
        reportWorkerError(ctx, fmt::format("compile: {} failed on {}: {} (check the compiler, or "
                                           "set CC to another)",
                                           compiler[0], source, why));
        return 1;
    }
}

} // namespace latprobe
