#pragma once

#include <QColor>
#include <QString>

#include <string>

class QPalette;

namespace latprobe {

// One colour per consumer (core's consumer table), the same in every plot
// and counter, picked to stay readable on the palette's base colour.
QColor consumerColor(const std::string &name, const QPalette &palette);
bool isDarkPalette(const QPalette &palette);

} // namespace latprobe
