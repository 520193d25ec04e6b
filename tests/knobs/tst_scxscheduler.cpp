// A sched_ext scheduler as the real ones report themselves (sched-ext/scx
// 1.1, kernel/sched/ext.c): the ops names that name a program, and the
// words on why one left, from its own log and from the kernel's.

#include "scxexit.h"
#include "scxscheduler.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace latprobe;

namespace {

QString q(const std::string &s)
{
    return QString::fromStdString(s);
}

} // namespace

class TestScxScheduler : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    std::string file(const QString &name, const QByteArray &text)
    {
        QFile f(m_dir.filePath(name));
        if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            f.write(text);
        return m_dir.filePath(name).toStdString();
    }

private slots:
    void opsNamesItsProgram_data()
    {
        QTest::addColumn<QString>("ops");
        QTest::addColumn<QString>("program");
        QTest::addColumn<bool>("names");
        QTest::newRow("bare, before scx 1.0.16") << "lavd"
                                                 << "scx_lavd" << true;
        QTest::newRow("its version appended") << "lavd_1.0.14_gce7e69c0_x86_64_unknown_linux_gnu"
                                              << "scx_lavd" << true;
        QTest::newRow("a path to it") << "bpfland_1.1.2_x86_64_unknown_linux_gnu"
                                      << "/usr/local/bin/scx_bpfland" << true;
        QTest::newRow("named without scx_") << "rusty"
                                            << "rusty" << true;
        QTest::newRow("another that begins alike") << "lavdx"
                                                   << "scx_lavd" << false;
        QTest::newRow("another") << "rusty_1.0.16"
                                 << "scx_lavd" << false;
        QTest::newRow("none runs") << ""
                                   << "scx_lavd" << false;
        QTest::newRow("scx_rlfifo as rustland") << "rustland"
                                                << "scx_rlfifo" << true;
        QTest::newRow("scx_rlfifo as itself, scx 1.0.16 on")
            << "rlfifo_1.0.16_g0123abcd_x86_64_unknown_linux_gnu"
            << "scx_rlfifo" << true;
        QTest::newRow("rustland is not lavd") << "rustland"
                                              << "scx_lavd" << false;
    }

    void opsNamesItsProgram()
    {
        QFETCH(QString, ops);
        QFETCH(QString, program);
        QFETCH(bool, names);
        QCOMPARE(opsNames(ops.toStdString(), program.toStdString()), names);
    }

    void itsOwnWordIsItsExitLineWithoutColours()
    {
        const std::string log =
            file("scheduler.log", "EXIT: unregistered from user space\n"
                                  "\x1b[2m2026-12-06T06:00:00Z\x1b[0m \x1b[32m INFO\x1b[0m "
                                  "scx_lavd scheduler starts running.\n"
                                  "Error: EXIT: runtime error (\x1b[1mstall\x1b[0m)\n"
                                  "\x1b[32m INFO\x1b[0m Unregister scx_lavd scheduler\n\n");
        QCOMPARE(q(schedulerOwnWord(log, 0)), QString("EXIT: runtime error (stall)"));
        // Only what this start wrote: an earlier start's EXIT line is not its.
        const uint64_t from = QByteArray("EXIT: unregistered from user space\n").size();
        const std::string quiet = file("quiet.log", "EXIT: unregistered from user space\n"
                                                    "\x1b[31mERROR\x1b[0m no BPF support\n");
        QCOMPARE(q(schedulerOwnWord(quiet, from)), QString("ERROR no BPF support"));
        QCOMPARE(q(schedulerOwnWord(m_dir.filePath("absent").toStdString(), 0)), QString());
        QCOMPARE(q(withoutAnsi("\x1b[1;31mred\x1b[0m plain")), QString("red plain"));
    }

    void theKernelSaysWhyAfterTheMark()
    {
        // /dev/kmsg's records, a continuation line among them.
        const std::string kmsg =
            file("kmsg",
                 "6,1040,5,-;sched_ext: BPF scheduler \"lavd_1.0.14_g1_x86_64\" disabled "
                 "(unregistered from user space)\n"
                 "6,1041,6,-;sched_ext: BPF scheduler \"lavd_1.0.16_g2_x86_64\" enabled\n"
                 " SUBSYSTEM=cpu\n"
                 "3,1042,7,-;sched_ext: BPF scheduler \"lavd_1.0.16_g2_x86_64\" disabled (runtime "
                 "error)\n"
                 "3,1043,7,-;sched_ext: lavd_1.0.16_g2_x86_64: stall on cpu 1\n"
                 "6,1044,8,c;sched_ext: BPF scheduler \"lavd_1.0.16_g2_x86_64\" disabled "
                 "(unregistered from user space)\n");
        QCOMPARE(kernelLogSeq(kmsg), uint64_t{1044});
        QCOMPARE(q(kernelDisabledLine(kmsg, 1041)),
                 QString("sched_ext: BPF scheduler \"lavd_1.0.16_g2_x86_64\" disabled (runtime "
                         "error)"));
        QCOMPARE(q(kernelDisabledLine(kmsg, 1044)), QString());
        // Not readable (not root, dmesg_restrict): nothing said.
        QCOMPARE(kernelLogSeq(m_dir.filePath("absent").toStdString()), uint64_t{0});
    }
};

QTEST_GUILESS_MAIN(TestScxScheduler)
#include "tst_scxscheduler.moc"
