// Variants of the system played in turns, on this machine for real:
// autogroup in force during its own turns only, a load's nice and cgroup
// under load_nice= and load_weight=, and the machine put back after the
// run, after an interrupt and after kill -9 of latprobe. Root only (the
// settings are the machine's): as another user each case skips saying why.
// Every case restores autogroup itself too, failing or not: a test never
// leaves the machine changed.

#include "cpucgroup.h"
#include "knobenvironment.h"
#include "loadspectext.h"
#include "presets.h"
#include "runprogram.h"
#include "session.h"

#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

#include <atomic>
#include <mutex>
#include <unistd.h>

using namespace latprobe;

namespace {

const QString kAutogroup = QStringLiteral("/proc/sys/kernel/sched_autogroup_enabled");

// The latprobe the suite runs (CTest sets LATPROBE_BINARY).
QString binary()
{
    return qEnvironmentVariable("LATPROBE_BINARY");
}

QString readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).trimmed() : QString();
}

void writeFile(const QString &path, const QByteArray &value)
{
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        f.write(value);
}

// A process's nice, field 19 of /proc/PID/stat.
int niceOf(pid_t pid)
{
    const QString stat = readFile(QStringLiteral("/proc/%1/stat").arg(pid));
    const QStringList fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
    return fields.size() > 16 ? fields[16].toInt() : -100;
}

Variant variant(const std::string &text)
{
    Variant v;
    std::string error;
    if (!parseVariant(text, v, error))
        qFatal("%s", error.c_str());
    return v;
}

SessionOptions wakeupOnly()
{
    SessionOptions o;
    o.consumers = {wakeupConsumer(1000)};
    o.runName = "test";
    o.trace = false;
    return o;
}

// What each step saw as it began: autogroup, and its loads' nice and cgroup.
class Witness : public SessionObserver
{
public:
    Session *session = nullptr;
    struct Seen
    {
        QString autogroup;
        std::vector<int> nices;
        std::vector<QString> cgroups;
    };
    void phaseBegun(const PhaseMark &, bool) override
    {
        Seen seen;
        seen.autogroup = readFile(kAutogroup);
        // A worker sets its own nice after the group's go signal, then says
        // it runs: wait for that state, not for a guess of time.
        QTRY_VERIFY_WITH_TIMEOUT(allRunning(), kStateWaitMs);
        for (const GroupStatus &g : session->loadStatus())
            for (const WorkerStatus &w : g.workers) {
                seen.nices.push_back(niceOf(w.pid));
                seen.cgroups.push_back(readFile(QStringLiteral("/proc/%1/cgroup").arg(w.pid)));
            }
        std::lock_guard lock(mutex);
        seens.push_back(seen);
    }
    std::vector<Seen> taken()
    {
        std::lock_guard lock(mutex);
        return seens;
    }

private:
    bool allRunning() const
    {
        for (const GroupStatus &g : session->loadStatus())
            for (const WorkerStatus &w : g.workers)
                if (w.state != WorkerState::Running)
                    return false;
        return true;
    }
    std::mutex mutex;
    std::vector<Seen> seens;
};

} // namespace

class TestVariants : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void eachSettingHoldsDuringItsOwnTurnsOnly();
    void anInterruptPutsTheMachineBack();
    void killMinusNinePutsTheMachineBack();
    void unprivilegedIsRefusedBeforeAnythingChanges();

private:
    QString m_autogroup; // as the machine had it
};

void TestVariants::init()
{
    if (geteuid() != 0)
        QSKIP("needs root: the variants change the machine's settings");
    if (!QFile::exists(kAutogroup))
        QSKIP("this kernel has no autogroup");
    m_autogroup = readFile(kAutogroup);
}

void TestVariants::cleanup()
{
    if (!m_autogroup.isEmpty() && readFile(kAutogroup) != m_autogroup) {
        writeFile(kAutogroup, m_autogroup.toUtf8());
        QFAIL("autogroup was left changed (the test put it back)");
    }
}

void TestVariants::eachSettingHoldsDuringItsOwnTurnsOnly()
{
    Witness witness;
    Session session(wakeupOnly(), &witness);
    witness.session = &session;
    session.start();
    Scenario s;
    s.name = "ab";
    s.rounds = 2;
    s.settleS = 0.2;
    s.steps = {{"light", 1.0, {spec("massive_intr:2:work_ms=1:sleep_ms=10")}}};
    const std::string other = m_autogroup == "1" ? "0" : "1";
    // load_weight= needs the cpu controller, which a container or a chroot
    // may not have mounted: the other two settings are tested without it.
    const CpuController cpu = findCpuController("/sys/fs/cgroup");
    const bool weighted = cpu.version != 0;
    if (!weighted)
        qInfo("load_weight= not tested: %s", cpu.refusal.c_str());
    s.variants = {variant("base:"), variant("tuned:autogroup=" + other + ",load_nice=7" +
                                            (weighted ? ",load_weight=50" : ""))};
    const std::string refused = session.playScenario(s, {true, true});
    QVERIFY2(refused.empty(), refused.c_str());
    QCOMPARE(session.waitForScenario(), RunEnd::Completed);
    const Run run = session.finish(RunEnd::Completed);

    // base, tuned, then tuned, base: each step saw its own variant's.
    const std::vector<Witness::Seen> seen = witness.taken();
    std::vector<QString> steps;
    for (const Witness::Seen &w : seen)
        if (!w.nices.empty())
            steps.push_back(w.autogroup);
    QCOMPARE(steps, (std::vector<QString>{m_autogroup, QString::fromStdString(other),
                                          QString::fromStdString(other), m_autogroup}));
    for (const Witness::Seen &w : seen) {
        if (w.nices.empty())
            continue;
        const bool tuned = w.autogroup != m_autogroup;
        for (int nice : w.nices)
            QCOMPARE(nice, tuned ? 7 : 0);
        for (const QString &cgroup : w.cgroups)
            QCOMPARE(cgroup.contains(QStringLiteral("latprobe")), tuned && weighted);
    }
    QCOMPARE(readFile(kAutogroup), m_autogroup);
    // The run file's record: each phase its variant, each change as it went.
    QCOMPARE(run.variants.size(), size_t{2});
    QCOMPARE(run.phases.size(), size_t{4});
    QCOMPARE(run.phases[1].variant, std::string("tuned"));
    bool autogroupRecorded = false;
    for (const SettingRecord &c : run.variants[1].changes)
        if (c.setting == "autogroup=" + other) {
            autogroupRecorded = true;
            QCOMPARE(QString::fromStdString(c.before), m_autogroup);
            QCOMPARE(c.applied, other);
            QCOMPARE(QString::fromStdString(c.restored), m_autogroup);
        }
    QVERIFY(autogroupRecorded);
}

void TestVariants::anInterruptPutsTheMachineBack()
{
    std::atomic<bool> interrupt{false};
    SessionOptions o = wakeupOnly();
    o.interrupted = [&interrupt] { return interrupt.load(); };
    Session session(std::move(o));
    session.start();
    Scenario s;
    s.name = "long";
    s.settleS = 0;
    s.steps = {{"idle", 600, {}}};
    const std::string other = m_autogroup == "1" ? "0" : "1";
    s.variants = {variant("first:autogroup=" + other), variant("second:")};
    QCOMPARE(session.playScenario(s, {true, true}), std::string());
    QTRY_COMPARE_WITH_TIMEOUT(readFile(kAutogroup), QString::fromStdString(other), kStateWaitMs);
    interrupt = true;
    QCOMPARE(session.waitForScenario(), RunEnd::Interrupted);
    QCOMPARE(readFile(kAutogroup), m_autogroup);
    session.finish(RunEnd::Interrupted);
}

void TestVariants::killMinusNinePutsTheMachineBack()
{
    const QString other = m_autogroup == QLatin1String("1") ? "0" : "1";
    QProcess latprobe;
    latprobe.start(binary(), {"run", "-d", "600", "--idle", "0", "--consumers", "wakeup",
                              "--no-noise-check", "--no-library", "--no-trace", "--variant",
                              "first:autogroup=" + other, "--variant", "second:"});
    QVERIFY(latprobe.waitForStarted());
    QTRY_COMPARE_WITH_TIMEOUT(readFile(kAutogroup), other, kStateWaitMs);
    latprobe.kill();
    QVERIFY(latprobe.waitForFinished(kStateWaitMs));
    // The guardian outlives it and puts the setting back.
    QTRY_COMPARE_WITH_TIMEOUT(readFile(kAutogroup), m_autogroup, kStateWaitMs);
}

void TestVariants::unprivilegedIsRefusedBeforeAnythingChanges()
{
    if (QStandardPaths::findExecutable("setpriv").isEmpty())
        QSKIP("setpriv (util-linux) is not installed");
    const QString other = m_autogroup == QLatin1String("1") ? "0" : "1";
    const Outcome o = runProgram("setpriv", {"--reuid=65534", "--regid=65534", "--clear-groups",
                                             binary(), "run", "-d", "5", "--consumers", "wakeup",
                                             "--no-noise-check", "--no-library", "--variant",
                                             "first:autogroup=" + other, "--variant", "second:"});
    QVERIFY2(o.finished && o.exitCode == 2, qPrintable(o.describe()));
    const QStringList lines = o.err.split('\n', Qt::SkipEmptyParts).filter("latprobe run:");
    QCOMPARE(lines.size(), 1);
    QVERIFY2(lines[0].contains("root"), qPrintable(lines[0]));
    QCOMPARE(readFile(kAutogroup), m_autogroup);
}

QTEST_GUILESS_MAIN(TestVariants)
#include "tst_variants.moc"
