#include "loadchoice.h"

#include "loadkind.h"

#include <QSettings>
#include <QStringList>

#include <algorithm>

namespace latprobe {

namespace {
QString number(double v)
{
    return QString::number(v, 'g', 12);
}
} // namespace

LoadChoice LoadChoice::defaults(const LoadKind &kind)
{
    LoadChoice c;
    c.kind = kind.name;
    for (const LoadParam &p : kind.params)
        c.params[p.key] = p.defaultValue;
    return c;
}

QString LoadChoice::specText() const
{
    QString text = QStringLiteral("%1:%2").arg(QString::fromStdString(kind)).arg(count);
    for (const auto &[key, value] : params)
        text += QStringLiteral(":%1=%2").arg(QString::fromStdString(key), number(value));
    if (nice)
        text += QStringLiteral(":nice=%1").arg(nice);
    if (policy != QLatin1String("other"))
        text += QStringLiteral(":policy=") + policy;
    if (!cpus.trimmed().isEmpty())
        text += QStringLiteral(":cpus=") + cpus.trimmed();
    if (!ownSession)
        text += QStringLiteral(":session=same");
    // cmd= takes the rest of the text, so it comes last.
    if (!command.trimmed().isEmpty())
        text += QStringLiteral(":cmd=") + command.trimmed();
    return text;
}

QString LoadChoice::extrasSummary(const LoadKind &loadKind) const
{
    QStringList parts;
    for (size_t i = 1; i < loadKind.params.size(); ++i) {
        const LoadParam &p = loadKind.params[i];
        parts << QStringLiteral("%1=%2").arg(QString::fromStdString(p.key),
                                             number(params.at(p.key)));
    }
    if (policy != QLatin1String("other"))
        parts << QStringLiteral("policy=") + policy;
    if (!cpus.trimmed().isEmpty())
        parts << QStringLiteral("cpus=") + cpus.trimmed();
    parts << (ownSession ? QStringLiteral("own session") : QStringLiteral("same session"));
    return parts.join(QStringLiteral(", "));
}

void LoadChoice::save(QSettings &s) const
{
    s.beginGroup(QStringLiteral("loads/") + QString::fromStdString(kind));
    s.setValue(QStringLiteral("count"), count);
    s.setValue(QStringLiteral("nice"), nice);
    for (const auto &[key, value] : params)
        s.setValue(QStringLiteral("param/") + QString::fromStdString(key), value);
    s.setValue(QStringLiteral("policy"), policy);
    s.setValue(QStringLiteral("cpus"), cpus);
    s.setValue(QStringLiteral("ownSession"), ownSession);
    s.setValue(QStringLiteral("command"), command);
    s.endGroup();
}

void LoadChoice::load(QSettings &s, const LoadKind &k)
{
    *this = defaults(k);
    s.beginGroup(QStringLiteral("loads/") + QString::fromStdString(k.name));
    count = std::max(1, s.value(QStringLiteral("count"), count).toInt());
    nice = std::clamp(s.value(QStringLiteral("nice"), nice).toInt(), -20, 19);
    for (const LoadParam &p : k.params) {
        const double v =
            s.value(QStringLiteral("param/") + QString::fromStdString(p.key), p.defaultValue)
                .toDouble();
        params[p.key] = std::clamp(v, p.min, p.max);
    }
    policy = s.value(QStringLiteral("policy"), policy).toString();
    if (policy != QLatin1String("batch") && policy != QLatin1String("idle"))
        policy = QStringLiteral("other");
    cpus = s.value(QStringLiteral("cpus")).toString();
    ownSession = s.value(QStringLiteral("ownSession"), true).toBool();
    command = s.value(QStringLiteral("command")).toString();
    s.endGroup();
}

} // namespace latprobe
