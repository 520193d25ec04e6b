// cyclictest's 1 us histogram: nearest-rank percentiles checked against a
// sorted array, overflow past the limit, merging; and the report's "sd",
// which must be a true standard deviation, not interbench's RMS.

#include "histogram.h"
#include "presets.h"
#include "statsaccumulator.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <stdexcept>
#include <vector>

using namespace latprobe;

namespace {

// Nearest rank on a sorted copy, in integers: the value at rank
// ceil(n * permille / 1000), 1-based.
int64_t referencePercentile(std::vector<int64_t> values, int64_t permille)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const int64_t n = static_cast<int64_t>(values.size());
    const int64_t rank = std::clamp<int64_t>((n * permille + 999) / 1000, 1, n);
    return values[rank - 1];
}

// Latencies as a loaded machine produces them: mostly tens of us, a tail
// of ms, and a few stalls past the histogram's limit.
std::vector<int64_t> latencies(size_t n, uint32_t seed, int64_t tailUs)
{
    std::mt19937 rng(seed);
    std::exponential_distribution<double> body(1.0 / 40);
    std::uniform_int_distribution<int64_t> tail(0, tailUs);
    std::uniform_int_distribution<int> pick(0, 99);
    std::vector<int64_t> out(n);
    for (int64_t &v : out)
        v = pick(rng) < 3 ? tail(rng) : static_cast<int64_t>(body(rng));
    return out;
}

const int64_t kPermilles[] = {1, 500, 900, 990, 999, 1000};

} // namespace

class TestHistogram : public QObject
{
    Q_OBJECT

private slots:
    void percentilesMatchASortedArray_data();
    void percentilesMatchASortedArray();
    void overflowValuesArrivingOutOfOrder();
    void emptyHistogramReadsZero();
    void singleValue_data();
    void singleValue();
    void sparseListsEveryValueOnce();
    void addingToACompactedHistogramCountsAsBefore();
    void aParkedHistogramAnswersFromItsStore();
    void aBucketPastThirtyTwoBitsIsRefused();
    void aTailBucketPastThirtyTwoBitsIsRefused();
    void aLoadedPhaseKeepsItsTailSparse();
    void mergeEqualsOneHistogramOfBoth_data();
    void mergeEqualsOneHistogramOfBoth();
    void bulkAddEqualsOneByOne_data();
    void bulkAddEqualsOneByOne();
    void clearForgetsEverything();
    void stddevIsATrueStandardDeviationNotTheRms_data();
    void stddevIsATrueStandardDeviationNotTheRms();
};

void TestHistogram::percentilesMatchASortedArray_data()
{
    QTest::addColumn<int>("count");
    QTest::addColumn<uint>("limitUs");
    QTest::addColumn<uint>("seed");
    QTest::addColumn<qint64>("tailUs");

    QTest::newRow("10 values, all in range") << 10 << 100000u << 1u << qint64(5000);
    QTest::newRow("1000 values, all in range") << 1000 << 100000u << 2u << qint64(5000);
    QTest::newRow("100000 values, tail in range") << 100000 << 100000u << 3u << qint64(90000);
    QTest::newRow("100000 values, tail past 100 ms") << 100000 << 100000u << 4u << qint64(2000000);
    QTest::newRow("small limit: most values overflow") << 5000 << 50u << 5u << qint64(20000);
    QTest::newRow("limit 1 us") << 5000 << 1u << 6u << qint64(20000);
    QTest::newRow("7 values, awkward ranks") << 7 << 100u << 7u << qint64(1000);
    QTest::newRow("1001 values, awkward ranks") << 1001 << 100u << 8u << qint64(1000);
}

void TestHistogram::percentilesMatchASortedArray()
{
    QFETCH(int, count);
    QFETCH(uint, limitUs);
    QFETCH(uint, seed);
    QFETCH(qint64, tailUs);

    const std::vector<int64_t> values = latencies(count, seed, tailUs);
    Histogram h(limitUs);
    for (int64_t v : values)
        h.add(v);

    QCOMPARE(h.count(), values.size());
    QCOMPARE(h.limitUs(), limitUs);
    const auto overflow =
        std::count_if(values.begin(), values.end(), [&](int64_t v) { return v >= limitUs; });
    QCOMPARE(h.overflow(), static_cast<uint64_t>(overflow));
    QList<qint64> got, expected;
    for (int64_t permille : kPermilles) {
        got.append(h.percentile(permille / 1000.0));
        expected.append(referencePercentile(values, permille));
    }
    QCOMPARE(got, expected);

    // A finished phase's histogram is compacted: it must answer the same.
    const auto sparseBefore = h.sparse();
    h.compact();
    QVERIFY(h.isCompact());
    QCOMPARE(h.count(), values.size());
    QCOMPARE(h.overflow(), static_cast<uint64_t>(overflow));
    QCOMPARE(h.sparse(), sparseBefore);
    got.clear();
    for (int64_t permille : kPermilles)
        got.append(h.percentile(permille / 1000.0));
    QCOMPARE(got, expected);
}

void TestHistogram::overflowValuesArrivingOutOfOrder()
{
    // Three stalls past the limit, the middle one shortest.
    Histogram h(100);
    for (int64_t v : {150, 120, 200})
        h.add(v);
    const QList<qint64> got = {h.percentile(1.0 / 3), h.percentile(2.0 / 3), h.percentile(1.0)};
    QCOMPARE(got, (QList<qint64>{120, 150, 200}));
}

void TestHistogram::emptyHistogramReadsZero()
{
    const Histogram h;
    QCOMPARE(h.count(), 0u);
    QCOMPARE(h.overflow(), 0u);
    QCOMPARE(h.percentile(0.5), 0);
    QCOMPARE(h.percentile(0.999), 0);
    QCOMPARE(h.percentile(1.0), 0);
    QVERIFY(h.sparse().empty());
    QCOMPARE(h.limitUs(), 100000u);
}

void TestHistogram::singleValue_data()
{
    QTest::addColumn<qint64>("value");
    QTest::addColumn<uint>("overflow");
    QTest::newRow("0 us") << qint64(0) << 0u;
    QTest::newRow("37 us") << qint64(37) << 0u;
    QTest::newRow("last bucket") << qint64(99999) << 0u;
    QTest::newRow("at the limit") << qint64(100000) << 1u;
    QTest::newRow("a 3 s stall") << qint64(3000000) << 1u;
    QTest::newRow("negative is clamped to 0") << qint64(-5) << 0u;
}

void TestHistogram::singleValue()
{
    QFETCH(qint64, value);
    QFETCH(uint, overflow);

    Histogram h;
    h.add(value);
    const int64_t stored = std::max<int64_t>(value, 0);
    QCOMPARE(h.count(), 1u);
    QCOMPARE(h.overflow(), static_cast<uint64_t>(overflow));
    for (double q : {0.001, 0.5, 0.9, 0.99, 0.999, 1.0})
        QCOMPARE(h.percentile(q), stored);
    const auto sparse = h.sparse();
    QCOMPARE(sparse.size(), 1u);
    QCOMPARE(sparse.front().first, stored);
    QCOMPARE(sparse.front().second, 1u);
}

void TestHistogram::sparseListsEveryValueOnce()
{
    Histogram h(100);
    for (int64_t v : {5, 5, 7, 250, 99, 250, 100, 5})
        h.add(v);
    const std::vector<std::pair<int64_t, uint64_t>> expected = {
        {5, 3}, {7, 1}, {99, 1}, {100, 1}, {250, 2}};
    QCOMPARE(h.sparse(), expected);
}

void TestHistogram::addingToACompactedHistogramCountsAsBefore()
{
    // A straggler sample can reach a phase that was already finished.
    const std::vector<int64_t> values = latencies(20000, 21, 150000);
    Histogram plain, compacted;
    for (size_t i = 0; i < values.size(); ++i) {
        plain.add(values[i]);
        compacted.add(values[i]);
        if (i % 5000 == 2500)
            compacted.compact(); // and the next add() makes it dense again
    }
    QVERIFY(!compacted.isCompact());
    QCOMPARE(compacted.count(), plain.count());
    QCOMPARE(compacted.overflow(), plain.overflow());
    QCOMPARE(compacted.sparse(), plain.sparse());
    for (int64_t permille : kPermilles)
        QCOMPARE(compacted.percentile(permille / 1000.0), referencePercentile(values, permille));
    compacted.clear();
    QCOMPARE(compacted.count(), 0u);
    QCOMPARE(compacted.sparse().size(), 0u);
}

void TestHistogram::aParkedHistogramAnswersFromItsStore()
{
    // A finished phase's buckets go to the run's temp file: every query
    // reads them back, and a straggler brings them into memory again.
    const std::shared_ptr<ColdStore> store = ColdStore::open();
    QVERIFY(store);
    const std::vector<int64_t> values = latencies(20000, 33, 150000);
    Histogram plain, parked;
    for (int64_t v : values) {
        plain.add(v);
        parked.add(v);
    }
    parked.compact(store);
    QVERIFY(parked.isParked());
    QVERIFY(store->bytes() > 0);
    // What stays in memory is the overflow values only.
    QCOMPARE(parked.bucketBytes(), parked.overflow() * sizeof(int64_t));
    QCOMPARE(parked.sparse(), plain.sparse());
    for (int64_t permille : kPermilles)
        QCOMPARE(parked.percentile(permille / 1000.0), referencePercentile(values, permille));

    parked.add(42);
    plain.add(42);
    QVERIFY(!parked.isParked());
    QVERIFY(!parked.isCompact());
    QCOMPARE(parked.sparse(), plain.sparse());

    // The accumulator keeps a parked phase's percentiles: the same figures.
    StatsAccumulator live(wakeupConsumer());
    StatsAccumulator done = live;
    for (int64_t v : values) {
        Sample s;
        s.periodStart = 0;
        s.woke = v * 1000;
        s.done = s.woke;
        live.add(s);
        done.add(s);
    }
    done.compact(store);
    const ConsumerStats a = live.result(0, 20'000'000'000, 0),
                        b = done.result(0, 20'000'000'000, 0);
    QCOMPARE(b.p50Us, a.p50Us);
    QCOMPARE(b.p90Us, a.p90Us);
    QCOMPARE(b.p99Us, a.p99Us);
    QCOMPARE(b.p999Us, a.p999Us);
    QCOMPARE(b.histogram, a.histogram);
}

void TestHistogram::aBucketPastThirtyTwoBitsIsRefused()
{
    Histogram h(100);
    h.add(5, UINT32_MAX - 1);
    h.add(5, 1);
    QVERIFY_THROWS_EXCEPTION(std::overflow_error, h.add(5, 1));
    QCOMPARE(h.count(), uint64_t{UINT32_MAX}); // unchanged by the refused add
    QCOMPARE(h.percentile(1.0), 5);
}

void TestHistogram::aTailBucketPastThirtyTwoBitsIsRefused()
{
    const int64_t tail = Histogram::kDenseUs + 808;
    Histogram h;
    h.add(tail, UINT32_MAX - 1);
    h.add(tail);
    QVERIFY_THROWS_EXCEPTION(std::overflow_error, h.add(tail, 2));
    QCOMPARE(h.count(), uint64_t{UINT32_MAX});
    QCOMPARE(h.percentile(1.0), tail);
    // A single sample waits to be folded in: the fold refuses it.
    h.add(tail);
    QVERIFY_THROWS_EXCEPTION(std::overflow_error, h.percentile(0.5));
}

void TestHistogram::aLoadedPhaseKeepsItsTailSparse()
{
    // A hackbench phase: 3 % of the wakeups late by up to 100 ms, queried
    // now and then as the live view does (each query folds what waits).
    const std::vector<int64_t> values = latencies(200000, 31, 100000);
    Histogram h;
    std::vector<int64_t> seen;
    for (size_t i = 0; i < values.size(); ++i) {
        h.add(values[i]);
        seen.push_back(values[i]);
        if (i % 7919 == 0)
            QCOMPARE(h.percentile(0.99), referencePercentile(seen, 990));
    }
    for (int64_t permille : kPermilles)
        QCOMPARE(h.percentile(permille / 1000.0), referencePercentile(values, permille));
    std::map<int64_t, uint64_t> counts;
    for (int64_t v : values)
        ++counts[v];
    using Buckets = std::vector<std::pair<int64_t, uint64_t>>;
    const Buckets expected(counts.begin(), counts.end());
    QCOMPARE(h.sparse(), expected);
    // One dense bucket per µs up to the largest value would be 400 KB.
    const size_t dense = sizeof(uint32_t) * static_cast<size_t>(h.percentile(1.0));
    QVERIFY2(h.bucketBytes() < dense / 4,
             qPrintable(QString("%1 bytes of buckets").arg(h.bucketBytes())));
    h.compact();
    // Packed, a bucket below the limit costs one byte when it is a few µs
    // past the last with a small count, and the bulk of an hour-long run's
    // memory is such buckets: under two bytes on average where (µs, count)
    // took eight and a varint gap and count three. The values past the
    // limit keep eight bytes each.
    const size_t packedBytes = h.bucketBytes() - h.overflow() * sizeof(int64_t);
    const size_t below =
        expected.size() -
        static_cast<size_t>(std::count_if(expected.begin(), expected.end(),
                                          [](const auto &b) { return b.first >= 100000; }));
    QVERIFY2(packedBytes * 10 <= 19 * below,
             qPrintable(QString("%1 bytes for %2 buckets").arg(packedBytes).arg(below)));
    QCOMPARE(h.sparse(), expected);
    for (int64_t permille : kPermilles)
        QCOMPARE(h.percentile(permille / 1000.0), referencePercentile(values, permille));
}

void TestHistogram::mergeEqualsOneHistogramOfBoth_data()
{
    QTest::addColumn<uint>("limitA");
    QTest::addColumn<uint>("limitB");
    QTest::addColumn<bool>("compactBoth");
    QTest::newRow("same limits") << 1000u << 1000u << false;
    QTest::newRow("other's limit is larger") << 1000u << 100000u << false;
    QTest::newRow("other's limit is smaller") << 100000u << 1000u << false;
    QTest::newRow("both compacted, other's limit larger") << 1000u << 100000u << true;
    QTest::newRow("both compacted, other's limit smaller") << 100000u << 1000u << true;
}

void TestHistogram::mergeEqualsOneHistogramOfBoth()
{
    QFETCH(uint, limitA);
    QFETCH(uint, limitB);
    QFETCH(bool, compactBoth);

    const std::vector<int64_t> a = latencies(20000, 11, 50000);
    const std::vector<int64_t> b = latencies(30000, 12, 50000);
    Histogram ha(limitA), hb(limitB), whole(limitA);
    for (int64_t v : a) {
        ha.add(v);
        whole.add(v);
    }
    for (int64_t v : b) {
        hb.add(v);
        whole.add(v);
    }
    if (compactBoth) {
        ha.compact();
        hb.compact();
    }
    ha.merge(hb);

    std::vector<int64_t> both = a;
    both.insert(both.end(), b.begin(), b.end());
    QCOMPARE(ha.count(), both.size());
    QCOMPARE(ha.limitUs(), limitA);
    QCOMPARE(ha.overflow(), whole.overflow());
    QCOMPARE(ha.sparse(), whole.sparse());
    for (int64_t permille : kPermilles)
        QCOMPARE(ha.percentile(permille / 1000.0), referencePercentile(both, permille));
}

void TestHistogram::bulkAddEqualsOneByOne_data()
{
    QTest::addColumn<QList<qint64>>("values");
    QTest::addColumn<QList<qint64>>("counts");
    QTest::newRow("in range") << QList<qint64>{3, 120, 3, 99} << QList<qint64>{17, 5000, 2, 1};
    QTest::newRow("past the limit")
        << QList<qint64>{150, 120, 5, 100, 250000} << QList<qint64>{3, 2, 40, 1, 1};
    QTest::newRow("zero count") << QList<qint64>{7, 150} << QList<qint64>{0, 0};
}

void TestHistogram::bulkAddEqualsOneByOne()
{
    // What a run file's (us, count) pairs are read back with.
    QFETCH(QList<qint64>, values);
    QFETCH(QList<qint64>, counts);

    Histogram bulk(100), single(100);
    std::vector<int64_t> all;
    for (qsizetype i = 0; i < values.size(); ++i) {
        bulk.add(values[i], static_cast<uint64_t>(counts[i]));
        for (qint64 k = 0; k < counts[i]; ++k) {
            single.add(values[i]);
            all.push_back(values[i]);
        }
    }
    QCOMPARE(bulk.count(), all.size());
    QCOMPARE(bulk.overflow(), single.overflow());
    QCOMPARE(bulk.sparse(), single.sparse());
    QList<qint64> got, expected;
    for (int64_t permille : kPermilles) {
        got.append(bulk.percentile(permille / 1000.0));
        expected.append(referencePercentile(all, permille));
    }
    QCOMPARE(got, expected);
}

void TestHistogram::clearForgetsEverything()
{
    Histogram h(10);
    for (int64_t v : {1, 2, 50, 3})
        h.add(v);
    h.clear();
    QCOMPARE(h.count(), 0u);
    QCOMPARE(h.overflow(), 0u);
    QCOMPARE(h.percentile(1.0), 0);
    h.add(4);
    QCOMPARE(h.percentile(1.0), 4);
}

void TestHistogram::stddevIsATrueStandardDeviationNotTheRms_data()
{
    QTest::addColumn<std::vector<int64_t>>("latenciesUs");
    QTest::newRow("steady 100 us: sd 0, rms 100") << std::vector<int64_t>(50, 100);
    QTest::newRow("100 and 300 us: sd 100") << std::vector<int64_t>{100, 300, 100, 300};
    QTest::newRow("one sample") << std::vector<int64_t>{42};
    QTest::newRow("loaded machine") << latencies(10000, 21, 8000);
    QTest::newRow("large values") << std::vector<int64_t>{1000000, 1000001, 1000002, 1000003};
}

void TestHistogram::stddevIsATrueStandardDeviationNotTheRms()
{
    QFETCH(std::vector<int64_t>, latenciesUs);

    // An audio consumer that meets every deadline: interbench's latency is
    // then the plain latency, so its "SD" (an RMS) is comparable.
    const ConsumerConfig audio = audioConsumerByPeriod(10000000, 2, 10);
    StatsAccumulator acc(audio);
    int64_t t = 1000000000;
    for (int64_t us : latenciesUs) {
        t += audio.periodNs;
        Sample s;
        s.periodStart = t;
        s.woke = t + us * 1000 + 999; // truncation must not move the figures
        s.done = s.woke + audio.workNs;
        s.workDone = audio.workNs;
        acc.add(s);
    }
    const ConsumerStats r = acc.result(0, t + 1, 0);

    const double n = static_cast<double>(latenciesUs.size());
    double sum = 0, sumSq = 0;
    for (int64_t v : latenciesUs) {
        sum += static_cast<double>(v);
        sumSq += static_cast<double>(v) * static_cast<double>(v);
    }
    const double mean = sum / n;
    double squares = 0;
    for (int64_t v : latenciesUs)
        squares += (static_cast<double>(v) - mean) * (static_cast<double>(v) - mean);
    const double sd = std::sqrt(squares / n);
    const double rms = std::sqrt(sumSq / n);

    QCOMPARE(r.meanUs, mean);
    // qFuzzyCompare cannot compare with 0; compare the offset values instead.
    QCOMPARE(r.stddevUs + 1.0, sd + 1.0);
    QCOMPARE(r.ibLatencyMeanUs, mean);
    QCOMPARE(r.ibLatencyRmsUs, rms);
    // The two are related, and only the RMS can never be below the mean.
    QCOMPARE(r.ibLatencyRmsUs * r.ibLatencyRmsUs, r.meanUs * r.meanUs + r.stddevUs * r.stddevUs);
    QVERIFY(r.ibLatencyRmsUs >= r.meanUs);
}

QTEST_GUILESS_MAIN(TestHistogram)
#include "tst_histogram.moc"
