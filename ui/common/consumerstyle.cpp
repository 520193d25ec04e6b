#include "consumerstyle.h"

#include "consumertable.h"

#include <QPalette>

namespace latprobe {

bool isDarkPalette(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

QColor consumerColor(const std::string &name, const QPalette &palette)
{
    const ConsumerTraits &t = consumerTraits(name);
    if (t.role == ConsumerRole::Unknown)
        return palette.color(QPalette::Text);
    return QColor::fromRgb(isDarkPalette(palette) ? t.darkRgb : t.lightRgb);
}

} // namespace latprobe
