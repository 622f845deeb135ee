"""Build the py3-none-any wheel of borch_webgpu into dist/ (it carries wgsl/*.wgsl and js/*)."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from borch_webgpu._wheel import build_wheel  # noqa: E402


def main() -> Path:
    out = ROOT / "dist"
    built = build_wheel(ROOT / "build" / "wheels", ROOT / "borch_webgpu")
    out.mkdir(exist_ok=True)
    dest = out / built.name
    shutil.copyfile(built, dest)
    print(dest)
    return dest


if __name__ == "__main__":
    main()
