# Shared by scripts/test and scripts/play: system libraries and the venv.

# Libraries Qt 6.5+ needs for its xcb platform plugin (Xvfb, real desktops) and zbar for pyzbar.
SYSTEM_PACKAGES="libzbar0 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxkbcommon-x11-0 libgl1 libegl1 libglib2.0-0 libfontconfig1 libdbus-1-3 xvfb"

# Only the test suite needs these: tests/phones drives a real browser at a phone's size (issue 22).
TEST_SYSTEM_PACKAGES="chromium chromium-driver"

install_system_libraries() {   # $1: the packages (default: SYSTEM_PACKAGES)
    command -v dpkg >/dev/null 2>&1 || return 0          # not Debian/Ubuntu: the user installs them
    local missing=()
    for p in ${1:-$SYSTEM_PACKAGES}; do
        # Ubuntu 24.04 renamed some libraries with a t64 suffix (libzbar0t64).
        dpkg -s "$p" >/dev/null 2>&1 || dpkg -s "${p}t64" >/dev/null 2>&1 || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "Installing system libraries: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

make_venv() {   # $1: "test" to add the test extras (and the test suite's system packages)
    [ "${1:-}" = "test" ] && install_system_libraries "$TEST_SYSTEM_PACKAGES"
    local python="${PYTHON:-python3}"
    [ -x .venv/bin/python ] || "$python" -m venv .venv
    # Skip the install when nothing it depends on changed since the last one (starts in seconds).
    local want stamp=".venv/.gumshoe-installed-${1:-app}"
    want="$(cat pyproject.toml | sha256sum | cut -d' ' -f1)"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
        return 0
    fi
    .venv/bin/python -m pip install -q --upgrade pip
    if [ "${1:-}" = "test" ]; then
        .venv/bin/python -m pip install -q -e ".[test]"
    else
        .venv/bin/python -m pip install -q -e .
    fi
    echo "$want" > "$stamp"
}
