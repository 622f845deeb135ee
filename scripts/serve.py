"""Serve build/site/ on http://127.0.0.1:8000 with cross-origin isolation and security headers
(borch_webgpu/_server.py; --port N, --host H, --root DIR)."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from borch_webgpu._server import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(default_root=ROOT / "build" / "site"))
