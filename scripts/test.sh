#!/usr/bin/env bash
# Set up everything the tests need on a fresh Debian machine (Chromium from apt, a virtualenv with
# the package and Playwright, Pyodide from npm, the verified numpy wheel, the site) and run pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ]; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y chromium
fi
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e '.[test,site]'
.venv/bin/python scripts/build_site.py
exec .venv/bin/python -m pytest -q -p no:cacheprovider "$@"
