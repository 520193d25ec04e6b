// Every child latprobe starts follows one set of rules (spawnchild.h),
// whichever way it is started (posix_spawn, or fork for a death signal):
// the descriptors it is handed and no other, an empty signal mask, its own
// session when asked, the environment given, and a program that cannot run
// reported by the start itself.

#include "spawnchild.h"

#include <QTest>

#include <csignal>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace latprobe;

namespace {

// Runs `script` under /bin/sh as the child `spec` describes; its exit status.
int runShell(ChildSpec spec, const QString &script)
{
    spec.program = "/bin/sh";
    spec.argv = {"sh", "-c", script.toStdString()};
    std::string error;
    const pid_t pid = spawnChild(spec, error);
    if (pid < 0)
        return -1;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -2;
}

} // namespace

class TestSpawnChild : public QObject
{
    Q_OBJECT

private slots:
    void theRules_data()
    {
        QTest::addColumn<int>("deathSignal");
        QTest::newRow("posix_spawn") << 0;
        QTest::newRow("fork, with a death signal") << int(SIGTERM);
    }

    void theRules()
    {
        QFETCH(int, deathSignal);
        ChildSpec spec{.deathSignal = deathSignal};

        // A descriptor put in place as 3, from a source that is 3's
        // neighbour; another left open without close-on-exec is not the
        // child's.
        int pipeFds[2];
        QVERIFY(pipe(pipeFds) == 0);
        const int stray = dup(pipeFds[0]);
        spec.fds = {{pipeFds[1], 3}};
        QCOMPARE(runShell(spec, QString("echo handed >&3 && [ ! -e /proc/self/fd/%1 ]").arg(stray)),
                 0);
        close(pipeFds[1]);
        char got[16] = {};
        QCOMPARE(read(pipeFds[0], got, sizeof got - 1), ssize_t(7));
        QCOMPARE(QByteArray(got), QByteArray("handed\n"));
        close(pipeFds[0]);
        close(stray);
        spec.fds.clear();

        // The starting thread's blocked signals are not the child's.
        sigset_t usr1, old;
        sigemptyset(&usr1);
        sigaddset(&usr1, SIGUSR1);
        pthread_sigmask(SIG_BLOCK, &usr1, &old);
        const int mask = runShell(spec, "grep -q '^SigBlk:[[:space:]]*0*$' /proc/self/status");
        pthread_sigmask(SIG_SETMASK, &old, nullptr);
        QCOMPARE(mask, 0);

        // A session of its own: the shell leads it (stat's 6th field).
        spec.group = ChildSpec::Group::OwnSession;
        QCOMPARE(runShell(spec, "[ \"$(cut -d' ' -f6 /proc/$$/stat)\" = \"$$\" ]"), 0);
        spec.group = ChildSpec::Group::OwnGroup;
        QCOMPARE(runShell(spec, "[ \"$(cut -d' ' -f5 /proc/$$/stat)\" = \"$$\" ]"), 0);
        spec.group = ChildSpec::Group::Same;

        // The environment given, and only it.
        spec.inheritEnvironment = false;
        spec.environment = {"LP_ONLY=1"};
        QCOMPARE(runShell(spec, "[ \"$LP_ONLY\" = 1 ] && [ -z \"$HOME\" ]"), 0);
    }

    void aProgramThatCannotRunIsTheStartsError_data() { theRules_data(); }

    void aProgramThatCannotRunIsTheStartsError()
    {
        QFETCH(int, deathSignal);
        std::string error;
        const pid_t pid = spawnChild(
            {.program = "/nonexistent/latprobe", .argv = {"x"}, .deathSignal = deathSignal}, error);
        QCOMPARE(pid, -1);
        QCOMPARE(QString::fromStdString(error),
                 QString("cannot run /nonexistent/latprobe: No such file or directory"));
        QCOMPARE(waitpid(-1, nullptr, WNOHANG), -1); // nothing left to reap
    }
};

QTEST_GUILESS_MAIN(TestSpawnChild)
#include "tst_spawnchild.moc"
