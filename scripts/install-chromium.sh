#!/bin/sh
# The browser tests drive Debian's Chromium through Playwright; `playwright install` cannot
# download browsers here, so we use the distribution's package.
# Noto CJK gives screenshots and layout checks real Korean glyphs.
set -eu
if [ -x /usr/bin/chromium ] && [ -d /usr/share/fonts/opentype/noto ]; then
    exit 0
fi
if [ "$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo"; else
    echo "error: the browser tests need /usr/bin/chromium: run 'apt-get install chromium' as root" >&2
    exit 1
fi
echo "installing Debian's chromium for the browser tests" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
