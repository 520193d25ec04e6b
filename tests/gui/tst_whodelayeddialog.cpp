// Who delayed me, in the window: a click near a miss shows that miss's
// chain (its delay bar and the lines for a bug report), nearest first, a
// few at most; far from any, or with the recorder off, the dialog says why
// instead. The bar's parts add up to the miss's whole window. A screenshot's
// caption names who delayed the phase's misses.

#include "collector.h"
#include "collectornumbers.h"
#include "delaybar.h"
#include "livedata.h"
#include "missesplot.h"
#include "presets.h"
#include "screenshot.h"
#include "statewait.h"
#include "sysinfo.h"
#include "topdelayers.h"
#include "whodelayeddialog.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFontMetrics>
#include <QLabel>
#include <QPalette>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <qcustomplot.h>

using namespace latprobe;

namespace {

// An audio period of 12 ms: 0.3 ms of timer lateness, 8 ms behind a
// SCHED_FIFO culprit, 0.2 ms of interrupt, 3.5 ms of its own work.
MissExplanation culpritMiss(double timeS)
{
    MissExplanation x;
    x.timeS = timeS;
    x.consumer = "audio";
    x.phase = "idle";
    x.tid = 4100;
    x.cpu = 1;
    x.windowNs = 12'000'000;
    x.timerNs = 300'000;
    x.irqNs = 200'000;
    x.waitNs = 8'000'000;
    x.selfNs = 3'500'000;
    x.waitEnd = "wakeup preemption";
    DelayShare culprit;
    culprit.name = "culprit";
    culprit.pid = 4242;
    culprit.policy = "SCHED_FIFO 10";
    culprit.ns = 8'000'000;
    DelayShare irq;
    irq.kind = DelayShare::Kind::Irq;
    irq.name = "virtio0-input";
    irq.ns = 200'000;
    x.shares = {culprit, irq};
    return x;
}

// The bar's parts' labels, and their time summed into `sum`.
QStringList partsOf(const DelayBar &bar, int64_t &sum)
{
    QStringList labels;
    for (const DelayBar::Part &p : bar.parts()) {
        sum += p.ns;
        labels << p.label;
    }
    return labels;
}

} // namespace

class TestMissExplanation : public QObject
{
    Q_OBJECT

private slots:
    void theBarSplitsTheWholeWindow()
    {
        int64_t sum = 0;
        const QStringList labels = partsOf(DelayBar(culpritMiss(3)), sum);
        QCOMPARE(sum, int64_t{12'000'000});
        QCOMPARE(labels, (QStringList{"timer", "culprit[4242]", "irq virtio0-input", "itself"}));
    }

    void theSmallestSharesAreOnePart()
    {
        // Past its twelve largest, a window's shares come summed: one grey
        // part, and the bar still adds up to the whole window.
        MissExplanation x = culpritMiss(3);
        x.shares.front().ns -= 600'000;
        x.otherShares = 14;
        x.otherSharesNs = 600'000;
        int64_t sum = 0;
        const QStringList labels = partsOf(DelayBar(x), sum);
        QCOMPARE(sum, int64_t{12'000'000});
        QCOMPARE(labels, (QStringList{"timer", "culprit[4242]", "irq virtio0-input", "14 others",
                                      "itself"}));
    }

    void aClickShowsTheNearestMissesChain()
    {
        WhoDelayedDialog dialog;
        const std::vector<MissExplanation> all = {culpritMiss(2.0), culpritMiss(10.2),
                                                  culpritMiss(10.6), culpritMiss(30.0)};
        dialog.showNear(all, 10.5, QString());
        QCOMPARE(dialog.shownCount(), 2); // 10.6 and 10.2; not 2.0 or 30.0
        QVERIFY(dialog.text().contains("culprit"));
        QVERIFY(dialog.text().contains("4242"));
        const auto bars = dialog.findChildren<DelayBar *>();
        QCOMPARE(bars.size(), 2);
        const auto texts = dialog.findChildren<QPlainTextEdit *>();
        QCOMPARE(texts.size(), 2);
        QVERIFY(texts.front()->toPlainText().contains("culprit"));
        // A second click replaces what the first showed.
        dialog.showNear(all, 2.2, QString());
        QCOMPARE(dialog.shownCount(), 1);
        QCOMPARE(dialog.findChildren<DelayBar *>().size(), 1);
    }

    void farFromAnyMissItSaysWhyNothingShows()
    {
        WhoDelayedDialog dialog;
        dialog.showNear({culpritMiss(2.0)}, 50, QString());
        QCOMPARE(dialog.shownCount(), 0);
        bool said = false;
        bool pointed = false;
        for (const QLabel *l : dialog.findChildren<QLabel *>()) {
            said |= l->text().contains("first misses of each phase");
            pointed |= l->text().contains("nearest explained miss is at 2.0 s");
        }
        QVERIFY(said);
        QVERIFY(pointed); // where to click instead
        // With the recorder off, its own one line says what to grant.
        dialog.showNear({}, 50, "flight recorder off: run as root");
        said = false;
        for (const QLabel *l : dialog.findChildren<QLabel *>())
            said |= l->text() == "flight recorder off: run as root";
        QVERIFY(said);
        // Nothing to ask for more of with the recorder off.
        QVERIFY(!dialog.explainMoreButton()->isEnabled());
    }

    void explainTheNextMissesIsAskedFor()
    {
        WhoDelayedDialog dialog;
        dialog.showNear({culpritMiss(2.0)}, 50, QString());
        QSignalSpy asked(&dialog, &WhoDelayedDialog::explainMoreRequested);
        QVERIFY(dialog.explainMoreButton()->isEnabled());
        QVERIFY(dialog.explainMoreButton()->text().contains("next misses"));
        dialog.explainMoreButton()->click();
        QCOMPARE(asked.size(), 1);
    }

    void aSavedTraceOpensInKernelSharkAndSavesForAMail()
    {
        // KernelShark is a stand-in on PATH that writes down what it was
        // asked to open: the dialog's part is to hand it the miss's file.
        QTemporaryDir dir;
        const QString bin = dir.filePath("bin"), asked = dir.filePath("asked");
        QVERIFY(QDir().mkpath(bin));
        QFile fake(bin + "/kernelshark");
        QVERIFY(fake.open(QIODevice::WriteOnly));
        fake.write(
            QString("#!/bin/sh\necho \"$@\" > %1.part && mv %1.part %1\n").arg(asked).toUtf8());
        fake.close();
        fake.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH", bin.toUtf8() + ":" + path);
        struct RestorePath
        {
            QByteArray path;
            ~RestorePath() { qputenv("PATH", path); }
        } restore{path};

        const QString trace = dir.filePath("run.trace-1.dat");
        QFile traceFile(trace);
        QVERIFY(traceFile.open(QIODevice::WriteOnly));
        traceFile.write("trace.dat bytes");
        traceFile.close();
        MissExplanation withTrace = culpritMiss(2.0);
        withTrace.traceFile = trace.toStdString();
        MissExplanation without = culpritMiss(2.1);
        WhoDelayedDialog dialog;
        dialog.showNear({withTrace, without}, 2.0, QString());
        QCOMPARE(dialog.traceFiles(), (QStringList{trace, QString()}));
        // Buttons for the miss with a trace only.
        QStringList buttons;
        for (const QPushButton *b : dialog.findChildren<QPushButton *>())
            if (b->text().contains("KernelShark") || b->text().contains("Save trace"))
                buttons << b->text() + (b->isEnabled() ? "" : " (off)");
        QCOMPARE(buttons, (QStringList{"Open in &KernelShark", "&Save trace…"}));

        QVERIFY(dialog.openInKernelShark(0));
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(asked), kStateWaitMs);
        QFile said(asked);
        QVERIFY(said.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(said.readAll()).trimmed(), trace);
        QVERIFY(!dialog.openInKernelShark(1)); // no trace to open

        const QString copy = dir.filePath("for-the-mail.dat");
        QVERIFY(dialog.saveTrace(0, copy));
        QFile copied(copy);
        QVERIFY(copied.open(QIODevice::ReadOnly));
        QCOMPARE(copied.readAll(), QByteArray("trace.dat bytes"));
    }

    void explainedMissesAreMarkedOverTheirBars()
    {
        // Audio misses: three in second 2, one in second 5; the recorder
        // explained two in second 2 and the one in second 5.
        constexpr int64_t kStart = 1'000'000'000, kMs = 1'000'000;
        Collector collector({audioConsumer()}, kStart);
        const CollectorNumbers numbers(collector);
        LiveData live(numbers);
        for (int64_t ms : {2100, 2400, 2700, 5200}) {
            Sample s;
            s.periodStart = kStart + ms * kMs;
            s.woke = s.periodStart + 11 * kMs;
            s.done = s.woke;
            s.missedDeadline = true;
            collector.add(0, s);
        }
        live.pollFine(kStart + 6000 * kMs);
        MissesPlot plot({audioConsumer()});
        plot.refresh(live);
        QCOMPARE(plot.explainedMarksShown(), size_t{0}); // none explained yet
        plot.setExplainedTimes({5.2, 2.1, 2.4});
        plot.refresh(live);
        QCOMPARE(plot.explainedMarksShown(), size_t{2}); // one a bar
        QCPGraph *marks = plot.findChild<QCustomPlot *>()->graph(0);
        QVERIFY(marks);
        QCOMPARE(marks->data()->size(), 2);
        const auto second2 = marks->data()->at(0), second5 = marks->data()->at(1);
        QCOMPARE(second2->key, 2.5); // on the bars' keys
        QCOMPARE(second5->key, 5.5);
        QVERIFY(second2->value > 3); // over the bar of 3 misses
        QVERIFY(second5->value > 1 && second5->value < 3);
    }

    void theScreenshotCaptionSaysWhoDelayedThePhase()
    {
        // Two of the phase's five misses explained: the line under the
        // machine's says who, and the strip grows by that line.
        const std::vector<MissExplanation> all = {culpritMiss(2.0), culpritMiss(3.0)};
        const std::string line = delayersLine(all, "idle", 5);
        QCOMPARE(line, std::string("who delayed idle: culprit[4242] 16.0 ms, irq virtio0-input "
                                   "0.4 ms (2 of 5 misses explained)"));
        SystemInfo system;
        system.kernelRelease = "6.18.44";
        const QDateTime when(QDate(2026, 12, 1), QTime(15, 0));
        const QString plain = screenshotCaption(system, {"burn x4"}, when);
        const QString withLine = screenshotCaption(system, {"burn x4"}, when, line);
        QCOMPARE(withLine, plain + "\n" + QString::fromStdString(line));
        QPixmap window(800, 600);
        window.fill(Qt::white);
        int plainStrip = 0, lineStrip = 0;
        const QFont font;
        composeScreenshot(window, plain, QPalette(), font, &plainStrip);
        composeScreenshot(window, withLine, QPalette(), font, &lineStrip);
        QVERIFY2(
            lineStrip >= plainStrip + QFontMetrics(font).lineSpacing(),
            qPrintable(QString("strip %1 px, %2 px with the line").arg(plainStrip).arg(lineStrip)));
    }
};

QTEST_MAIN(TestMissExplanation)
#include "tst_whodelayeddialog.moc"
