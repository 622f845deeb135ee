"""Build the static site into build/site/: our pages (web/), the runtime JS, Pyodide, the verified
numpy wheel and our wheel. Everything the pages load is in that folder."""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from borch_webgpu import _assets  # noqa: E402
from borch_webgpu._wheel import build_wheel  # noqa: E402

SITE = ROOT / "build" / "site"


def main() -> Path:
    if SITE.exists():
        shutil.rmtree(SITE)
    shutil.copytree(ROOT / "web", SITE)
    pyo = SITE / "pyodide"
    pyo.mkdir()
    src = _assets.pyodide_dir()
    for name in _assets.PYODIDE_FILES:
        shutil.copyfile(src / name, pyo / name)
    shutil.copyfile(_assets.numpy_wheel(), pyo / _assets.NUMPY_WHEEL)
    shutil.copytree(ROOT / "borch_webgpu" / "js", SITE / "runtime")
    wheel = build_wheel(ROOT / "build" / "wheels", ROOT / "borch_webgpu")
    (SITE / "wheels").mkdir()
    shutil.copyfile(wheel, SITE / "wheels" / wheel.name)
    (SITE / "runtime" / "site.json").write_text(json.dumps({"wheel": wheel.name}))
    print(f"built {SITE}")
    return SITE


if __name__ == "__main__":
    main()
