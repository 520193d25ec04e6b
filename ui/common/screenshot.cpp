#include "screenshot.h"

#include "sysinfo.h"
#include "version.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QFontMetrics>
#include <QPainter>
#include <QPalette>
#include <QPixmap>
#include <QSettings>
#include <QStandardPaths>
#include <QStringList>

namespace latprobe {

QString screenshotCaption(const SystemInfo &s, const std::vector<std::string> &loads,
                          const QDateTime &when, const std::string &delayers)
{
    QStringList loadNames;
    for (const std::string &l : loads)
        loadNames << QString::fromStdString(l);
    const QString sep = QStringLiteral("  ·  ");
    QStringList parts;
    parts << QStringLiteral("latprobe %1").arg(QString::fromLatin1(kVersion));
    parts << QStringLiteral("Linux %1 %2")
                 .arg(QString::fromStdString(s.kernelRelease), QString::fromStdString(s.machine));
    parts << QStringLiteral("%1 CPUs %2").arg(s.cpuCount).arg(QString::fromStdString(s.cpuModel));
    parts << QStringLiteral("sched %1, HZ %2, preempt %3")
                 .arg(QString::fromStdString(s.scheduler), QString::fromStdString(s.hz),
                      QString::fromStdString(s.preemption));
    parts << QStringLiteral("loads: %1")
                 .arg(loadNames.isEmpty() ? QStringLiteral("none (idle)")
                                          : loadNames.join(QStringLiteral(" + ")));
    parts << when.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss t"));
    QString caption = parts.join(sep);
    if (!delayers.empty())
        caption += QLatin1Char('\n') + QString::fromStdString(delayers);
    return caption;
}

QString compareCaption(const std::vector<std::string> &labels, const QStringList &files,
                       const QDateTime &when, const std::vector<std::string> &headlines,
                       CaptionOf of)
{
    QStringList runs;
    for (size_t i = 0; i < labels.size(); ++i) {
        QString run = QString::fromStdString(labels[i]);
        if (of == CaptionOf::Runs) {
            run = QStringLiteral("run %1 %2").arg(i + 1).arg(run);
            if (static_cast<qsizetype>(i) < files.size())
                run += QStringLiteral(" [%1]").arg(
                    QFileInfo(files[static_cast<qsizetype>(i)]).fileName());
        }
        runs << run;
    }
    const QString what =
        of == CaptionOf::Runs
            ? QStringLiteral("compare: %1").arg(runs.join(QStringLiteral(", ")))
            : QStringLiteral("A/B: %1%2")
                  .arg(runs.join(QStringLiteral(" against ")),
                       files.isEmpty()
                           ? QString()
                           : QStringLiteral(" [%1]").arg(QFileInfo(files.front()).fileName()));
    const QString sep = QStringLiteral("  ·  ");
    QString caption = QStringList{QStringLiteral("latprobe %1").arg(QString::fromLatin1(kVersion)),
                                  what, when.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss t"))}
                          .join(sep);
    for (const std::string &line : headlines)
        caption += QLatin1Char('\n') + QString::fromStdString(line);
    return caption;
}

QString screenshotDirectory(const QString &preferred)
{
    QString dir = preferred;
    if (dir.isEmpty())
        dir = QSettings(QStringLiteral("latprobe"), QStringLiteral("latprobe"))
                  .value(QStringLiteral("screenshot/dir"))
                  .toString();
    if (dir.isEmpty())
        dir = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    if (dir.isEmpty() || !QDir().mkpath(dir))
        dir = QDir::homePath();
    return dir;
}

QImage composeScreenshot(const QPixmap &window, const QString &caption, const QPalette &palette,
                         const QFont &font, int *captionHeight)
{
    const qreal dpr = window.devicePixelRatio();
    const int width = qRound(window.width() / dpr);
    const int margin = 8;
    const QFontMetrics fm(font);
    const QRect textRect = fm.boundingRect(QRect(0, 0, width - 2 * margin, 1000),
                                           Qt::TextWordWrap | Qt::AlignLeft, caption);
    const int strip = textRect.height() + 2 * margin;
    const int height = qRound(window.height() / dpr) + strip;

    QImage image(QSize(width, height) * dpr, QImage::Format_RGB32);
    image.setDevicePixelRatio(dpr);
    QPainter p(&image);
    p.drawPixmap(0, 0, window);
    const QRect stripRect(0, height - strip, width, strip);
    p.fillRect(stripRect, palette.color(QPalette::AlternateBase));
    p.setPen(palette.color(QPalette::Mid));
    p.drawLine(stripRect.topLeft(), stripRect.topRight());
    p.setPen(palette.color(QPalette::Text));
    p.setFont(font);
    p.drawText(stripRect.adjusted(margin, margin, -margin, -margin),
               Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignVCenter, caption);
    p.end();
    if (captionHeight)
        *captionHeight = strip;
    return image;
}

} // namespace latprobe
