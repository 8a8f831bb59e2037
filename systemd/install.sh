#!/bin/sh
# Install cuberef as a service on Raspberry Pi OS (64-bit) bookworm or trixie, Pi 4 or 5.
#   sudo systemd/install.sh          (or: make install-pi)
#   sudo systemd/install.sh --director   also installs mosquitto, the broker that a club's
#                                    tables report to (cuberef club serve runs it itself)
# Idempotent: run it again after an update; it reinstalls from this checkout and
# restarts the service, so the new code runs. It writes nothing into the checkout.
#
# numpy: cuberef pins numpy 2 (opencv-python-headless 5 needs it). The venv is made
# with --system-site-packages so that it sees the Pi's apt picamera2 and libcamera,
# which cannot come from PyPI; the venv's numpy 2 then shadows bookworm's numpy 1.24,
# and apt's simplejpeg (built for numpy 1) would break `import picamera2` with
# "numpy.dtype size changed" (picamera2 #1211). So simplejpeg and av are installed
# into the venv too, built for numpy 2, shadowing the apt builds, as photobooth-app
# does. lgpio: PyPI has wheels up to Python 3.12; on trixie (3.13) the venv uses
# apt's python3-lgpio instead.
#
# Where systemd is not running (a chroot, an image being built) the unit is enabled
# for the next boot and nothing is started.
set -eu

PREFIX=/opt/cuberef
VENV=$PREFIX/.venv
CONFIG=/etc/cuberef/config.toml
UNIT=/etc/systemd/system/cuberef.service
DROPIN=/etc/systemd/system/cuberef.service.d
USER_NAME=cuberef
SOURCE=$(cd "$(dirname "$0")/.." && pwd)
# Pinned like the rest; the numpy-2 builds that shadow apt's (see above).
SHADOWS="simplejpeg==1.9.0 av==18.1.0"

say() { echo "install.sh: $*"; }

DIRECTOR=no
for argument in "$@"; do
    case "$argument" in
        --director) DIRECTOR=yes ;;
        *) echo "install.sh: unknown option $argument; the only one is --director." >&2; exit 2 ;;
    esac
done

if [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run it as root (sudo systemd/install.sh)." >&2
    exit 2
fi
. /etc/os-release
say "installing on ${PRETTY_NAME:-an unknown system} ($(uname -m))"

# The system's packages: Python's venv, the Pi's camera stack and GPIO library where the
# archive has them (Raspberry Pi OS does; plain Debian has neither), the EGL/GBM
# libraries that SDL's kmsdrm driver loads at run time (a Lite image lacks some), and the
# C compiler and Python headers that build the compiled best-crossword search.
export DEBIAN_FRONTEND=noninteractive
apt-get update
wanted="python3-venv libegl1 libgles2 libgbm1 libgl1-mesa-dri libdrm2 gcc python3-dev"
for optional in python3-picamera2 python3-lgpio; do
    if apt-cache show "$optional" >/dev/null 2>&1; then
        wanted="$wanted $optional"
    else
        say "$optional is not in this system's archive; skipped (needed on a Pi only)."
    fi
done
# The director's box runs the club's broker as its own child (cuberef club serve), so
# Debian's mosquitto.service, which would hold port 1883, is kept stopped.
[ "$DIRECTOR" = no ] || wanted="$wanted mosquitto"
# shellcheck disable=SC2086 # the list is meant to split
apt-get install -y --no-install-recommends $wanted
if [ "$DIRECTOR" = yes ]; then
    systemctl disable mosquitto.service 2>/dev/null || true
    [ ! -d /run/systemd/system ] || systemctl stop mosquitto.service || true
    say "mosquitto is installed for a club's tables: cuberef club serve --config club.toml"
fi

if ! id "$USER_NAME" >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/cuberef --shell /usr/sbin/nologin "$USER_NAME"
fi
# The unit's SupplementaryGroups= must all exist, or systemd refuses to start it
# (216/GROUP): one this system lacks (gpio, off a Pi) is made, empty of devices.
for group in gpio video render input; do
    if ! getent group "$group" >/dev/null; then
        groupadd --system "$group"
        say "there was no $group group here; made one (no device of this system is in it)."
    fi
    usermod -a -G "$group" "$USER_NAME"
done

# A venv made by another Python (the system moved from bookworm to trixie) is made anew.
python=$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
if [ -x "$VENV/bin/python" ] && [ "$("$VENV/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')" != "$python" ]; then
    say "the venv was made by another Python; making it again for Python $python."
    rm -rf "$VENV"
fi
mkdir -p "$PREFIX"
[ -x "$VENV/bin/python" ] || python3 -m venv --system-site-packages "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip

# pip builds in the folder it is given: build from a copy, so that no root-owned build/
# or *.egg-info is left in the user's checkout.
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
tar -C "$SOURCE" --exclude=./.venv --exclude=./.git --exclude=./build \
    --exclude='*.egg-info' --exclude=./cuberef-demo -cf - . | tar -C "$build" -xf -
"$VENV/bin/python" -m pip install --quiet --no-cache-dir "$build[native]"
# The best-crossword search compiled with mypyc: three to four times faster on the Pi.
# From $PREFIX, so that Python compiles the installed package and not the checkout here.
(cd "$PREFIX" && "$VENV/bin/python" -m engine.adlib.build_native) \
    || say "the compiled search was not built; the box searches as plain Python."
install -m 0644 "$SOURCE/README.md" "$PREFIX/README.md"
if [ -d /usr/lib/python3/dist-packages/picamera2 ]; then
    # shellcheck disable=SC2086
    "$VENV/bin/python" -m pip install --quiet --only-binary=:all: --force-reinstall --no-deps $SHADOWS
    "$VENV/bin/python" -c "import picamera2" 2>/dev/null \
        || say "picamera2 does not import in the venv; the box will use a USB camera."
fi

# The configuration: every default written out once, then kept; checked on every run.
mkdir -p "$(dirname "$CONFIG")"
[ -f "$CONFIG" ] || "$VENV/bin/cuberef" config --defaults > "$CONFIG"
chmod 0644 "$CONFIG"
if ! "$VENV/bin/cuberef" config --check --config "$CONFIG"; then
    echo "install.sh: fix $CONFIG (above), then run this again." >&2
    exit 2
fi

install -m 0644 "$SOURCE/systemd/cuberef.service" "$UNIT"
# The unit itself lets in the local network for the players' page (on or off in the
# configuration alone); the drop-in that earlier installs put beside it goes.
rm -f "$DROPIN/page.conf"
rmdir "$DROPIN" 2>/dev/null || true

systemctl enable cuberef.service
if [ -d /run/systemd/system ]; then
    systemctl daemon-reload
    systemctl restart cuberef.service  # a first start, or the new code after an update
    # Running is said only once it is so: a box that fails at start exits within seconds.
    sleep "${CUBEREF_SETTLE_SECONDS:-5}"
    if systemctl is-active --quiet cuberef.service; then
        say "cuberef is running; check it with: sudo $VENV/bin/cuberef doctor --service"
    else
        echo "install.sh: cuberef.service is not running ($(systemctl is-active cuberef.service)); its last lines:" >&2
        journalctl -u cuberef.service -n 20 --no-pager -o cat >&2 || true
        echo "install.sh: fix what they say (sudo $VENV/bin/cuberef doctor --service), then run this again." >&2
        exit 1
    fi
else
    say "systemd is not running here; cuberef is enabled and starts at the next boot."
fi
