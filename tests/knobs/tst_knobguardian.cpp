// The guardian against a fake machine: every setting a variant changed is
// back after the next turn, the normal end, Ctrl-C, a crash and kill -9 of
// latprobe; a journal left by a guardian killed too is put back by the
// next start; two runs never change one setting at once; a scheduler that
// exits or is ejected is seen; no lock file outlives its holder. This
// binary is its own latprobe stand-in (--knob-applier) and guardian
// (--knob-guardian): knobapplier.h; and its own lock racer (--lock-racer).

#include "childprocess.h"
#include "faketree.h"
#include "knobapplier.h"
#include "knobguard.h"
#include "knobjournal.h"
#include "privatebus.h"
#include "resourcelock.h"
#include "statewait.h"
#include "variant.h"
#include "varianttext.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTest>

#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <memory>
#include <sched.h>
#include <unistd.h>

using namespace latprobe;
using latprobe::test::variant;

namespace {

QString q(const std::string &s)
{
    return QString::fromStdString(s);
}

bool gone(pid_t pid)
{
    return processGone(pid, 0);
}

// The lock files in the fake machine's state dir.
QStringList lockFiles(const FakeTree &tree)
{
    return QDir(tree.path("run")).entryList({"*.lock"}, QDir::Files);
}

constexpr const char *kLockRacerFlag = "--lock-racer";

// tst_knobguardian --lock-racer DIR ROUNDS: once DIR/go exists, takes and
// lets go of the lock "race" until it has held it ROUNDS times. Inside, it
// makes DIR/inside exclusively: a second holder at once finds it there.
// Prints "taken T busy B overlaps O".
int runLockRacer(const char *dir, int rounds)
{
    const std::string go = std::string(dir) + "/go", inside = std::string(dir) + "/inside";
    std::printf("ready\n");
    std::fflush(stdout);
    while (access(go.c_str(), F_OK) != 0)
        sched_yield();
    int taken = 0, busy = 0, overlaps = 0;
    while (taken < rounds) {
        ResourceLocks locks;
        if (!locks.acquire(dir, {"race"}, getpid()).empty()) {
            ++busy;
            sched_yield();
            continue;
        }
        const int fd = open(inside.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
        if (fd < 0) {
            ++overlaps;
        } else {
            sched_yield(); // holds it a while, for the other to try
            close(fd);
            unlink(inside.c_str());
        }
        locks.release();
        ++taken;
    }
    std::printf("taken %d busy %d overlaps %d\n", taken, busy, overlaps);
    return 0;
}

// Everything a variant can change on the fake machine at once, each kind
// of change: two value files, a scheduler, a command with its undo.
QString everything(const FakeTree &tree)
{
    return QString("v:autogroup=0,sysctl=vm.swappiness=10,scx=scx_fake %1,cmd=setfile %2 "
                   "performance,undo=setfile %2 schedutil")
        .arg(tree.path("sys/kernel/sched_ext"), tree.path("etc/governor"));
}

bool changed(const FakeTree &tree)
{
    return tree.read("proc/sys/kernel/sched_autogroup_enabled") == "0" &&
           tree.read("proc/sys/vm/swappiness") == "10" &&
           tree.read("sys/kernel/sched_ext/state") == "enabled" &&
           tree.read("etc/governor") == "performance";
}

bool putBack(const FakeTree &tree)
{
    return tree.read("proc/sys/kernel/sched_autogroup_enabled") == "1" &&
           tree.read("proc/sys/vm/swappiness") == "60" &&
           tree.read("sys/kernel/sched_ext/state") == "disabled" &&
           tree.read("etc/governor") == "schedutil";
}

// The stand-in for latprobe (knobapplier.h), once it has applied.
struct Applier
{
    QProcess process;
    pid_t guardian = 0;
    QString journal;

    bool start(const FakeTree &tree, const QString &action, const QString &variantText,
               bool ownGroup = false)
    {
        if (ownGroup) // as a shell's job: Ctrl-C reaches its whole group
            process.setChildProcessModifier([] { setpgid(0, 0); });
        process.start(QCoreApplication::applicationFilePath(),
                      {kKnobApplierFlag, tree.path("proc"), tree.path("sys"), tree.path("debug"),
                       tree.path("cgroup"), KNOBS_FAKEBIN, tree.path("run"), action, variantText});
        QByteArray out;
        for (int waited = 0; !out.contains('\n') && waited < kStateWaitMs; waited += 100)
            if (process.waitForReadyRead(100) || process.bytesAvailable())
                out += process.readAll();
            else if (process.state() == QProcess::NotRunning)
                break;
        const QStringList words = QString::fromUtf8(out).trimmed().split(' ');
        if (words.size() != 3 || words[0] != "applied") {
            qWarning("applier: %s %s", out.constData(), process.readAllStandardError().constData());
            return false;
        }
        guardian = words[1].toInt();
        journal = words[2];
        return true;
    }
};

} // namespace

class TestKnobGuardian : public QObject
{
    Q_OBJECT

    std::unique_ptr<KnobGuard> start(const FakeTree &tree, const QStringList &variants,
                                     std::string &error, KnobEnvironment env = {})
    {
        std::vector<Variant> vs;
        for (const QString &text : variants)
            vs.push_back(variant(text));
        if (env.procRoot == KnobEnvironment{}.procRoot)
            env = tree.env();
        auto guard =
            KnobGuard::start(vs, env, error, QCoreApplication::applicationFilePath().toStdString());
        if (guard)
            m_guardians.push_back(guard->guardianPid());
        return guard;
    }

    std::vector<pid_t> m_guardians;

private slots:
    void cleanup()
    {
        // A failed test leaves no guardian behind (they only ever touch a
        // fake tree, which goes with its temp dir).
        for (pid_t pid : m_guardians)
            if (pid > 0 && !gone(pid))
                kill(pid, SIGKILL);
        m_guardians.clear();
    }

    void turnsPutBackWhatTheNextVariantLeaves()
    {
        FakeTree tree;
        std::string error;
        auto guard = start(tree,
                           {"a:autogroup=0,sysctl=vm.swappiness=10",
                            "b:", "c:sysctl=vm.lowmem_reserve_ratio=1 2 3 4 5"},
                           error);
        QVERIFY2(guard, error.c_str());
        TurnResult turn = guard->apply(variant("a:autogroup=0,sysctl=vm.swappiness=10"));
        QVERIFY2(turn.error.empty(), turn.error.c_str());
        QCOMPARE(tree.read("proc/sys/kernel/sched_autogroup_enabled"), QString("0"));
        QCOMPARE(tree.read("proc/sys/vm/swappiness"), QString("10"));
        QCOMPARE(int(turn.applied.size()), 2);
        QCOMPARE(q(turn.applied[0].before), QString("1"));
        QCOMPARE(q(turn.applied[0].applied), QString("0"));
        turn = guard->apply(variant("b:"));
        QVERIFY2(turn.error.empty(), turn.error.c_str());
        QCOMPARE(tree.read("proc/sys/kernel/sched_autogroup_enabled"), QString("1"));
        QCOMPARE(tree.read("proc/sys/vm/swappiness"), QString("60"));
        turn = guard->apply(variant("a:autogroup=0,sysctl=vm.swappiness=10"));
        turn = guard->apply(variant("c:sysctl=vm.lowmem_reserve_ratio=1 2 3 4 5"));
        QVERIFY2(turn.error.empty(), turn.error.c_str());
        QCOMPARE(tree.read("proc/sys/kernel/sched_autogroup_enabled"), QString("1"));
        QCOMPARE(tree.read("proc/sys/vm/lowmem_reserve_ratio"), QString("1 2 3 4 5"));
        const FinishResult end = guard->finish();
        QVERIFY(end.failures.empty());
        QCOMPARE(tree.read("proc/sys/vm/lowmem_reserve_ratio"), QString("256 256 32 0 0"));
        // Each setting once, with its value before the run, whatever the turns.
        QCOMPARE(int(end.records.size()), 3);
        for (const ChangeRecord &r : end.records) {
            QCOMPARE(r.state, ChangeState::Restored);
            QCOMPARE(r.restored, r.before);
        }
        QCOMPARE(q(end.records[1].before), QString("60"));
        QCOMPARE(q(end.records[1].applied), QString("10"));
        QTRY_VERIFY_WITH_TIMEOUT(!QDir(q(guard->journalDir())).exists(), kStateWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(gone(guard->guardianPid()), kStateWaitMs);
    }

    void aSchedulerIsInForceForItsTurnOnly()
    {
        FakeTree tree;
        std::string error;
        const QString lavd = "lavd:scx=scx_fake " + tree.path("sys/kernel/sched_ext");
        auto guard = start(tree, {lavd, "eevdf:"}, error);
        QVERIFY2(guard, error.c_str());
        QVERIFY(guard->scheduler().state == SchedulerState::None);
        TurnResult turn = guard->apply(variant(lavd));
        QVERIFY2(turn.error.empty(), turn.error.c_str());
        QCOMPARE(tree.read("sys/kernel/sched_ext/state"), QString("enabled"));
        QCOMPARE(tree.read("sys/kernel/sched_ext/root/ops"), QString(kFakeOps));
        QVERIFY(guard->scheduler().state == SchedulerState::Running);
        // The same variant again keeps the scheduler it has.
        const pid_t pid = turn.applied.at(0).pid;
        turn = guard->apply(variant(lavd));
        QCOMPARE(turn.applied.at(0).pid, pid);
        turn = guard->apply(variant("eevdf:"));
        QVERIFY2(turn.error.empty(), turn.error.c_str());
        QCOMPARE(tree.read("sys/kernel/sched_ext/state"), QString("disabled"));
        QVERIFY(guard->scheduler().state == SchedulerState::None);
        QTRY_VERIFY_WITH_TIMEOUT(gone(pid), kStateWaitMs);
    }

    void aSchedulerThatEndsMidRoundIsSeen_data()
    {
        QTest::addColumn<QString>("trigger");
        QTest::addColumn<QString>("state");
        QTest::addColumn<QString>("detail");
        // Its own EXIT: line, though more followed it, in colour.
        QTest::newRow("it exits")
            << "quit"
            << "exited"
            << "scx_fake exited mid-round (state: disabled; exit status 1; EXIT: unregistered "
               "from BPF (fake: quitting on request))";
        // The kernel's line, not an older one of the log.
        QTest::newRow("the kernel ejects it")
            << "eject"
            << "ejected"
            << QString("the kernel ejected scx_fake mid-round (state: disabled, ops: none; "
                       "sched_ext: BPF scheduler \"%1\" disabled (runnable task stall))")
                   .arg(kFakeOps);
    }

    void aSchedulerThatEndsMidRoundIsSeen()
    {
        QFETCH(QString, trigger);
        QFETCH(QString, state);
        QFETCH(QString, detail);
        FakeTree tree;
        std::string error;
        const QString lavd = "lavd:scx=scx_fake " + tree.path("sys/kernel/sched_ext");
        auto guard = start(tree, {lavd}, error);
        QVERIFY2(guard, error.c_str());
        const TurnResult turn = guard->apply(variant(lavd));
        QVERIFY2(turn.error.empty(), turn.error.c_str());
        QVERIFY(guard->scheduler().state == SchedulerState::Running);
        tree.write("sys/kernel/sched_ext/" + trigger, "");
        // One that exits is "ejected" between the kernel's unload and its
        // exit, and the kernel logs why while "disabling": a round would go
        // either way, saying less.
        QTRY_COMPARE_WITH_TIMEOUT(QString(toString(guard->scheduler().state)), state, kStateWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(q(guard->scheduler().detail), detail, kStateWaitMs);
        QVERIFY(guard->finish().failures.empty());
    }

    void aSchedulerThatReloadsBetweenTwoLooksIsSeen()
    {
        // Gone and back before anyone looked at the state: only enable_seq
        // says so, which the kernel counts a moment after "enabled".
        FakeTree tree;
        std::string error;
        const QString lavd = "lavd:scx=scx_fake " + tree.path("sys/kernel/sched_ext");
        auto guard = start(tree, {lavd}, error);
        QVERIFY2(guard, error.c_str());
        const TurnResult turn = guard->apply(variant(lavd));
        QVERIFY2(turn.error.empty(), turn.error.c_str());
        QCOMPARE(tree.read("sys/kernel/sched_ext/enable_seq"), QString("4"));
        QVERIFY(guard->scheduler().state == SchedulerState::Running);
        tree.write("sys/kernel/sched_ext/reload", "");
        QTRY_COMPARE_WITH_TIMEOUT(tree.read("sys/kernel/sched_ext/enable_seq"), QString("5"),
                                  kStateWaitMs);
        QCOMPARE(tree.read("sys/kernel/sched_ext/state"), QString("enabled"));
        const SchedulerStatus s = guard->scheduler();
        QCOMPARE(QString(toString(s.state)), QString("restarted"));
        QCOMPARE(q(s.detail), QString("scx_fake left and came back mid-round (enable_seq 4, then "
                                      "5; EXIT: unregistered from BPF (cpu 1 going offline, "
                                      "restarting))"));
        // Its next turn counts from there.
        QVERIFY(guard->apply(variant(lavd)).error.empty());
        QVERIFY(guard->scheduler().state == SchedulerState::Running);
        QVERIFY(guard->finish().failures.empty());
        QCOMPARE(tree.read("sys/kernel/sched_ext/state"), QString("disabled"));
    }

    void aSchedulerGoesThroughScxLoaderWhereItRuns()
    {
        FakeTree tree;
        PrivateBus bus;
        QCOMPARE(bus.start(), QString());
        FakeScxLoader loader;
        const QString dir = tree.path("sys/kernel/sched_ext");
        QCOMPARE(loader.start(dir, tree.path("dev/kmsg"), {"scx_lavd", "scx_fake"}), QString());
        std::string error;
        const QString lavd = "lavd:scx=scx_fake " + dir;
        auto guard = start(tree, {lavd, "eevdf:"}, error);
        QVERIFY2(guard, error.c_str());
        TurnResult turn = guard->apply(variant(lavd));
        QVERIFY2(turn.error.empty(), turn.error.c_str());
        QCOMPARE(turn.applied.at(0).launcher, SchedulerLauncher::ScxLoader);
        QCOMPARE(turn.applied.at(0).pid, 0);
        QCOMPARE(tree.read("sys/kernel/sched_ext/state"), QString("enabled"));
        QCOMPARE(tree.read("sys/kernel/sched_ext/root/ops"), QString(kFakeOps));
        QVERIFY(guard->scheduler().state == SchedulerState::Running);
        // The same variant again keeps it; ejected, the next turn switches again.
        QVERIFY(guard->apply(variant(lavd)).error.empty());
        QCOMPARE(loader.calls().size(), 1);
        tree.write("sys/kernel/sched_ext/state", "disabled\n");
        const SchedulerStatus left = guard->scheduler();
        QCOMPARE(int(left.state), int(SchedulerState::Exited));
        QCOMPARE(q(left.detail),
                 QString("scx_fake, run by scx_loader, left mid-round (state: disabled, ops: %1)")
                     .arg(kFakeOps));
        QVERIFY(guard->apply(variant(lavd)).error.empty());
        QCOMPARE(tree.read("sys/kernel/sched_ext/state"), QString("enabled"));
        // It fails and the service starts it again: the kernel says why.
        QCOMPARE(tree.read("sys/kernel/sched_ext/enable_seq"), QString("5"));
        tree.write("sys/kernel/sched_ext/fail", "");
        QTRY_COMPARE_WITH_TIMEOUT(tree.read("sys/kernel/sched_ext/enable_seq"), QString("6"),
                                  kStateWaitMs);
        const SchedulerStatus back = guard->scheduler();
        QCOMPARE(QString(toString(back.state)), QString("restarted"));
        QCOMPARE(q(back.detail),
                 QString("scx_fake, run by scx_loader, left and came back mid-round (enable_seq "
                         "5, then 6; sched_ext: BPF scheduler \"%1\" disabled (runtime error))")
                     .arg(kFakeOps));
        turn = guard->apply(variant("eevdf:"));
        QVERIFY2(turn.error.empty(), turn.error.c_str());
        QCOMPARE(tree.read("sys/kernel/sched_ext/state"), QString("disabled"));
        QVERIFY(guard->finish().failures.empty());
        QCOMPARE(loader.calls(),
                 (QStringList{"SwitchSchedulerWithArgs scx_fake " + dir,
                              "SwitchSchedulerWithArgs scx_fake " + dir, "StopScheduler"}));
    }

    void aSchedulerGoesThroughScxLoaderThatDBusWouldStart()
    {
        // Installed, not running: the first call starts it, as on a desktop
        // that has not switched schedulers since boot.
        FakeTree tree;
        PrivateBus bus;
        FakeScxLoader loader;
        const QString dir = tree.path("sys/kernel/sched_ext");
        bus.installActivatable("org.scx.Loader",
                               loader.command(dir, tree.path("dev/kmsg"), {"scx_fake"}));
        QCOMPARE(bus.start(), QString());
        std::string error;
        const QString lavd = "lavd:scx=scx_fake " + dir;
        auto guard = start(tree, {lavd}, error);
        QVERIFY2(guard, error.c_str());
        const TurnResult turn = guard->apply(variant(lavd));
        QVERIFY2(turn.error.empty(), turn.error.c_str());
        QCOMPARE(turn.applied.at(0).launcher, SchedulerLauncher::ScxLoader);
        QVERIFY(guard->finish().failures.empty());
        QCOMPARE(tree.read("sys/kernel/sched_ext/state"), QString("disabled"));
        QCOMPARE(loader.calls(),
                 (QStringList{"SwitchSchedulerWithArgs scx_fake " + dir, "StopScheduler"}));
    }

    void scxLoadersSchedulerIsStoppedWhateverItsName()
    {
        // It runs, as another ops name than latprobe knows for it: never in
        // force for latprobe, but latprobe switched to it, so it stops it.
        FakeTree tree;
        PrivateBus bus;
        QCOMPARE(bus.start(), QString());
        FakeScxLoader loader;
        const QString dir = tree.path("sys/kernel/sched_ext");
        QCOMPARE(loader.start(dir, tree.path("dev/kmsg"), {"scx_fake=mystery"}), QString());
        KnobEnvironment env = tree.env();
        env.schedulerStartMs = 300;
        std::string error;
        const QString lavd = "lavd:scx=scx_fake " + dir;
        auto guard = start(tree, {lavd}, error, env);
        QVERIFY2(guard, error.c_str());
        const TurnResult turn = guard->apply(variant(lavd));
        QCOMPARE(q(turn.error), QString("scx=scx_fake %1: scx_loader did not bring scx_fake in "
                                        "force within 0.3 s (sched_ext state enabled, ops "
                                        "mystery), so it was stopped; journalctl -u scx_loader "
                                        "may say why")
                                    .arg(dir));
        QCOMPARE(tree.read("sys/kernel/sched_ext/state"), QString("disabled"));
        QVERIFY(guard->finish().failures.empty());
        QCOMPARE(loader.calls(),
                 (QStringList{"SwitchSchedulerWithArgs scx_fake " + dir, "StopScheduler"}));
    }

    void aSchedulerIsAChildWhereScxLoaderCannotRunIt_data()
    {
        QTest::addColumn<QStringList>("supported"); // {"-"}: no service on the bus
        QTest::addColumn<QString>("program");
        QTest::newRow("no service on the bus") << QStringList{"-"} << "scx_fake";
        QTest::newRow("a scheduler it does not list") << QStringList{"scx_lavd"} << "scx_fake";
        QTest::newRow("a path: the user's own build")
            << QStringList{"scx_fake"} << KNOBS_FAKEBIN "/scx_fake";
    }

    void aSchedulerIsAChildWhereScxLoaderCannotRunIt()
    {
        QFETCH(QStringList, supported);
        QFETCH(QString, program);
        FakeTree tree;
        PrivateBus bus;
        QCOMPARE(bus.start(), QString());
        FakeScxLoader loader;
        const QString dir = tree.path("sys/kernel/sched_ext");
        if (supported != QStringList{"-"})
            QCOMPARE(loader.start(dir, tree.path("dev/kmsg"), supported), QString());
        std::string error;
        const QString lavd = "lavd:scx=" + program + " " + dir;
        auto guard = start(tree, {lavd}, error);
        QVERIFY2(guard, error.c_str());
        const TurnResult turn = guard->apply(variant(lavd));
        QVERIFY2(turn.error.empty(), turn.error.c_str());
        QCOMPARE(turn.applied.at(0).launcher, SchedulerLauncher::Guardian);
        QVERIFY(turn.applied.at(0).pid > 0);
        QVERIFY(guard->finish().failures.empty());
        QCOMPARE(tree.read("sys/kernel/sched_ext/state"), QString("disabled"));
        QCOMPARE(loader.calls(), QStringList());
    }

    void scxLoadersSchedulerIsStoppedAfterKillMinusNine_data()
    {
        QTest::addColumn<bool>("guardianToo");
        QTest::newRow("by the guardian") << false;
        QTest::newRow("by the next start, the guardian killed too") << true;
    }

    void scxLoadersSchedulerIsStoppedAfterKillMinusNine()
    {
        // The service outlives latprobe and its guardian: only the journal
        // says whose scheduler it runs.
        QFETCH(bool, guardianToo);
        FakeTree tree;
        PrivateBus bus;
        QCOMPARE(bus.start(), QString());
        FakeScxLoader loader;
        const QString dir = tree.path("sys/kernel/sched_ext");
        QCOMPARE(loader.start(dir, tree.path("dev/kmsg"), {"scx_fake"}), QString());
        Applier applier;
        QVERIFY(applier.start(tree, "wait", "lavd:autogroup=0,scx=scx_fake " + dir));
        m_guardians.push_back(applier.guardian);
        QCOMPARE(tree.read("sys/kernel/sched_ext/state"), QString("enabled"));
        if (guardianToo) {
            kill(applier.guardian, SIGKILL);
            QTRY_VERIFY_WITH_TIMEOUT(gone(applier.guardian), kStateWaitMs);
        }
        applier.process.kill();
        QVERIFY(applier.process.waitForFinished(kStateWaitMs));
        if (guardianToo) {
            QCOMPARE(tree.read("sys/kernel/sched_ext/state"), QString("enabled"));
            const Recovery r = recoverStaleJournals(tree.stdPath("run"), tree.env());
            QVERIFY(r.failures.empty());
        }
        QTRY_COMPARE_WITH_TIMEOUT(tree.read("sys/kernel/sched_ext/state"), QString("disabled"),
                                  kStateWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(tree.read("proc/sys/kernel/sched_autogroup_enabled"),
                                  QString("1"), kStateWaitMs);
        QCOMPARE(loader.calls(),
                 (QStringList{"SwitchSchedulerWithArgs scx_fake " + dir, "StopScheduler"}));
        QTRY_VERIFY_WITH_TIMEOUT(gone(applier.guardian), kStateWaitMs);
        QCOMPARE(lockFiles(tree), QStringList());
    }

    void aSchedulerNeverInForceIsStopped()
    {
        FakeTree tree;
        KnobEnvironment env = tree.env();
        env.schedulerStartMs = 300;
        std::string error;
        auto guard = start(tree, {"n:scx=scx_never"}, error, env);
        QVERIFY2(guard, error.c_str());
        const TurnResult turn = guard->apply(variant("n:scx=scx_never"));
        QCOMPARE(q(turn.error), QString("scx=scx_never: %1 was not in force after 0.3 s (sched_ext "
                                        "state disabled, ops none), so it was stopped")
                                    .arg(KNOBS_FAKEBIN "/scx_never"));
        QVERIFY(guard->finish().failures.empty());
    }

    void commandsRecordTheirExitStatus()
    {
        FakeTree tree;
        const QString gov = tree.path("etc/governor");
        const QString perf =
            QString("g:cmd=setfile %1 performance,undo=setfile %1 schedutil").arg(gov);
        const QString bad = QString("b:cmd=failing,undo=setfile %1 undone").arg(gov);
        std::string error;
        auto guard = start(tree, {perf, bad}, error);
        QVERIFY2(guard, error.c_str());
        TurnResult turn = guard->apply(variant(perf));
        QVERIFY2(turn.error.empty(), turn.error.c_str());
        QCOMPARE(tree.read("etc/governor"), QString("performance"));
        QCOMPARE(q(turn.applied.at(0).applied), QString("exit status 0"));
        turn = guard->apply(variant(bad)); // runs perf's undo, then the failing cmd
        QCOMPARE(q(turn.error), QString("cmd=failing: \"failing\": exit status 3: failing: this "
                                        "machine has no such knob"));
        QCOMPARE(tree.read("etc/governor"), QString("schedutil"));
        const FinishResult end = guard->finish(); // the undo of a failed cmd runs too
        QVERIFY(end.failures.empty());
        QCOMPARE(tree.read("etc/governor"), QString("undone"));
        QCOMPARE(q(end.records.at(0).restored), QString("exit status 0"));
    }

    void aRestoreThatFailsSaysHowByHand()
    {
        // The fake preempt file is a plain file: it never marks the choice
        // in force as the kernel does, so nothing written to it reads back.
        FakeTree tree;
        std::string error;
        auto guard = start(tree, {"p:preempt=none"}, error);
        QVERIFY2(guard, error.c_str());
        const TurnResult turn = guard->apply(variant("p:preempt=none"));
        QCOMPARE(q(turn.error), QString("preempt=none: %1 marks no choice in force: \"none\"")
                                    .arg(tree.path("debug/sched/preempt")));
        const FinishResult end = guard->finish();
        QCOMPARE(int(end.failures.size()), 1);
        QCOMPARE(q(end.failures[0]),
                 QString("could not put back preempt=none (%1 marks no choice in force: "
                         "\"full\"); put it back by hand: echo full > %1")
                     .arg(tree.path("debug/sched/preempt")));
        // The journal stays for the next start, which tries once more.
        QTRY_VERIFY_WITH_TIMEOUT(gone(guard->guardianPid()), kStateWaitMs);
        QVERIFY(QDir(q(guard->journalDir())).exists());
        const Recovery again = recoverStaleJournals(tree.stdPath("run"), tree.env());
        QCOMPARE(int(again.failures.size()), 1);
        QVERIFY(!QDir(q(guard->journalDir())).exists());
    }

    void aDeadLatprobeIsPutBack_data()
    {
        QTest::addColumn<QString>("action");
        QTest::addColumn<int>("signal"); // 0: none, the applier ends by itself
        QTest::addColumn<bool>("toGroup");
        QTest::newRow("kill -9") << "wait" << int(SIGKILL) << false;
        QTest::newRow("Ctrl-C at the terminal") << "wait" << int(SIGINT) << true;
        QTest::newRow("a crash") << "abort" << 0 << false;
        QTest::newRow("the normal end") << "return" << 0 << false;
    }

    void aDeadLatprobeIsPutBack()
    {
        QFETCH(QString, action);
        QFETCH(int, signal);
        QFETCH(bool, toGroup);
        FakeTree tree;
        Applier applier;
        QVERIFY(applier.start(tree, action, everything(tree), toGroup));
        m_guardians.push_back(applier.guardian);
        if (signal)
            QVERIFY(changed(tree));
        if (signal)
            kill(toGroup ? -applier.process.processId() : applier.process.processId(), signal);
        QVERIFY(applier.process.waitForFinished(kStateWaitMs));
        QTRY_VERIFY_WITH_TIMEOUT(putBack(tree), kStateWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(gone(applier.guardian), kStateWaitMs);
        QVERIFY(!QDir(applier.journal).exists());
        QCOMPARE(tree.read("sys/kernel/sched_ext/root/ops"), QString(""));
        QCOMPARE(lockFiles(tree), QStringList());
    }

    void aJournalOfKilledRunsIsPutBackNextTime_data()
    {
        QTest::addColumn<bool>("byAGuard");
        QTest::newRow("by the next run's guardian") << true;
        QTest::newRow("by any latprobe start") << false;
    }

    void aJournalOfKilledRunsIsPutBackNextTime()
    {
        QFETCH(bool, byAGuard);
        FakeTree tree;
        Applier applier;
        QVERIFY(applier.start(tree, "wait", everything(tree)));
        m_guardians.push_back(applier.guardian);
        QVERIFY(changed(tree));
        kill(applier.guardian, SIGKILL); // the guardian first, so nothing is put back
        QTRY_VERIFY_WITH_TIMEOUT(gone(applier.guardian), kStateWaitMs);
        applier.process.kill();
        QVERIFY(applier.process.waitForFinished(kStateWaitMs));
        // The scheduler dies with its guardian, and the "kernel" unloads it.
        QTRY_COMPARE_WITH_TIMEOUT(tree.read("sys/kernel/sched_ext/state"), QString("disabled"),
                                  kStateWaitMs);
        QCOMPARE(tree.read("proc/sys/kernel/sched_autogroup_enabled"), QString("0"));
        QCOMPARE(tree.read("etc/governor"), QString("performance"));
        QVERIFY(QFile::exists(applier.journal + "/journal.json"));

        std::vector<ChangeRecord> recovered;
        if (byAGuard) {
            std::string error;
            auto guard = start(tree, {"a:autogroup=1"}, error);
            QVERIFY2(guard, error.c_str());
            recovered = guard->recovered();
            QVERIFY(guard->recoveryFailures().empty());
        } else {
            const Recovery r = recoverStaleJournals(tree.stdPath("run"), tree.env());
            QVERIFY(r.failures.empty());
            recovered = r.records;
        }
        QVERIFY(putBack(tree));
        QVERIFY(!QDir(applier.journal).exists());
        QCOMPARE(int(recovered.size()), 4);
        for (const ChangeRecord &r : recovered)
            QCOMPARE(r.state, ChangeState::Restored);
        // The dead guardian's lock files went with its journal (and the new
        // guardian's own with its end).
        QCOMPARE(lockFiles(tree), QStringList());
    }

    void twoRunsNeverChangeOneSettingAtOnce()
    {
        FakeTree tree;
        std::string error;
        auto first = start(tree, {"a:autogroup=0"}, error);
        QVERIFY2(first, error.c_str());
        // The same file, however it is named.
        for (const char *other : {"b:autogroup=1", "c:sysctl=kernel.sched_autogroup_enabled=1"}) {
            QVERIFY(!start(tree, {other}, error));
            QCOMPARE(q(error), QString("another latprobe (pid %1, its guardian %2) is changing "
                                       "kernel.sched_autogroup_enabled now: wait until it ends")
                                   .arg(getpid())
                                   .arg(first->guardianPid()));
        }
        // Another setting may change meanwhile.
        auto beside = start(tree, {"s:sysctl=vm.swappiness=1"}, error);
        QVERIFY2(beside, error.c_str());
        first->finish();
        auto second = start(tree, {"b:autogroup=1"}, error);
        QVERIFY2(second, error.c_str());
        // A guardian killed drops its locks with it: the next run may start,
        // and puts back what the dead one changed.
        QVERIFY(second->apply(variant("b:autogroup=0")).error.empty());
        kill(second->guardianPid(), SIGKILL);
        QTRY_VERIFY_WITH_TIMEOUT(gone(second->guardianPid()), kStateWaitMs);
        auto third = start(tree, {"c:autogroup=1"}, error);
        QVERIFY2(third, error.c_str());
        QCOMPARE(tree.read("proc/sys/kernel/sched_autogroup_enabled"), QString("1"));
    }

    void aLockFileLivesWhileItIsHeld()
    {
        FakeTree tree;
        std::string error;
        auto guard = start(tree, {"a:autogroup=0,sysctl=vm.swappiness=10"}, error);
        QVERIFY2(guard, error.c_str());
        QCOMPARE(lockFiles(tree),
                 (QStringList{"kernel.sched_autogroup_enabled.lock", "vm.swappiness.lock"}));
        QVERIFY(guard->apply(variant("a:autogroup=0,sysctl=vm.swappiness=10")).error.empty());
        QVERIFY(guard->finish().failures.empty());
        QTRY_VERIFY_WITH_TIMEOUT(gone(guard->guardianPid()), kStateWaitMs);
        QCOMPARE(lockFiles(tree), QStringList());
    }

    void twoTakersOfOneLockExcludeEachOther()
    {
        // Each holder unlinks the file as it lets go: a taker that opened the
        // file before then and locks it after must see that and take again,
        // or two would hold "the" lock at once (without that check, a few of
        // 4000 rounds overlap here on a 2-vCPU VM).
        FakeTree tree;
        const QString dir = tree.path("run");
        const int rounds = 4000;
        QProcess racers[2];
        for (QProcess &racer : racers) {
            racer.start(QCoreApplication::applicationFilePath(),
                        {kLockRacerFlag, dir, QString::number(rounds)});
            QVERIFY(racer.waitForReadyRead(kStateWaitMs));
            QCOMPARE(racer.readLine().trimmed(), QByteArray("ready"));
        }
        tree.write("run/go", "");
        int busy = 0;
        for (QProcess &racer : racers) {
            QVERIFY(racer.waitForFinished(kStateWaitMs));
            const QStringList words = QString::fromUtf8(racer.readAll()).trimmed().split(' ');
            QCOMPARE(words.size(), 6);
            QCOMPARE(words[1].toInt(), rounds);
            QCOMPARE(words[5].toInt(), 0); // never two inside at once
            busy += words[3].toInt();
        }
        QVERIFY2(busy > 0, "the two never contended: the race proved nothing");
        QVERIFY(!QFile::exists(dir + "/inside"));
        QCOMPARE(lockFiles(tree), QStringList());
    }

    void aGuardianThatDiesIsTakenOverByLatprobe()
    {
        FakeTree tree;
        std::string error;
        auto guard = start(tree, {"a:autogroup=0,sysctl=vm.swappiness=10"}, error);
        QVERIFY2(guard, error.c_str());
        QVERIFY(guard->apply(variant("a:autogroup=0,sysctl=vm.swappiness=10")).error.empty());
        const pid_t pid = guard->guardianPid();
        kill(pid, SIGKILL);
        const TurnResult turn = guard->apply(variant("a:autogroup=0,sysctl=vm.swappiness=10"));
        QVERIFY(!turn.error.empty());
        QCOMPARE(tree.read("proc/sys/kernel/sched_autogroup_enabled"), QString("1"));
        QCOMPARE(tree.read("proc/sys/vm/swappiness"), QString("60"));
        const FinishResult end = guard->finish();
        QCOMPARE(int(end.records.size()), 2);
        QCOMPARE(q(end.failures.at(0)), QString("the guardian (pid %1) ended; what it changed "
                                                "was put back from its journal")
                                            .arg(pid));
    }

    void theJournalFormat()
    {
        Journal j;
        j.owner = 10;
        j.guardian = 11;
        ChangeRecord r;
        r.change = {"autogroup",
                    "autogroup=0",
                    ChangeKind::File,
                    "kernel.sched_autogroup_enabled",
                    "/proc/sys/kernel/sched_autogroup_enabled",
                    "0",
                    ""};
        r.state = ChangeState::Applied;
        r.before = "1";
        r.applied = "0";
        j.records = {r};
        Journal back;
        std::string error;
        QVERIFY2(journalFromText(journalToText(j), "j.json", back, error), error.c_str());
        QCOMPARE(back.owner, 10);
        QCOMPARE(q(back.records.at(0).change.target), q(r.change.target));
        QCOMPARE(back.records.at(0).state, ChangeState::Applied);

        QString text = q(journalToText(j)).replace("\"version\": 1", "\"version\": 2");
        QVERIFY(!journalFromText(text.toStdString(), "j.json", back, error));
        QCOMPARE(q(error), QString("j.json: version: 2 is not 1, the version this latprobe reads"));
        text = q(journalToText(j)).replace("\"state\": \"applied\"", "\"state\": \"maybe\"");
        QVERIFY(!journalFromText(text.toStdString(), "j.json", back, error));
        QCOMPARE(q(error), QString("j.json: changes[0].state: unknown state \"maybe\""));
        QVERIFY(!journalFromText("{}", "j.json", back, error));
        QCOMPARE(q(error), QString("j.json: not a latprobe knob journal"));
    }
};

int main(int argc, char **argv)
{
    if (const int status = dispatchKnobHelpers(argc, argv); status >= 0)
        return status;
    if (argc == 4 && std::string_view(argv[1]) == kLockRacerFlag)
        return runLockRacer(argv[2], std::atoi(argv[3]));
    QCoreApplication app(argc, argv);
    TestKnobGuardian test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}
#include "tst_knobguardian.moc"
