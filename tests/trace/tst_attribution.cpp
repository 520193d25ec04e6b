// Who delayed me, end to end: `latprobe run` beside a culprit the test
// starts and names, the explanations in the run file attribute the misses
// to it. As root with tracefs (CI mounts it); each test says why it skips
// where it cannot run, never passes silently. Unprivileged, the run warns in
// one line what to grant and is otherwise the same.

#include "kerneltracebuffer.h"
#include "runfile.h"
#include "runprogram.h"
#include "statewait.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <ctime>
#include <map>
#include <numeric>
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace latprobe;

namespace {

QString latprobeBinary()
{
    return qEnvironmentVariable("LATPROBE_BINARY");
}

int64_t monotonicNs()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

// The calling thread (or a culprit, before it spins) on the CPU the
// recorder and the consumer under test share.
bool pinToCpu0()
{
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    CPU_SET(0, &cpus);
    return sched_setaffinity(0, sizeof cpus, &cpus) == 0;
}

// A process named `name`, pinned to CPU 0: with `fifo`, SCHED_FIFO 10
// spinning 15 ms every 300 ms; without, SCHED_OTHER spinning all the time.
// It dies with the test (PR_SET_PDEATHSIG) or at kill().
pid_t startCulprit(const char *name, bool fifo)
{
    const pid_t pid = fork();
    if (pid != 0)
        return pid;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    prctl(PR_SET_NAME, name);
    if (!pinToCpu0())
        _exit(2);
    if (fifo) {
        const sched_param p{10};
        if (sched_setscheduler(0, SCHED_FIFO, &p) != 0)
            _exit(3);
    }
    for (;;) {
        const int64_t until = monotonicNs() + (fifo ? 15'000'000 : 1'000'000'000);
        while (monotonicNs() < until) {
        }
        if (fifo) {
            const timespec rest{0, 285'000'000};
            nanosleep(&rest, nullptr);
        }
    }
}

void stopCulprit(pid_t pid)
{
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
}

// `latprobe run` with `args` beside a SCHED_FIFO culprit on CPU 0 (see
// fifoCulpritIsNamed() for why the probe runs at SCHED_FIFO 5, audio
// alone); `error` says what went wrong, or is empty.
struct CulpritRun
{
    pid_t culprit = 0;
    Outcome outcome;
    Run run;
    QString error;
};

CulpritRun runBesideFifoCulprit(const QStringList &args, const QString &out)
{
    CulpritRun r;
    r.culprit = startCulprit("lp-culprit", true);
    r.outcome = runProgram(latprobeBinary(),
                           args + QStringList{"--cpus", "0", "--policy", "fifo", "--priority", "5",
                                              "--consumers", "audio", "--no-noise-check",
                                              "--no-library", "--no-auto-capture", "--out", out});
    int status = 0;
    const bool culpritRan = waitpid(r.culprit, &status, WNOHANG) == 0;
    stopCulprit(r.culprit);
    if (!culpritRan) {
        r.error = "the culprit could not take SCHED_FIFO on CPU 0";
    } else if (!r.outcome.finished || r.outcome.exitCode != 0) {
        r.error = r.outcome.describe();
    } else {
        r.run = readRunFile(out.toStdString());
        if (!r.run.trace.on)
            r.error = QString::fromStdString(r.run.trace.message);
    }
    return r;
}

// Why an attribution test cannot run here, or "".
QString cannotAttribute()
{
    if (geteuid() != 0)
        return "needs root (a private tracefs instance and SCHED_FIFO)";
    if (!QFileInfo::exists("/sys/kernel/tracing/instances"))
        return "tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)";
    if (!QFileInfo::exists("/sys/kernel/tracing/events/sched/sched_switch"))
        return "the kernel has no sched_switch event";
    return {};
}

// Why latprobe cannot be run as nobody here, or "".
QString cannotRunAsNobody()
{
    if (geteuid() != 0)
        return "needs root to run latprobe as nobody (setpriv)";
    if (QStandardPaths::findExecutable("setpriv").isEmpty())
        return "setpriv (util-linux) is not installed";
    return {};
}

// setpriv's arguments that run latprobe as nobody, as most users are.
QStringList asNobody()
{
    return {"--reuid=65534", "--regid=65534", "--clear-groups", latprobeBinary()};
}

bool hasShare(const MissExplanation &x, const std::string &name, int pid)
{
    for (const DelayShare &s : x.shares)
        if (s.name == name && s.pid == pid)
            return true;
    return false;
}

} // namespace

class TestAttribution : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void fifoCulpritIsNamed();
    void otherHogIsTickBound();
    void unprivilegedSaysWhatToGrant();
    void aSavedTraceShowsTheCulpritAndTheMark();
    void unprivilegedSaveTraceSavesNothing();
    void noInstanceLeftBehind();
    void onlyTheConsumersWakeupsAreRecorded();
    void onlyTheWantedTimesAreKept();
    void pagesBeforeTheWantedTimesAreNotWalked();
    void aReadStopsAfterItsShareOfThePresent();
    void aStepWithoutTheRecorderExplainsNone();
    void zeroToExplainStillRecords();
    void pausedTheEventsAreOffToo();
    void aRunEndsWhileOthersHogItsCpu();
};

void TestAttribution::initTestCase()
{
    // Two cases open a recorder in this process. A latprobe starting
    // meanwhile (another suite's, under ctest -j2) removes the instances of
    // processes that are not latprobe, as it would one whose pid was reused
    // after a kill -9 ("setting tracing_cpumask ... No such device" here):
    // named as one, this process keeps its instance.
    prctl(PR_SET_NAME, "latprobe-test");
}

void TestAttribution::fifoCulpritIsNamed()
{
    if (const QString why = cannotAttribute(); !why.isEmpty())
        QSKIP(qPrintable(why));
    QTemporaryDir dir;
    const QString out = dir.filePath("run.json");
    // The probe at SCHED_FIFO 5, below the culprit: on a machine saturated
    // by other work (the tests of others, a build) only the culprit and
    // interrupts can then delay it, so the misses are the culprit's to
    // explain, as they would be on a quiet machine. Audio alone: wakeup has
    // no deadline to miss, and its thread, at the same priority on the same
    // CPU, would share audio's waits (CI's sanitizer build left 11 % of the
    // late time to others with it there). Beside ctest -j2 other tests'
    // threads held CPU 0 in the kernel (preempt=none) before the culprit's
    // first burst: 6 of the default 8 explained misses were theirs. Some
    // twenty bursts come in 6 s; explain enough misses to reach them.
    const CulpritRun r = runBesideFifoCulprit({"run", "-d", "6", "--explain-misses", "32"}, out);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    const pid_t culprit = r.culprit;
    const Outcome &o = r.outcome;
    const Run &run = r.run;

    int64_t late = 0, byCulprit = 0, byTasks = 0, byInterrupts = 0;
    std::vector<int64_t> timerNs;
    int caused = 0;
    // Each miss in a line, for a failure to show which misses moved a sum.
    QString misses;
    for (const MissExplanation &x : run.explanations) {
        if (!hasShare(x, "lp-culprit", culprit))
            continue;
        ++caused;
        late += x.delayNs();
        misses += QString("  at %1 s: late %2 us, timer %3 us, interrupts %4 us, unknown %5 us\n")
                      .arg(x.timeS, 0, 'f', 3)
                      .arg(x.delayNs() / 1000)
                      .arg(x.timerNs / 1000)
                      .arg(x.irqNs / 1000)
                      .arg(x.unknownNs / 1000);
        for (const DelayShare &s : x.shares) {
            if (s.kind == DelayShare::Kind::Task)
                byTasks += s.ns;
            else if (s.kind != DelayShare::Kind::Idle)
                byInterrupts += s.ns;
            if (s.name == "lp-culprit" && s.pid == culprit) {
                byCulprit += s.ns;
                QCOMPARE(s.policy, std::string("SCHED_FIFO 10"));
            }
        }
        timerNs.push_back(x.timerNs);
    }
    QVERIFY2(caused >= 3, qPrintable(QString("%1 misses explained by the culprit of %2 "
                                             "explained\n%3")
                                         .arg(caused)
                                         .arg(run.explanations.size())
                                         .arg(o.out)));
    // Of the time other tasks held the CPU, the culprit took nine tenths or
    // more: nothing else could run above the probe. Interrupt time is kept
    // out of that share because a host stalling the VM inside an interrupt
    // shows as a long handler (CI saw a 12.6 ms timer softirq take a third
    // of the late time); the culprit must still outweigh all of it.
    const QString shares = QString("the culprit took %1 ns of %2 ns late, tasks %3 ns, "
                                   "interrupts %4 ns\n%5")
                               .arg(byCulprit)
                               .arg(late)
                               .arg(byTasks)
                               .arg(byInterrupts)
                               .arg(misses + o.out);
    QVERIFY2(byCulprit * 10 >= byTasks * 9 && byCulprit > byInterrupts, qPrintable(shares));
    // The timers themselves were on time, under 1 ms: the waits were the
    // culprit's. A host stalling the VM can make one timer a millisecond late
    // (CI's asan run saw 1.2 ms), so the bound is on the typical (median)
    // miss, and all the timers' lateness together stays a small share.
    std::sort(timerNs.begin(), timerNs.end());
    const int64_t timerLate = std::accumulate(timerNs.begin(), timerNs.end(), int64_t{0});
    QVERIFY2(timerNs[timerNs.size() / 2] < 1'000'000 && timerLate * 10 <= late,
             qPrintable(QString("timer lateness: median %1 ns, %2 of %3 ns late\n%4")
                            .arg(timerNs[timerNs.size() / 2])
                            .arg(timerLate)
                            .arg(late)
                            .arg(misses)));
    // The report names it in its top delayers table.
    QVERIFY2(o.out.contains("top delayers") &&
                 o.out.contains(QString("lp-culprit[%1]").arg(culprit)),
             qPrintable(o.out));
}

void TestAttribution::otherHogIsTickBound()
{
    if (const QString why = cannotAttribute(); !why.isEmpty())
        QSKIP(qPrintable(why));
    QTemporaryDir dir;
    const QString out = dir.filePath("run.json");
    // In this session (so in the probe's autogroup), on the probe's CPU: the
    // consumer's wakeup does not always preempt it, and preempt=none leaves
    // the wait to the next tick. pro's 1.33 ms deadline makes that a miss.
    // On a machine saturated by others, their tasks take most waits and a
    // run may see no wait end behind the hog: runs are repeated until one
    // does (the state waited for), a bounded number of times.
    constexpr int kAttempts = 6;
    QString lastReport;
    size_t lastExplained = 0;
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
        const pid_t hog = startCulprit("lp-hog", false);
        const Outcome o = runProgram(
            latprobeBinary(), {"run", "-d", "5", "--cpus", "0", "--preset", "pro", "--consumers",
                               "audio", "--no-noise-check", "--no-library", "--no-auto-capture",
                               "--explain-misses", "100", "--out", out});
        stopCulprit(hog);
        QVERIFY2(o.finished && o.exitCode == 0, qPrintable(o.describe()));
        const Run run = readRunFile(out.toStdString());
        QVERIFY2(run.trace.on, run.trace.message.c_str());
        const std::string preempt = run.system.preemption;
        if (preempt != "none" && preempt != "voluntary")
            QSKIP(qPrintable(QString::fromStdString("preemption is " + preempt +
                                                    ": waits need not end at the tick")));
        // A wait that ended at the tick, taking the CPU from the hog (other
        // tasks may have delayed it too: the hog need not be the largest share).
        const std::string behindHog = "lp-hog[" + std::to_string(hog) + "]";
        for (const MissExplanation &x : run.explanations)
            if (x.waitEnd == "tick-bound: preempt=" + preempt && x.waitEndTask == behindHog)
                return;
        lastReport = o.out;
        lastExplained = run.explanations.size();
    }
    QFAIL(qPrintable(QString("no tick-bound wait behind lp-hog in %1 runs (the last explained %2 "
                             "misses)\n%3")
                         .arg(kAttempts)
                         .arg(lastExplained)
                         .arg(lastReport)));
}

void TestAttribution::unprivilegedSaysWhatToGrant()
{
    if (const QString why = cannotRunAsNobody(); !why.isEmpty())
        QSKIP(qPrintable(why));
    QTemporaryDir dir;
    QVERIFY(chmod(dir.path().toLocal8Bit().constData(), 0777) == 0); // nobody writes there
    const QString nobodyOut = dir.filePath("nobody.json"), rootOut = dir.filePath("root.json");
    const QStringList common{"run",
                             "-d",
                             "1",
                             "--consumers",
                             "audio,wakeup",
                             "--no-noise-check",
                             "--no-library",
                             "--no-auto-capture"};
    const Outcome nobody =
        runProgram("setpriv", asNobody() + common + QStringList{"--out", nobodyOut});
    QVERIFY2(nobody.finished && nobody.exitCode == 0, qPrintable(nobody.describe()));
    const Outcome root =
        runProgram(latprobeBinary(), common + QStringList{"--no-trace", "--out", rootOut});
    QVERIFY2(root.finished && root.exitCode == 0, qPrintable(root.describe()));

    // One line saying what to grant, and nothing else different on stderr.
    QStringList said = nobody.err.split('\n', Qt::SkipEmptyParts);
    const QStringList warned = said.filter("flight recorder off");
    QCOMPARE(warned.size(), 1);
    QVERIFY2(warned.front().contains("root") && warned.front().contains("tracefs"),
             qPrintable(warned.front()));
    said.removeAll(warned.front());
    QStringList asRoot = root.err.split('\n', Qt::SkipEmptyParts);
    asRoot.removeIf([](const QString &line) { return line.contains("running as root"); });
    said.replaceInStrings(nobodyOut, "OUT");
    asRoot.replaceInStrings(rootOut, "OUT");
    QCOMPARE(said, asRoot);

    const Run a = readRunFile(nobodyOut.toStdString()), b = readRunFile(rootOut.toStdString());
    QVERIFY(!a.trace.on);
    QVERIFY(a.explanations.empty());
    QCOMPARE(QString::fromStdString(a.trace.message), warned.front().section(": warning: ", 1));
    QCOMPARE(a.consumers.size(), b.consumers.size());
    QCOMPARE(a.phases.size(), b.phases.size());
    QVERIFY(!a.phases.empty() && a.phases.front().consumers.front().samples > 0);
    // The report says the same in its header, and is otherwise laid out alike.
    QVERIFY(nobody.out.contains("WARNING: flight recorder off"));
}

void TestAttribution::aSavedTraceShowsTheCulpritAndTheMark()
{
    if (const QString why = cannotAttribute(); !why.isEmpty())
        QSKIP(qPrintable(why));
    const QString traceCmd = QStandardPaths::findExecutable("trace-cmd");
    if (traceCmd.isEmpty())
        QSKIP("trace-cmd is not installed (tools/install-deps.sh installs it)");
    QTemporaryDir dir;
    // As fifoCulpritIsNamed(), the traces beside the run file.
    const CulpritRun r = runBesideFifoCulprit(
        {"run", "-d", "6", "--explain-misses", "32", "--save-trace"}, dir.filePath("run.json"));
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QVERIFY2(r.run.trace.savingTraces && r.run.trace.tracesSaved > 0 &&
                 r.run.trace.traceError.empty(),
             qPrintable(r.outcome.describe()));
    const MissExplanation *worst = nullptr;
    for (const MissExplanation &x : r.run.explanations)
        if (hasShare(x, "lp-culprit", r.culprit) && !x.traceFile.empty() &&
            (!worst || x.delayNs() > worst->delayNs()))
            worst = &x;
    QVERIFY2(worst, qPrintable(r.outcome.out));
    // Named beside the run file, after it; the report says how to open it.
    QVERIFY2(QString::fromStdString(worst->traceFile).startsWith("run.trace-"),
             worst->traceFile.c_str());
    const QString file = QString::fromStdString(traceFilePath(r.run, *worst));
    QVERIFY2(QFileInfo::exists(file), qPrintable(file));
    QVERIFY(r.outcome.out.contains("trace-cmd report "));

    const Outcome report = runProgram(traceCmd, {"report", "-t", file});
    QVERIFY2(report.finished && report.exitCode == 0, qPrintable(report.describe()));
    // latprobe's mark of this miss: its window as the explanation has it, to
    // the microsecond the line prints, and the miss's own times.
    const int64_t windowUs = worst->windowNs / 1000;
    const QString window =
        QString("%1.%2").arg(windowUs / 1000).arg(windowUs % 1000, 3, 10, QLatin1Char('0'));
    const QRegularExpression markLine(
        QString(R"(\s(\d+\.\d+): print:.*latprobe: audio miss %1 ms, period start -%1 ms.*)"
                R"(\[start (\d+\.\d+) woke \d+\.\d+ done (\d+\.\d+)\])")
            .arg(QRegularExpression::escape(window)));
    const QRegularExpressionMatch mark = markLine.match(report.out);
    QVERIFY2(
        mark.hasMatch(),
        qPrintable(
            QString("no mark of a %1 ms miss in %2\n%3").arg(window, file, report.out.left(4000))));
    const double markedAt = mark.captured(1).toDouble(), start = mark.captured(2).toDouble(),
                 done = mark.captured(3).toDouble();
    // Written by the thread that missed, right after its work.
    QVERIFY2(markedAt >= done && markedAt - done < 0.005, qPrintable(mark.captured(0)));
    // The culprit's switches in and out of CPU 0 are there, the one that
    // held the consumer off within its window.
    const QRegularExpression switchLine(
        QString(R"(\s(\d+\.\d+): sched_switch:\s+(\S+):(\d+) .*==> (\S+):(\d+) )"));
    bool culpritIn = false, culpritOutInWindow = false;
    for (auto it = switchLine.globalMatch(report.out); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const double at = m.captured(1).toDouble();
        if (m.captured(4) == "lp-culprit" && m.captured(5).toInt() == r.culprit)
            culpritIn = true;
        if (m.captured(2) == "lp-culprit" && m.captured(3).toInt() == r.culprit && at >= start &&
            at <= done)
            culpritOutInWindow = true;
    }
    QVERIFY2(culpritIn && culpritOutInWindow,
             qPrintable(QString("culprit switched in: %1, out within [%2, %3]: %4\n%5")
                            .arg(culpritIn)
                            .arg(start, 0, 'f', 9)
                            .arg(done, 0, 'f', 9)
                            .arg(culpritOutInWindow)
                            .arg(report.out.left(4000))));
}

void TestAttribution::unprivilegedSaveTraceSavesNothing()
{
    if (const QString why = cannotRunAsNobody(); !why.isEmpty())
        QSKIP(qPrintable(why));
    QTemporaryDir dir;
    QVERIFY(chmod(dir.path().toLocal8Bit().constData(), 0777) == 0); // nobody writes there
    const QString traces = dir.filePath("traces");
    const Outcome nobody = runProgram(
        "setpriv",
        asNobody() + QStringList{"run", "-d", "1", "--consumers", "audio", "--no-noise-check",
                                 "--no-library", "--no-auto-capture", "--save-trace=" + traces});
    QVERIFY2(nobody.finished && nobody.exitCode == 0, qPrintable(nobody.describe()));
    // One line says why no trace is saved; nothing is made.
    QCOMPARE(nobody.err.split('\n').filter("--save-trace").size(), 1);
    QVERIFY2(!QFileInfo::exists(traces), qPrintable(nobody.describe()));
}

void TestAttribution::noInstanceLeftBehind()
{
    if (const QString why = cannotAttribute(); !why.isEmpty())
        QSKIP(qPrintable(why));
    // A latprobe killed with -9 leaves its instance; the next one removes it.
    QProcess p;
    p.start(latprobeBinary(),
            {"run", "-d", "60", "--consumers", "wakeup", "--no-noise-check", "--no-library"});
    QVERIFY(p.waitForStarted(kStateWaitMs));
    const QString mine = QString("/sys/kernel/tracing/instances/latprobe-%1").arg(p.processId());
    // Recording: tracing is turned on once every event is enabled.
    auto recording = [&] {
        QFile on(mine + "/tracing_on");
        return on.open(QIODevice::ReadOnly) && on.readAll().trimmed() == "1";
    };
    QTRY_VERIFY_WITH_TIMEOUT(recording(), kStateWaitMs);
    kill(static_cast<pid_t>(p.processId()), SIGKILL);
    QVERIFY(p.waitForFinished(kStateWaitMs));
    QVERIFY(QFileInfo::exists(mine));
    const Outcome o = runProgram(latprobeBinary(), {"run", "-d", "0.5", "--consumers", "wakeup",
                                                    "--no-noise-check", "--no-library"});
    QVERIFY2(o.finished && o.exitCode == 0, qPrintable(o.describe()));
    QVERIFY2(!QFileInfo::exists(mine), qPrintable(mine + " is still there"));
    // No stale one either; a latprobe still running elsewhere (a tester's
    // window beside the tests) keeps its own.
    QStringList left;
    for (const QString &name :
         QDir("/sys/kernel/tracing/instances").entryList({"latprobe-*"}, QDir::Dirs))
        if (!QFileInfo::exists("/proc/" + name.section('-', 1, 1)))
            left << name;
    QVERIFY2(left.isEmpty(), qPrintable(left.join(' ')));
}

// The recorder keeps the wakeups of the threads it follows, by name, and
// drops the rest in the kernel, while every task's switches stay: who ran
// is still known, at a fraction of hackbench's events.
void TestAttribution::onlyTheConsumersWakeupsAreRecorded()
{
    if (const QString why = cannotAttribute(); !why.isEmpty())
        QSKIP(qPrintable(why));
    std::string error;
    std::unique_ptr<KernelTraceBuffer> recorder = KernelTraceBuffer::open({0}, error);
    QVERIFY2(recorder, error.c_str());
    std::atomic<int> followed{0}, other{0};
    std::atomic<bool> go{false};
    auto sleeper = [&go](std::atomic<int> &tid, const char *name) {
        pinToCpu0();
        pthread_setname_np(pthread_self(), name);
        tid = static_cast<int>(gettid());
        go.wait(false);
        for (int i = 0; i < 50; ++i) {
            const timespec nap{0, 1'000'000};
            nanosleep(&nap, nullptr);
        }
    };
    std::thread a(sleeper, std::ref(followed), "lp-followed"),
        b(sleeper, std::ref(other), "lp-other");
    QTRY_VERIFY_WITH_TIMEOUT(followed.load() && other.load(), kStateWaitMs);
    QVERIFY(recorder->followOnly({"lp-followed"}));
    const int64_t from = monotonicNs();
    go = true;
    go.notify_all();
    a.join();
    b.join();
    const std::vector<SchedEvent> events = recorder->read(from, monotonicNs());
    int followedWakeups = 0, otherWakeups = 0, otherSwitches = 0;
    for (const SchedEvent &e : events) {
        const bool wakeup =
            e.type == SchedEvent::Type::Waking || e.type == SchedEvent::Type::Wakeup;
        followedWakeups += wakeup && e.pid == followed;
        otherWakeups += wakeup && e.pid == other;
        otherSwitches += e.type == SchedEvent::Type::Switch && e.pid == other;
    }
    // Each of its 50 naps ends in a waking and a wakeup, on CPU 0.
    QVERIFY2(followedWakeups >= 50, qPrintable(QString::number(followedWakeups)));
    QCOMPARE(otherWakeups, 0);
    QVERIFY2(otherSwitches >= 50, qPrintable(QString::number(otherSwitches)));
}

// A read keeps the times it is asked for and drops the rest: under
// hackbench most of what a read consumes lies between the windows.
void TestAttribution::onlyTheWantedTimesAreKept()
{
    if (const QString why = cannotAttribute(); !why.isEmpty())
        QSKIP(qPrintable(why));
    std::string error;
    std::unique_ptr<KernelTraceBuffer> recorder = KernelTraceBuffer::open({0}, error);
    QVERIFY2(recorder, error.c_str());
    int64_t marks[4] = {};
    std::thread napper([&marks] {
        pinToCpu0();
        for (int part = 0; part < 3; ++part) {
            marks[part] = monotonicNs();
            for (int i = 0; i < 30; ++i) {
                const timespec nap{0, 1'000'000};
                nanosleep(&nap, nullptr);
            }
        }
        marks[3] = monotonicNs();
    });
    napper.join();
    std::vector<SchedEvent> events;
    const size_t read = recorder->readInto(events, {{marks[2], marks[3]}, {marks[0], marks[1]}});
    QCOMPARE(read, events.size());
    int first = 0, last = 0;
    for (size_t i = 0; i < events.size(); ++i) {
        const int64_t ts = events[i].ts;
        QVERIFY2(ts <= marks[1] || ts >= marks[2], "an event between the times asked for");
        if (i > 0)
            QVERIFY(events[i - 1].ts <= ts);
        const bool switched = events[i].type == SchedEvent::Type::Switch;
        first += switched && ts <= marks[1];
        last += switched && ts >= marks[2];
    }
    // 30 naps each: a switch out of the napper and one back, at least.
    QVERIFY2(first >= 30 && last >= 30, qPrintable(QString("%1 %2").arg(first).arg(last)));
}

void TestAttribution::pagesBeforeTheWantedTimesAreNotWalked()
{
    // lp-explain's read consumes the whole buffer, seconds of hackbench,
    // for a few windows: a page before them is dropped without walking its
    // events, and none of the window's events is lost at the page edges.
    if (const QString why = cannotAttribute(); !why.isEmpty())
        QSKIP(qPrintable(why));
    std::string error;
    std::unique_ptr<KernelTraceBuffer> recorder = KernelTraceBuffer::open({0}, error);
    QVERIFY2(recorder, error.c_str());
    int64_t from = 0, to = 0;
    std::thread napper([&] {
        pinToCpu0();
        // A hundred pages or so of switches before the window (about 60 a page).
        for (int i = 0; i < 3000; ++i) {
            const timespec nap{0, 20'000};
            nanosleep(&nap, nullptr);
        }
        from = monotonicNs();
        for (int i = 0; i < 30; ++i) {
            const timespec nap{0, 20'000};
            nanosleep(&nap, nullptr);
        }
        to = monotonicNs();
    });
    napper.join();
    std::vector<SchedEvent> events;
    recorder->readInto(events, {{from, to}});
    const KernelTraceBuffer::PageCount pages = recorder->lastReadPages();
    const auto switches = std::count_if(events.begin(), events.end(), [](const SchedEvent &e) {
        return e.type == SchedEvent::Type::Switch;
    });
    const QString seen = QString("%1 pages read, %2 walked, %3 switches in the window")
                             .arg(pages.read)
                             .arg(pages.walked)
                             .arg(switches);
    // 30 naps: a switch out of the napper and one back, at least.
    QVERIFY2(switches >= 60, qPrintable(seen));
    QVERIFY2(pages.read >= 50, qPrintable(seen));
    QVERIFY2(pages.walked * 10 <= pages.read, qPrintable(seen));
}

void TestAttribution::aReadStopsAfterItsShareOfThePresent()
{
    // A reader slower than the kernel's writer read on for as long as the
    // writer wrote: 104 MB of events in one read of a soak's hackbench step.
    // With the present asked for (the misses still to come), it keeps what
    // was written before it began and only a bounded share of what came
    // after. The read is told where its start lies, in the middle of what
    // the napper wrote: a fixed count of switches on each side, however
    // busy the machine (a concurrent writer was starved to 0-3 events
    // under two spinning processes).
    if (const QString why = cannotAttribute(); !why.isEmpty())
        QSKIP(qPrintable(why));
    std::string error;
    std::unique_ptr<KernelTraceBuffer> recorder = KernelTraceBuffer::open({0}, error);
    QVERIFY2(recorder, error.c_str());
    int64_t middle = 0;
    std::thread napper([&middle] {
        pinToCpu0();
        for (int half = 0; half < 2; ++half) {
            if (half == 1)
                middle = monotonicNs();
            for (int i = 0; i < 100; ++i) {
                const timespec nap{0, 20'000};
                nanosleep(&nap, nullptr);
            }
        }
    });
    napper.join();
    constexpr size_t kCap = 20;
    std::vector<SchedEvent> events;
    recorder->readInto(events, {{0, INT64_MAX}}, kCap, middle);
    const auto past = static_cast<size_t>(std::count_if(
        events.begin(), events.end(), [middle](const SchedEvent &e) { return e.ts > middle; }));
    const auto earlier = events.size() - past;
    // 100 naps on each side: a switch out of the napper and one back, at least.
    QVERIFY2(earlier >= 200, qPrintable(QString("%1 events before the start").arg(earlier)));
    QVERIFY2(past == kCap,
             qPrintable(QString("%1 events after the start, cap %2").arg(past).arg(kCap)));
}

void TestAttribution::aStepWithoutTheRecorderExplainsNone()
{
    // trace_overhead.py alternates steps with and without the recorder in
    // one run: a step with "trace": false records nothing and explains none
    // of its misses, and the recorder comes back for the next step.
    if (const QString why = cannotAttribute(); !why.isEmpty())
        QSKIP(qPrintable(why));
    QTemporaryDir dir;
    const QString out = dir.filePath("run.json");
    const QString scenario = dir.filePath("onoff.json");
    {
        QFile f(scenario);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"scenario_version": 1, "name": "on-off", "steps": [
            {"name": "traced", "duration_s": 3},
            {"name": "untraced", "duration_s": 3, "trace": false},
            {"name": "traced again", "duration_s": 3}]})");
    }
    const CulpritRun r = runBesideFifoCulprit({"run", "--scenario", scenario}, out);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    const Run &run = r.run;
    std::map<std::string, uint64_t> misses;
    for (const PhaseResult &p : run.phases)
        misses[p.name] += p.misses();
    std::map<std::string, int> explained;
    for (const MissExplanation &x : run.explanations)
        ++explained[x.phase];
    const QString seen = QString("misses: traced %1, untraced %2, again %3; explained: %4, %5, %6")
                             .arg(misses["traced"])
                             .arg(misses["untraced"])
                             .arg(misses["traced again"])
                             .arg(explained["traced"])
                             .arg(explained["untraced"])
                             .arg(explained["traced again"]);
    // The culprit made every step miss: none explained is the recorder's pause.
    QVERIFY2(misses["untraced"] > 0, qPrintable(seen));
    QVERIFY2(explained["untraced"] == 0, qPrintable(seen));
    QVERIFY2(explained["traced"] > 0 && explained["traced again"] > 0, qPrintable(seen));
    // The saved run says which step was not traced.
    for (const PhaseResult &p : run.phases)
        QVERIFY2(p.traced == (p.name != "untraced"), p.name.c_str());
}

void TestAttribution::zeroToExplainStillRecords()
{
    // --explain-misses 0 keeps the recorder on and reads nothing back: the
    // window's "Explain the next misses" has a trace to explain from, and
    // trace_overhead.py measures the recording without the reads.
    if (const QString why = cannotAttribute(); !why.isEmpty())
        QSKIP(qPrintable(why));
    QTemporaryDir dir;
    const QString out = dir.filePath("run.json");
    const CulpritRun r = runBesideFifoCulprit({"run", "-d", "3", "--explain-misses", "0"}, out);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    const Run &run = r.run;
    uint64_t misses = 0;
    for (const PhaseResult &p : run.phases)
        misses += p.misses();
    QVERIFY2(run.trace.on, "--explain-misses 0 turned the recorder off");
    QVERIFY2(misses > 0, "the culprit made no miss");
    QCOMPARE(run.explanations.size(), size_t(0));
    QCOMPARE(run.trace.reads, uint64_t(0));
}

void TestAttribution::pausedTheEventsAreOffToo()
{
    // A paused step is trace_overhead.py's baseline: with only tracing_on
    // off, every tracepoint still entered the tracer to find the buffer off.
    if (const QString why = cannotAttribute(); !why.isEmpty())
        QSKIP(qPrintable(why));
    std::string error;
    std::unique_ptr<KernelTraceBuffer> recorder = KernelTraceBuffer::open({0}, error);
    QVERIFY2(recorder, error.c_str());
    const QString dir =
        "/sys/kernel/tracing/instances/" + QString::fromStdString(recorder->instanceName()) + "/";
    auto read = [&dir](const char *file) {
        QFile f(dir + file);
        return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed() : QByteArray("unreadable");
    };
    QCOMPARE(read("tracing_on"), QByteArray("1"));
    QCOMPARE(read("events/sched/sched_switch/enable"), QByteArray("1"));
    QVERIFY(recorder->setRecording(false));
    QCOMPARE(read("tracing_on"), QByteArray("0"));
    QCOMPARE(read("events/sched/sched_switch/enable"), QByteArray("0"));
    QCOMPARE(read("events/irq/softirq_entry/enable"), QByteArray("0"));
    QVERIFY(recorder->setRecording(true));
    QCOMPARE(read("tracing_on"), QByteArray("1"));
    QCOMPARE(read("events/sched/sched_switch/enable"), QByteArray("1"));
    QCOMPARE(read("events/irq/softirq_entry/enable"), QByteArray("1"));
}

void TestAttribution::aRunEndsWhileOthersHogItsCpu()
{
    if (const QString why = cannotAttribute(); !why.isEmpty())
        QSKIP(qPrintable(why));
    if (QStandardPaths::findExecutable("taskset").isEmpty())
        QSKIP("taskset (util-linux) is not installed: it pins latprobe beside the hogs");
    // The delay injected: sixteen SCHED_OTHER hogs on the one CPU latprobe
    // may use. As SCHED_IDLE, lp-explain got a few thousandths of it, and
    // the misses' explanations held the run's end for minutes; the run is
    // over by then, and lp-explain takes its share like any thread.
    std::vector<pid_t> hogs;
    for (int i = 0; i < 16; ++i)
        hogs.push_back(startCulprit("lp-hog", false));
    const Outcome o = runProgram("taskset", {"-c", "0", latprobeBinary(), "run", "-d", "2",
                                             "--consumers", "audio,video", "--no-noise-check",
                                             "--no-library", "--no-auto-capture"});
    for (pid_t hog : hogs)
        stopCulprit(hog);
    QVERIFY2(o.finished && o.exitCode == 0, qPrintable(o.describe()));
    QVERIFY2(o.out.contains("explained"), qPrintable(o.out));
}

QTEST_GUILESS_MAIN(TestAttribution)
#include "tst_attribution.moc"
