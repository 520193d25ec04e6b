// The miss log packs each miss into a few bytes: what goes in comes out,
// in order, whatever the values, and a full log stays near a megabyte.

#include "collector.h"
#include "misslog.h"

#include <QTest>

#include <limits>
#include <random>
#include <vector>

using namespace latprobe;

namespace {

bool same(const MissLog::Entry &a, const MissLog::Entry &b)
{
    return a.doneNs == b.doneNs && a.latenessUs == b.latenessUs && a.periodsLost == b.periodsLost &&
           a.phase == b.phase && a.consumer == b.consumer;
}

std::vector<MissLog::Entry> readBack(const MissLog &log)
{
    std::vector<MissLog::Entry> out;
    log.forEach([&](const MissLog::Entry &e) { out.push_back(e); });
    return out;
}

} // namespace

class TestMissLog : public QObject
{
    Q_OBJECT

private slots:
    void entriesComeBackInOrder();
    void extremesSurvive();
    void aFullLogHoldsAboutAMegabyte();
    void fullChunksGoToTheStore();
};

void TestMissLog::entriesComeBackInOrder()
{
    // Two consumers drained one after the other: times go back and forth.
    MissLog log;
    std::vector<MissLog::Entry> in;
    std::mt19937_64 random(7);
    int64_t t = 5'000'000'000;
    for (uint32_t i = 0; i < 50'000; ++i) {
        t += static_cast<int64_t>(random() % 20'000'000) - 5'000'000;
        in.push_back({t, static_cast<uint32_t>(random() % 200'000),
                      static_cast<uint32_t>(random() % 4), i / 1000, i % 7});
        log.append(in.back());
    }
    QCOMPARE(log.size(), in.size());
    const auto out = readBack(log);
    QCOMPARE(out.size(), in.size());
    for (size_t i = 0; i < in.size(); ++i)
        QVERIFY2(same(out[i], in[i]), qPrintable(QString("entry %1").arg(i)));
}

void TestMissLog::extremesSurvive()
{
    constexpr uint32_t kMax = std::numeric_limits<uint32_t>::max();
    const std::vector<MissLog::Entry> in = {
        {0, 0, 0, 0, 0},
        {std::numeric_limits<int64_t>::max() / 2, kMax, kMax, kMax, kMax},
        {-1'000'000, 1, 1, 1, 1}, // a clock before the run's start
        {std::numeric_limits<int64_t>::max() / 2, kMax, 0, 3, 2},
    };
    MissLog log;
    for (const MissLog::Entry &e : in)
        log.append(e);
    const auto out = readBack(log);
    QCOMPARE(out.size(), in.size());
    for (size_t i = 0; i < in.size(); ++i)
        QVERIFY2(same(out[i], in[i]), qPrintable(QString("entry %1").arg(i)));
}

void TestMissLog::aFullLogHoldsAboutAMegabyte()
{
    // An hour's soak of the window filled the log: a miss every 30 ms or
    // so, late by up to 50 ms, in one of 60 phases, of 7 consumers. The
    // plain 24-byte entries in a doubled vector held 3 MB.
    MissLog log;
    std::mt19937_64 random(11);
    int64_t t = 0;
    for (size_t i = 0; i < Collector::kMissLogLimit; ++i) {
        t += 1'000'000 + static_cast<int64_t>(random() % 60'000'000);
        log.append({t, static_cast<uint32_t>(random() % 50'000),
                    static_cast<uint32_t>(random() % 3), static_cast<uint32_t>(i * 60 / 100'000),
                    static_cast<uint32_t>(random() % 7)});
    }
    QCOMPARE(log.size(), Collector::kMissLogLimit);
    QVERIFY2(log.bytes() <= 12 * Collector::kMissLogLimit,
             qPrintable(QString("%1 bytes for %2 misses").arg(log.bytes()).arg(log.size())));
}

void TestMissLog::fullChunksGoToTheStore()
{
    // An hour's misses in memory were a fifth of the window's growth: full
    // chunks go to the run's temp file, and read back the same.
    const std::shared_ptr<ColdStore> store = ColdStore::open();
    QVERIFY(store);
    MissLog inMemory, parked(store);
    std::mt19937_64 random(5);
    std::vector<MissLog::Entry> in;
    int64_t t = 0;
    for (size_t i = 0; i < 50'000; ++i) {
        t += static_cast<int64_t>(random() % 60'000'000);
        in.push_back({t, static_cast<uint32_t>(random() % 50'000),
                      static_cast<uint32_t>(random() % 3), static_cast<uint32_t>(i / 1000),
                      static_cast<uint32_t>(random() % 4)});
        inMemory.append(in.back());
        parked.append(in.back());
    }
    const std::vector<MissLog::Entry> out = readBack(parked);
    QCOMPARE(out.size(), in.size());
    for (size_t i = 0; i < in.size(); ++i)
        QVERIFY2(same(out[i], in[i]), qPrintable(QString("entry %1").arg(i)));
    // Only the chunk being written stays in memory.
    QVERIFY2(inMemory.bytes() > 3 * 64 * 1024,
             qPrintable(QString("%1 bytes in memory").arg(inMemory.bytes())));
    QVERIFY2(parked.bytes() <= 64 * 1024 + 1024,
             qPrintable(QString("%1 bytes parked").arg(parked.bytes())));
    QVERIFY(store->bytes() >= inMemory.bytes() - 2 * 64 * 1024);
}

QTEST_GUILESS_MAIN(TestMissLog)
#include "tst_misslog.moc"
