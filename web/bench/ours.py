"""Our part of the benchmark page (web/bench/), run as __main__ in the page's Pyodide worker.

The page puts ``CONFIG = {"sizes": ...}`` (a key of ``_bench_resnet.PAGE``) in front of this file. It sends the page, through ``js.borchSend(kind, meta_json, bytes)``, first ``"config"`` (the workload:
width, image size, batches, timed steps and runs, which the peers then use too), then:

- ``"weights"`` once per tensor of a deterministic CIFAR ResNet-18's state dict (float32 bytes), then
  ``"sample"`` (a fixed input and our logits for it, eval mode) and ``"onnx"`` (the model exported with
  ``torch.onnx.export``, dynamic batch axis): the parity gate the page applies to TF.js and ORT Web;
- ``"ours"``: the timings of :mod:`borch_webgpu._bench_resnet` (eager and ``torch.compile``) for the
  training step and inference, with the same warm-ups and timed runs as the peers.
"""
import json

import js
import numpy as np
from pyodide.ffi import to_js

import borch_webgpu as torch
from borch_webgpu import _bench_resnet as bench

C = dict(bench.SIZES[CONFIG["sizes"]], **bench.PAGE[CONFIG["sizes"]], sizes=CONFIG["sizes"])  # noqa: F821


def send(kind: str, meta: dict, data: bytes | None = None) -> None:
    js.borchSend(kind, json.dumps(meta), to_js(data) if data is not None else None)


def f32(t) -> bytes:
    return np.ascontiguousarray(t.detach().cpu().numpy(), dtype=np.float32).tobytes()


dev = torch.get_default_device()
send("config", {k: C[k] for k in ("sizes", "width", "hw", "train_batch", "infer_batches", "steps", "runs")})
print(f"ours: {dev}, ResNet-18 width {C['width']}, {C['hw']}x{C['hw']} images", flush=True)

model, x, logits, onnx = bench.parity_model(C["width"], C["hw"], dev)
for name, t in model.state_dict().items():
    if t.dtype == torch.float32:
        send("weights", {"name": name, "shape": list(t.shape)}, f32(t))
send("sample", {"x_shape": list(x.shape), "logits_shape": list(logits.shape)}, f32(x) + f32(logits))
send("onnx", {"bytes": len(onnx)}, onnx)
del model, x, logits, onnx

res = bench.run(bench.parse(["--sizes", C["sizes"], "--sections", "train,infer", "--gpu-steps", "0",
                             "--train-batches", str(C["train_batch"]),
                             "--infer-batches", ",".join(str(b) for b in C["infer_batches"])]))
send("ours", res if res is not None else {"error": "WebGPU is not available"})
