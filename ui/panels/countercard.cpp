#include "countercard.h"

#include "consumerstyle.h"

#include <QEvent>
#include <QLabel>
#include <QPainter>
#include <QTimer>
#include <QVBoxLayout>

namespace latprobe {

CounterCard::CounterCard(const QString &title, const QString &toolTip, QWidget *parent)
    : QFrame(parent), m_title(new QLabel(title, this)),
      m_value(new QLabel(QStringLiteral("–"), this)), m_window(new QLabel(this)),
      m_flashTimer(new QTimer(this))
{
    setToolTip(toolTip);
    setAccessibleName(title);
    setFocusPolicy(Qt::TabFocus); // tooltips and screen readers reach it from the keyboard
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(14, 6, 10, 6);
    layout->setSpacing(0);
    layout->addWidget(m_title);
    layout->addWidget(m_value);
    layout->addWidget(m_window);
    m_value->setAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_value->setTextInteractionFlags(Qt::NoTextInteraction);
    m_flashTimer->setSingleShot(true);
    // Two repaints per flash, no animation: a constantly skipping machine
    // must not make the GUI busier than it already is.
    connect(m_flashTimer, &QTimer::timeout, this, [this] {
        m_flashing = false;
        update();
    });
    applyFonts();
    setMinimumWidth(120);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void CounterCard::applyFonts()
{
    QFont big = font();
    big.setPointSizeF(font().pointSizeF() * 2.1);
    big.setBold(true);
    m_value->setFont(big);
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.92);
    m_window->setFont(small);
    QFont titleFont = font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);
}

void CounterCard::changeEvent(QEvent *event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        applyFonts();
}

void CounterCard::setValues(const QString &sinceReset, const QString &lastWindow)
{
    if (m_value->text() != sinceReset)
        m_value->setText(sinceReset);
    if (m_window->text() != lastWindow)
        m_window->setText(lastWindow);
}

void CounterCard::flash()
{
    m_flashing = true;
    m_flashTimer->start(1500);
    update();
}

QString CounterCard::valueText() const
{
    return m_value->text();
}

QString CounterCard::windowText() const
{
    return m_window->text();
}

QString CounterCard::title() const
{
    return m_title->text();
}

void CounterCard::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QPalette pal = palette();
    QColor fill = pal.color(QPalette::Base);
    QColor border = pal.color(QPalette::Mid);
    if (m_flashing) {
        // A warm tint of the base colour: visible on light and dark palettes.
        const QColor warn =
            isDarkPalette(pal) ? QColor(0xe0, 0x60, 0x50) : QColor(0xd0, 0x30, 0x20);
        const double k = 0.35;
        fill = QColor::fromRgbF(fill.redF() * (1 - k) + warn.redF() * k,
                                fill.greenF() * (1 - k) + warn.greenF() * k,
                                fill.blueF() * (1 - k) + warn.blueF() * k);
        border = warn;
    }
    if (hasFocus())
        border = pal.color(QPalette::Highlight);
    p.setPen(QPen(border, m_flashing || hasFocus() ? 2 : 1));
    p.setBrush(fill);
    p.drawRoundedRect(QRectF(rect()).adjusted(1, 1, -1, -1), 4, 4);
    if (!m_consumer.empty())
        p.fillRect(QRect(3, 5, 4, height() - 10), consumerColor(m_consumer, pal));
}

} // namespace latprobe
