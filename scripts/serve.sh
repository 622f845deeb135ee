#!/usr/bin/env bash
# Set up (virtualenv, Pyodide from npm, the verified numpy wheel, our wheel) and serve the site
# on http://127.0.0.1:8000.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e '.[site]'
.venv/bin/python scripts/build_site.py
exec .venv/bin/python scripts/serve.py "$@"
