"""Serve build/site/ on http://127.0.0.1:8000 with cross-origin isolation headers."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from borch_webgpu._server import Site, serve  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=8000)
    ap.add_argument("--host", default="127.0.0.1")
    ns = ap.parse_args()
    site = ROOT / "build" / "site"
    if not (site / "index.html").exists():
        sys.exit("build/site is missing: run python scripts/build_site.py first")
    httpd = serve(Site(root=site), ns.host, ns.port, quiet=False)
    print(f"serving borch_webgpu on http://{ns.host}:{httpd.server_address[1]}/  (Ctrl+C stops)", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        httpd.shutdown()


if __name__ == "__main__":
    main()
