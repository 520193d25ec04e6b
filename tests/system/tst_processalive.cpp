// One rule for whether a process or a group lives, the same for root and
// for an unprivileged caller: only ESRCH means gone. A process another user
// owns lives (EPERM); a zombie lives until it is reaped; no pid <= 0 is a
// process.

#include "processalive.h"

#include <QTest>

#include <cerrno>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace latprobe;

namespace {

// Past any pid_max (at most 2^22): no process has it.
constexpr pid_t kNoSuchPid = 999'999'999;
constexpr uid_t kNobody = 65534;

enum class Subject { Self, OwnGroup, Init, Reaped, Zombie, Zero, Negative, NoSuchPid, NoSuchGroup };

// A child that has exited; reaped unless `reap` is false (then a zombie).
pid_t endedChild(bool reap)
{
    const pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    if (reap)
        waitpid(pid, nullptr, 0);
    else
        while (waitid(P_PID, static_cast<id_t>(pid), nullptr, WEXITED | WNOWAIT) < 0 &&
               errno == EINTR) {
        }
    return pid;
}

// What the subject's answer is for this caller.
bool askAbout(Subject subject)
{
    switch (subject) {
    case Subject::Self:
        return processAlive(getpid());
    case Subject::OwnGroup:
        return processGroupAlive(getpgrp());
    case Subject::Init:
        return processAlive(1);
    case Subject::Reaped:
        return processAlive(endedChild(true));
    case Subject::Zombie: {
        const pid_t pid = endedChild(false);
        const bool alive = processAlive(pid);
        waitpid(pid, nullptr, 0);
        return alive;
    }
    case Subject::Zero:
        return processAlive(0) || processGroupAlive(0);
    case Subject::Negative:
        return processAlive(-1) || processGroupAlive(-1);
    case Subject::NoSuchPid:
        return processAlive(kNoSuchPid);
    case Subject::NoSuchGroup:
        return processGroupAlive(kNoSuchPid);
    }
    return false;
}

// The answer as nobody, who may signal none of these processes: asked in a
// child that drops root (needs root), or here when the suite runs
// unprivileged already. -1 when it could not be asked.
int askAsNobody(Subject subject)
{
    if (geteuid() != 0)
        return askAbout(subject);
    const pid_t pid = fork();
    if (pid == 0) {
        if (setresgid(kNobody, kNobody, kNobody) != 0 || setresuid(kNobody, kNobody, kNobody) != 0)
            _exit(2);
        _exit(askAbout(subject) ? 1 : 0);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) > 1)
        return -1;
    return WEXITSTATUS(status);
}

} // namespace

Q_DECLARE_METATYPE(Subject)

class TestProcessAlive : public QObject
{
    Q_OBJECT

private slots:
    void oneRuleForEveryCaller_data()
    {
        QTest::addColumn<Subject>("subject");
        QTest::addColumn<bool>("alive");
        QTest::newRow("this process") << Subject::Self << true;
        QTest::newRow("this process's group") << Subject::OwnGroup << true;
        QTest::newRow("pid 1") << Subject::Init << true;
        QTest::newRow("a reaped child") << Subject::Reaped << false;
        QTest::newRow("a zombie, not yet reaped") << Subject::Zombie << true;
        QTest::newRow("pid and group 0") << Subject::Zero << false;
        QTest::newRow("pid and group -1") << Subject::Negative << false;
        QTest::newRow("a pid past pid_max") << Subject::NoSuchPid << false;
        QTest::newRow("a group past pid_max") << Subject::NoSuchGroup << false;
    }

    void oneRuleForEveryCaller()
    {
        QFETCH(Subject, subject);
        QFETCH(bool, alive);
        QCOMPARE(askAbout(subject), alive);
    }

    // The unprivileged caller's kill(pid, 0) fails with EPERM on a process
    // it does not own: that process lives all the same.
    void sameAnswerUnprivileged_data() { oneRuleForEveryCaller_data(); }

    void sameAnswerUnprivileged()
    {
        QFETCH(Subject, subject);
        QFETCH(bool, alive);
        const int answer = askAsNobody(subject);
        if (answer < 0)
            QSKIP("cannot become nobody (uid 65534) here to ask as an unprivileged user");
        QCOMPARE(answer == 1, alive);
    }
};

QTEST_GUILESS_MAIN(TestProcessAlive)
#include "tst_processalive.moc"
