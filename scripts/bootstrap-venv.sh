#!/bin/sh
# Create the project's virtual environment. On a fresh Debian the venv module lives in the
# python3-venv package; install it when we can (root or sudo), otherwise say what to run.
set -eu
python="$1"
venv="$2"
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
    exit 0
fi
rm -rf "$venv"
if ! "$python" -m venv "$venv" >/dev/null 2>&1; then
    rm -rf "$venv"
    version=$("$python" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
    if [ "$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo"; else
        echo "error: '$python -m venv' failed; install python$version-venv (apt-get install python$version-venv)" >&2
        exit 1
    fi
    echo "installing python$version-venv with apt-get" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "python$version-venv" >/dev/null
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
