#!/bin/sh
# Copies the screen's font from Debian's fonts-dejavu-core package (apt-get install
# fonts-dejavu-core) into this folder, with its licence. DejaVu Sans covers Czech
# (háček, čárka, kroužek) and every face on the cubes; Bold reads across a table.
set -eu
here=$(dirname "$0")
cp /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf "$here/"
cp /usr/share/doc/fonts-dejavu-core/copyright "$here/DejaVu-LICENSE.txt"
dpkg-query -W -f='fonts-dejavu-core ${Version}\n' fonts-dejavu-core > "$here/SOURCE.txt"
