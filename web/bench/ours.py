"""Our part of the benchmark page (web/bench/), run as __main__ in the page's Pyodide worker.

The page puts ``CONFIG = {...}`` (sizes: a key of ``_bench_resnet.SIZES``, train_batch, infer_batches)
in front of this file. It sends the page, through ``js.borchSend(kind, meta_json, bytes)``, first ``"config"`` (the workload:
width, image size, batches, timed steps and runs, which the peers then use too), then:

- ``"weights"`` once per tensor of a deterministic CIFAR ResNet-18's state dict (float32 bytes), then
  ``"sample"`` (a fixed input and our logits for it, eval mode) and ``"onnx"`` (the model exported with
  ``torch.onnx.export``, dynamic batch axis): the parity gate the page applies to TF.js and ORT Web;
- ``"ours"``: the timings of :mod:`borch_webgpu._bench_resnet` (eager and ``torch.compile``) for the
  training step and inference, with the same warm-ups and timed runs as the peers.
"""
import io
import json

import js
import numpy as np
from pyodide.ffi import to_js

import borch_webgpu as torch
from borch_webgpu import _bench_resnet as bench
from borch_webgpu import nn
from borch_webgpu.vision.models import resnet18_cifar

C = dict(bench.SIZES[CONFIG["sizes"]], **CONFIG)  # noqa: F821 - CONFIG comes from web/bench/bench.mjs


def send(kind: str, meta: dict, data: bytes | None = None) -> None:
    js.borchSend(kind, json.dumps(meta), to_js(data) if data is not None else None)


def f32(t) -> bytes:
    return np.ascontiguousarray(t.detach().cpu().numpy(), dtype=np.float32).tobytes()


dev = torch.get_default_device()
send("config", {k: C[k] for k in ("sizes", "width", "hw", "train_batch", "infer_batches", "steps", "runs")})
print(f"ours: {dev}, ResNet-18 width {C['width']}, {C['hw']}x{C['hw']} images", flush=True)

# the shared weights: torch's initialisation, then batch-norm affine and running statistics away from
# (1, 0) so that a peer which ignored one of them would fail the gate
torch.manual_seed(0)
model = resnet18_cifar(num_classes=10, width=C["width"]).to(dev)
g = torch.Generator().manual_seed(1)
with torch.no_grad():
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            n = m.num_features
            m.weight.copy_(torch.rand(n, generator=g) + 0.5)
            m.bias.copy_(torch.rand(n, generator=g) * 0.4 - 0.2)
            m.running_mean.copy_(torch.rand(n, generator=g) * 0.4 - 0.2)
            m.running_var.copy_(torch.rand(n, generator=g) + 0.5)
model.eval()
for name, t in model.state_dict().items():
    if t.dtype == torch.float32:
        send("weights", {"name": name, "shape": list(t.shape)}, f32(t))
x = torch.randn(2, 3, C["hw"], C["hw"], generator=g)
with torch.no_grad():
    logits = model(x.to(dev))
send("sample", {"x_shape": list(x.shape), "logits_shape": list(logits.shape)}, f32(x) + f32(logits))
buf = io.BytesIO()
torch.onnx.export(model, (x.to(dev),), buf, input_names=["x"], output_names=["y"],
                  dynamic_axes={"x": {0: "batch"}, "y": {0: "batch"}})
send("onnx", {"bytes": len(buf.getvalue())}, buf.getvalue())
del model, logits

res = bench.run(bench.parse(["--sizes", C["sizes"], "--sections", "train,infer", "--gpu-steps", "0",
                             "--train-batches", str(C["train_batch"]),
                             "--infer-batches", ",".join(str(b) for b in C["infer_batches"])]))
send("ours", res if res is not None else {"error": "WebGPU is not available"})
