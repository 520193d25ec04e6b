// A consumer's per-second series keeps only its newest chunks in memory
// when the run has a store: what goes in comes out, old seconds included.

#include "secondseries.h"

#include <QTest>

#include <random>
#include <vector>

using namespace latprobe;

namespace {

bool same(const SecondBucket &a, const SecondBucket &b)
{
    return a.maxUs == b.maxUs && a.samples == b.samples && a.misses == b.misses;
}

// An hour of a consumer, a second at a time, as the collector fills it.
std::vector<SecondBucket> fill(SecondSeries &series, size_t seconds)
{
    std::vector<SecondBucket> in(seconds);
    std::mt19937_64 random(3);
    for (size_t s = 0; s < seconds; ++s) {
        series.grow(s + 1);
        SecondBucket &b = series.at(s);
        b.maxUs = static_cast<int64_t>(random() % 100'000);
        b.samples = static_cast<uint32_t>(100 + random() % 5);
        b.misses = static_cast<uint32_t>(random() % 3);
        in[s] = b;
    }
    return in;
}

void expectSame(const std::vector<SecondBucket> &out, const std::vector<SecondBucket> &in)
{
    QCOMPARE(out.size(), in.size());
    for (size_t s = 0; s < in.size(); ++s)
        QVERIFY2(same(out[s], in[s]), qPrintable(QString("second %1").arg(s)));
}

} // namespace

class TestSecondSeries : public QObject
{
    Q_OBJECT

private slots:
    void anHourComesBackWithAndWithoutAStore();
    void onlyTheNewestChunksStayInMemory();
    void aLateWriteToAParkedSecondIsKept();
    void newSecondsAreEmpty();
};

void TestSecondSeries::anHourComesBackWithAndWithoutAStore()
{
    const std::shared_ptr<ColdStore> store = ColdStore::open();
    QVERIFY(store);
    SecondSeries inMemory, parked(store);
    const std::vector<SecondBucket> in = fill(inMemory, 3600);
    fill(parked, 3600);
    expectSame(inMemory.all(), in);
    expectSame(parked.all(), in);
    // A length that ends inside a chunk.
    SecondSeries odd(store);
    expectSame(odd.all(), {});
    const std::vector<SecondBucket> oddIn = fill(odd, 1000);
    expectSame(odd.all(), oddIn);
}

void TestSecondSeries::onlyTheNewestChunksStayInMemory()
{
    // Held in memory, the series of a four-consumer window grew it by
    // 230 KB an hour (issue 15's soak).
    const std::shared_ptr<ColdStore> store = ColdStore::open();
    QVERIFY(store);
    SecondSeries inMemory, parked(store);
    fill(inMemory, 3600);
    fill(parked, 3600);
    const size_t chunkBytes = SecondSeries::kChunkSeconds * sizeof(SecondBucket);
    QVERIFY2(inMemory.bytes() >= 3600 * sizeof(SecondBucket),
             qPrintable(QString("%1 bytes in memory").arg(inMemory.bytes())));
    QVERIFY2(parked.bytes() <= 2 * chunkBytes + 1024,
             qPrintable(QString("%1 bytes held with a store").arg(parked.bytes())));
    QVERIFY(store->bytes() >= 3600 * sizeof(SecondBucket) - 2 * chunkBytes);
}

void TestSecondSeries::aLateWriteToAParkedSecondIsKept()
{
    // A video consumer starved for long counts its lost periods in the
    // seconds they fell in, which may be parked by then.
    const std::shared_ptr<ColdStore> store = ColdStore::open();
    QVERIFY(store);
    SecondSeries series(store);
    std::vector<SecondBucket> in = fill(series, 2000);
    ++series.at(10).misses;
    ++in[10].misses;
    series.at(700).maxUs = 123'456;
    in[700].maxUs = 123'456;
    expectSame(series.all(), in);
    // Parked again once the series grows, and still read back right.
    series.grow(2100);
    in.resize(2100);
    QVERIFY(series.bytes() <= 2 * SecondSeries::kChunkSeconds * sizeof(SecondBucket) + 1024);
    expectSame(series.all(), in);
}

void TestSecondSeries::newSecondsAreEmpty()
{
    SecondSeries series(ColdStore::open());
    series.grow(600);
    for (const SecondBucket &b : series.all()) {
        QCOMPARE(b.maxUs, int64_t{-1});
        QCOMPARE(b.samples, 0u);
    }
}

QTEST_GUILESS_MAIN(TestSecondSeries)
#include "tst_secondseries.moc"
