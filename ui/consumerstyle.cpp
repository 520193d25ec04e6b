#include "consumerstyle.h"

#include <QPalette>

namespace latprobe {

bool isDarkPalette(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

QColor consumerColor(const std::string &name, const QPalette &palette)
{
    // Okabe-Ito's colour-blind safe set; lighter variants on dark bases.
    const bool dark = isDarkPalette(palette);
    if (name == "audio")
        return dark ? QColor(0x56, 0xb4, 0xe9) : QColor(0x00, 0x72, 0xb2);
    if (name == "video")
        return dark ? QColor(0xf0, 0xa0, 0x40) : QColor(0xd5, 0x5e, 0x00);
    if (name == "wakeup")
        return dark ? QColor(0x3d, 0xd6, 0xa6) : QColor(0x00, 0x9e, 0x73);
    if (name == "gui")
        return dark ? QColor(0xe0, 0x8e, 0xc4) : QColor(0xcc, 0x79, 0xa7);
    if (name == "start")
        return dark ? QColor(0xe8, 0xd8, 0x50) : QColor(0x8a, 0x7a, 0x00);
    return palette.color(QPalette::Text);
}

QString missTitle(const std::string &consumer)
{
    if (consumer == "audio")
        return QStringLiteral("Audio skips");
    if (consumer == "video")
        return QStringLiteral("Dropped frames");
    if (consumer == "gui")
        return QStringLiteral("GUI stalls");
    if (consumer == "start")
        return QStringLiteral("Slow starts");
    return QString::fromStdString(consumer) + QStringLiteral(" misses");
}

} // namespace latprobe
