"""Build the static site into build/site/: our pages (web/), the runtime JS, Pyodide, the verified
numpy wheel, our wheel, the data sets, ONNX Runtime Web (ort/, for models exported with
torch.onnx.export) and TensorFlow.js (tfjs/, the benchmark page's peer). Everything the pages load
is in that folder."""
from __future__ import annotations

import importlib.util
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
    (SITE / "data").mkdir()
    for name in _assets.DATA_FILES:
        shutil.copyfile(_assets.data_dir() / name, SITE / "data" / name)
    (SITE / "ort").mkdir()
    for url, src in _assets.ort_web_files().items():
        shutil.copyfile(src, SITE / url)
    (SITE / "tfjs").mkdir()   # the benchmark page's peer (web/bench/)
    for url, src in _assets.tfjs_files().items():
        shutil.copyfile(src, SITE / url)
    # generated parts of the site (lessons, API reference, playground bundle, ...): each module in
    # scripts/site/ with a build(site_dir) function, in name order
    for step in sorted((ROOT / "scripts" / "site").glob("[!_]*.py")):
        spec = importlib.util.spec_from_file_location(f"site_{step.stem}", step)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        mod.build(SITE)
        print(f"site step {step.name}: done")
    print(f"built {SITE}")
    return SITE


if __name__ == "__main__":
    main()
