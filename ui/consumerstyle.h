#pragma once

#include <QColor>
#include <QString>

#include <string>

class QPalette;

namespace latprobe {

// One colour per consumer, the same in every plot and counter, picked to
// stay readable on the palette's base colour (light or dark).
QColor consumerColor(const std::string &name, const QPalette &palette);
bool isDarkPalette(const QPalette &palette);
// What each consumer's misses are called on screen: "Audio skips", ...
QString missTitle(const std::string &consumer);

} // namespace latprobe
