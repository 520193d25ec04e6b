#pragma once

#include <QPalette>

namespace latprobe {

// A dark palette for Fusion (--dark, or LATPROBE_PALETTE=dark): for
// checking that every colour comes from the palette, and for desktops
// whose dark theme Qt does not pick up.
QPalette darkPalette();

} // namespace latprobe
