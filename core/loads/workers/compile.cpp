// A compile like contest's and interbench's: the system C compiler building
// a generated project of `files` C files, `-j N` (one compiler per worker),
// over and over. Counts files compiled.
#include "workerkinds.h"

#include "../loadspec.h"
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

// One function of ordinary C: a few shapes (parsing, hashing, sorting, a
// state machine, fixed-point filters, a small matrix product) with
// constants that differ per file and function, so that nothing is shared.
std::string generateFunction(int file, int func)
{
    const unsigned h = static_cast<unsigned>(file * 7919 + func * 104729 + 17);
    const int a = static_cast<int>(h % 97 + 3), b = static_cast<int>((h >> 7) % 61 + 5),
              c = static_cast<int>((h >> 13) % 29 + 2);
    const std::string name = fmt::format("f{}_{}", file, func);
    switch ((file * 5 + func) % 6) {
    case 0:
        return fmt::format(R"(
static unsigned {0}_hash(const char *s, size_t n)
{{
    unsigned h = {1}u;
    for (size_t i = 0; i < n; ++i) {{
        h ^= (unsigned char)s[i];
        h *= 16777619u + {2}u;
        h = (h << {3}) | (h >> (32 - {3}));
    }}
    return h;
}}

int {0}(struct table *t, const char *text)
{{
    char word[64];
    size_t len = 0;
    int inserted = 0;
    for (const char *p = text;; ++p) {{
        if (isalnum((unsigned char)*p) && len + 1 < sizeof word) {{
            word[len++] = (char)tolower((unsigned char)*p);
            continue;
        }}
        if (len > 0) {{
            word[len] = '\0';
            unsigned slot = {0}_hash(word, len) % TABLE_SIZE;
            for (int probe = 0; probe < TABLE_SIZE; ++probe) {{
                struct entry *e = &t->entries[(slot + probe * {4}) % TABLE_SIZE];
                if (!e->used) {{
                    e->used = 1;
                    strncpy(e->key, word, sizeof e->key - 1);
                    e->count = 1;
                    ++inserted;
                    break;
                }}
                if (strcmp(e->key, word) == 0) {{
                    e->count++;
                    break;
                }}
            }}
            len = 0;
        }}
        if (!*p)
            break;
    }}
    return inserted;
}}
)",
                           name, a * 131, b, c % 29 + 1, c % 7 + 1);
    case 1:
        return fmt::format(R"(
static int {0}_cmp(const struct record *x, const struct record *y)
{{
    if (x->score != y->score)
        return x->score < y->score ? -1 : 1;
    if (x->id % {1} != y->id % {1})
        return x->id % {1} < y->id % {1} ? -1 : 1;
    return strcmp(x->name, y->name);
}}

void {0}(struct record *r, int n)
{{
    /* merge sort with a small-run insertion sort, like many libraries */
    struct record tmp[64];
    for (int lo = 0; lo < n; lo += {2}) {{
        int hi = lo + {2} < n ? lo + {2} : n;
        for (int i = lo + 1; i < hi; ++i) {{
            struct record key = r[i];
            int j = i - 1;
            while (j >= lo && {0}_cmp(&r[j], &key) > 0) {{
                r[j + 1] = r[j];
                --j;
            }}
            r[j + 1] = key;
        }}
    }}
    for (int width = {2}; width < n && width < 32; width *= 2)
        for (int lo = 0; lo + width < n; lo += 2 * width) {{
            int mid = lo + width, hi = lo + 2 * width < n ? lo + 2 * width : n;
            int i = lo, j = mid, k = 0;
            while (i < mid && j < hi && k < 64)
                tmp[k++] = {0}_cmp(&r[i], &r[j]) <= 0 ? r[i++] : r[j++];
            while (i < mid && k < 64)
                tmp[k++] = r[i++];
            while (j < hi && k < 64)
                tmp[k++] = r[j++];
            memcpy(r + lo, tmp, (size_t)k * sizeof *r);
        }}
}}
)",
                           name, c + 1, b % 12 + 4);
    case 2:
        return fmt::format(R"(
enum {0}_state {{ S0_{0}, S1_{0}, S2_{0}, S3_{0}, S4_{0}, S5_{0} }};

int {0}(const unsigned char *in, size_t n, unsigned char *out, size_t cap)
{{
    enum {0}_state s = S0_{0};
    size_t o = 0;
    unsigned acc = {1};
    for (size_t i = 0; i < n && o < cap; ++i) {{
        unsigned ch = in[i];
        switch (s) {{
        case S0_{0}:
            if (ch == '<') s = S1_{0};
            else out[o++] = (unsigned char)(ch ^ {2});
            break;
        case S1_{0}:
            if (ch == '/') s = S2_{0};
            else if (ch == '!') s = S3_{0};
            else {{ acc = acc * 31 + ch; s = S4_{0}; }}
            break;
        case S2_{0}:
            if (ch == '>') s = S0_{0};
            else acc = acc * {3} + ch;
            break;
        case S3_{0}:
            if (ch == '-') s = S5_{0};
            break;
        case S4_{0}:
            if (ch == '>') {{ out[o++] = (unsigned char)(acc & 0xff); s = S0_{0}; }}
            else acc = (acc << 1) ^ ch;
            break;
        case S5_{0}:
            if (ch == '>') s = S0_{0};
            else if (ch != '-') s = S3_{0};
            break;
        }}
    }}
    return (int)o + (int)(acc % {4});
}}
)",
                           name, a, b & 0x7f, c + 7, a + 1);
    case 3:
        return fmt::format(R"(
void {0}(const short *x, short *y, int n, int *state)
{{
    /* a fixed-point biquad and a moving average, as an audio path does */
    static const int coef[5] = {{ {1}, {2}, {3}, -{4}, {5} }};
    int x1 = state[0], x2 = state[1], y1 = state[2], y2 = state[3];
    int window[{6}] = {{0}};
    int sum = 0;
    for (int i = 0; i < n; ++i) {{
        int acc = coef[0] * x[i] + coef[1] * x1 + coef[2] * x2 - coef[3] * y1 - coef[4] * y2;
        int v = acc >> 14;
        if (v > 32767) v = 32767;
        if (v < -32768) v = -32768;
        sum += v - window[i % {6}];
        window[i % {6}] = v;
        y[i] = (short)(sum / {6});
        x2 = x1; x1 = x[i]; y2 = y1; y1 = v;
    }}
    state[0] = x1; state[1] = x2; state[2] = y1; state[3] = y2;
}}
)",
                           name, 4000 + a * 11, 8000 - b * 13, 4000 + c * 17, 12000 + a,
                           3000 + b * 3, c % 13 + 3);
    case 4:
        return fmt::format(R"(
void {0}(const double *a, const double *b, double *c, int n)
{{
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {{
            double s = 0;
            for (int k = 0; k < n; ++k)
                s += a[i * n + k] * b[k * n + j];
            c[i * n + j] = s * {1}.0 / {2}.0 + (i == j ? {3}.0 : 0.0);
        }}
    for (int i = 0; i < n; ++i) {{
        double norm = 0;
        for (int j = 0; j < n; ++j)
            norm += fabs(c[i * n + j]);
        if (norm > {4}.0)
            for (int j = 0; j < n; ++j)
                c[i * n + j] /= norm;
    }}
}}
)",
                           name, a, b, c, a * b);
    default:
        return fmt::format(R"(
int {0}(const char *line, struct config *cfg)
{{
    char key[32], value[96];
    int n = 0;
    while (isspace((unsigned char)*line))
        ++line;
    if (*line == '#' || *line == '\0')
        return 0;
    while (*line && *line != '=' && n < (int)sizeof key - 1)
        key[n++] = *line++;
    key[n] = '\0';
    while (n > 0 && isspace((unsigned char)key[n - 1]))
        key[--n] = '\0';
    if (*line != '=')
        return -1;
    ++line;
    snprintf(value, sizeof value, "%s", line);
    if (strcmp(key, "threads_{1}") == 0)
        cfg->threads = (int)strtol(value, NULL, 10) % {2};
    else if (strcmp(key, "ratio_{1}") == 0)
        cfg->ratio = strtod(value, NULL) * {3}.0;
    else if (strncmp(key, "name", 4) == 0)
        snprintf(cfg->name, sizeof cfg->name, "%s-%d", value, {4});
    else
        return -2;
    return 1;
}}
)",
                           name, a, b + 1, c, func);
    }
}

constexpr const char *kPrelude = R"(/* generated by latprobe's compile load */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TABLE_SIZE 1024
struct entry { char key[32]; int count; int used; };
struct table { struct entry entries[TABLE_SIZE]; };
struct record { int id; double score; char name[24]; };
struct config { int threads; double ratio; char name[64]; };
)";

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
    if (line.size() > 200)
        line = line.substr(0, 200) + "...";
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
        std::string text = kPrelude;
        for (int k = 0; k < funcs; ++k)
            text += generateFunction(f, k);
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
