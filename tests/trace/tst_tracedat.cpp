// The trace files `--save-trace` writes (trace-cmd.dat.v6(5), written by
// latprobe itself): the kernel's own pages of a recorder's instance, read
// back by trace-cmd, markers and switches in them; and a write that fails
// half-way leaves nothing behind. The recorder's cases need root and
// tracefs, and trace-cmd to read the file (install-deps.sh installs it);
// each says why it skips where it cannot run.

#include "kerneltracebuffer.h"
#include "runprogram.h"
#include "tracedatfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <ctime>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <unistd.h>

using namespace latprobe;

namespace {

int64_t monotonicNs()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

QString cannotRecord()
{
    if (geteuid() != 0)
        return "needs root (a private tracefs instance)";
    if (!QFileInfo::exists("/sys/kernel/tracing/instances"))
        return "tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)";
    return {};
}

QString traceCmd()
{
    return QStandardPaths::findExecutable("trace-cmd");
}

// Some of the recorder's pages on CPU 0, the marker `mark` written among
// them: what a saved window holds.
struct Recorded
{
    std::vector<RawPagePtr> pages;
    TraceDatFormats formats;
    QString error;
};

Recorded recordWithMark(const std::string &mark)
{
    Recorded r;
    std::string error;
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    CPU_SET(0, &cpus);
    if (sched_setaffinity(0, sizeof cpus, &cpus) != 0) {
        r.error = "cannot run on CPU 0";
        return r;
    }
    auto buffer = KernelTraceBuffer::open({0}, error);
    if (!buffer) {
        r.error = QString::fromStdString(error);
        return r;
    }
    if (buffer->markerFd() < 0) {
        r.error = "the instance has no trace_marker";
        return r;
    }
    buffer->keepWalkedPages(&r.pages);
    const int64_t from = monotonicNs();
    // Sleeps: switches out of this thread and back on CPU 0.
    for (int i = 0; i < 5; ++i) {
        const timespec pause{0, 2'000'000};
        nanosleep(&pause, nullptr);
        if (i == 2 && write(buffer->markerFd(), mark.data(), mark.size()) < 0) {
            r.error = QString("writing trace_marker: %1").arg(strerror(errno));
            return r;
        }
    }
    std::vector<SchedEvent> events;
    buffer->readInto(events, {{from, INT64_MAX}});
    r.formats = buffer->traceDatFormats();
    return r;
}

} // namespace

class TestTraceDat : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void theLayoutIsTheDocumentedOne();
    void aSavedWindowOpensInTraceCmd();
    void aWriteThatFailsLeavesNothing();
};

void TestTraceDat::initTestCase()
{
    // Named as latprobe: a latprobe starting meanwhile (another suite's)
    // keeps this process's instance (tst_attribution says why).
    prctl(PR_SET_NAME, "latprobe-test");
}

void TestTraceDat::theLayoutIsTheDocumentedOne()
{
    // trace-cmd.dat.v6(5), field by field, on made-up formats and one page.
    TraceDatFormats f;
    f.pageSize = 4096;
    f.cpus = 2;
    f.headerPage = "field: u64 timestamp;\n";
    f.headerEvent = "# compressed entry header\n";
    f.ftrace = {"name: print\n"};
    f.systems = {{"sched", {"name: sched_switch\n", "name: sched_wakeup\n"}}};
    f.uname = "Linux test 6.18 #1 x86_64";
    auto page = std::make_shared<RawPage>();
    page->cpu = 1;
    page->bytes.assign(4096, 'p');
    const std::string bytes = traceDatBytes(f, {page}, {{42, "lp-culprit"}});

    size_t at = 0;
    auto take = [&](size_t n) {
        const std::string s = bytes.substr(at, n);
        at += n;
        return s;
    };
    auto number = [&](size_t n) {
        uint64_t v = 0;
        std::memcpy(&v, bytes.data() + at, n); // little-endian host, as the file says
        at += n;
        return v;
    };
    QCOMPARE(take(10), std::string("\x17\x08\x44tracing"));
    QCOMPARE(take(2), std::string("6\0", 2));
    QCOMPARE(take(1), std::string(1, '\0')); // little endian
    QCOMPARE(take(1), std::string(1, static_cast<char>(sizeof(long))));
    QCOMPARE(number(4), uint64_t{4096});
    QCOMPARE(take(12), std::string("header_page\0", 12));
    QCOMPARE(number(8), uint64_t{f.headerPage.size()});
    QCOMPARE(take(f.headerPage.size()), f.headerPage);
    QCOMPARE(take(13), std::string("header_event\0", 13));
    QCOMPARE(number(8), uint64_t{f.headerEvent.size()});
    QCOMPARE(take(f.headerEvent.size()), f.headerEvent);
    QCOMPARE(number(4), uint64_t{1}); // ftrace formats
    QCOMPARE(number(8), uint64_t{f.ftrace[0].size()});
    QCOMPARE(take(f.ftrace[0].size()), f.ftrace[0]);
    QCOMPARE(number(4), uint64_t{1}); // systems
    QCOMPARE(take(6), std::string("sched\0", 6));
    QCOMPARE(number(4), uint64_t{2});
    for (const std::string &format : f.systems[0].second) {
        QCOMPARE(number(8), uint64_t{format.size()});
        QCOMPARE(take(format.size()), format);
    }
    QCOMPARE(number(4), uint64_t{0}); // kallsyms
    QCOMPARE(number(4), uint64_t{0}); // printk formats
    const std::string comms = "42 lp-culprit\n";
    QCOMPARE(number(8), uint64_t{comms.size()});
    QCOMPARE(take(comms.size()), comms);
    QCOMPARE(number(4), uint64_t{2}); // CPUs
    QCOMPARE(take(10), std::string("options  \0", 10));
    QCOMPARE(number(2), uint64_t{5}); // uname
    QCOMPARE(number(4), uint64_t{f.uname.size() + 1});
    QCOMPARE(take(f.uname.size() + 1), f.uname + '\0');
    QCOMPARE(number(2), uint64_t{0}); // options end
    QCOMPARE(take(10), std::string("flyrecord\0", 10));
    const uint64_t cpu0Offset = number(8), cpu0Size = number(8);
    const uint64_t cpu1Offset = number(8), cpu1Size = number(8);
    QCOMPARE(cpu0Size, uint64_t{0});
    QCOMPARE(cpu1Size, uint64_t{4096});
    QCOMPARE(cpu0Offset % 4096, uint64_t{0});
    QCOMPARE(cpu1Offset % 4096, uint64_t{0});
    QCOMPARE(bytes.substr(cpu1Offset, 4096), std::string(4096, 'p'));
    QCOMPARE(bytes.size(), static_cast<size_t>(cpu1Offset + cpu1Size));
}

void TestTraceDat::aSavedWindowOpensInTraceCmd()
{
    if (const QString why = cannotRecord(); !why.isEmpty())
        QSKIP(qPrintable(why));
    if (traceCmd().isEmpty())
        QSKIP("trace-cmd is not installed (tools/install-deps.sh installs it)");
    const std::string mark = "latprobe: tst_tracedat mark";
    const Recorded r = recordWithMark(mark);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QVERIFY(!r.pages.empty());
    QTemporaryDir dir;
    const QString file = dir.filePath("trace-1.dat");
    std::string error;
    QVERIFY2(
        writeTraceDat(file.toStdString(), r.formats, r.pages, {{getpid(), "latprobe-test"}}, error),
        error.c_str());
    // Written whole under its own name, nothing else left beside it.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"trace-1.dat"});

    const Outcome report = runProgram(traceCmd(), {"report", file});
    QVERIFY2(report.finished && report.exitCode == 0, qPrintable(report.describe()));
    QVERIFY2(report.out.contains(QString::fromStdString(mark)), qPrintable(report.describe()));
    QVERIFY2(report.out.contains("sched_switch:"), qPrintable(report.describe()));
    QVERIFY2(report.out.contains("latprobe-test"), qPrintable(report.describe()));
    QVERIFY2(!report.out.contains("UNKNOWN") && !report.err.contains("failed"),
             qPrintable(report.describe()));
}

void TestTraceDat::aWriteThatFailsLeavesNothing()
{
    if (geteuid() != 0)
        QSKIP("needs root (a tmpfs too small for the file)");
    // A folder that fills up half-way through the file: the write fails,
    // says so in one line, and leaves neither the file nor a part of it.
    QTemporaryDir dir;
    if (mount("tmpfs", dir.path().toLocal8Bit().constData(), "tmpfs", 0, "size=64k") != 0)
        QSKIP(qPrintable(QString("cannot mount a tmpfs: %1").arg(strerror(errno))));
    TraceDatFormats f;
    f.pageSize = 4096;
    f.cpus = 1;
    std::vector<RawPagePtr> pages;
    for (int i = 0; i < 64; ++i) { // 256 KiB of pages
        auto page = std::make_shared<RawPage>();
        page->from = i;
        page->bytes.assign(4096, 'p');
        pages.push_back(page);
    }
    const QString file = dir.filePath("trace-1.dat");
    std::string error;
    const bool written = writeTraceDat(file.toStdString(), f, pages, {}, error);
    const QStringList left = QDir(dir.path()).entryList(QDir::Files | QDir::Hidden);
    umount(dir.path().toLocal8Bit().constData());
    QVERIFY(!written);
    QVERIFY2(error.find("trace-1.dat") != std::string::npos &&
                 error.find('\n') == std::string::npos,
             error.c_str());
    QVERIFY2(left.isEmpty(), qPrintable(left.join(", ")));
}

QTEST_GUILESS_MAIN(TestTraceDat)
#include "tst_tracedat.moc"
