// Temp files and dirs carry their owner's pid: only those of a process that
// is gone are removed, and only names latprobe makes. An atomic save leaves
// the new file, readable by others, and no temp file; a failed one says why
// in one line naming the file.

#include "atomicsave.h"
#include "tempdir.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <climits>
#include <unistd.h>

using namespace latprobe;

namespace {

// Past any pid_max (at most 2^22): no process has it.
constexpr const char *kGonePid = "999999999";

QStringList entries(const QString &dir)
{
    return QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDir::Name);
}

void touch(const QString &path)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
}

} // namespace

class TestTempFiles : public QObject
{
    Q_OBJECT

private slots:
    void templateCarriesThePid()
    {
        QCOMPARE(QString::fromStdString(ownedTempTemplate("a/b.latprobe-")),
                 QString("a/b.latprobe-%1-XXXXXX").arg(getpid()));
    }

    void removesOnlyWhatAGoneProcessLeft_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("removed");
        const QString self = QString::number(getpid());
        QTest::newRow("a gone process's") << QString("p-%1-abcdef").arg(kGonePid) << true;
        QTest::newRow("this process's") << QString("p-%1-abcdef").arg(self) << false;
        QTest::newRow("another prefix") << QString("q-%1-abcdef").arg(kGonePid) << false;
        QTest::newRow("five characters") << QString("p-%1-abcde").arg(kGonePid) << false;
        QTest::newRow("seven characters") << QString("p-%1-abcdefg").arg(kGonePid) << false;
        QTest::newRow("no dash") << QString("p-%1abcdef").arg(kGonePid) << false;
        QTest::newRow("pid 0") << "p-0-abcdef" << false;
        QTest::newRow("negative pid") << "p--5-abcdef" << false;
        QTest::newRow("signed pid") << QString("p-+%1-abcdef").arg(kGonePid) << false;
        QTest::newRow("no pid") << "p-x-abcdef" << false;
    }

    void removesOnlyWhatAGoneProcessLeft()
    {
        QFETCH(QString, name);
        QFETCH(bool, removed);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        touch(dir.filePath(name));
        QStringList seen;
        const int n =
            removeOrphanedTemps(dir.path().toStdString(), "p-", [&](int dirFd, const char *entry) {
                seen << entry;
                return unlinkat(dirFd, entry, 0) == 0;
            });
        QCOMPARE(n, removed ? 1 : 0);
        QCOMPARE(seen, removed ? QStringList{name} : QStringList());
        QCOMPARE(entries(dir.path()), removed ? QStringList() : QStringList{name});
    }

    void removesAGoneProcesssTempDirWhole()
    {
        QTemporaryDir base;
        QVERIFY(base.isValid());
        const QByteArray oldTmpdir = qgetenv("TMPDIR");
        qputenv("TMPDIR", base.path().toLocal8Bit());
        std::string error;
        char path[PATH_MAX];
        QVERIFY2(createPrivateTempDir(path, sizeof path, error), error.c_str());
        const QString own = QString::fromLocal8Bit(path);
        QCOMPARE(QFileInfo(own).permissions() & 0x0077, QFileDevice::Permissions());
        const QString gone = base.filePath(QString("latprobe-%1-abcdef").arg(kGonePid));
        QVERIFY(QDir().mkpath(gone + "/src/deep"));
        touch(gone + "/src/deep/f.c");

        // A name that does not fit is refused with the fix, nothing made.
        char tooShort[8];
        QVERIFY(!createPrivateTempDir(tooShort, sizeof tooShort, error));
        QVERIFY2(QString::fromStdString(error).contains("set TMPDIR to a shorter path"),
                 error.c_str());

        QCOMPARE(removeStaleTempDirs(), 1);
        QCOMPARE(entries(base.path()), QStringList{QFileInfo(own).fileName()});
        QVERIFY(removeTree(own.toStdString()));
        qputenv("TMPDIR", oldTmpdir);
    }

    void saveReplacesTheFileAndRemovesAKilledSavesTemp()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("out.json");
        touch(dir.filePath(QString("out.json.latprobe-%1-abcdef").arg(kGonePid)));
        std::string error;
        QVERIFY2(saveFileAtomically(path.toStdString(), "new\n", error), error.c_str());
        QCOMPARE(entries(dir.path()), QStringList{"out.json"});
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("new\n"));
        QVERIFY(QFileInfo(path).permissions() & QFileDevice::ReadOther);
    }

    void failedSaveSaysWhyAndLeavesNothing()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("missing/out.json");
        std::string error;
        QVERIFY(!saveFileAtomically(path.toStdString(), "x", error));
        const QString e = QString::fromStdString(error);
        QVERIFY2(e.startsWith(path + ": cannot create a file beside it ("), qPrintable(e));
        QVERIFY2(!e.contains('\n'), qPrintable(e));
        QCOMPARE(entries(dir.path()), QStringList());
    }
};

QTEST_APPLESS_MAIN(TestTempFiles)
#include "tst_tempfiles.moc"
