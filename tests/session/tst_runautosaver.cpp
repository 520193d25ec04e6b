// The autosave: compact while the run goes on, indented once it ended, and
// never more bytes a minute than its budget however long the run grows.

#include "../io/samplerun.h"
#include "runautosaver.h"
#include "runfile.h"
#include "statewait.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <fstream>
#include <sstream>

using namespace latprobe;
using namespace std::chrono_literals;

namespace {

std::string readText(const std::string &path)
{
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

class TestRunAutosaver : public QObject
{
    Q_OBJECT

private slots:
    void aSmallRunIsSavedAtItsInterval()
    {
        QCOMPARE(autosaveInterval(10s, 0, 8u << 20), std::chrono::milliseconds(10s));
        // 1 MiB every 10 s is 6 MiB a minute: within an 8 MiB budget.
        QCOMPARE(autosaveInterval(10s, 1u << 20, 8u << 20), std::chrono::milliseconds(10s));
    }

    void aBigRunIsSavedWithinTheBudget()
    {
        // 16 MiB a save, 8 MiB a minute: one save every two minutes.
        QCOMPARE(autosaveInterval(10s, 16u << 20, 8u << 20), std::chrono::milliseconds(120s));
        // Whatever the size, the bytes a minute stay at the budget.
        for (uint64_t bytes : {3u << 20, 5u << 20, 40u << 20}) {
            const double perMinute =
                static_cast<double>(bytes) * 60000.0 /
                static_cast<double>(autosaveInterval(10s, bytes, 8u << 20).count());
            QVERIFY2(perMinute <= (8u << 20) + 1, qPrintable(QString::number(perMinute)));
        }
    }

    void autosavesAreCompactAndTheFinalSaveIsIndented()
    {
        QTemporaryDir dir;
        const Run run = test::realisticRun();
        RunAutosaver saver(
            RunLibrary(dir.path().toStdString()), [&run] { return run; }, 20ms);
        QTRY_VERIFY_WITH_TIMEOUT(saver.saves() >= 1, kStateWaitMs);
        saver.stopAutosaving();
        const std::string autosaved = readText(saver.path());
        QCOMPARE(std::count(autosaved.begin(), autosaved.end(), '\n'), 1L);
        const Run back = readRunFile(saver.path());
        QCOMPARE(back.endReason, std::string("autosaved"));
        QVERIFY(back.partial);
        QCOMPARE(back.phases.size(), run.phases.size());

        std::string error;
        QVERIFY(saver.saveFinal(run, error));
        const std::string final = readText(saver.path());
        QVERIFY(std::count(final.begin(), final.end(), '\n') > 100);
        QCOMPARE(readRunFile(saver.path()).endReason, run.endReason);
        // Half the bytes or less: the indentation was most of a run file.
        QVERIFY2(autosaved.size() * 10 < final.size() * 7,
                 qPrintable(QStringLiteral("%1 vs %2").arg(autosaved.size()).arg(final.size())));
    }
};

QTEST_GUILESS_MAIN(TestRunAutosaver)
#include "tst_runautosaver.moc"
