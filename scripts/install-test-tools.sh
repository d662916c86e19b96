#!/bin/sh
# What the browser tests need from the system: Debian's Chromium (driven by Playwright, whose own
# `playwright install` cannot download browsers here), Noto CJK so pages render real Korean
# glyphs in screenshots, and Node.js/npm for axe-core. Installed with apt-get when missing.
set -eu
missing=""
[ -x /usr/bin/chromium ] || missing="$missing chromium"
[ -d /usr/share/fonts/opentype/noto ] || missing="$missing fonts-noto-cjk"
command -v npm >/dev/null 2>&1 || missing="$missing nodejs npm"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo"; else
    echo "error: the tests need:$missing; install them as root: apt-get install$missing" >&2
    exit 1
fi
echo "installing with apt-get:$missing" >&2
$sudo apt-get update -qq
# shellcheck disable=SC2086 # the package list is meant to split
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
