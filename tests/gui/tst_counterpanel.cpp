// The counter cards hold at the window's smallest width: with every
// consumer measured (interbench's X and Gaming beside the defaults), the
// cards go in two rows, and none is cut or pushed past the panel's edge.

#include "countercard.h"
#include "counterpanel.h"
#include "presets.h"

#include <QPushButton>
#include <QTest>

using namespace latprobe;

class TestCounterPanel : public QObject
{
    Q_OBJECT

private slots:
    void everyCardFitsAt1024();
    void fewCardsStayInOneRow();
};

void TestCounterPanel::everyCardFitsAt1024()
{
    const std::vector<ConsumerConfig> all = {audioConsumer(),  videoConsumer(), xConsumer(),
                                             gamingConsumer(), guiConsumer(),   startConsumer(),
                                             wakeupConsumer()};
    CounterPanel panel(all);
    // 1024 less the window's margins.
    const int width = 1000;
    QVERIFY2(panel.minimumSizeHint().width() <= width,
             qPrintable(QString("needs %1 px").arg(panel.minimumSizeHint().width())));
    panel.resize(width, panel.sizeHint().height());
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    const QStringList keys = {"audio", "video", "x", "gaming", "gui", "start", "p99", "max"};
    QList<int> rows;
    for (const QString &key : keys) {
        const CounterCard *card = panel.card(key);
        QVERIFY2(card, qPrintable(key));
        const QRect g = card->geometry();
        QVERIFY2(panel.rect().contains(g), qPrintable(key));
        QVERIFY2(g.width() >= card->minimumWidth() && g.height() >= card->sizeHint().height(),
                 qPrintable(QString("%1 is %2x%3").arg(key).arg(g.width()).arg(g.height())));
        if (!rows.contains(g.top()))
            rows << g.top();
    }
    QCOMPARE(rows.size(), 2);
    QVERIFY(panel.rect().contains(panel.resetButton()->geometry()));
}

void TestCounterPanel::fewCardsStayInOneRow()
{
    CounterPanel panel({audioConsumer(), videoConsumer(), guiConsumer(), wakeupConsumer()});
    panel.resize(1000, panel.sizeHint().height());
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    const int top = panel.card("audio")->geometry().top();
    for (const QString key : {"video", "gui", "p99", "max"})
        QCOMPARE(panel.card(key)->geometry().top(), top);
}

QTEST_MAIN(TestCounterPanel)
#include "tst_counterpanel.moc"
