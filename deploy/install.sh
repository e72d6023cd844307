#!/usr/bin/env bash
# Installs the Incan Gold table companion on Raspberry Pi OS Bookworm (64-bit)
# as a kiosk service. Run it as root from a checkout of the repository:
#
#     sudo deploy/install.sh            # install, or update after `git pull`
#     deploy/install.sh --dry-run       # print every step, change nothing
#
# Safe to run again: every step checks first and does only what is missing.
# An existing config file is never overwritten. See deploy/README.md.
set -euo pipefail

usage() {
    cat <<EOF
Usage: $0 [options]

  --dry-run          print every step (the commands it would run), change nothing
  --user NAME        the service's user (default: incan)
  --prefix DIR       where the virtual environment goes (default: /opt/incan-companion)
  --data-dir DIR     the app's only writable directory (default: /var/lib/incan-companion)
  --config FILE      the config file (default: /etc/incan-companion/config.toml)
  --source DIR       the checkout to install (default: this script's repository)
  --keep-desktop     do not switch the default boot target to the console
  --no-start         enable the service but do not (re)start it now
  --no-apt           leave the Debian packages alone (installed some other way)
  --force            go on although this is not Raspberry Pi OS Bookworm
  --print-unit       print the systemd unit for these options and exit
  -h, --help         this help
EOF
}

DRY_RUN=0
APP_USER=incan
PREFIX=/opt/incan-companion
DATA_DIR=/var/lib/incan-companion
CONFIG=/etc/incan-companion/config.toml
SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KEEP_DESKTOP=0
START=1
APT=1
FORCE=0
PRINT_UNIT=0
UNIT_NAME=incan-companion.service
UNIT_DIR=/etc/systemd/system
GROUPS_NEEDED=(gpio video render audio)
# Not "input" (every keyboard plugged in): the touchscreen alone is the app's,
# through the udev rule; an earlier install's membership is taken back.
GROUPS_DROPPED=(input)
FAULT_UNIT_NAME=incan-companion-fault.service
# The menu's "Switch off": the kiosk asks by a file, this path unit acts.
SWITCH_OFF_PATH_NAME=incan-companion-switch-off.path
SWITCH_OFF_UNIT_NAME=incan-companion-switch-off.service
UDEV_RULES=/etc/udev/rules.d/99-incan-companion.rules
# The touchscreen's device unit (systemd-escape --path --suffix=device
# /dev/input/incan-touchscreen): a drop-in there bounds the kiosk's wait for it.
TOUCH_DROPIN_DIR='/etc/systemd/system/dev-input-incan\x2dtouchscreen.device.d'
# Debian's own Python: its dist-packages hold picamera2 and lgpio, which the
# venv must see (a Python from elsewhere on PATH would not).
SYSTEM_PYTHON=/usr/bin/python3

# Packages. python3-picamera2 and python3-lgpio come from the Raspberry Pi OS
# archive (plain Debian bookworm has neither), so the
# venv sees them through --system-site-packages; libzbar0 is pyzbar's decoder;
# libmtdev1 Kivy's touch input; the GL/EGL/GBM/DRM libraries are what the
# SDL2 bundled in Kivy's wheel loads to draw on KMS/DRM without a desktop;
# fonts-migmix draws Polish, Spanish and Japanese in one font.
APT_PACKAGES=(
    python3 python3-venv python3-pip
    python3-picamera2 python3-lgpio
    libzbar0 libmtdev1
    libgl1 libegl1 libgles2 libgbm1 libdrm2
    fonts-migmix
)

die() {
    echo "install.sh: $*" >&2
    exit 1
}

need_value() {
    if [ $# -lt 2 ] || [ -z "$2" ]; then
        die "$1 needs a value"
    fi
}

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --user) need_value "$@"; APP_USER=$2; shift ;;
        --prefix) need_value "$@"; PREFIX=$2; shift ;;
        --data-dir) need_value "$@"; DATA_DIR=$2; shift ;;
        --config) need_value "$@"; CONFIG=$2; shift ;;
        --source) need_value "$@"; SOURCE=$2; shift ;;
        --keep-desktop) KEEP_DESKTOP=1 ;;
        --no-start) START=0 ;;
        --no-apt) APT=0 ;;
        --force) FORCE=1 ;;
        --print-unit) PRINT_UNIT=1 ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
    shift
done

[[ "$APP_USER" =~ ^[a-z_][a-z0-9_-]*$ ]] || die "--user: not a valid user name: $APP_USER"
for path in "$PREFIX" "$DATA_DIR" "$CONFIG"; do
    [[ "$path" =~ ^/[A-Za-z0-9._/+-]+$ ]] \
        || die "paths must be absolute, of letters, digits and . _ - + / only: $path"
    # No "." or ".." parts: what a path names must be what it says.
    [[ "/$path/" != *"/./"* && "/$path/" != *"/../"* && "$path" != *//* ]] \
        || die "paths must not contain . or .. parts or //: $path"
done
# The data directory is handed to the app's user (install -d -o re-owns an
# existing one): never a system directory, nor someone else's with files in it.
data_dir=${DATA_DIR%/}
case "$data_dir" in
    ""|/bin|/boot|/dev|/etc|/home|/lib|/lib64|/media|/mnt|/opt|/proc|/root|/run|/sbin|/srv|/sys|/tmp|/usr|/usr/*|/var|/var/lib|/var/cache|/var/log|/var/tmp|/var/spool|/var/mail|/etc/*)
        die "--data-dir $DATA_DIR is a system directory; give the app one of its own, e.g. /var/lib/incan-companion" ;;
esac
if [ -d "$data_dir" ] && [ -n "$(ls -A "$data_dir" 2>/dev/null)" ] \
        && [ "$(stat -c %U "$data_dir")" != "$APP_USER" ]; then
    die "--data-dir $DATA_DIR already holds files of $(stat -c %U "$data_dir"); give the app a directory of its own"
fi

VENV=$PREFIX/venv
KIVY_HOME_DIR=$DATA_DIR/kivy
CONFIG_DIR=$(dirname "$CONFIG")
DEPLOY=$SOURCE/deploy

# A unit in deploy/ ("$1") holds the default paths; these options replace them.
# Markers first, so that one new path holding another default is not replaced twice.
render_unit() {
    sed -e "s#/etc/incan-companion/config.toml#@CONFIG@#g" \
        -e "s#/opt/incan-companion#@PREFIX@#g" \
        -e "s#/var/lib/incan-companion#@DATA@#g" \
        -e "s#^User=incan\$#User=@USER@#" \
        -e "s#^Group=incan\$#Group=@USER@#" \
        -e "s#@CONFIG@#${CONFIG}#g" \
        -e "s#@PREFIX@#${PREFIX}#g" \
        -e "s#@DATA@#${DATA_DIR}#g" \
        -e "s#@USER@#${APP_USER}#g" \
        "$1"
}

# The udev rule names the service's user as the touchscreen's group.
render_rules() {
    sed -e "s#GROUP=\"incan\"#GROUP=\"${APP_USER}\"#" "$DEPLOY/99-incan-companion.rules"
}

# Writes what "$1" (a render function) prints to "$2", unless it is already so.
install_rendered() {
    local render=$1 target=$2 source=$3
    if [ -f "$target" ] && cmp -s <($render "$source") "$target"; then
        skip "$target is current"
    elif [ "$DRY_RUN" = 1 ]; then
        echo "+ render $source > $target"
    else
        local tmp
        tmp=$(mktemp)
        $render "$source" >"$tmp"
        install -m 0644 "$tmp" "$target"
        rm -f "$tmp"
    fi
}

if [ "$PRINT_UNIT" = 1 ]; then
    render_unit "$DEPLOY/incan-companion.service"
    exit 0
fi

step() {
    echo "==> $*"
}

# Runs a command, or in a dry run prints it (shell-quoted) instead.
run() {
    if [ "$DRY_RUN" = 1 ]; then
        printf '+'
        printf ' %q' "$@"
        printf '\n'
    else
        "$@"
    fi
}

skip() {
    echo "    already done: $*"
}

# --- checks -----------------------------------------------------------------

step "checking the machine"
if [ ! -f "$SOURCE/pyproject.toml" ] || [ ! -d "$SOURCE/companion" ]; then
    die "$SOURCE is not a checkout of incan-companion (use --source)"
fi
if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
    die "run it as root (sudo $0), or with --dry-run to see the steps"
fi
# shellcheck source=/dev/null
codename=$( (. /etc/os-release && echo "${VERSION_CODENAME:-}") 2>/dev/null || true)
model=$( { tr -d '\0' </proc/device-tree/model; } 2>/dev/null || true)
echo "    system: ${codename:-unknown} ${model:-(not a Raspberry Pi)}"
if [ "$codename" != bookworm ] || [[ "$model" != *"Raspberry Pi"* ]]; then
    if [ "$DRY_RUN" = 1 ] || [ "$FORCE" = 1 ]; then
        echo "    note: not Raspberry Pi OS Bookworm on a Raspberry Pi; going on"
    else
        die "this is not Raspberry Pi OS Bookworm on a Raspberry Pi (--force to go on)"
    fi
fi

# --- Debian packages --------------------------------------------------------

step "Debian packages: ${APT_PACKAGES[*]}"
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || missing+=("$pkg")
done
if [ "$APT" = 0 ]; then
    echo "    skipped (--no-apt); missing: ${missing[*]:-none}"
elif [ ${#missing[@]} -eq 0 ]; then
    skip "all installed"
else
    echo "    missing: ${missing[*]}"
    run apt-get update
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        "${APT_PACKAGES[@]}"
fi

# --- user and groups --------------------------------------------------------

step "user $APP_USER in groups ${GROUPS_NEEDED[*]}"
for group in "${GROUPS_NEEDED[@]}"; do
    if getent group "$group" >/dev/null; then
        skip "group $group exists"
    else
        run groupadd --system "$group"
    fi
done
if getent passwd "$APP_USER" >/dev/null; then
    skip "user $APP_USER exists"
else
    run useradd --system --user-group --home-dir "$DATA_DIR" --no-create-home \
        --shell /usr/sbin/nologin --comment "Incan Gold table companion" "$APP_USER"
fi
member_of=" $(id -nG "$APP_USER" 2>/dev/null || true) "
for group in "${GROUPS_NEEDED[@]}"; do
    if [[ "$member_of" == *" $group "* ]]; then
        skip "$APP_USER is in $group"
    else
        run usermod --append --groups "$group" "$APP_USER"
    fi
done
for group in "${GROUPS_DROPPED[@]}"; do
    if [[ "$member_of" == *" $group "* ]]; then
        run gpasswd --delete "$APP_USER" "$group"
    fi
done

# --- virtual environment and the app ----------------------------------------

step "virtual environment $VENV (--system-site-packages) with the app from $SOURCE"
if [ "$DRY_RUN" = 0 ] && ! "$SYSTEM_PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    die "$SYSTEM_PYTHON must be Python 3.11 or newer"
fi
if [ -x "$VENV/bin/python" ]; then
    if grep -qs '^include-system-site-packages *= *true' "$VENV/pyvenv.cfg"; then
        skip "$VENV exists and sees the system packages"
    else
        die "$VENV exists without --system-site-packages (picamera2 and lgpio would be missing); remove it and run again"
    fi
else
    run install -d -m 0755 "$PREFIX"
    run "$SYSTEM_PYTHON" -m venv --system-site-packages "$VENV"
fi
# Dependencies: exactly the locked versions, each checked against its hash
# (deploy/requirements-pi.lock, made by scripts/lock-pi.sh within
# deploy/constraints-pi.txt); pip skips what is there. Then the app itself,
# built from locked parts only, even when its version number did not change,
# so an update after `git pull` lands.
run "$VENV/bin/python" -m pip install --disable-pip-version-check \
    --require-hashes --only-binary :all: -r "$DEPLOY/requirements-pi.lock"
# The app is built from the checkout (its translations compiled with Babel,
# which the first install brought, then a wheel made by its build backend) by
# the checkout's owner, never by root: whoever can write the checkout would
# otherwise run code as root. A checkout of root's own is built as nobody.
# The build works in a copy, in a folder only the builder and root can reach;
# root installs nothing but the wheel (installing a wheel runs none of its code).
builder_uid=$(stat -c %u "$SOURCE")
builder_gid=$(stat -c %g "$SOURCE")
if [ "$builder_uid" = 0 ]; then
    builder_uid=$(id -u nobody)
    builder_gid=$(id -g nobody)
fi
as_builder() {
    run setpriv --reuid="$builder_uid" --regid="$builder_gid" --clear-groups --no-new-privs \
        env -i HOME="$BUILD" PATH=/usr/bin:/bin LANG=C.UTF-8 "$@"
}
if [ "$DRY_RUN" = 1 ]; then
    BUILD=/tmp/incan-build.XXXXXX
    echo "+ mktemp -d $BUILD  # owned by $builder_uid:$builder_gid, mode 0700"
else
    BUILD=$(mktemp -d /tmp/incan-build.XXXXXX)
    trap 'rm -rf "$BUILD"' EXIT
    chown "$builder_uid:$builder_gid" "$BUILD"
fi
# shellcheck disable=SC2016  # expanded by the builder's shell
as_builder sh -c 'mkdir "$2" && tar -C "$1" --exclude=./.venv --exclude=./.git -cf - . | tar -C "$2" -xf -' \
    copy "$SOURCE" "$BUILD/src"
as_builder env PYTHON="$VENV/bin/python" "$BUILD/src/scripts/build-translations.sh"
as_builder "$VENV/bin/python" -m pip wheel --disable-pip-version-check --no-cache-dir \
    --no-deps --no-build-isolation --wheel-dir "$BUILD/dist" "$BUILD/src"
if [ "$DRY_RUN" = 1 ]; then
    wheel="$BUILD/dist/incan_companion-*.whl"
    echo "+ $SYSTEM_PYTHON - $wheel  # nothing in it but the app's packages: no .pth"
else
    wheel=$(find "$BUILD/dist" -maxdepth 1 -type f -name 'incan_companion-*.whl' -print -quit)
    [ -n "$wheel" ] || die "the build made no wheel in $BUILD/dist"
    # Only the app's own packages: a .pth file (or a module beside them) would
    # run at every start of the venv's Python, pip's as root included. Read by
    # Debian's Python, not the venv's.
    "$SYSTEM_PYTHON" - "$wheel" <<'PY' || die "the wheel built from $SOURCE holds files outside the app's packages"
import sys, zipfile
ours = {"companion", "hardware", "incan_companion", "storage", "ui", "vision", "web"}
for name in zipfile.ZipFile(sys.argv[1]).namelist():
    top = name.split("/")[0]
    if name.endswith(".pth") or not (top in ours or top.endswith(".dist-info")):
        sys.exit(f"install.sh: {name}: not a file of the app's packages")
PY
fi
# Even when its version number did not change, so an update after `git pull` lands.
run "$VENV/bin/python" -m pip install --disable-pip-version-check \
    --no-deps --no-index --force-reinstall "$wheel"
run install -m 0644 "$DEPLOY/README.md" "$PREFIX/README.md"

# --- config, data, Kivy -----------------------------------------------------

step "config file $CONFIG"
if [ -e "$CONFIG" ]; then
    skip "$CONFIG exists: kept as it is"
else
    run install -d -m 0755 "$CONFIG_DIR"
    run install -m 0644 "$DEPLOY/config.example.toml" "$CONFIG"
fi
# A bad file stops the service with a message naming the key: say it now.
CHECK_CONFIG='import sys
from pathlib import Path
from incan_companion.config import ConfigError, load
try:
    c = load(Path(sys.argv[1]))
except ConfigError as e:
    sys.exit(f"install.sh: {e}")
print(f"    config ok: rules {c.rules}, {c.seats} seats, camera {c.camera.source}")'
# As the app's user: the app's code is the checkout's, never run as root.
if [ "$DRY_RUN" = 1 ]; then
    echo "+ runuser -u $APP_USER -- $VENV/bin/python -c 'incan_companion.config.load($CONFIG)'  # check it, name any bad key"
else
    runuser -u "$APP_USER" -- "$VENV/bin/python" -c "$CHECK_CONFIG" "$CONFIG"
fi

# Inside the data directory the app's user can rename anything and plant
# symbolic links (data/kivy -> /etc, say): root makes and writes nothing
# there. The app's user does it, with no more rights than it has already.
as_app() {
    run runuser -u "$APP_USER" -- "$@"
}

step "data directory $DATA_DIR (the only place the app writes)"
# Its parent is root's (a system directory is refused above), so what is
# checked here stays so.
[ ! -L "$data_dir" ] || die "$DATA_DIR is a symbolic link; give the app a directory of its own"
run install -d -o "$APP_USER" -g "$APP_USER" -m 0750 "$DATA_DIR"
if [ -L "$KIVY_HOME_DIR" ]; then
    die "$KIVY_HOME_DIR is a symbolic link, which install.sh never makes: remove it (rm $KIVY_HOME_DIR) and run again"
fi
as_app install -d -m 0750 "$KIVY_HOME_DIR"

step "Kivy input config (one touch per tap on the official display): $KIVY_HOME_DIR/config.ini"
if [ ! -L "$KIVY_HOME_DIR" ] && [ -f "$KIVY_HOME_DIR/config.ini" ] \
        && [ ! -L "$KIVY_HOME_DIR/config.ini" ] \
        && cmp -s "$DEPLOY/kivy-config.ini" "$KIVY_HOME_DIR/config.ini"; then
    skip "$KIVY_HOME_DIR/config.ini is current"
elif [ "$DRY_RUN" = 1 ]; then
    echo "+ runuser -u $APP_USER -- tee $KIVY_HOME_DIR/config.ini < $DEPLOY/kivy-config.ini > /dev/null"
    echo "+ runuser -u $APP_USER -- chmod 0644 $KIVY_HOME_DIR/config.ini"
else
    # Read by root (the checkout may be closed to the app's user: a home folder
    # is 0700 on bookworm), written by the app's user. tee writes what root
    # opened on its stdin; `install /dev/stdin` would open the file again, as
    # the app's user, and be refused.
    runuser -u "$APP_USER" -- tee "$KIVY_HOME_DIR/config.ini" <"$DEPLOY/kivy-config.ini" >/dev/null
    runuser -u "$APP_USER" -- chmod 0644 "$KIVY_HOME_DIR/config.ini"
fi

# --- service ----------------------------------------------------------------

step "service $UNIT_NAME, its fault screen $FAULT_UNIT_NAME, its switch $SWITCH_OFF_PATH_NAME, the touchscreen's udev rule and wait"
unit_path=$UNIT_DIR/$UNIT_NAME
install_rendered render_unit "$unit_path" "$DEPLOY/incan-companion.service"
install_rendered render_unit "$UNIT_DIR/$FAULT_UNIT_NAME" "$DEPLOY/$FAULT_UNIT_NAME"
install_rendered cat "$UNIT_DIR/$SWITCH_OFF_PATH_NAME" "$DEPLOY/$SWITCH_OFF_PATH_NAME"
install_rendered cat "$UNIT_DIR/$SWITCH_OFF_UNIT_NAME" "$DEPLOY/$SWITCH_OFF_UNIT_NAME"
install_rendered render_rules "$UDEV_RULES" "$DEPLOY/99-incan-companion.rules"
if [ ! -d "$TOUCH_DROPIN_DIR" ]; then
    run install -d -m 0755 "$TOUCH_DROPIN_DIR"
fi
install_rendered cat "$TOUCH_DROPIN_DIR/incan-companion.conf" "$DEPLOY/touchscreen-wait.conf"
systemd_running=0
if [ -d /run/systemd/system ]; then
    systemd_running=1
    run systemctl daemon-reload
    run udevadm control --reload
    run udevadm trigger --subsystem-match=input --action=change
fi
if systemctl is-enabled --quiet "$UNIT_NAME" 2>/dev/null; then
    skip "$UNIT_NAME is enabled"
else
    run systemctl enable "$UNIT_NAME"
fi
if systemctl is-enabled --quiet "$SWITCH_OFF_PATH_NAME" 2>/dev/null; then
    skip "$SWITCH_OFF_PATH_NAME is enabled"
else
    # --now: watching from this boot on, as the kiosk restarted below asks.
    if [ "$systemd_running" = 1 ]; then
        run systemctl enable --now "$SWITCH_OFF_PATH_NAME"
    else
        run systemctl enable "$SWITCH_OFF_PATH_NAME"
    fi
fi
if [ "$KEEP_DESKTOP" = 0 ]; then
    if [ "$(systemctl get-default 2>/dev/null || true)" = graphical.target ]; then
        echo "    the desktop would hold the display: booting to the console instead"
        run systemctl set-default multi-user.target
    else
        skip "boot target is not the desktop"
    fi
fi
if [ "$START" = 1 ]; then
    if [ "$systemd_running" = 0 ]; then
        echo "    systemd is not running here: the service starts on the next boot"
    elif systemctl is-active --quiet graphical.target 2>/dev/null; then
        # The running desktop holds the display: a start now would fail, and
        # fail the whole install with it.
        if [ "$(systemctl get-default 2>/dev/null || true)" = graphical.target ]; then
            echo "    the desktop holds the display: the service starts once the console is the boot target"
        else
            echo "    the desktop holds the display until the next boot: reboot to start it (sudo reboot)"
        fi
    else
        run systemctl restart "$UNIT_NAME"
    fi
fi

step "done"
echo "    logs: journalctl -u ${UNIT_NAME%.service} -f"
if [ "$DRY_RUN" = 1 ]; then
    echo "    (dry run: nothing was changed)"
fi
