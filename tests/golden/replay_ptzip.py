"""Replays the torch.save / torch.load goldens (ptzip.json, ptzip/, made by generate_ptzip.py with real
torch 2.13) on one device: ``python replay_ptzip.py --device cpu|webgpu`` prints one JSON line
``{"device", "checked", "problems"}``; tests/unit/test_ptzip_files.py (cpu) and
tests/browser/test_ptzip_browser.py (WebGPU in Chromium) call ``replay``."""
from __future__ import annotations

import hashlib
import io
import json
import sys
import warnings
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import borch_webgpu as torch  # noqa: E402
import ptzip_cases  # noqa: E402


def _storage(t):
    return id(t._storage)


def _devices(obj, out):
    if isinstance(obj, torch.Tensor):
        out.add(obj.device.type)
    elif isinstance(obj, dict):
        for v in obj.values():
            _devices(v, out)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            _devices(v, out)
    return out


def _close(a, b) -> bool:
    """Equal JSON but for tensor values, which agree to 1e-4 of the tensor's largest magnitude (float32
    gradients summed in another order on the GPU)."""
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return False
        if "tensor" in a:
            va, vb = a["values"], b["values"]
            scale = max((abs(y) for y in vb), default=0.0)
            return ({**a, "values": None} == {**b, "values": None} and len(va) == len(vb)
                    and all(abs(x - y) <= 1e-4 * scale for x, y in zip(va, vb)))
        return all(_close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    return a == b


def _diff(a, b, path="") -> str:
    """Where two describe() results first differ (for the message)."""
    if isinstance(a, dict) and isinstance(b, dict):
        if "tensor" in a and "tensor" in b and not _close(a, b):
            return f"{path}: {a['values'][:6]} vs {b['values'][:6]}" if a["values"] != b["values"] else f"{path}: {a} vs {b}"
        for k in a:
            if k in b and not _close(a[k], b[k]):
                return _diff(a[k], b[k], f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            if not _close(x, y):
                return _diff(x, y, f"{path}[{i}]")
    return f"{path}: {str(a)[:200]} vs {str(b)[:200]}"


def replay(device: str, tmp: str = "/tmp") -> dict:
    golden = json.loads((HERE / "ptzip.json").read_text())
    problems, drift, checked = [], [], 0
    f16_ok = device == "cpu" or "shader-f16" in __import__("borch_webgpu.device.webgpu", fromlist=["x"]).runtime().features

    def where(storage, location):  # a callable map_location: float16 stays on the cpu without shader-f16
        return storage.cuda() if device == "webgpu" and (f16_ok or storage.dtype != "float16") else storage.cpu()

    for name, want in golden["torch"].items():
        back = torch.load(HERE / "ptzip" / f"torch_{name}.pt", map_location=where)
        got = ptzip_cases.describe(back, _storage)
        if got != want:
            problems.append(f"torch_{name}.pt loads differently from real torch.load")
        devs = _devices(back, set())
        if device == "webgpu" and name != "dtypes" and devs != {"webgpu"}:
            problems.append(f"torch_{name}.pt: tensors on {devs}, not webgpu")
        checked += 1
    torch.set_default_device(device)
    try:
        ours = ptzip_cases.build(torch, None if f16_ok else "cpu")
    finally:
        torch.set_default_device(None)
    for name, obj in ours.items():
        path = Path(tmp) / f"ours_{name}.pt"
        torch.save(obj, path)
        data = path.read_bytes()
        got = ptzip_cases.describe(torch.load(io.BytesIO(data), map_location="cpu"), _storage)
        want = golden["ours"][name]
        if device == "webgpu" and name in ("optimizer", "checkpoint"):
            # two Adam steps on the GPU give other values than on the cpu: the pickle (structure, names,
            # shapes, strides, shared storages) must be the bytes real torch verified, and the file must
            # load back exactly what was saved
            committed = zipfile.ZipFile(HERE / "ptzip" / f"ours_{name}.pt").read(f"ours_{name}/data.pkl")
            if zipfile.ZipFile(path).read(f"ours_{name}/data.pkl") != committed:
                problems.append(f"ours_{name}.pt: data.pkl is not the one real torch verified")
            if got != ptzip_cases.describe(obj, _storage):
                problems.append(f"ours_{name}.pt does not load back what was saved")
            if not _close(got, want):
                drift.append(f"{name}: {_diff(got, want)}")
        else:
            if hashlib.sha256(data).hexdigest() != golden["sha256"][name]:
                problems.append(f"ours_{name}.pt: the writer no longer makes the bytes real torch verified")
            if got != want:
                problems.append(f"ours_{name}.pt loads back differently from what real torch loaded")
        checked += 1
    m = ptzip_cases._model(torch).to(device)
    m.load_state_dict(torch.load(HERE / "ptzip" / "torch_model.pt", map_location=device), strict=True)
    m2, opt = ptzip_cases._trained(torch)
    opt.load_state_dict(torch.load(HERE / "ptzip" / "torch_optimizer.pt"))
    opt.step()
    checked += 2
    for name, case in golden["refusals"].items():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                torch.load(bytes.fromhex(case["file"]))
            problems.append(f"refusal {name!r}: loaded")
        except Exception as e:  # noqa: BLE001
            if (f"{type(e).__module__}.{type(e).__qualname__}", str(e)) != (case["type"], case["message"]):
                problems.append(f"refusal {name!r}: {type(e).__name__}: {str(e)[-300:]!r}")
        checked += 1
    for name, case in golden["accepted"].items():
        try:
            got = ptzip_cases.describe(torch.load(bytes.fromhex(case["file"])), _storage)
        except Exception as e:  # noqa: BLE001
            got = f"{type(e).__name__}: {e}"
        if got != case["value"]:
            problems.append(f"accepted pickle {name!r}: {str(got)[:300]}")
        checked += 1
    return {"device": device, "checked": checked, "problems": problems, "training_drift": drift}


if __name__ == "__main__":
    dev = sys.argv[sys.argv.index("--device") + 1] if "--device" in sys.argv else "cpu"
    print(json.dumps(replay(dev)))
