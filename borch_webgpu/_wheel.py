"""A pure-Python ``py3-none-any`` wheel of the borch_webgpu package that is imported now.

The runners and the site need a wheel that Pyodide installs; building it from the package's own
files (not from a source tree) works the same from a checkout, an editable install or an
installed wheel. The archive is reproducible: same files, same bytes.
"""
from __future__ import annotations

import base64
import hashlib
import zipfile
from pathlib import Path

from ._version import __version__

NAME = "borch_webgpu"
_KEEP = {".py", ".wgsl", ".js", ".mjs", ".html", ".json", ".typed", ".css"}
_EPOCH = (1980, 1, 1, 0, 0, 0)


def package_files(root: Path) -> list[Path]:
    out = []
    for p in sorted(root.rglob("*")):
        if p.is_file() and "__pycache__" not in p.parts and "node_modules" not in p.parts and \
                (p.suffix in _KEEP or p.name == "py.typed"):
            out.append(p)
    return out


def wheel_name() -> str:
    return f"{NAME}-{__version__}-py3-none-any.whl"


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def build_wheel(out_dir: Path, root: Path | None = None) -> Path:
    """Write the wheel under out_dir/<content hash>/ (reused when it exists) and return its path."""
    root = root or Path(__file__).resolve().parent
    entries: list[tuple[str, bytes]] = []
    for p in package_files(root):
        entries.append((f"{NAME}/{p.relative_to(root).as_posix()}", p.read_bytes()))
    di = f"{NAME}-{__version__}.dist-info"
    metadata = (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {__version__}\n"
                "Summary: PyTorch's shape inside a browser tab: tensors and autograd on WebGPU through Pyodide\n"
                "Requires-Python: >=3.10\nRequires-Dist: numpy>=1.24\n"
                "Provides-Extra: run\nRequires-Dist: playwright>=1.40; extra == \"run\"\n").encode()
    wheel = b"Wheel-Version: 1.0\nGenerator: borch_webgpu._wheel\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    entries += [(f"{di}/METADATA", metadata), (f"{di}/WHEEL", wheel)]
    digest = hashlib.sha256()
    for name, data in entries:
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    target = Path(out_dir) / digest.hexdigest()[:16] / wheel_name()
    if target.exists():
        return target
    record = "".join(f"{n},{_record_hash(d)},{len(d)}\n" for n, d in entries) + f"{di}/RECORD,,\n"
    entries.append((f"{di}/RECORD", record.encode()))
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".part")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
    tmp.replace(target)
    return target
