"""The wheel: py3-none-any, carries the WGSL and JS as package data, reproducible, RECORD correct."""
from __future__ import annotations

import base64
import hashlib
import zipfile

from borch_webgpu._wheel import build_wheel


def test_wheel_contents(tmp_path):
    w = build_wheel(tmp_path)
    assert w.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(w) as z:
        names = set(z.namelist())
        assert "borch_webgpu/wgsl/elementwise.wgsl" in names
        assert "borch_webgpu/js/gpu.mjs" in names and "borch_webgpu/js/runtime.mjs" in names
        assert "borch_webgpu/runtime/browser/package-lock.json" in names
        record = z.read(next(n for n in names if n.endswith("RECORD"))).decode()
        for line in record.splitlines():
            name, digest, size = line.rsplit(",", 2)
            if not digest:
                continue
            data = z.read(name)
            want = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert digest == want and int(size) == len(data), name


def test_wheel_is_reproducible(tmp_path):
    a = build_wheel(tmp_path / "a").read_bytes()
    b = build_wheel(tmp_path / "b").read_bytes()
    assert a == b


def test_runner_without_playwright_says_what_to_install(tmp_path, monkeypatch, capsys):
    """A Python without Playwright gets one line naming the install, not a traceback (exit 2)."""
    import sys

    from borch_webgpu import run

    monkeypatch.setitem(sys.modules, "playwright", None)
    monkeypatch.setitem(sys.modules, "playwright.sync_api", None)
    script = tmp_path / "s.py"
    script.write_text("print(1)\n")
    assert run.main([str(script)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'borch_webgpu[run]'" in err, err


def test_pyproject_lists_every_package():
    """setuptools' explicit package list (pyproject.toml) names every package directory, so a pip-built
    wheel carries them all (ours, built by _wheel.py, walks the tree), and every folder that holds a file
    the wheel ships (wgsl/, js/, runtime/*/): setuptools prints ~35 lines of warnings per folder of package
    data left out of that list, on every `pip install -e .` (scripts/serve.sh, scripts/test.sh)."""
    import tomllib
    from pathlib import Path

    from borch_webgpu._wheel import package_files
    root = Path(__file__).resolve().parents[2]
    cfg = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(cfg["packages"])
    found = {".".join(p.parent.relative_to(root).parts) for p in (root / "borch_webgpu").rglob("__init__.py")}
    data = {".".join(p.parent.relative_to(root).parts) for p in package_files(root / "borch_webgpu")
            if "node_modules" not in p.parts}
    assert found | data == listed, f"missing from pyproject.toml: {sorted((found | data) - listed)}; " \
                                   f"stale: {sorted(listed - found - data)}"
    # each data folder's files are package data of its own package (a pattern under a parent package
    # would be what setuptools warns about)
    assert all(not pat.count("/") for pats in cfg["package-data"].values() for pat in pats), cfg["package-data"]
