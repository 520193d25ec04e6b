#pragma once

// A machine in a temp dir for the knobs tests: the files the knobs layer
// reads and writes, with this VM's values (autogroup on, cgroup v1 with a
// cpu hierarchy, a PREEMPT_DYNAMIC debugfs, sched_ext present and idle
// after three schedulers came and went, a kernel log in /dev/kmsg's format),
// and a PATH of the test's own scheduler and command programs
// (tests/knobs/fakebin). The tests change it to make each refusal.

#include "knobenvironment.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QTemporaryDir>

#include <cstdio>
#include <sys/stat.h>

// The ops name fakebin/scx_fake and fake_scx_loader's scx_fake run as: a
// current scx scheduler's, its version appended (scx_utils, since 1.0.16).
inline constexpr const char *kFakeOps = "fake_1.0.16_g0123abcd_x86_64_unknown_linux_gnu";

struct FakeTree
{
    QTemporaryDir dir;

    FakeTree()
    {
        write("proc/sys/kernel/sched_autogroup_enabled", "1\n");
        write("proc/sys/kernel/sched_rt_runtime_us", "950000\n");
        write("proc/sys/kernel/numa_balancing", "0\n");
        write("proc/sys/vm/swappiness", "60\n");
        write("proc/sys/vm/lowmem_reserve_ratio", "256\t256\t32\t0\t0\n");
        write("proc/sys/vm/fake_action", "", 0200); // write-only, as vm.drop_caches
        write("proc/sys/vm/fake_readonly", "1\n", 0444);
        write("sys/kernel/sched_ext/state", "disabled\n");
        write("sys/kernel/sched_ext/root/ops", "");
        write("sys/kernel/sched_ext/enable_seq", "3\n");
        write("dev/kmsg", "6,1,0,-;sched_ext: BPF scheduler \"lavd_1.0.14_gce7e69c0_x86_64_unknown_"
                          "linux_gnu\" enabled\n"
                          "6,2,0,-;sched_ext: BPF scheduler \"lavd_1.0.14_gce7e69c0_x86_64_unknown_"
                          "linux_gnu\" disabled (unregistered from user space)\n");
        write("debug/sched/preempt", "none voluntary (full) lazy\n");
        write("sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
        write("cgroup/cpu/cpu.shares", "1024\n");
        write("etc/governor", "schedutil\n");
        QDir(dir.path()).mkpath("run");
    }

    QString path(const QString &relative) const { return dir.filePath(relative); }
    std::string stdPath(const QString &relative) const { return path(relative).toStdString(); }

    // Written whole, as sysfs shows a file to a reader at the same time.
    void write(const QString &relative, const QByteArray &text, int mode = 0644)
    {
        QDir(dir.path()).mkpath(QFileInfo(relative).path());
        const QByteArray target = path(relative).toLocal8Bit(), next = target + ".new";
        QFile f(QString::fromLocal8Bit(next));
        if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            f.write(text);
        f.close();
        chmod(next.constData(), mode);
        std::rename(next.constData(), target.constData());
    }

    QString read(const QString &relative) const
    {
        QFile f(path(relative));
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).trimmed() : "<absent>";
    }

    void remove(const QString &relative) const
    {
        const QFileInfo info(path(relative));
        if (info.isDir())
            QDir(info.filePath()).removeRecursively();
        else
            QFile::remove(info.filePath());
    }

    latprobe::KnobEnvironment env() const
    {
        latprobe::KnobEnvironment e;
        e.procRoot = stdPath("proc");
        e.sysRoot = stdPath("sys");
        e.debugRoot = stdPath("debug");
        e.cgroupRoot = stdPath("cgroup");
        e.kernelLog = stdPath("dev/kmsg");
        e.searchPath = KNOBS_FAKEBIN;
        e.stateDir = stdPath("run");
        e.root = true;
        e.schedulerStartMs = 20'000;
        e.commandTimeoutMs = 20'000;
        return e;
    }
};
