// A session's sched_ext variants on a fake machine (faketree.h), with the
// real guardian (the latprobe binary, LATPROBE_BINARY) and real measuring
// threads: a scheduler that exits, or leaves and comes back, mid-round
// leaves that round out and the run goes on, starting it again; and where
// scx_loader's D-Bus service runs (on a private bus, privatebus.h), the run
// switches through it.

#include "faketree.h"
#include "presets.h"
#include "privatebus.h"
#include "realclock.h"
#include "report.h"
#include "session.h"
#include "variantcompare.h"
#include "varianttext.h"

#include <QDir>
#include <QRegularExpression>
#include <QTest>

#include <atomic>
#include <cmath>
#include <mutex>

using namespace latprobe;
using latprobe::test::variant;

namespace {

SessionOptions onFake(const FakeTree &tree)
{
    SessionOptions o;
    o.consumers = {wakeupConsumer(1000)};
    o.runName = "test";
    o.trace = false;
    o.knobs = tree.env();
    return o;
}

// lavd's turn, each 1 s step: base, lavd; lavd, base; base, lavd.
Scenario threeRounds(const FakeTree &tree)
{
    Scenario s;
    s.name = "ab";
    s.rounds = 3;
    s.settleS = 0.2;
    s.steps = {{"idle", 1.0, {}}};
    s.variants = {variant("base:"),
                  variant("lavd:scx=scx_fake " + tree.path("sys/kernel/sched_ext"))};
    return s;
}

// Makes the fake scheduler exit (trigger "quit") 0.3 s into round 2's lavd
// step, or the "kernel" count a reload the state never showed
// ("enable_seq": as a Rust scheduler's reload between two looks leaves it,
// at once, where the fake's own reload would race a loaded machine), and
// notes the state of sched_ext as each phase begins.
class Saboteur : public SessionObserver
{
public:
    Saboteur(FakeTree &tree, QString trigger) : m_tree(tree), m_trigger(std::move(trigger)) {}
    Session *session = nullptr;

    void scenarioProgressed(const ScenarioProgress &p) override
    {
        if (m_quitAt.load() || p.round != 2 || p.variant.rfind("lavd", 0) != 0 || p.settling ||
            p.stepElapsedS < 0.3)
            return;
        const QString file = "sys/kernel/sched_ext/" + m_trigger;
        m_tree.write(file, m_trigger == "enable_seq"
                               ? QByteArray::number(m_tree.read(file).toInt() + 1) + "\n"
                               : QByteArray());
        m_quitAt = RealClock::monotonicNow() - session->runStart();
    }
    void phaseBegun(const PhaseMark &mark, bool) override
    {
        std::lock_guard lock(m_mutex);
        m_stateAtBegin.push_back({static_cast<double>(mark.start - session->runStart()) / 1e9,
                                  m_tree.read("sys/kernel/sched_ext/state")});
    }
    double quitAtS() const { return static_cast<double>(m_quitAt.load()) / 1e9; }
    QString stateAt(double startS)
    {
        std::lock_guard lock(m_mutex);
        for (const auto &[s, state] : m_stateAtBegin)
            if (std::abs(s - startS) < 1e-3)
                return state;
        return "<no such phase>";
    }

private:
    FakeTree &m_tree;
    QString m_trigger;
    std::atomic<int64_t> m_quitAt{0};
    std::mutex m_mutex;
    std::vector<std::pair<double, QString>> m_stateAtBegin;
};

} // namespace

class TestScxVariants : public QObject
{
    Q_OBJECT

private slots:
    void aRoundWhoseSchedulerLeavesIsLeftOut_data()
    {
        QTest::addColumn<QString>("trigger");
        QTest::addColumn<QString>("why");
        // "exited" once the guardian reaped it, "ejected" if it looked
        // between the state file and the exit: either way, not in force.
        QTest::newRow("it exits")
            << "quit"
            << "^round 2: .*scx_fake.* mid-round \\(state: disabl(ed|ing).*\\); "
               "round left out$";
        QTest::newRow("it reloads unseen")
            << "enable_seq"
            << "^round 2: scx_fake left and came back mid-round \\(enable_seq 4, then 5\\); "
               "round left out$";
    }

    void aRoundWhoseSchedulerLeavesIsLeftOut()
    {
        QFETCH(QString, trigger);
        QFETCH(QString, why);
        FakeTree tree;
        Saboteur saboteur(tree, trigger);
        Session session(onFake(tree), &saboteur);
        saboteur.session = &session;
        session.start();
        QCOMPARE(session.playScenario(threeRounds(tree), {true, true}), std::string());
        QCOMPARE(session.waitForScenario(), RunEnd::Completed);
        const Run run = session.finish(RunEnd::Completed);
        QVERIFY(saboteur.quitAtS() > 0);

        QCOMPARE(run.phases.size(), size_t{6});
        const std::string leftOut = run.phases[2].leftOut;
        QVERIFY2(QString::fromStdString(leftOut).contains(QRegularExpression(why)),
                 leftOut.c_str());
        for (const PhaseResult &p : run.phases) {
            const double endS = p.startS + p.durationS;
            const bool containsQuit = p.startS <= saboteur.quitAtS() && saboteur.quitAtS() < endS;
            QCOMPARE(p.leftOut, p.round == 2 ? leftOut : std::string());
            if (p.variant != "lavd")
                continue;
            // Round 2's lavd ended as it was seen to exit; every lavd phase
            // counted began in force, and none held the exit.
            if (p.round == 2) {
                QVERIFY(containsQuit);
            } else {
                QVERIFY(!containsQuit);
                QCOMPARE(saboteur.stateAt(p.startS), QString("enabled"));
                QVERIFY(p.consumers.at(0).samples > 0);
            }
        }
        // The comparison has rounds 1 and 3 of each, and the report says why.
        for (const Run &part : splitByVariant(run)) {
            QCOMPARE(part.phases.size(), size_t{2});
            for (const PhaseResult &p : part.phases)
                QVERIFY(p.round != 2);
        }
        const QString report = QString::fromStdString(formatTextReport(run));
        QCOMPARE(report.split('\n').count(QString::fromStdString(leftOut)), 1);
        QCOMPARE(tree.read("sys/kernel/sched_ext/state"), QString("disabled"));
        QCOMPARE(QDir(tree.path("run")).entryList({"*.lock"}, QDir::Files), QStringList());
    }

    void aRunSwitchesThroughScxLoaderWhereItRuns()
    {
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
        // clang-14's runtime fails a CHECK (in its ForkAfter) in the child
        // QProcess clones for dbus-daemon; the default and asan builds run it.
        QSKIP("QProcess's clone trips clang-14's TSan runtime");
#endif
#endif
        FakeTree tree;
        PrivateBus bus;
        QCOMPARE(bus.start(), QString());
        FakeScxLoader loader;
        const QString dir = tree.path("sys/kernel/sched_ext");
        QCOMPARE(loader.start(dir, tree.path("dev/kmsg"), {"scx_fake"}), QString());
        Session session(onFake(tree));
        session.start();
        Scenario s = threeRounds(tree);
        s.rounds = 1;
        QCOMPARE(session.playScenario(s, {true, true}), std::string());
        QCOMPARE(session.waitForScenario(), RunEnd::Completed);
        const Run run = session.finish(RunEnd::Completed);
        QCOMPARE(loader.calls(),
                 (QStringList{"SwitchSchedulerWithArgs scx_fake " + dir, "StopScheduler"}));
        QCOMPARE(run.phases.size(), size_t{2});
        QCOMPARE(run.phases[1].variant, std::string("lavd"));
        QVERIFY(run.phases[1].leftOut.empty());
        QVERIFY(run.phases[1].consumers.at(0).samples > 0);
        QCOMPARE(run.variants.at(1).changes.at(0).applied, "scx_fake " + dir.toStdString());
        QCOMPARE(run.variants.at(1).changes.at(0).restored, std::string("none"));
        QCOMPARE(tree.read("sys/kernel/sched_ext/state"), QString("disabled"));
    }
};

QTEST_GUILESS_MAIN(TestScxVariants)
#include "tst_scxvariants.moc"
