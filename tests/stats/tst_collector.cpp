#include "collector.h"
#include "presets.h"
#include "statsaccumulator.h"

#include <QtTest>

using namespace latprobe;

namespace {
constexpr int64_t kStart = 1'000'000'000;
constexpr int64_t kMs = 1'000'000;

Sample sample(int64_t periodStart, int64_t lateNs, bool missed = false, uint32_t skipped = 0)
{
    Sample s;
    s.periodStart = periodStart;
    s.woke = periodStart + lateNs;
    s.done = s.woke;
    s.missedDeadline = missed;
    s.periodsSkipped = skipped;
    return s;
}
} // namespace

class TestCollector : public QObject
{
    Q_OBJECT

private slots:
    void sampledPctCountsEveryPeriodDueOnTheConsumersGrid()
    {
        // 100 periods from the run's start, then a variant's turn whose
        // consumer started afresh 25 ms into it, a third of a period off
        // the run's grid: each phase was due its 100 periods, all measured.
        // The run's grid would count 99, then 102.
        const ConsumerConfig audio = audioConsumerByPeriod(10 * kMs, 2, 5);
        const int64_t p = audio.periodNs;
        Collector c({audio}, kStart);
        for (int64_t k = 0; k < 100; ++k)
            c.add(0, sample(kStart + k * p, 100'000));
        const int64_t turn = kStart + 100 * p - p / 3;
        c.beginPhase("turn 2", {}, turn);
        const int64_t started = turn + 2 * p + p / 2;
        for (int64_t k = 0; k < 100; ++k)
            c.add(0, sample(started + k * p, 100'000));
        const std::vector<PhaseResult> phases = c.phases(started + 99 * p + p / 4);
        QCOMPARE(phases.size(), size_t{2});
        for (const PhaseResult &phase : phases) {
            QCOMPARE(phase.consumers[0].samples, uint64_t{100});
            QCOMPARE(phase.consumers[0].expected, uint64_t{100});
            QCOMPARE(phase.consumers[0].sampledPct, 100.0);
        }
    }

    void samplesGoToThePhaseTheirPeriodStartedIn()
    {
        Collector c({wakeupConsumer(1000)}, kStart);
        c.add(0, sample(kStart + 1 * kMs, 50000));
        c.add(0, sample(kStart + 2 * kMs, 60000));
        c.beginPhase("burn x2", {"burn x2"}, kStart + 3 * kMs);
        // A straggler drained after the phase began still belongs to idle.
        c.add(0, sample(kStart + 2 * kMs + 500000, 70000));
        c.add(0, sample(kStart + 3 * kMs, 4000000));
        const auto phases = c.phases(kStart + 4 * kMs);
        QCOMPARE(phases.size(), size_t{2});
        QCOMPARE(phases[0].name, std::string("idle"));
        QCOMPARE(phases[0].consumers[0].samples, uint64_t{3});
        QCOMPARE(phases[1].consumers[0].samples, uint64_t{1});
        QCOMPARE(phases[1].consumers[0].over1ms, uint64_t{1});
        QCOMPARE(phases[1].loads, std::vector<std::string>{"burn x2"});
    }

    void aPhaseIsCutIntoWholeBlocks()
    {
        // 12.4 s of 100 ms periods: blocks [0, 5) and [5, 10) are whole,
        // [10, 12.4) is under half a block and is dropped. Block 2 has the
        // late periods, one of them straggling in after block 3 began.
        ConsumerConfig audio = audioConsumerByPeriod(100 * kMs, 2, 5);
        Collector c({audio}, kStart);
        const int64_t blockNs = Collector::kBlockNs;
        for (int64_t t = 0; t < 124; ++t) {
            const int64_t start = kStart + t * 100 * kMs;
            const bool late = t == 60 || t == 61;
            if (t == 99)
                c.add(0, sample(kStart + 62 * 100 * kMs, 300 * kMs, true, 1)); // straggler
            c.add(0, sample(start, late ? 300 * kMs : 2 * kMs, late, late ? 1 : 0));
        }
        c.finish(kStart + 12'400 * kMs);
        const auto phases = c.phases(kStart + 12'400 * kMs);
        const std::vector<BlockStats> &blocks = phases[0].consumers[0].blocks;
        QCOMPARE(blocks.size(), size_t{2});
        QCOMPARE(blocks[0].startS, 0.0);
        QCOMPARE(blocks[0].durationS, 5.0);
        QCOMPARE(blocks[0].samples, uint64_t{50});
        QCOMPARE(blocks[0].misses, uint64_t{0});
        QCOMPARE(blocks[0].p99Us, int64_t{2000});
        QCOMPARE(blocks[1].startS, static_cast<double>(blockNs) / 1e9);
        QCOMPARE(blocks[1].samples, uint64_t{51});
        QCOMPARE(blocks[1].misses, uint64_t{6}); // 3 late periods, each also losing 1
        QVERIFY(blocks[1].metPct < 100);
        QCOMPARE(blocks[1].p99Us, int64_t{300000});
        // A straggler once the phase has ended counts in its totals alone.
        c.add(0, sample(kStart + 50 * kMs, 2 * kMs));
        QCOMPARE(c.phases(kStart + 12'400 * kMs)[0].consumers[0].samples, uint64_t{126});
        QCOMPARE(c.phases(kStart + 12'400 * kMs)[0].consumers[0].blocks.size(), size_t{2});
        // The window's copy leaves them out; its figures are the same.
        const PhaseResult windowCopy =
            c.phases(kStart + 12'400 * kMs, 0, Collector::Blocks::Leave)[0];
        QVERIFY(windowCopy.consumers[0].blocks.empty());
        QCOMPARE(windowCopy.consumers[0].samples, uint64_t{126});
        QCOMPARE(windowCopy.consumers[0].p99Us,
                 c.phases(kStart + 12'400 * kMs)[0].consumers[0].p99Us);
    }

    void theOpenPhaseReadsAloneAsInTheList()
    {
        // The progress line's query: the last phase's figures, the same as
        // the whole list gives for it, without its histogram.
        Collector c({wakeupConsumer(1000)}, kStart);
        QCOMPARE(c.openPhase(kStart).name, std::string("idle"));
        c.add(0, sample(kStart + 1 * kMs, 50000));
        c.beginPhase("burn x2", {"burn:2"}, kStart + 2 * kMs);
        c.add(0, sample(kStart + 3 * kMs, 70000));
        c.add(0, sample(kStart + 4 * kMs, 4000000));
        const PhaseResult open = c.openPhase(kStart + 5 * kMs);
        const PhaseResult listed = c.phases(kStart + 5 * kMs).back();
        QCOMPARE(open.name, std::string("burn x2"));
        QCOMPARE(open.consumers.size(), size_t{1});
        QCOMPARE(open.consumers[0].samples, uint64_t{2});
        QCOMPARE(open.consumers[0].samples, listed.consumers[0].samples);
        QCOMPARE(open.consumers[0].p99Us, listed.consumers[0].p99Us);
        QCOMPARE(open.durationS, listed.durationS);
        QVERIFY(open.consumers[0].histogram.empty());
        QVERIFY(open.consumers[0].blocks.empty());
    }

    void aPhaseBegunByAScenarioKeepsItsPlace()
    {
        Collector c({wakeupConsumer(1000)}, kStart);
        c.add(0, sample(kStart + 1 * kMs, 50000));
        c.beginPhase("burn x2", {"burn:2"}, kStart + 2 * kMs, {3, 2});
        const auto phases = c.phases(kStart + 4 * kMs);
        QCOMPARE(phases[0].step, -1);
        QCOMPARE(phases[0].round, 0);
        QCOMPARE(phases[1].step, 3);
        QCOMPARE(phases[1].round, 2);
    }

    void aStepMeasuringOneConsumerLeavesTheOthersOut()
    {
        // interbench's experiment: audio alone, then video alone. A sample
        // of the consumer paused meanwhile (its last period, settling late)
        // counts nowhere; the phase does not list it at all.
        ConsumerConfig audio = audioConsumerByPeriod(50 * kMs, 2, 5);
        ConsumerConfig video = videoConsumer(60, 40);
        Collector c({audio, video}, kStart);
        c.beginPhase("Audio: None", {}, kStart, {0, 1, {"audio"}});
        c.add(0, sample(kStart + 50 * kMs, 100000));
        c.add(1, sample(kStart + 16 * kMs, 100000)); // video, paused
        c.beginPhase("Video: None", {}, kStart + 100 * kMs, {1, 1, {"video"}});
        c.add(0, sample(kStart + 100 * kMs, 100000)); // audio's straggler, paused now
        c.add(1, sample(kStart + 116 * kMs, 100000));
        c.add(1, sample(kStart + 133 * kMs, 100000));
        c.beginPhase("idle", {}, kStart + 200 * kMs);
        c.add(0, sample(kStart + 200 * kMs, 100000));
        c.add(1, sample(kStart + 200 * kMs, 100000));
        const auto phases = c.phases(kStart + 300 * kMs);
        QCOMPARE(phases.size(), size_t{3});
        QCOMPARE(phases[0].consumers.size(), size_t{1});
        QVERIFY(phases[0].consumer("video") == nullptr);
        QCOMPARE(phases[0].consumer("audio")->samples, uint64_t{1});
        QVERIFY(phases[1].consumer("audio") == nullptr);
        QCOMPARE(phases[1].consumer("video")->samples, uint64_t{2});
        // A phase begun by hand measures every consumer again.
        QCOMPARE(phases[2].consumers.size(), size_t{2});
    }

    void everyRingOutlastsEightSecondsWithoutADrain_data()
    {
        QTest::addColumn<qint64>("periodNs");
        QTest::newRow("wakeup 1 ms") << qint64{1'000'000};
        QTest::newRow("audio 256 @ 48 kHz") << qint64{audioConsumer().periodNs};
        QTest::newRow("video 60 Hz") << qint64{videoConsumer(60, 40).periodNs};
        QTest::newRow("wakeup 150 us") << qint64{150'000};
    }

    void everyRingOutlastsEightSecondsWithoutADrain()
    {
        // The collector may be kept off the CPU for a while under load: a
        // ring holds 8 s of its consumer's periods before one is lost.
        QFETCH(qint64, periodNs);
        ConsumerConfig config = wakeupConsumer(1000);
        config.periodNs = periodNs;
        Collector c({config}, kStart);
        SpscRing<Sample> &ring = c.ring(0);
        const int64_t periods = Collector::kRingSpanNs / periodNs;
        for (int64_t i = 1; i <= periods; ++i)
            ring.push(sample(kStart + i * periodNs, 20000));
        QCOMPARE(ring.overflows(), uint64_t{0});
        // ...and is sized by its consumer, not by the fastest one.
        QVERIFY2(ring.capacity() < 2 * static_cast<size_t>(periods) ||
                     ring.capacity() == Collector::kMinRingCapacity,
                 qPrintable(QString::number(ring.capacity())));
        c.drain();
        QCOMPARE(c.phases(kStart + (periods + 1) * periodNs)[0].consumers[0].samples,
                 static_cast<uint64_t>(periods));
    }

    void aRingHasBounds()
    {
        ConsumerConfig fast = wakeupConsumer(50);
        QCOMPARE(Collector::ringCapacity(fast), Collector::kMaxRingCapacity);
        ConsumerConfig slow = wakeupConsumer(1'000'000);
        QCOMPARE(Collector::ringCapacity(slow), Collector::kMinRingCapacity);
    }

    void aPhaseBegunAtTheRunStartNamesTheFirstPhase()
    {
        Collector c({wakeupConsumer(1000)}, kStart);
        c.add(0, sample(kStart + 1 * kMs, 10000));
        c.beginPhase("None", {}, kStart);
        const auto phases = c.phases(kStart + 2 * kMs);
        QCOMPARE(phases.size(), size_t{1});
        QCOMPARE(phases[0].name, std::string("None"));
        QCOMPARE(phases[0].consumers[0].samples, uint64_t{1});
    }

    void firstMissOfEachPhaseAsksForOneCapture()
    {
        Collector c({audioConsumer()}, kStart);
        const int64_t p = audioConsumer().periodNs;
        c.add(0, sample(kStart + p, 20 * kMs, true, 2));
        c.add(0, sample(kStart + 5 * p, 20 * kMs, true));
        auto requests = c.takeCaptureRequests();
        QCOMPARE(requests.size(), size_t{1});
        QCOMPARE(requests[0].consumer, std::string("audio"));
        QCOMPARE(requests[0].phase, std::string("idle"));
        QVERIFY(c.takeCaptureRequests().empty());
        c.beginPhase("massive_intr x8", {}, kStart + 10 * p);
        c.add(0, sample(kStart + 11 * p, 20 * kMs, true));
        requests = c.takeCaptureRequests();
        QCOMPARE(requests.size(), size_t{1});
        QCOMPARE(requests[0].phase, std::string("massive_intr x8"));
        QCOMPARE(c.missLog().size(), size_t{3});
        QCOMPARE(c.missLog()[0].periodsLost, uint32_t{3});
    }

    void aFinishedPhaseKeepsItsFiguresThroughLaterPhases()
    {
        // Finished phases are stored compactly; nothing a report shows may change.
        const ConsumerConfig audio = audioConsumer();
        const int64_t p = audio.periodNs;
        Collector c({audio}, kStart);
        StatsAccumulator reference(audio);
        for (int64_t k = 0; k < 2000; ++k) {
            const Sample s = sample(kStart + k * p, (k * 7919) % 40000 * 1000, k % 97 == 0);
            c.add(0, s);
            reference.add(s);
        }
        const int64_t end0 = kStart + 2000 * p;
        for (int step = 1; step <= 3; ++step) {
            c.beginPhase("burn x" + std::to_string(step), {}, end0 + (step - 1) * 100 * p);
            for (int64_t k = 0; k < 100; ++k)
                c.add(0, sample(end0 + ((step - 1) * 100 + k) * p, 200000 * step));
        }
        const ConsumerStats got = c.phases(end0 + 300 * p)[0].consumers[0];
        const ConsumerStats want = reference.result(kStart, end0, kStart);
        QCOMPARE(got.samples, want.samples);
        QCOMPARE(got.p50Us, want.p50Us);
        QCOMPARE(got.p99Us, want.p99Us);
        QCOMPARE(got.p999Us, want.p999Us);
        QCOMPARE(got.maxUs, want.maxUs);
        QCOMPARE(got.misses, want.misses);
        QCOMPARE(got.histogram, reference.histogram().sparse());

        const auto misses = c.missLog();
        QCOMPARE(misses.size(), size_t{21});
        QCOMPARE(misses.front().phase, std::string("idle"));
        QCOMPARE(misses.front().consumer, std::string("audio"));
    }

    void finishedPhasesReadTheSameFromTheStore()
    {
        // Finished phases' histograms and blocks, and full miss-log chunks,
        // live in the run's temp file: the run reads as if all were in memory.
        const ConsumerConfig audio = audioConsumer();
        const int64_t p = audio.periodNs;
        const std::shared_ptr<ColdStore> store = ColdStore::open();
        QVERIFY(store);
        Collector parked({audio}, kStart, store), inMemory({audio}, kStart, nullptr);
        int64_t t = kStart;
        for (int step = 0; step < 4; ++step) {
            if (step > 0) {
                parked.beginPhase("step " + std::to_string(step), {}, t);
                inMemory.beginPhase("step " + std::to_string(step), {}, t);
            }
            for (int64_t k = 0; k < 8000; ++k, t += p) {
                const bool missed = k % 3 == 0;
                const Sample s = sample(t, (k * 7919) % 9000 * 1000, missed, missed ? 1 : 0);
                parked.add(0, s);
                inMemory.add(0, s);
            }
        }
        QVERIFY(store->bytes() > 0);
        const auto a = parked.phases(t), b = inMemory.phases(t);
        QCOMPARE(a.size(), size_t{4});
        for (size_t i = 0; i < a.size(); ++i) {
            const ConsumerStats &x = a[i].consumers[0], &y = b[i].consumers[0];
            QCOMPARE(x.histogram, y.histogram);
            QCOMPARE(x.p99Us, y.p99Us);
            QCOMPARE(x.blocks.size(), y.blocks.size());
            QVERIFY(!x.blocks.empty());
            for (size_t k = 0; k < x.blocks.size(); ++k) {
                QCOMPARE(x.blocks[k].startS, y.blocks[k].startS);
                QCOMPARE(x.blocks[k].p99Us, y.blocks[k].p99Us);
                QCOMPARE(x.blocks[k].misses, y.blocks[k].misses);
            }
        }
        const auto ma = parked.missLog(), mb = inMemory.missLog();
        QCOMPARE(ma.size(), mb.size());
        QVERIFY(ma.size() > 10'000); // more than one chunk
        QCOMPARE(ma.back().timeS, mb.back().timeS);
        QCOMPARE(ma.back().phase, std::string("step 3"));
    }

    void captureRequestsStopAtTheLimit()
    {
        const ConsumerConfig audio = audioConsumer();
        const int64_t p = audio.periodNs;
        Collector c({audio}, kStart);
        const size_t phases = Collector::kCaptureRequestLimit + 5;
        size_t requests = 0;
        for (size_t i = 0; i < phases; ++i) {
            if (i > 0)
                c.beginPhase("step " + std::to_string(i), {}, kStart + int64_t(i) * 10 * p);
            c.add(0, sample(kStart + (int64_t(i) * 10 + 1) * p, 20 * kMs, true));
            requests += c.takeCaptureRequests().size();
        }
        QCOMPARE(requests, Collector::kCaptureRequestLimit);
        QCOMPARE(c.missLog().size(), phases); // the misses themselves are all logged
    }

    void explainRequestsAreTheFirstMissesOfEachPhase()
    {
        // Off until the session asks: nothing to explain without a recorder.
        const ConsumerConfig audio = audioConsumer();
        ConsumerConfig start = audio;
        start.name = "start";
        start.kind = ConsumerKind::ProcessStart;
        const int64_t p = audio.periodNs;
        Collector c({audio, start}, kStart);
        c.add(0, sample(kStart + p, 20 * kMs, true));
        QVERIFY(c.takeExplainRequests().empty());
        c.setExplainPerPhase(2);
        for (int64_t k = 2; k < 6; ++k) {
            c.add(0, sample(kStart + k * 10 * p, 20 * kMs, true));
            c.add(1, sample(kStart + k * 10 * p, 200 * kMs, true));
        }
        auto requests = c.takeExplainRequests();
        // The first two of the phase, with what the thread saw; never a
        // start's, whose wait is for a child.
        QCOMPARE(requests.size(), size_t{2});
        QCOMPARE(requests[0].consumer, size_t{0});
        QCOMPARE(requests[0].phase, std::string("idle"));
        QCOMPARE(requests[0].sample.periodStart, kStart + 20 * p);
        QCOMPARE(requests[1].sample.periodStart, kStart + 30 * p);
        QVERIFY(c.takeExplainRequests().empty());
        // A scenario whose first step begins at the run's start names the
        // phase those misses were in: the explanations follow by index.
        c.beginPhase("hackbench x4", {}, kStart);
        QCOMPARE(c.phaseName(requests[0].phaseIndex), std::string("hackbench x4"));
        QCOMPARE(c.phaseName(99), std::string());
        c.beginPhase("burn x2", {}, kStart + 100 * p);
        c.add(0, sample(kStart + 101 * p, 20 * kMs, true));
        requests = c.takeExplainRequests();
        QCOMPARE(requests.size(), size_t{1});
        QCOMPARE(requests[0].phase, std::string("burn x2"));
        QCOMPARE(c.phaseName(requests[0].phaseIndex), std::string("burn x2"));
    }

    void explainableFromIsWhereTheNextMissesCanBegin()
    {
        // lp-explain keeps the trace from there: the earliest period start
        // of any consumer that may still ask, whatever the newest event is.
        ConsumerConfig audio = audioConsumer(), video = audioConsumer();
        video.name = "video";
        const int64_t p = audio.periodNs;
        Collector c({audio, video}, kStart);
        c.setExplainPerPhase(2);
        int64_t from = 0;
        QVERIFY(c.takeExplainRequests(&from).empty());
        QCOMPARE(from, kStart); // nothing measured yet: from the run's start
        c.add(0, sample(kStart + 500 * p, 20 * kMs, true));
        c.add(1, sample(kStart + 3 * p, 20 * kMs, true)); // video starved since
        QCOMPARE(c.takeExplainRequests(&from).size(), size_t{2});
        QCOMPARE(from, kStart + 3 * p);
        c.add(1, sample(kStart + 700 * p, 20 * kMs, true)); // video's second and last
        QCOMPARE(c.takeExplainRequests(&from).size(), size_t{1});
        QCOMPARE(from, kStart + 500 * p); // only audio may still ask
        c.add(0, sample(kStart + 800 * p, 20 * kMs, true));
        QCOMPARE(c.takeExplainRequests(&from).size(), size_t{1});
        QCOMPARE(from, std::numeric_limits<int64_t>::max()); // both done in this phase
    }

    void explainRequestsStopAtTheRunsLimit()
    {
        const ConsumerConfig audio = audioConsumer();
        const int64_t p = audio.periodNs;
        Collector c({audio}, kStart);
        c.setExplainPerPhase(100);
        size_t requests = 0;
        for (size_t i = 0; i < Collector::kExplainLimit + 50; ++i) {
            if (i % 100 == 99)
                c.beginPhase("step " + std::to_string(i), {}, kStart + int64_t(i) * 10 * p);
            c.add(0, sample(kStart + (int64_t(i) * 10 + 1) * p, 20 * kMs, true));
            requests += c.takeExplainRequests().size();
        }
        QCOMPARE(requests, Collector::kExplainLimit);
    }

    void moreAreExplainedOnDemandInTheOpenPhase()
    {
        // The run's limit reached in "idle"; the user asks for three more
        // in "burn x2": its next three misses, and no more.
        const ConsumerConfig audio = audioConsumer();
        const int64_t p = audio.periodNs;
        Collector c({audio}, kStart);
        c.setExplainPerPhase(Collector::kExplainLimit);
        size_t requests = 0;
        for (size_t i = 0; i < Collector::kExplainLimit + 10; ++i)
            c.add(0, sample(kStart + (int64_t(i) * 10 + 1) * p, 20 * kMs, true));
        requests += c.takeExplainRequests().size();
        QCOMPARE(requests, Collector::kExplainLimit);
        const int64_t burn = kStart + 10'000 * p;
        c.beginPhase("burn x2", {}, burn);
        c.add(0, sample(burn + p, 20 * kMs, true));
        QVERIFY(c.takeExplainRequests().empty());
        c.explainMore(3);
        for (int64_t k = 2; k < 8; ++k)
            c.add(0, sample(burn + k * 10 * p, 20 * kMs, true));
        const auto more = c.takeExplainRequests();
        QCOMPARE(more.size(), size_t{3});
        QCOMPARE(more[0].phase, std::string("burn x2"));
        QCOMPARE(more[0].sample.periodStart, burn + 20 * p);
        QCOMPARE(more[2].sample.periodStart, burn + 40 * p);
        // The next phase is back to the run's limit.
        c.beginPhase("idle 2", {}, burn + 1000 * p);
        c.add(0, sample(burn + 1001 * p, 20 * kMs, true));
        QVERIFY(c.takeExplainRequests().empty());
    }

    void anUntracedPhaseAsksNothingWhenItsMissesArrive()
    {
        // A step that pauses the recorder (trace_overhead.py's "off") asks
        // about none of its misses, even those drained after the next,
        // traced, step began: the phase decides, not when the drain runs.
        const ConsumerConfig audio = audioConsumer();
        const int64_t p = audio.periodNs;
        Collector c({audio}, kStart);
        c.setExplainPerPhase(4);
        const int64_t off = kStart + 100 * p, on = kStart + 200 * p;
        c.add(0, sample(kStart + p, 100'000)); // "idle" was measured: it stays
        c.takeExplainRequests();
        c.beginPhase("off", {}, off, {0, 1, {}, false});
        c.add(0, sample(off + p, 20 * kMs, true));
        QVERIFY(!c.explainMore(8)); // nothing to read back in it either
        int64_t from = 0;
        QVERIFY(c.takeExplainRequests(&from).empty());
        QCOMPARE(from, std::numeric_limits<int64_t>::max()); // lp-explain keeps nothing
        c.beginPhase("on", {}, on, {1, 1, {}, true});
        c.add(0, sample(off + 50 * p, 20 * kMs, true)); // late, of "off"
        c.add(0, sample(on + p, 20 * kMs, true));
        const auto requests = c.takeExplainRequests();
        QCOMPARE(requests.size(), size_t{1});
        QCOMPARE(requests[0].phase, std::string("on"));
        QVERIFY(c.explainMore(8));
        const auto phases = c.phases(on + 10 * p);
        QVERIFY(!phases[1].traced);
        QVERIFY(phases[2].traced);
    }

    void theChangeoverBetweenStepsCountsInNoPhase()
    {
        // A scenario ends a step's phase before it stops the step's loads,
        // and begins the next once the next loads run: a miss in between
        // (loads stopping, 976 MiB being written for a read load) is in no
        // phase, its misses asked about by none, yet the live series has it.
        const ConsumerConfig audio = audioConsumer();
        const int64_t p = audio.periodNs;
        Collector c({audio}, kStart);
        c.setExplainPerPhase(4);
        const int64_t ended = kStart + 100 * p, next = kStart + 150 * p;
        c.beginPhase("Audio: Burn", {"burn:1"}, kStart, {0, 1});
        c.add(0, sample(kStart + p, 100'000));
        c.add(0, sample(kStart + 2 * p, 20 * kMs, true));
        c.endPhase(ended);
        c.add(0, sample(ended + p, 30 * kMs, true)); // the changeover
        c.finish(ended + 10 * p);                    // no later than its end
        c.add(0, sample(ended + 20 * p, 30 * kMs, true));
        c.beginPhase("Audio: Read", {"io_read:1"}, next, {1, 1});
        c.add(0, sample(next + p, 100'000));
        c.finish(next + 10 * p);

        const auto phases = c.phases(next + 10 * p);
        QCOMPARE(phases.size(), size_t{2});
        QCOMPARE(phases[0].name, std::string("Audio: Burn"));
        QCOMPARE(phases[0].startS + phases[0].durationS, static_cast<double>(ended - kStart) / 1e9);
        QCOMPARE(phases[0].consumers[0].samples, uint64_t{2});
        QCOMPARE(phases[0].consumers[0].misses, uint64_t{1});
        QCOMPARE(phases[1].startS, static_cast<double>(next - kStart) / 1e9);
        QCOMPARE(phases[1].consumers[0].samples, uint64_t{1});
        QCOMPARE(phases[1].consumers[0].misses, uint64_t{0});
        QCOMPARE(c.takeExplainRequests().size(), size_t{1}); // the step's own miss only
        uint64_t seriesMisses = 0;
        const auto series = c.series();
        for (const SecondBucket &b : series[0])
            seriesMisses += b.misses;
        QCOMPARE(seriesMisses, uint64_t{3});
    }

    void aDiscardedPhaseGivesItsPlaceToTheNextWithNothingCounted()
    {
        // interbench's scenario starts its consumers afresh once the first
        // step's loads run: what they measured since the run began is in no
        // step, and the step is the run's first phase, not its second.
        const ConsumerConfig audio = audioConsumer();
        const int64_t p = audio.periodNs;
        Collector c({audio}, kStart);
        c.add(0, sample(kStart + p, 20 * kMs, true));
        c.discardPhase();
        c.add(0, sample(kStart + 2 * p, 20 * kMs, true)); // while the loads start
        const int64_t step = kStart + 50 * p;
        QCOMPARE(c.beginPhase("Audio: Burn", {"burn:1"}, step, {0, 1}), step);
        c.add(0, sample(kStart + 3 * p, 20 * kMs, true)); // begun before the step
        c.add(0, sample(step + p, 100'000));
        c.finish(step + 10 * p);

        const auto phases = c.phases(step + 10 * p);
        QCOMPARE(phases.size(), size_t{1});
        QCOMPARE(phases[0].name, std::string("Audio: Burn"));
        QCOMPARE(phases[0].startS, static_cast<double>(step - kStart) / 1e9);
        QCOMPARE(phases[0].consumers[0].samples, uint64_t{1});
        QCOMPARE(phases[0].consumers[0].misses, uint64_t{0});
    }

    void aStepEndedAtItsOwnStartIsStillAStep()
    {
        // A step cancelled before its start (a hand phase's start is the
        // next 100 ms boundary) stays in the run: only a discarded phase
        // gives its place to the next, or the steps' indexes would shift.
        const int64_t p = audioConsumer().periodNs;
        Collector c({audioConsumer()}, kStart);
        const int64_t step = kStart + 10 * p;
        c.beginPhase("first", {}, step, {0, 1});
        c.endPhase(kStart + 5 * p);
        c.beginPhase("second", {}, kStart + 20 * p, {1, 1});
        c.finish(kStart + 30 * p);
        const auto phases = c.phases(kStart + 30 * p);
        QCOMPARE(phases.size(), size_t{2});
        QCOMPARE(phases[0].name, std::string("first"));
        QCOMPARE(phases[0].durationS, 0.0);
        QCOMPARE(phases[1].name, std::string("second"));
    }

    void liveSeriesHasTenthsAndSeconds()
    {
        Collector c({wakeupConsumer(1000)}, kStart);
        c.add(0, sample(kStart + 10 * kMs, 100000));
        c.add(0, sample(kStart + 150 * kMs, 300000));
        c.add(0, sample(kStart + 160 * kMs, 200000));
        c.add(0, sample(kStart + 1200 * kMs, 50000));
        const auto fine = c.fineSeries(0, 0);
        QCOMPARE(fine.size(), size_t{3});
        QCOMPARE(fine[0].maxUs, int64_t{100});
        QCOMPARE(fine[1].index, int64_t{1});
        QCOMPARE(fine[1].maxUs, int64_t{300});
        QCOMPARE(fine[2].index, int64_t{12});
        QCOMPARE(c.fineSeries(0, 2).size(), size_t{1});
        const auto seconds = c.series()[0];
        QCOMPARE(seconds.size(), size_t{2});
        QCOMPARE(seconds[0].maxUs, int64_t{300});
        QCOMPARE(seconds[0].samples, uint32_t{3});
    }

    void aStallLongerThanASecondCountsItsDropsInEverySecondItCovered()
    {
        // hackbench starves the video consumer: the frame that began at
        // 0.9 s ends at 2.35 s, and the frames due meanwhile are dropped.
        const ConsumerConfig video = videoConsumer();
        Collector c({video}, kStart);
        Sample s = sample(kStart + 900 * kMs, 100000);
        s.done = kStart + 2350 * kMs;
        s.missedDeadline = true;
        int64_t next = s.periodStart + video.periodNs;
        while (next + video.slackNs < s.done) {
            next += video.periodNs;
            ++s.periodsSkipped;
        }
        c.add(0, s);
        c.add(0, sample(next, 50000));

        const std::vector<SecondBucket> seconds = c.series()[0];
        QCOMPARE(seconds.size(), size_t{3});
        uint32_t misses = 0;
        for (const SecondBucket &b : seconds)
            misses += b.misses;
        QCOMPARE(misses, 1u + s.periodsSkipped); // each drop counted once
        QCOMPARE(seconds[0].samples, 1u);
        QCOMPARE(seconds[0].misses, 1u + 5u); // its own, and the frames due by 1 s
        // The second in between had no frame at all: it shows its 60 drops.
        QCOMPARE(seconds[1].samples, 0u);
        QCOMPARE(seconds[1].maxUs, int64_t{-1});
        QCOMPARE(seconds[1].misses, 60u);
        QVERIFY(seconds[2].misses > 0);
        QCOMPARE(seconds[2].samples, 1u);
    }
};

QTEST_APPLESS_MAIN(TestCollector)
#include "tst_collector.moc"
