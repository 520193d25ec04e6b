// The heap policy as a long run meets it: a thread that builds a tree of
// small blocks and a text of megabytes, then frees both and trims (the
// autosaver), again and again, gives the memory back each time rather than
// keeping megabytes of it once glibc has raised its thresholds.

#include "heappolicy.h"
#include "sanitized.h"

#include <QTest>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <malloc.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace latprobe;

namespace {

// A sanitizer's own allocator ignores glibc's mmap threshold.
constexpr bool kOwnAllocator = kSanitized;

long residentKib()
{
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmRSS:", 0) == 0)
            return std::stol(line.substr(6));
    return 0;
}

// How much more is resident after three rounds of what an autosave does
// with its heap, on a thread of its own: 50 000 small blocks (a JSON tree's
// nodes) and a 4 MiB text grown by appending (its dump), freed, then
// malloc_trim().
long residentGrowthKibAfterSaves()
{
    const long before = residentKib();
    long after = before;
    for (int round = 0; round < 3; ++round) {
        std::thread([&after] {
            std::vector<void *> nodes;
            for (int i = 0; i < 50000; ++i) {
                nodes.push_back(std::malloc(64));
                std::memset(nodes.back(), 1, 64);
            }
            std::string text;
            for (int i = 0; i < (4 << 20) / 64; ++i)
                text.append(64, 'x');
            for (void *node : nodes)
                std::free(node);
            std::string().swap(text);
            malloc_trim(0);
            after = residentKib();
        }).join();
    }
    return after - before;
}

} // namespace

class TestHeapPolicy : public QObject
{
    Q_OBJECT

private slots:
    void savesOnAThreadLeaveNoMegabytesResident()
    {
        if (kOwnAllocator)
            QSKIP("a sanitizer's allocator replaces glibc's: nothing to test");
        // Without the policy glibc keeps several MiB of it resident (the
        // soak's RSS growth). Seen in a child, whose heap the check below
        // does not inherit.
        const pid_t child = fork();
        QVERIFY(child >= 0);
        if (child == 0)
            _exit(residentGrowthKibAfterSaves() >= 4096 ? 0 : 1);
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        QVERIFY2(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                 "glibc no longer keeps the memory: this test no longer tests the policy");
        returnLargeBlocksToTheSystem();
        const long growth = residentGrowthKibAfterSaves();
        QVERIFY2(growth < 2048, qPrintable(QStringLiteral("%1 KiB stayed resident").arg(growth)));
    }
};

QTEST_GUILESS_MAIN(TestHeapPolicy)
#include "tst_heappolicy.moc"
