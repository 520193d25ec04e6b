#pragma once

// A D-Bus of the test's own, standing in for the system bus: a
// dbus-daemon on a socket in a temp dir, that anyone may use and own
// names on, named to this process and its children by
// DBUS_SYSTEM_BUS_ADDRESS (sd-bus's sd_bus_open_system() reads it), so
// that a test never reaches the machine's own system bus. And scx_loader's
// stand-in on it (fakescxloader.cpp), running, or installed for the bus
// to start on demand.

#include "statewait.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

class PrivateBus
{
public:
    PrivateBus() : m_previous(qgetenv("DBUS_SYSTEM_BUS_ADDRESS")) {}
    PrivateBus(const PrivateBus &) = delete;
    PrivateBus &operator=(const PrivateBus &) = delete;
    ~PrivateBus()
    {
        m_daemon.kill();
        m_daemon.waitForFinished(kStateWaitMs);
        if (m_previous.isNull())
            qunsetenv("DBUS_SYSTEM_BUS_ADDRESS");
        else
            qputenv("DBUS_SYSTEM_BUS_ADDRESS", m_previous);
    }

    // Before start(): a service the bus starts on the first call to it, as
    // /usr/share/dbus-1/system-services/org.scx.Loader.service makes it.
    void installActivatable(const QString &name, const QStringList &command)
    {
        QDir(m_dir.path()).mkpath("services");
        QFile f(m_dir.filePath("services/" + name + ".service"));
        if (f.open(QIODevice::WriteOnly))
            f.write(QString("[D-BUS Service]\nName=%1\nExec=%2\n")
                        .arg(name, command.join(' '))
                        .toUtf8());
    }

    // Starts it and points DBUS_SYSTEM_BUS_ADDRESS at it. "" or why not.
    QString start()
    {
        QDir(m_dir.path()).mkpath("services");
        const QString config = m_dir.filePath("bus.conf");
        QFile f(config);
        if (!f.open(QIODevice::WriteOnly))
            return "cannot write " + config;
        f.write(QStringLiteral(
                    "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration "
                    "1.0//EN\" \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
                    "<busconfig><type>system</type><listen>unix:path=%1</listen>"
                    "<servicedir>%2</servicedir>"
                    "<auth>EXTERNAL</auth><policy context=\"default\"><allow user=\"*\"/>"
                    "<allow own=\"*\"/><allow send_destination=\"*\"/>"
                    "<allow receive_sender=\"*\"/></policy></busconfig>\n")
                    .arg(m_dir.filePath("bus"), m_dir.filePath("services"))
                    .toUtf8());
        f.close();
        m_daemon.start("dbus-daemon", {"--config-file=" + config, "--nofork", "--print-address"});
        if (!m_daemon.waitForStarted(kStateWaitMs))
            return "cannot start dbus-daemon (install dbus-daemon): " + m_daemon.errorString();
        QByteArray address;
        while (!address.contains('\n') && m_daemon.waitForReadyRead(kStateWaitMs))
            address += m_daemon.readAllStandardOutput();
        if (!address.contains('\n'))
            return "dbus-daemon said no address: " + m_daemon.readAllStandardError();
        qputenv("DBUS_SYSTEM_BUS_ADDRESS", address.trimmed());
        return {};
    }

private:
    QTemporaryDir m_dir;
    QProcess m_daemon;
    QByteArray m_previous;
};

// fake_scx_loader on the private bus, playing the kernel in `schedExtDir`.
class FakeScxLoader
{
public:
    FakeScxLoader() = default;
    FakeScxLoader(const FakeScxLoader &) = delete;
    FakeScxLoader &operator=(const FakeScxLoader &) = delete;
    ~FakeScxLoader()
    {
        m_process.terminate();
        m_process.waitForFinished(kStateWaitMs);
    }

    // Its command line: playing the kernel in `schedExtDir` and `kernelLog`,
    // offering `supported` ("scx_fake", or "scx_fake=OPS" for another ops
    // name than the one scx 1.0.16 on would give).
    QStringList command(const QString &schedExtDir, const QString &kernelLog,
                        const QStringList &supported) const
    {
        return QStringList{FAKE_SCX_LOADER, schedExtDir, kernelLog, m_dir.filePath("calls")} +
               supported;
    }

    // "" once it owns org.scx.Loader, or why not.
    QString start(const QString &schedExtDir, const QString &kernelLog,
                  const QStringList &supported)
    {
        const QStringList argv = command(schedExtDir, kernelLog, supported);
        m_process.start(argv.front(), argv.mid(1));
        if (!m_process.waitForReadyRead(kStateWaitMs) || m_process.readLine().trimmed() != "ready")
            return "fake_scx_loader did not start: " + m_process.readAllStandardError();
        return {};
    }

    // The calls it served, in order.
    QStringList calls() const
    {
        QFile f(m_dir.filePath("calls"));
        if (!f.open(QIODevice::ReadOnly))
            return {};
        return QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
    }

private:
    QTemporaryDir m_dir;
    QProcess m_process;
};
