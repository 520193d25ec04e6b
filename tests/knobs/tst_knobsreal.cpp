// The variants' settings on this machine, for real: autogroup flipped and
// put back (after kill -9 of latprobe too, read back from /proc), transparent
// huge pages switched and put back after a kill -9 (read back from sysfs), a v1 cpu
// cgroup made with its cpu.shares and removed, a thread's EEVDF slice set
// and read back with sched_getattr. Whatever fails, the machine is left as
// it was found: each test puts back what it changed in cleanup(), and the
// last checks that autogroup and transparent huge pages read as they did at
// the start.

#include "childprocess.h"
#include "cpucgroup.h"
#include "kernelfile.h"
#include "knobapplier.h"
#include "knobguard.h"
#include "knobjournal.h"
#include "statewait.h"
#include "taskslice.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTest>

#include <condition_variable>
#include <csignal>
#include <mutex>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>

using namespace latprobe;

namespace {

constexpr const char *kAutogroup = "/proc/sys/kernel/sched_autogroup_enabled";

QString readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).trimmed() : "<absent>";
}

const QString kThp = QString::fromStdString(KnobEnvironment::real().thpFile());

// "madvise" of "always [madvise] never"; "" without the file.
QString thpInForce()
{
    return QString::fromStdString(choiceInForce(readFile(kThp).toStdString()));
}

KnobEnvironment realEnvironment()
{
    KnobEnvironment env = KnobEnvironment::real();
    env.stateDir = knobStateDir(true, nullptr); // as root: /run/latprobe, shared with real runs
    return env;
}

// This suite as knobapplier.h's applier, on this machine's files: it applies
// `variant` through a guardian, says so, then does `action`.
void startApplier(QProcess &applier, const QString &action, const QString &variant)
{
    const KnobEnvironment env = realEnvironment();
    applier.start(QCoreApplication::applicationFilePath(),
                  {kKnobApplierFlag, "/proc", "/sys", "/sys/kernel/debug", "/sys/fs/cgroup",
                   QString::fromStdString(env.searchPath), QString::fromStdString(env.stateDir),
                   action, variant});
}

// The applier's first line: "applied GUARDIAN_PID JOURNAL_DIR" when it did.
QStringList applierAnswer(QProcess &applier)
{
    QByteArray out;
    while (!out.contains('\n') && applier.waitForReadyRead(kStateWaitMs))
        out += applier.readAll();
    return QString::fromUtf8(out).trimmed().split(' ');
}

// A thread that waits until told to end, and tells its tid.
class WaitingThread
{
public:
    WaitingThread()
        : m_thread([this] {
              std::unique_lock lock(m_mutex);
              m_tid = static_cast<pid_t>(syscall(SYS_gettid));
              m_changed.notify_all();
              m_changed.wait(lock, [this] { return m_end; });
          })
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [this] { return m_tid != 0; });
    }
    ~WaitingThread()
    {
        {
            std::lock_guard lock(m_mutex);
            m_end = true;
        }
        m_changed.notify_all();
        m_thread.join();
    }
    pid_t tid() const { return m_tid; }
    std::thread &thread() { return m_thread; }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    pid_t m_tid = 0;
    bool m_end = false;
    std::thread m_thread;
};

} // namespace

class TestKnobsReal : public QObject
{
    Q_OBJECT

    QString m_autogroup; // as found
    QString m_thp;       // the choice in force as found
    std::vector<pid_t> m_guardians;
    std::vector<QString> m_cgroups;

    bool needsRoot() { return geteuid() == 0; }

private slots:
    void initTestCase()
    {
        m_autogroup = readFile(kAutogroup);
        m_thp = thpInForce();
    }

    void cleanup()
    {
        // What a failed test may have left, put back by hand.
        for (pid_t pid : m_guardians)
            if (pid > 0 && !processGone(pid, 0))
                kill(pid, SIGTERM); // a guardian puts back what it changed on SIGTERM
        for (pid_t pid : m_guardians)
            for (int i = 0; i < 1000 && pid > 0 && !processGone(pid, 0); ++i)
                QTest::qWait(10);
        m_guardians.clear();
        if (geteuid() == 0 && QFile::exists(kAutogroup) && readFile(kAutogroup) != m_autogroup) {
            std::string error;
            writeKernelFile(kAutogroup, m_autogroup.toStdString(), error);
        }
        if (geteuid() == 0 && !m_thp.isEmpty() && thpInForce() != m_thp) {
            std::string error;
            writeKernelFile(kThp.toStdString(), m_thp.toStdString(), error);
        }
        for (const QString &dir : m_cgroups) {
            std::string error;
            removeCgroup(dir.toStdString(), error);
        }
        m_cgroups.clear();
    }

    void cleanupTestCase()
    {
        QCOMPARE(readFile(kAutogroup), m_autogroup);
        QCOMPARE(thpInForce(), m_thp);
    }

    void autogroupIsPutBack_data()
    {
        QTest::addColumn<QString>("action");
        QTest::addColumn<bool>("kill9");
        QTest::addColumn<bool>("byLatprobe"); // the guardian is the latprobe binary
        QTest::newRow("after kill -9 of latprobe") << "wait" << true << false;
        QTest::newRow("at the normal end") << "return" << false << false;
        QTest::newRow("after kill -9, guarded by latprobe") << "wait" << true << true;
    }

    void autogroupIsPutBack()
    {
        QFETCH(QString, action);
        QFETCH(bool, kill9);
        QFETCH(bool, byLatprobe);
        const QString latprobe = qEnvironmentVariable("LATPROBE_BINARY");
        if (byLatprobe && !QFileInfo(latprobe).isExecutable())
            QSKIP("LATPROBE_BINARY does not name the latprobe binary: run the suite with ctest");
        if (!needsRoot())
            QSKIP("autogroup= needs root: run this suite as root to test it on this machine");
        if (!QFile::exists(kAutogroup))
            QSKIP("this kernel has no autogroup (no /proc/sys/kernel/sched_autogroup_enabled)");
        const QString flipped = m_autogroup == "1" ? "0" : "1";
        const CpuController cpu = findCpuController("/sys/fs/cgroup");
        const QString variant =
            "flip:autogroup=" + flipped + (cpu.version ? ",load_weight=50" : "");
        QProcess applier;
        if (byLatprobe) {
            QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
            environment.insert("KNOBS_TEST_GUARDIAN", latprobe);
            applier.setProcessEnvironment(environment);
        }
        startApplier(applier, action, variant);
        QVERIFY(applier.waitForStarted(kStateWaitMs));
        QString cgroup;
        if (cpu.version)
            m_cgroups.push_back(cgroup = QString("%1/latprobe-%2")
                                             .arg(QString::fromStdString(cpu.root))
                                             .arg(applier.processId()));
        const QStringList words = applierAnswer(applier);
        QVERIFY2(words.size() == 3 && words[0] == "applied",
                 qPrintable(words.join(' ') + applier.readAllStandardError()));
        m_guardians.push_back(words[1].toInt());
        if (kill9) {
            // In force, read back from the kernel's own files.
            QCOMPARE(readFile(kAutogroup), flipped);
            if (cpu.version)
                QCOMPARE(readFile(cgroup + "/" + weightFile(cpu.version)),
                         QString::number(weightValue(cpu.version, 50)));
            applier.kill();
        }
        QVERIFY(applier.waitForFinished(kStateWaitMs));
        QTRY_COMPARE_WITH_TIMEOUT(readFile(kAutogroup), m_autogroup, kStateWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(processGone(words[1].toInt(), 0), kStateWaitMs);
        QVERIFY(!QDir(words[2]).exists());
        if (cpu.version)
            QVERIFY(!QDir(cgroup).exists());
    }

    void transparentHugePagesArePutBackAfterAKill()
    {
        if (!needsRoot())
            QSKIP("thp= needs root: run this suite as root to test it on this machine");
        if (m_thp.isEmpty())
            QSKIP("this kernel has no transparent huge pages (no "
                  "/sys/kernel/mm/transparent_hugepage/enabled)");
        const QString other = m_thp == "never" ? "madvise" : "never";
        QProcess applier;
        startApplier(applier, "wait", "t:thp=" + other);
        QVERIFY(applier.waitForStarted(kStateWaitMs));
        const QStringList words = applierAnswer(applier);
        QVERIFY2(words.size() == 3 && words[0] == "applied",
                 qPrintable(words.join(' ') + applier.readAllStandardError()));
        m_guardians.push_back(words[1].toInt());
        // In force, as the kernel's own file marks it.
        QCOMPARE(thpInForce(), other);
        applier.kill();
        QVERIFY(applier.waitForFinished(kStateWaitMs));
        QTRY_COMPARE_WITH_TIMEOUT(thpInForce(), m_thp, kStateWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(processGone(words[1].toInt(), 0), kStateWaitMs);
    }

    void aCgroupWithItsWeightAndRemoved()
    {
        if (!needsRoot())
            QSKIP("load_weight= needs root: run this suite as root to test it on this machine");
        const CpuController cpu = findCpuController("/sys/fs/cgroup");
        if (cpu.version == 0)
            QSKIP(cpu.refusal.c_str());
        std::string error;
        Variant v;
        QVERIFY(parseVariant("w:load_weight=50", v, error));
        auto guard = KnobGuard::start({v}, realEnvironment(), error,
                                      QCoreApplication::applicationFilePath().toStdString());
        QVERIFY2(guard, error.c_str());
        m_guardians.push_back(guard->guardianPid());
        const TurnResult turn = guard->apply(v);
        QVERIFY2(turn.error.empty(), turn.error.c_str());
        const QString dir = QString::fromStdString(turn.loadCgroup);
        m_cgroups.push_back(dir);
        QCOMPARE(dir, QString("%1/latprobe-%2").arg(cpu.root.c_str()).arg(getpid()));
        QCOMPARE(readFile(dir + "/" + weightFile(cpu.version)),
                 QString::number(weightValue(cpu.version, 50)));
        // A load moved in, as the session does with a turn's loads.
        QProcess load;
        load.setChildProcessModifier([] { prctl(PR_SET_PDEATHSIG, SIGKILL); });
        load.start("sleep", {"600"});
        QVERIFY(load.waitForStarted(kStateWaitMs));
        QVERIFY2(moveIntoCgroup(turn.loadCgroup, static_cast<pid_t>(load.processId()), error),
                 error.c_str());
        QVERIFY(readFile(QString("/proc/%1/cgroup").arg(load.processId()))
                    .contains(QString(":cpu:/latprobe-%1").arg(getpid())));
        // Removed at the end even with the load still in it.
        const FinishResult end = guard->finish();
        QVERIFY2(end.failures.empty(), end.failures.empty() ? "" : end.failures[0].c_str());
        QVERIFY(!QDir(dir).exists());
        load.kill();
        load.waitForFinished(kStateWaitMs);
    }

    void aThreadsSliceReadsBack()
    {
        const std::string probe = probeTaskSlice();
        if (!probe.empty())
            QSKIP(probe.c_str());
        WaitingThread thread;
        std::string error;
        uint64_t before = 0, ns = 0;
        QVERIFY2(readTaskSlice(thread.tid(), before, error), error.c_str());
        QVERIFY2(setTaskSlice(thread.tid(), 300'000, error), error.c_str());
        QVERIFY2(readTaskSlice(thread.tid(), ns, error), error.c_str());
        QCOMPARE(ns, uint64_t(300'000));
        // Out of the kernel's range: it clamps, and latprobe says so.
        QVERIFY(!setTaskSlice(thread.tid(), 50'000, error));
        QCOMPARE(QString::fromStdString(error),
                 QString("the kernel set thread %1's slice to 100 us when 50 us was asked (it "
                         "clamps to 100-100000 us)")
                     .arg(thread.tid()));
        QVERIFY2(setTaskSlice(thread.tid(), 0, error), error.c_str());
        QVERIFY2(readTaskSlice(thread.tid(), ns, error), error.c_str());
        QCOMPARE(ns, before); // the default again
    }

    void aRealTimeThreadTakesNoSlice()
    {
        if (!needsRoot())
            QSKIP("SCHED_FIFO needs root: run this suite as root to test the refusal");
        WaitingThread thread;
        sched_param param{};
        param.sched_priority = 1;
        QCOMPARE(pthread_setschedparam(thread.thread().native_handle(), SCHED_FIFO, &param), 0);
        std::string error;
        QVERIFY(!setTaskSlice(thread.tid(), 300'000, error));
        QCOMPARE(QString::fromStdString(error),
                 QString("slice_us applies to SCHED_OTHER threads, and thread %1 runs "
                         "SCHED_FIFO: measure with --policy other")
                     .arg(thread.tid()));
    }
};

int main(int argc, char **argv)
{
    if (const int status = dispatchKnobHelpers(argc, argv); status >= 0)
        return status;
    QCoreApplication app(argc, argv);
    TestKnobsReal test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}
#include "tst_knobsreal.moc"
