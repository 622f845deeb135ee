"""Export two models with borch_webgpu.onnx.export inside Pyodide and run them in ONNX Runtime Web
(served from our origin under /ort/) in the same page: the MNIST CNN of mnist_train.py and a small
ResNet-18 (CIFAR stem, width 8, 16x16 images). Each is traced at batch 2 with a dynamic batch axis and
run at batch 2 and 3; the outputs are compared with our own forward on the default device (WebGPU).
The WebGPU execution provider is tried first; the wasm one only if it fails, and the line says which."""
import io
import json
import time

import js
import numpy as np
from pyodide.ffi import run_sync, to_js

import borch_webgpu as torch
from borch_webgpu import nn
from borch_webgpu.vision.models import resnet18_cifar

dev = torch.get_default_device()
# js.borchImport (runtime.mjs): a dynamic import(), since the site's CSP refuses run_js's eval
ort = run_sync(js.borchImport("/ort/ort.webgpu.min.mjs"))
ort.env.wasm.wasmPaths = "/ort/"
ort.env.wasm.numThreads = 1


def cnn():
    return nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(16 * 7 * 7, 10))


def session(data: bytes):
    errors = []
    for ep in ("webgpu", "wasm"):
        try:
            opts = to_js({"executionProviders": [ep]}, dict_converter=js.Object.fromEntries)
            s = run_sync(ort.InferenceSession.create(to_js(data), opts))
            return s, ep, errors
        except Exception as e:  # noqa: BLE001 - reported, then the next EP
            errors.append(f"{ep}: {e}")
    raise RuntimeError("; ".join(errors))


def ort_run(s, x: np.ndarray) -> np.ndarray:
    arr = js.Float32Array.new(to_js(x.astype(np.float32).tobytes()).buffer)
    feeds = to_js({"x": ort.Tensor.new("float32", arr, to_js(list(x.shape)))}, dict_converter=js.Object.fromEntries)
    out = run_sync(s.run(feeds))
    return np.frombuffer(out.y.data.to_py(), dtype=np.float32).reshape(list(out.y.dims.to_py()))


results = {}
for name, make, shape in (("mnist_cnn", cnn, (1, 28, 28)), ("resnet18_cifar_w8", lambda: resnet18_cifar(width=8),
                                                             (3, 16, 16))):
    torch.manual_seed(0)
    model = make().to(dev).eval()
    t0 = time.perf_counter()
    buf = io.BytesIO()
    torch.onnx.export(model, (torch.randn(2, *shape, device=dev),), buf, input_names=["x"], output_names=["y"],
                      dynamic_axes={"x": {0: "batch"}, "y": {0: "batch"}})
    t_export = time.perf_counter() - t0
    s, ep, errors = session(buf.getvalue())
    diffs = {}
    for n in (2, 3):
        x = torch.randn(n, *shape, device=dev)
        with torch.no_grad():
            want = model(x).cpu().numpy()
        got = ort_run(s, x.cpu().numpy())
        assert got.shape == want.shape, (got.shape, want.shape)
        diffs[n] = float(np.abs(got - want).max())
    results[name] = {"ep": ep, "ep_errors": errors, "max_abs_diff": diffs, "bytes": len(buf.getvalue()),
                     "export_s": round(t_export, 2), "ort_webgpu_device": bool(ort.env.webgpu.device)}
print(json.dumps({"device": str(dev), "results": results}))
