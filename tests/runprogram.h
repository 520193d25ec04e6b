#pragma once

// Runs a program to its end the way the command-line tests need: its exit,
// both outputs, optionally extra environment and a file-descriptor limit.

#include "statewait.h"

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <sys/resource.h>

struct Outcome
{
    bool finished = false;
    int exitCode = -1;
    QProcess::ExitStatus status = QProcess::CrashExit;
    QString out, err;

    // For a failed check's message.
    QString describe() const
    {
        return QString("exit %1 (%2)\n--- stdout:\n%3--- stderr:\n%4")
            .arg(exitCode)
            .arg(!finished                       ? "timed out"
                 : status == QProcess::CrashExit ? "crashed"
                                                 : "finished")
            .arg(out, err);
    }
};

// `env` holds KEY=VALUE changes; `maxFds` > 0 sets RLIMIT_NOFILE, as
// `ulimit -n` would. A program still running after `timeoutMs` (a bound on
// waiting for its end, not how long it should take) is killed.
inline Outcome runProgram(const QString &program, const QStringList &args,
                          const QStringList &env = {}, int maxFds = 0, int timeoutMs = kStateWaitMs)
{
    QProcess p;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const QString &e : env)
        environment.insert(e.section('=', 0, 0), e.section('=', 1));
    p.setProcessEnvironment(environment);
    if (maxFds > 0)
        p.setChildProcessModifier([maxFds] {
            const rlimit limit{rlim_t(maxFds), rlim_t(maxFds)};
            setrlimit(RLIMIT_NOFILE, &limit);
        });
    p.start(program, args);
    Outcome o;
    if (!p.waitForStarted(kStateWaitMs))
        return o;
    o.finished = p.waitForFinished(timeoutMs);
    if (!o.finished) {
        p.kill();
        p.waitForFinished(kStateWaitMs);
    }
    o.status = p.exitStatus();
    o.exitCode = p.exitCode();
    o.out = QString::fromLocal8Bit(p.readAllStandardOutput());
    o.err = QString::fromLocal8Bit(p.readAllStandardError());
    return o;
}
