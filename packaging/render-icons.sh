#!/bin/sh
# Renders icons/latprobe.svg to the hicolor PNG sizes packaging/CMakeLists.txt
# installs. Run it after editing the SVG and commit the PNGs; the build does
# not need librsvg. Needs rsvg-convert (apt-get install librsvg2-bin).
set -eu
cd "$(dirname "$0")/icons"
for size in 16 22 24 32 48 64 128 256; do
    rsvg-convert --width "$size" --height "$size" latprobe.svg --output "latprobe-$size.png"
done
