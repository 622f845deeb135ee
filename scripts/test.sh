#!/usr/bin/env bash
# Set up everything the tests need on a fresh Debian machine (Chromium from apt, a virtualenv with
# the package and Playwright, Pyodide from npm, the verified numpy wheel, the site) and run pytest:
# every suite with no arguments (tests/unit beside the rest), or pytest with the arguments given.
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
if [ "$#" -gt 0 ]; then
  exec .venv/bin/python -m pytest -q -p no:cacheprovider "$@"
fi
# No arguments: every suite. tests/unit (CPython and numpy, about one core) runs beside the browser
# suites (Chromium: SwiftShader keeps both cores busy only part of the time), its report kept in a
# file and printed after the browser suites' own; the run fails if either fails.
unit_log=$(mktemp)
.venv/bin/python -m pytest -q -p no:cacheprovider tests/unit > "$unit_log" 2>&1 &
unit_pid=$!
browser_rc=0
.venv/bin/python -m pytest -q -p no:cacheprovider --ignore=tests/unit || browser_rc=$?
unit_rc=0
wait "$unit_pid" || unit_rc=$?
echo "---- tests/unit (ran beside the suites above) ----"
cat "$unit_log"
rm -f "$unit_log"
echo "browser suites: exit $browser_rc; tests/unit: exit $unit_rc"
[ "$browser_rc" = 0 ] && [ "$unit_rc" = 0 ]
