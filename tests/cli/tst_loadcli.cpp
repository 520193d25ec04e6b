// `latprobe run --load` refuses what it must not start, before anything
// starts: exit status 2 and one line on stderr saying what and how to fix
// it. Covers the caps (workers, memory, io, spawn rate), a missing
// compiler or program, and malformed specs.

#include "loadlimits.h"
#include "statewait.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace latprobe;

class TestLoadCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void refused_data();
    void refused();

private:
    QString m_binary;
    QTemporaryDir m_tmp;
};

void TestLoadCli::initTestCase()
{
    m_binary = qEnvironmentVariable("LATPROBE_BINARY");
    QVERIFY2(!m_binary.isEmpty(), "LATPROBE_BINARY must name the latprobe binary (CTest sets it)");
    QVERIFY(m_tmp.isValid());
}

void TestLoadCli::refused_data()
{
    QTest::addColumn<QStringList>("loads");
    QTest::addColumn<QStringList>("env");  // KEY=VALUE to set, KEY to unset
    QTest::addColumn<QStringList>("says"); // all of these, in the one line

    const uint64_t avail = memAvailableBytes();
    const QString overHalf = QString::number(std::max<uint64_t>(2, avail * 6 / 10 >> 20));

    QTest::newRow("worker cap") << QStringList{"burn:5000"} << QStringList{}
                                << QStringList{"5000", "2048", "--max-workers"};
    QTest::newRow("worker cap, two groups")
        << QStringList{"burn:1500", "massive_intr:1000"} << QStringList{}
        << QStringList{"2500", "--max-workers"};
    QTest::newRow("hackbench counts its pairs")
        << QStringList{"hackbench:60"} << QStringList{} << QStringList{"2460", "--max-workers"};
    QTest::newRow("memload over half of MemAvailable")
        << QStringList{"memload:1:mb=" + overHalf} << QStringList{}
        << QStringList{"memload", "50 %", "MiB available", "mb="};
    QTest::newRow("memload, many workers")
        << QStringList{"memload:4:mb=" + QString::number(avail * 2 / 10 >> 20)} << QStringList{}
        << QStringList{"memload x4", "MiB available"};
    QTest::newRow("io_write over 2 GiB") << QStringList{"io_write:2:mb=1100"} << QStringList{}
                                         << QStringList{"2200 MiB", "2048 MiB", "io cap", "mb="};
    QTest::newRow("io_read over 2 GiB")
        << QStringList{"io_read:1:mb=2100"} << QStringList{} << QStringList{"2100 MiB", "io cap"};
    QTest::newRow("spawn rate") << QStringList{"spawn:1:rate=5000"} << QStringList{}
                                << QStringList{"5000", "2000", "rate="};
    QTest::newRow("spawn rate, many workers")
        << QStringList{"spawn:50:rate=50"} << QStringList{} << QStringList{"2500", "rate="};
    QTest::newRow("compile, CC missing")
        << QStringList{"compile:2"} << QStringList{"CC=/nonexistent/cc", "PATH=/nonexistent"}
        << QStringList{"compile:", "C compiler", "/nonexistent/cc", "CC"};
    QTest::newRow("compile, no compiler at all")
        << QStringList{"compile:2"} << QStringList{"CC", "PATH=/nonexistent"}
        << QStringList{"compile: no C compiler found (tried $CC, cc, gcc, clang): install one, "
                       "e.g. apt install gcc"};
    QTest::newRow("custom, no such program")
        << QStringList{"custom:1:cmd=latprobe-no-such-program --flag"} << QStringList{}
        << QStringList{"custom:", "latprobe-no-such-program", "PATH"};
    QTest::newRow("custom, no such path")
        << QStringList{"custom:1:cmd=/nonexistent/prog"} << QStringList{}
        << QStringList{"custom: cannot run /nonexistent/prog: No such file or directory"};
    QTest::newRow("custom without a command")
        << QStringList{"custom:1"} << QStringList{} << QStringList{"custom needs a command"};
    QTest::newRow("zero workers") << QStringList{"burn:0"} << QStringList{}
                                  << QStringList{"burn:0", "whole number"};
    QTest::newRow("count not a number")
        << QStringList{"burn:x"} << QStringList{} << QStringList{"burn:x", "whole number"};
    QTest::newRow("no count") << QStringList{"burn"} << QStringList{} << QStringList{"KIND:N"};
    QTest::newRow("unknown kind") << QStringList{"nokind:3"} << QStringList{}
                                  << QStringList{"nokind", "massive_intr", "custom"};
    QTest::newRow("unknown parameter")
        << QStringList{"massive_intr:2:foo=1"} << QStringList{} << QStringList{"foo", "work_ms"};
    QTest::newRow("parameter out of range")
        << QStringList{"hackbench:1:fds=0"} << QStringList{} << QStringList{"fds", "1", "250"};
    QTest::newRow("cmd on another kind") << QStringList{"burn:2:cmd=sleep 1"} << QStringList{}
                                         << QStringList{"only custom takes cmd="};
    // A good load before a bad one: still nothing starts.
    QTest::newRow("bad after good") << QStringList{"massive_intr:2", "memload:1:mb=" + overHalf}
                                    << QStringList{} << QStringList{"memload"};
}

void TestLoadCli::refused()
{
    QFETCH(QStringList, loads);
    QFETCH(QStringList, env);
    QFETCH(QStringList, says);

    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert("TMPDIR", m_tmp.path());
    for (const QString &e : env) {
        const qsizetype eq = e.indexOf('=');
        if (eq < 0)
            environment.remove(e);
        else
            environment.insert(e.left(eq), e.mid(eq + 1));
    }
    // A run of an hour: only a refusal before measuring ends it in time.
    QStringList args{"run", "-d", "3600", "--idle", "0.1", "-c", "wakeup", "--no-progress"};
    for (const QString &l : loads)
        args << "--load" << l;

    QProcess p;
    p.setProcessEnvironment(environment);
    p.start(m_binary, args);
    QVERIFY2(p.waitForFinished(kStateWaitMs), "latprobe run did not refuse");
    const QString err = QString::fromLocal8Bit(p.readAllStandardError());
    const QString out = QString::fromLocal8Bit(p.readAllStandardOutput());
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QVERIFY2(p.exitCode() == 2, qPrintable(QString("exit %1: %2").arg(p.exitCode()).arg(err)));
    // Refused before measuring: no report, no load.
    QVERIFY2(out.isEmpty(), qPrintable(out));
    // One line, saying what and how.
    QVERIFY2(err.endsWith('\n') && err.count('\n') == 1, qPrintable(err));
    for (const QString &s : says)
        QVERIFY2(err.contains(s), qPrintable(QString("\"%1\" not in: %2").arg(s, err)));
    QVERIFY(QDir(m_tmp.path()).entryList({"latprobe-*"}, QDir::Dirs).isEmpty());
}

QTEST_GUILESS_MAIN(TestLoadCli)
#include "tst_loadcli.moc"
