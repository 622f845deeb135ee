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
        assert "borch_webgpu/js/gpu.js" in names and "borch_webgpu/js/runtime.mjs" in names
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
    wheel carries them all (ours, built by _wheel.py, walks the tree)."""
    import tomllib
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    listed = set(tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(root).parts) for p in (root / "borch_webgpu").rglob("__init__.py")}
    assert found == listed, f"missing from pyproject.toml: {sorted(found - listed)}; stale: {sorted(listed - found)}"
