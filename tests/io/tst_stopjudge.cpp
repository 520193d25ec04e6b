#include "stopjudge.h"

#include <QtTest>

using namespace latprobe;

namespace {

// A phase of `blocks` 5 s blocks whose audio misses are `audio[i]` in block
// i (repeated if shorter), video none, and a wakeup consumer with an absurd
// count that no stop condition names.
PhaseResult phase(const std::string &name, std::vector<uint64_t> audio, size_t blocks = 6,
                  uint64_t videoMisses = 0)
{
    PhaseResult p;
    p.name = name;
    p.durationS = 5.0 * static_cast<double>(blocks);
    ConsumerStats a;
    a.name = "audio";
    a.samples = 1000 * blocks;
    for (size_t i = 0; i < blocks; ++i) {
        BlockStats b;
        b.durationS = 5;
        b.samples = 1000;
        b.misses = audio.empty() ? 0 : audio[i % audio.size()];
        a.misses += b.misses;
        a.blocks.push_back(b);
    }
    ConsumerStats v;
    v.name = "video";
    v.samples = 300 * blocks;
    v.misses = videoMisses;
    for (size_t i = 0; i < blocks; ++i) {
        BlockStats b;
        b.durationS = 5;
        b.samples = 300;
        b.misses = i == 0 ? videoMisses : 0;
        v.blocks.push_back(b);
    }
    ConsumerStats w;
    w.name = "wakeup";
    w.samples = 5000;
    w.misses = 999;
    p.consumers = {a, v, w};
    return p;
}

StopCondition aboveBaseline()
{
    StopCondition stop;
    stop.consumers = {"audio", "video"};
    stop.aboveBaseline = true;
    return stop;
}

using D = StopJudge::Decision;

} // namespace

class TestStopJudge : public QObject
{
    Q_OBJECT

private slots:
    void countModeStopsAtTheFirstStepPastTheCount_data()
    {
        QTest::addColumn<QList<int>>("audioMisses");
        QTest::addColumn<int>("over");
        QTest::addColumn<int>("expectedPhase");
        QTest::addColumn<QString>("answer");
        QTest::newRow("never") << QList<int>{0, 0, 0} << 0 << -1
                               << "no threshold reached up to step 3";
        QTest::newRow("skips at step 3") << QList<int>{0, 0, 1} << 0 << 2
                                         << "usable up to step 2 (step 3 has more than 0 misses)";
        QTest::newRow("a few misses allowed")
            << QList<int>{0, 2, 6} << 5 << 2
            << "usable up to step 2 (step 3 has more than 5 misses)";
        QTest::newRow("idle already misses")
            << QList<int>{1, 0} << 0 << 0
            << "usable up to: none of the steps (step 1 has more than 0 misses)";
    }

    void countModeStopsAtTheFirstStepPastTheCount()
    {
        QFETCH(QList<int>, audioMisses);
        QFETCH(int, over);
        QFETCH(int, expectedPhase);
        QFETCH(QString, answer);
        StopCondition stop;
        stop.consumers = {"audio", "video"};
        stop.missesOver = static_cast<uint64_t>(over);
        StopJudge judge(stop);
        for (int i = 0; i < audioMisses.size(); ++i) {
            const auto misses = static_cast<uint64_t>(audioMisses[i]);
            const D d = judge.stepEnded(i, phase("step " + std::to_string(i + 1), {misses}, 1));
            QCOMPARE(d, i == expectedPhase ? D::Stop : D::Continue);
            if (d == D::Stop)
                break;
        }
        QCOMPARE(judge.thresholdPhase(), expectedPhase);
        QCOMPARE(QString::fromStdString(judge.verdict().at(0)), answer);
    }

    void idleMissesAreTheBaselineNotTheThreshold()
    {
        // The seed complaint: a VM with a few idle misses ended every ramp at
        // "idle". The same rate under load is no worse than idle.
        StopJudge judge(aboveBaseline());
        QCOMPARE(judge.stepEnded(0, phase("idle", {1, 0, 0, 1, 0, 0})), D::Continue);
        QCOMPARE(judge.stepEnded(1, phase("massive_intr x10", {0, 1, 0, 0, 1, 0})), D::Continue);
        QCOMPARE(judge.stepEnded(2, phase("massive_intr x20", {0, 0, 1, 0, 0, 1})), D::Continue);
        QCOMPARE(judge.thresholdPhase(), -1);
        const std::vector<std::string> lines = judge.verdict();
        QCOMPARE(lines.at(0), std::string("no threshold reached up to massive_intr x20"));
        QCOMPARE(lines.at(1),
                 std::string("baseline idle: audio 4.0/min, video 0.0/min (6 blocks of 5 s)"));
        QVERIFY2(lines.at(2).find("massive_intr x10: audio 4.0/min ~") == 0, lines.at(2).c_str());
    }

    void aStepWorseTwiceInARowIsTheThreshold()
    {
        StopJudge judge(aboveBaseline());
        QCOMPARE(judge.stepEnded(0, phase("idle", {0})), D::Continue);
        QCOMPARE(judge.stepEnded(1, phase("massive_intr x10", {0})), D::Continue);
        QCOMPARE(judge.stepEnded(2, phase("massive_intr x20", {3, 5, 4, 6, 2, 4})), D::Repeat);
        QCOMPARE(judge.thresholdPhase(), -1);
        QCOMPARE(judge.stepEnded(2, phase("massive_intr x20 (again)", {4, 4, 5, 3, 6, 2})),
                 D::Stop);
        // The threshold is the step's first phase; the repeat confirmed it.
        QCOMPARE(judge.thresholdPhase(), 2);
        const std::vector<std::string> lines = judge.verdict();
        QCOMPARE(lines.at(0),
                 std::string("usable up to massive_intr x10 (massive_intr x20 misses more than "
                             "idle, twice)"));
        QVERIFY2(lines.at(3).find("massive_intr x20: audio 48.0/min worse") == 0,
                 lines.at(3).c_str());
        QVERIFY2(lines.at(3).find("playing it again") != std::string::npos, lines.at(3).c_str());
        QVERIFY2(lines.at(4).find("massive_intr x20 again: audio 48.0/min worse") == 0,
                 lines.at(4).c_str());
        QVERIFY2(lines.at(4).find("confirmed") != std::string::npos, lines.at(4).c_str());
    }

    void aRepeatThatPassesWasNoise()
    {
        StopJudge judge(aboveBaseline());
        judge.stepEnded(0, phase("idle", {0}));
        QCOMPARE(judge.stepEnded(1, phase("burn x2", {3, 5, 4, 6, 2, 4})), D::Repeat);
        QCOMPARE(judge.stepEnded(1, phase("burn x2 (again)", {0})), D::Continue);
        QCOMPARE(judge.stepEnded(2, phase("burn x4", {0})), D::Continue);
        QCOMPARE(judge.thresholdPhase(), -1);
        const std::vector<std::string> lines = judge.verdict();
        QCOMPARE(lines.at(0), std::string("no threshold reached up to burn x4"));
        QVERIFY2(lines.at(3).find("burn x2 again: audio 0.0/min ~, video 0.0/min ~ (the first "
                                  "try was noise)") == 0,
                 lines.at(3).c_str());
    }

    void oneBadBlockIsNotSignificant()
    {
        // 30 misses in one 5 s block and none in the others: a host hiccup,
        // not a loaded desktop.
        StopJudge judge(aboveBaseline());
        judge.stepEnded(0, phase("idle", {0}));
        QCOMPARE(judge.stepEnded(1, phase("burn x2", {30, 0, 0, 0, 0, 0})), D::Continue);
    }

    void theFirstLoadedStepFailingLeavesNothingUsable()
    {
        StopJudge judge(aboveBaseline());
        judge.stepEnded(0, phase("idle", {0}));
        QCOMPARE(judge.stepEnded(1, phase("hackbench x8", {9, 8, 7, 9, 8, 7})), D::Repeat);
        QCOMPARE(judge.stepEnded(1, phase("hackbench x8", {9, 8, 7, 9, 8, 7})), D::Stop);
        QCOMPARE(judge.thresholdPhase(), 1);
        QCOMPARE(judge.verdict().at(0),
                 std::string("usable up to: none of the steps (hackbench x8 misses more than "
                             "idle, twice)"));
    }

    void tooShortStepsSayWhyTheyCannotFail()
    {
        StopJudge judge(aboveBaseline());
        judge.stepEnded(0, phase("idle", {0}, 2));
        QCOMPARE(judge.stepEnded(1, phase("burn x2", {9}, 2)), D::Continue);
        QVERIFY2(judge.verdict().at(2).find("too few blocks") != std::string::npos,
                 judge.verdict().at(2).c_str());
    }

    void nothingEndedNothingToSay() { QVERIFY(StopJudge(aboveBaseline()).verdict().empty()); }
};

QTEST_APPLESS_MAIN(TestStopJudge)
#include "tst_stopjudge.moc"
