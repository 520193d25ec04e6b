#include "delaybar.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace latprobe {

namespace {

QString ms(int64_t ns)
{
    return QStringLiteral("%1 ms").arg(static_cast<double>(ns) / 1e6, 0, 'f', 2);
}

QColor shareColor(const DelayShare &s)
{
    switch (s.kind) {
    case DelayShare::Kind::Irq:
        return QColor(0xe6, 0x9f, 0x00);
    case DelayShare::Kind::Softirq:
        return QColor(0xf0, 0xc0, 0x40);
    case DelayShare::Kind::Idle:
        return QColor(0x99, 0x99, 0x99);
    case DelayShare::Kind::Task:
        break;
    }
    // latprobe's own loads apart from the machine's other tasks.
    return s.load.empty() ? QColor(0xd5, 0x5e, 0x00) : QColor(0xcc, 0x79, 0xa7);
}

QString shareLabel(const DelayShare &s)
{
    const QString name = QString::fromStdString(s.name);
    switch (s.kind) {
    case DelayShare::Kind::Task:
        return QStringLiteral("%1[%2]").arg(name).arg(s.pid);
    case DelayShare::Kind::Irq:
        return QStringLiteral("irq %1").arg(name);
    case DelayShare::Kind::Softirq:
        return QStringLiteral("softirq %1").arg(name);
    case DelayShare::Kind::Idle:
        return QStringLiteral("idle");
    }
    return name;
}

} // namespace

DelayBar::DelayBar(const MissExplanation &x, QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    if (x.timerNs > 0)
        m_parts.push_back({tr("timer"), x.timerNs, QColor(0x56, 0xb4, 0xe9)});
    int64_t shared = 0;
    for (const DelayShare &s : x.shares) {
        m_parts.push_back({shareLabel(s), s.ns, shareColor(s)});
        shared += s.ns;
    }
    if (x.otherShares > 0) {
        m_parts.push_back(
            {tr("%n others", nullptr, x.otherShares), x.otherSharesNs, QColor(0x99, 0x99, 0x99)});
        shared += x.otherSharesNs;
    }
    // Waiting the trace did not pin on anyone, and what it did not record.
    if (const int64_t rest = x.delayNs() - x.timerNs - shared - x.unknownNs; rest > 0)
        m_parts.push_back({tr("waiting"), rest, QColor(0xbb, 0xbb, 0xbb)});
    if (x.unknownNs > 0)
        m_parts.push_back({tr("not traced"), x.unknownNs, QColor(0x55, 0x55, 0x55)});
    if (x.selfNs > 0)
        m_parts.push_back({tr("itself"), x.selfNs, QColor(0x00, 0x9e, 0x73)});
    for (const Part &p : m_parts)
        m_totalNs += p.ns;
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

QSize DelayBar::sizeHint() const
{
    return {480, fontMetrics().height() + 12};
}

QSize DelayBar::minimumSizeHint() const
{
    return {160, fontMetrics().height() + 12};
}

int DelayBar::partAt(int x) const
{
    if (m_totalNs <= 0)
        return -1;
    int64_t before = 0;
    for (size_t i = 0; i < m_parts.size(); ++i) {
        before += m_parts[i].ns;
        if (x < static_cast<double>(before) / static_cast<double>(m_totalNs) * width())
            return static_cast<int>(i);
    }
    return -1;
}

bool DelayBar::event(QEvent *e)
{
    if (e->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(e);
        const int i = partAt(help->pos().x());
        if (i >= 0)
            QToolTip::showText(help->globalPos(),
                               QStringLiteral("%1: %2").arg(m_parts[i].label, ms(m_parts[i].ns)),
                               this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

void DelayBar::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    const QRect bar = rect().adjusted(0, 2, -1, -2);
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawRect(bar);
    if (m_totalNs <= 0)
        return;
    double x = bar.left();
    for (const Part &p : m_parts) {
        const double w = static_cast<double>(p.ns) / static_cast<double>(m_totalNs) * bar.width();
        const QRectF part(x, bar.top(), w, bar.height());
        painter.fillRect(part, p.color);
        // Labelled where the label fits; the tooltip names every part.
        const QString text = p.label + " " + ms(p.ns);
        if (painter.fontMetrics().horizontalAdvance(text) + 6 < w) {
            painter.setPen(p.color.lightness() > 140 ? Qt::black : Qt::white);
            painter.drawText(part, Qt::AlignCenter, text);
        } else if (painter.fontMetrics().horizontalAdvance(p.label) + 6 < w) {
            painter.setPen(p.color.lightness() > 140 ? Qt::black : Qt::white);
            painter.drawText(part, Qt::AlignCenter, p.label);
        }
        x += w;
    }
}

} // namespace latprobe
