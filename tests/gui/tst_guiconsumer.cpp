// The gui consumer: a precise timer in the Qt event loop, one Sample per
// tick into its ring; a blocked event loop shows up as a late tick, a
// stall, and the periods it swallowed.

#include "guiconsumer.h"
#include "presets.h"
#include "realclock.h"

#include <QCoreApplication>
#include <QTest>
#include <QThread>
#include <QTimer>

#include <vector>

using namespace latprobe;

class TestGuiConsumer : public QObject
{
    Q_OBJECT

private slots:
    void configIsAFrame();
    void ticksAt60HzOnTheGrid();
    void blockedEventLoopIsAStall();

private:
    static std::vector<Sample> drain(SpscRing<Sample> &ring)
    {
        std::vector<Sample> out;
        ring.drain([&](const Sample &s) { out.push_back(s); });
        return out;
    }
};

void TestGuiConsumer::configIsAFrame()
{
    const ConsumerConfig c = guiConsumer();
    QCOMPARE(c.kind, ConsumerKind::External);
    QCOMPARE(QString::fromStdString(c.name), QStringLiteral("gui"));
    QCOMPARE(QString::fromStdString(c.missName), QStringLiteral("stalls"));
    QCOMPARE(c.periodNs, 16'666'667);
    QCOMPARE(c.slackNs, c.periodNs);
}

void TestGuiConsumer::ticksAt60HzOnTheGrid()
{
    SpscRing<Sample> ring(1024);
    const int64_t origin = RealClock::monotonicNow();
    const ConsumerConfig config = guiConsumer();
    GuiConsumer gui(config, ring, origin);
    gui.start();
    QTest::qWait(500);
    gui.stop();
    const std::vector<Sample> samples = drain(ring);
    // 30 periods; a loaded machine may lose some, never gain.
    QVERIFY2(samples.size() >= 15 && samples.size() <= 31,
             qPrintable(QString::number(samples.size())));
    const int64_t period = guiConsumer().periodNs;
    for (size_t i = 0; i < samples.size(); ++i) {
        const Sample &s = samples[i];
        // Due on the grid, rounded up to Qt's whole milliseconds.
        const int64_t offset = (s.periodStart - origin) % period;
        QVERIFY2(offset < 1'000'000 || period - offset < 1000,
                 qPrintable(QString("offset %1 ns").arg(offset)));
        QVERIFY(s.woke >= s.periodStart); // a precise timer never fires early
        QCOMPARE(s.done, s.woke);
        if (i > 0)
            QVERIFY(s.periodStart > samples[i - 1].periodStart);
    }
}

void TestGuiConsumer::blockedEventLoopIsAStall()
{
    SpscRing<Sample> ring(1024);
    const ConsumerConfig config = guiConsumer();
    GuiConsumer gui(config, ring, RealClock::monotonicNow());
    gui.start();
    QTest::qWait(100);
    drain(ring);
    // Hold the event loop for six frames, as a slow slot would.
    QTimer::singleShot(0, [] { QThread::msleep(100); });
    QTest::qWait(200);
    gui.stop();
    // The tick held up by the sleep: ~100 ms late, a stall, and the periods
    // due meanwhile lost (never served). A loaded machine may add others.
    QString seen;
    bool stalled = false;
    for (const Sample &s : drain(ring)) {
        const int64_t late = s.woke - s.periodStart;
        seen += QStringLiteral(" %1ms/%2").arg(late / 1'000'000).arg(s.periodsSkipped);
        QCOMPARE(s.missedDeadline != 0, late > guiConsumer().slackNs);
        stalled |= late > 80'000'000 && s.missedDeadline && s.periodsSkipped >= 3;
    }
    QVERIFY2(stalled, qPrintable(seen));
}

QTEST_GUILESS_MAIN(TestGuiConsumer)
#include "tst_guiconsumer.moc"
