#include "messagebanner.h"

#include "consumerstyle.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QStyle>
#include <QToolButton>

namespace latprobe {

MessageBanner::MessageBanner(QWidget *parent)
    : QFrame(parent), m_icon(new QLabel(this)), m_text(new QLabel(this)),
      m_close(new QToolButton(this))
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 6, 4, 6);
    layout->addWidget(m_icon, 0, Qt::AlignTop);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_close->setAutoRaise(true);
    m_close->setText(QStringLiteral("✕"));
    m_close->setToolTip(tr("Dismiss"));
    connect(m_close, &QToolButton::clicked, this, &QWidget::hide);
    hide();
}

void MessageBanner::showMessage(const QString &text, Kind kind)
{
    m_kind = kind;
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_icon->setPixmap(style()
                          ->standardIcon(kind == Error ? QStyle::SP_MessageBoxWarning
                                                       : QStyle::SP_MessageBoxInformation)
                          .pixmap(size, size));
    m_text->setText(text);
    setAccessibleDescription(text);
    show();
    update();
}

QString MessageBanner::text() const
{
    return m_text->text();
}

void MessageBanner::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    const bool dark = isDarkPalette(pal);
    const QColor accent = m_kind == Error
                              ? (dark ? QColor(0xe0, 0x60, 0x50) : QColor(0xc0, 0x30, 0x20))
                              : pal.color(QPalette::Highlight);
    QColor fill = pal.color(QPalette::Base);
    const double k = dark ? 0.22 : 0.12;
    fill = QColor::fromRgbF(fill.redF() * (1 - k) + accent.redF() * k,
                            fill.greenF() * (1 - k) + accent.greenF() * k,
                            fill.blueF() * (1 - k) + accent.blueF() * k);
    p.setPen(QPen(accent, 1));
    p.setBrush(fill);
    p.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
}

} // namespace latprobe
