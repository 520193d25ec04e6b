#include "runsaving.h"

#include "runfile.h"

#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>

namespace latprobe {

bool writeRunTo(const Run &run, const QString &path, QString *error)
{
    try {
        writeRunFile(run, path.toStdString());
    } catch (const RunFileError &e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return false;
    }
    return true;
}

QString saveRunInteractively(QWidget *parent, const QString &title, const QString &baseName,
                             const std::function<Run()> &run)
{
    QSettings settings(QStringLiteral("latprobe"), QStringLiteral("latprobe"));
    QString dir = settings.value(QStringLiteral("run/dir")).toString();
    if (dir.isEmpty())
        dir = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    const QString path = QFileDialog::getSaveFileName(
        parent, title, QDir(dir).filePath(QStringLiteral("%1-%2.json").arg(baseName, stamp)),
        QObject::tr("latprobe runs (*.json)"));
    if (path.isEmpty())
        return {};
    settings.setValue(QStringLiteral("run/dir"), QFileInfo(path).absolutePath());
    QString error;
    if (!writeRunTo(run(), path, &error)) {
        QMessageBox::critical(parent, QObject::tr("Run not saved"), error);
        return {};
    }
    return path;
}

} // namespace latprobe
