"""Where the data set files come from: our own site in a browser, a mounted folder under Node, the
asset cache in CPython. Never another origin."""
from __future__ import annotations

import os
from pathlib import Path

from .device import _ffi

# set by js/runtime.mjs at boot: the URL of the site's data/ folder, or a folder in Pyodide's file system
base_url: str | None = None
base_path: str | None = None


def configure(url: str | None = None, path: str | None = None) -> None:
    global base_url, base_path
    base_url, base_path = url, path


def fetch(name: str) -> bytes:
    """The bytes of data file ``name`` (e.g. ``mnist-train.safetensors``)."""
    env = os.environ.get("BORCH_WEBGPU_DATA")
    for folder in (env, base_path):
        if folder and (Path(folder) / name).exists():
            return (Path(folder) / name).read_bytes()
    if _ffi.IN_BROWSER:
        if not base_url:
            raise RuntimeError(f"cannot fetch {name}: the page did not say where its data/ folder is "
                               "(borch_webgpu._data.configure(url=...))")
        return _ffi.fetch_bytes(base_url.rstrip("/") + "/" + name)
    from . import _assets
    return (_assets.data_dir() / name).read_bytes()
