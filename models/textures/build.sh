#!/bin/sh
# Rebuild models/textures/: install the Debian packages that ship these textures, convert
# the chosen ones to small JPEGs here, copy each package's copyright file, and write
# SOURCES.txt (package, version, file, kind, width in mm, tint, split).
# Run as root on Debian/Ubuntu from the repository root, after `make` built .venv:
#   sh models/textures/build.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-.venv/bin/python}
packages="gimp-data gimp-data-extras mypaint-data krita-data pokerth-data"
apt-get install -y --no-install-recommends $packages >/dev/null
G=/usr/share/gimp/2.0/patterns
M=/usr/share/mypaint/backgrounds
K=/usr/share/krita/patterns
P=/usr/share/games/pokerth/gfx/gui/table
# package|path|name|kind|mm|tint|split: kind says what the surface is, mm how wide the whole
# image is on the table, tint whether it is a grey grain the renderer colours; train
# textures teach the models, unseen ones are held out to measure them.
list="gimp-data|$G/Wood/wood1.pat|wood1|wood|120|no|train
gimp-data|$G/Wood/wood3.pat|wood3|wood|60|no|train
gimp-data|$G/Wood/wood4.pat|wood4|wood|60|no|unseen
gimp-data|$G/Wood/wood5.pat|wood5|wood|100|no|train
gimp-data|$G/Wood/walnut.pat|walnut|wood|120|no|train
gimp-data|$G/Wood/burlwood.pat|burlwood|wood|100|no|unseen
gimp-data|$G/Wood/parque1.pat|parquet1|wood|160|no|train
gimp-data|$G/Wood/parque2.pat|parquet2|wood|160|no|unseen
gimp-data|$G/Wood/corkboard.pat|cork|cork|60|no|train
gimp-data|$G/Stone/granite1.pat|granite|stone|80|no|train
gimp-data|$G/Stone/marble1.pat|marble|stone|120|no|train
gimp-data|$G/Stone/marble2.pat|marble-tiles|stone|300|no|train
gimp-data|$G/Stone/pink_marble.pat|pink-marble|stone|120|no|unseen
gimp-data|$G/Stone/slate.pat|slate|stone|100|no|train
gimp-data|$G/Paper/crinklepaper.pat|crinkled-paper|paper|100|no|train
gimp-data|$G/Paper/paper.pat|scratched-paper|paper|60|no|train
gimp-data|$G/Fabric/burlap.pat|burlap|cloth|50|no|train
gimp-data|$G/Animal/leather.pat|leather|leather|60|no|unseen
gimp-data-extras|$G/granite2.pat|granite-dark|stone|80|no|unseen
gimp-data-extras|$G/dirt.pat|speckled|carpet|50|no|train
mypaint-data|$M/paper1_1.png|paper-white|paper|30|no|train
mypaint-data|$M/paper1_4.png|paper-yellow|paper|30|no|train
mypaint-data|$M/paper1_9.png|paper-cream|paper|30|no|unseen
mypaint-data|$M/paper2_1.png|paper-lined|paper|40|no|train
mypaint-data|$M/paper3_1.png|paper-squared|paper|40|no|unseen
mypaint-data|$M/paper3_4.png|paper-squared-green|paper|40|no|train
mypaint-data|$M/paper7_1.png|card-black|paper|30|no|train
mypaint-data|$M/paper7_2.png|card-red|paper|30|no|train
mypaint-data|$M/paper7_3.png|card-green|paper|30|no|unseen
mypaint-data|$M/paper7_4.png|card-navy|paper|30|no|train
mypaint-data|$M/paper7_6.png|card-kraft|paper|30|no|train
mypaint-data|$M/paper7_8.png|card-blue|paper|30|no|unseen
mypaint-data|$M/paper7_9.png|card-teal|paper|30|no|train
mypaint-data|$M/canvas1_1.png|canvas-fine|cloth|20|no|train
krita-data|$K/01_canvas.png|canvas|cloth|80|yes|train
krita-data|$K/02_rough-canvas.png|rough-canvas|cloth|80|yes|train
krita-data|$K/02b_WoofTissue.png|woven|cloth|80|yes|unseen
krita-data|$K/03_default-paper.png|paper-grain|paper|80|yes|train
krita-data|$K/05_paper-torchon.png|paper-torchon|paper|80|yes|train
krita-data|$K/Rough_Paper.png|paper-rough|paper|100|yes|unseen
krita-data|$K/Crumpled_Paper.pat|paper-crumpled|paper|120|yes|train
krita-data|$K/HR_Wall_Paper.pat|wallpaper|paper|200|no|train
krita-data|$K/HR_PastelPaper_02.pat|pastel-paper|paper|200|no|unseen
krita-data|$K/14_texture-rock.png|rock|stone|150|yes|train
krita-data|$K/16_texture-woody.png|woody|wood|150|yes|train
krita-data|$K/Sand_fine.png|carpet-fine|carpet|60|yes|train
krita-data|$K/04_paper-C-grain.png|carpet-grain|carpet|60|yes|unseen
pokerth-data|$P/default/table.png|felt-green|felt|400|no|train
pokerth-data|$P/default_800x480/table_dark.png|felt-dark|felt|400|no|unseen"
printf '# package\tversion\tfile\tkind\tmm\ttint\tsplit\n' >"$here/SOURCES.txt"
echo "$list" | while IFS='|' read -r pkg path name kind mm tint split; do
    "$python" "$here/convert.py" "$path" "$here/$name.jpg"
    cp "/usr/share/doc/$pkg/copyright" "$here/$pkg.copyright.txt"
    version=$(dpkg-query -W -f='${Version}' "$pkg")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$pkg" "$version" "$name.jpg" "$kind" "$mm" "$tint" "$split" >>"$here/SOURCES.txt"
done
echo "textures written to $here"
