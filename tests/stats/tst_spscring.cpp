// The ring between a measuring thread and the collector: order kept,
// capacity as asked (rounded up to a power of two), a writer that never
// blocks and counts what it had to drop, and no loss or tearing between two
// real threads.

#include "spscring.h"

#include <QTest>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

using namespace latprobe;

namespace {

// Two fields written together: a reader seeing a half-written item would
// find them disagree.
struct Item
{
    uint64_t seq = 0;
    uint64_t check = 0;
};

Item item(uint64_t seq)
{
    return {seq, ~seq * 0x9e3779b97f4a7c15ull};
}

std::vector<int> drainAll(SpscRing<int> &ring)
{
    std::vector<int> out;
    ring.drain([&](int v) { out.push_back(v); });
    return out;
}

} // namespace

class TestSpscRing : public QObject
{
    Q_OBJECT

private slots:
    void drainsInPushOrder();
    void keepsOrderAcrossWrapAround();
    void capacityIsRoundedUpToAPowerOfTwo_data();
    void capacityIsRoundedUpToAPowerOfTwo();
    void fullRingDropsAndCountsWithoutBlocking();
    void twoThreadsLoseNothingWhenCapacitySuffices();
    void twoThreadsSmallRingCountsEveryDrop();
};

void TestSpscRing::drainsInPushOrder()
{
    SpscRing<int> ring(16);
    QCOMPARE(ring.drain([](int) {}), 0u);
    for (int i = 1; i <= 10; ++i)
        QVERIFY(ring.push(i));
    QCOMPARE(drainAll(ring), (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
    QVERIFY(drainAll(ring).empty());
    QCOMPARE(ring.overflows(), 0u);
}

void TestSpscRing::keepsOrderAcrossWrapAround()
{
    // 3 in, 3 out, 100 times through an 8-slot ring.
    SpscRing<int> ring(8);
    int next = 0;
    for (int round = 0; round < 100; ++round) {
        const int first = next;
        for (int k = 0; k < 3; ++k)
            QVERIFY(ring.push(next++));
        QCOMPARE(drainAll(ring), (std::vector<int>{first, first + 1, first + 2}));
    }
    QCOMPARE(ring.overflows(), 0u);
}

void TestSpscRing::capacityIsRoundedUpToAPowerOfTwo_data()
{
    QTest::addColumn<int>("asked");
    QTest::addColumn<int>("capacity");
    QTest::newRow("2") << 2 << 2;
    QTest::newRow("3") << 3 << 4;
    QTest::newRow("4") << 4 << 4;
    QTest::newRow("5") << 5 << 8;
    QTest::newRow("1000") << 1000 << 1024;
    QTest::newRow("1024") << 1024 << 1024;
    QTest::newRow("1025") << 1025 << 2048;
    QTest::newRow("collector's 65536") << 65536 << 65536;
}

void TestSpscRing::capacityIsRoundedUpToAPowerOfTwo()
{
    QFETCH(int, asked);
    QFETCH(int, capacity);

    SpscRing<int> ring(asked);
    QCOMPARE(ring.capacity(), static_cast<size_t>(capacity));
    // Every slot is usable: exactly `capacity` items fit, the next is dropped.
    for (int i = 0; i < capacity; ++i)
        QVERIFY(ring.push(i));
    QVERIFY(!ring.push(capacity));
    QCOMPARE(ring.overflows(), 1u);
    QCOMPARE(ring.drain([](int) {}), static_cast<size_t>(capacity));
}

void TestSpscRing::fullRingDropsAndCountsWithoutBlocking()
{
    SpscRing<int> ring(8);
    int accepted = 0;
    for (int i = 0; i < 13; ++i)
        accepted += ring.push(i);
    QCOMPARE(accepted, 8);
    QCOMPARE(ring.overflows(), 5u);
    // The oldest items are kept, the newest dropped.
    QCOMPARE(drainAll(ring), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
    // Once drained, the writer goes on; the count is cumulative.
    QVERIFY(ring.push(100));
    QCOMPARE(drainAll(ring), std::vector<int>{100});
    QCOMPARE(ring.overflows(), 5u);
}

void TestSpscRing::twoThreadsLoseNothingWhenCapacitySuffices()
{
    constexpr uint64_t kItems = 1u << 21;
    SpscRing<Item> ring(kItems);
    std::atomic<bool> writerDone{false};
    std::thread writer([&] {
        for (uint64_t i = 0; i < kItems; ++i)
            ring.push(item(i));
        writerDone = true;
    });

    uint64_t received = 0, sum = 0, expectedSeq = 0, torn = 0, outOfOrder = 0;
    auto sink = [&](const Item &it) {
        torn += it.check != item(it.seq).check;
        outOfOrder += it.seq != expectedSeq;
        expectedSeq = it.seq + 1;
        sum += it.seq;
        ++received;
    };
    while (!writerDone.load())
        if (ring.drain(sink) == 0)
            std::this_thread::yield();
    writer.join();
    ring.drain(sink);

    QCOMPARE(ring.overflows(), 0u);
    QCOMPARE(received, kItems);
    QCOMPARE(torn, 0u);
    QCOMPARE(outOfOrder, 0u);
    QCOMPARE(sum, kItems * (kItems - 1) / 2);
}

void TestSpscRing::twoThreadsSmallRingCountsEveryDrop()
{
    // A 64-slot ring wraps tens of thousands of times. The test's writer
    // retries what was dropped, so every item must arrive exactly once, in
    // order, and the ring's count must equal the writer's failed pushes.
    constexpr uint64_t kItems = 2000000;
    SpscRing<Item> ring(64);
    std::atomic<bool> writerDone{false};
    uint64_t failedPushes = 0;
    std::thread writer([&] {
        for (uint64_t i = 0; i < kItems; ++i)
            while (!ring.push(item(i))) {
                ++failedPushes;
                std::this_thread::yield();
            }
        writerDone = true;
    });

    uint64_t received = 0, sum = 0, expectedSeq = 0, torn = 0, outOfOrder = 0;
    auto sink = [&](const Item &it) {
        torn += it.check != item(it.seq).check;
        outOfOrder += it.seq != expectedSeq;
        expectedSeq = it.seq + 1;
        sum += it.seq;
        ++received;
    };
    while (!writerDone.load())
        if (ring.drain(sink) == 0)
            std::this_thread::yield();
    writer.join();
    ring.drain(sink);

    QCOMPARE(received, kItems);
    QCOMPARE(torn, 0u);
    QCOMPARE(outOfOrder, 0u);
    QCOMPARE(sum, kItems * (kItems - 1) / 2);
    QCOMPARE(ring.overflows(), failedPushes);
}

QTEST_GUILESS_MAIN(TestSpscRing)
#include "tst_spscring.moc"
