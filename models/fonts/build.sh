#!/bin/sh
# Rebuild models/fonts/: install the Debian font packages, copy the chosen faces and each
# package's copyright file here, and write SOURCES.txt (package, version, file).
# Run as root on Debian/Ubuntu: sh models/fonts/build.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
packages="fonts-liberation2 fonts-roboto-unhinted fonts-open-sans fonts-comfortaa fonts-urw-base35
fonts-freefont-ttf fonts-league-spartan fonts-dejavu-extra fonts-noto-core fonts-crosextra-caladea
fonts-linuxlibertine"
apt-get install -y --no-install-recommends $packages >/dev/null
# package|path|split (train fonts teach the model; val fonts are held out to measure it)
list="fonts-liberation2|/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf|train
fonts-roboto-unhinted|/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Bold.ttf|train
fonts-roboto-unhinted|/usr/share/fonts/truetype/roboto/unhinted/RobotoCondensed-Bold.ttf|train
fonts-open-sans|/usr/share/fonts/truetype/open-sans/OpenSans-Bold.ttf|train
fonts-comfortaa|/usr/share/fonts/truetype/comfortaa/Comfortaa-Bold.ttf|train
fonts-liberation2|/usr/share/fonts/truetype/liberation2/LiberationSerif-Bold.ttf|train
fonts-urw-base35|/usr/share/fonts/opentype/urw-base35/URWGothic-Demi.otf|train
fonts-freefont-ttf|/usr/share/fonts/truetype/freefont/FreeSansBold.ttf|train
fonts-urw-base35|/usr/share/fonts/opentype/urw-base35/NimbusSansNarrow-Bold.otf|train
fonts-urw-base35|/usr/share/fonts/opentype/urw-base35/URWBookman-Demi.otf|train
fonts-urw-base35|/usr/share/fonts/opentype/urw-base35/C059-Bold.otf|train
fonts-urw-base35|/usr/share/fonts/opentype/urw-base35/P052-Bold.otf|train
fonts-noto-core|/usr/share/fonts/truetype/noto/NotoSerif-Bold.ttf|train
fonts-noto-core|/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf|train
fonts-crosextra-caladea|/usr/share/fonts/truetype/crosextra/Caladea-Bold.ttf|train
fonts-linuxlibertine|/usr/share/fonts/opentype/linux-libertine/LinLibertine_RB.otf|train
fonts-urw-base35|/usr/share/fonts/opentype/urw-base35/NimbusSans-Bold.otf|val
fonts-league-spartan|/usr/share/fonts/opentype/league-spartan/LeagueSpartan-Bold.otf|val
fonts-urw-base35|/usr/share/fonts/opentype/urw-base35/NimbusRoman-Bold.otf|val
fonts-dejavu-extra|/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf|val"
printf '# package\tversion\tfile\tsplit\n' >"$here/SOURCES.txt"
echo "$list" | while IFS='|' read -r pkg path split; do
    cp "$path" "$here/"
    cp "/usr/share/doc/$pkg/copyright" "$here/$pkg.copyright.txt"
    version=$(dpkg-query -W -f='${Version}' "$pkg")
    printf '%s\t%s\t%s\t%s\n' "$pkg" "$version" "$(basename "$path")" "$split" >>"$here/SOURCES.txt"
done
echo "fonts copied to $here"
