"""The benchmark page's shared inputs, written to files for its peers under Node (bench/peers_node.mjs):

    python bench/peer_inputs.py OUT_DIR [--sizes full|small]

Builds the page's model (``_bench_resnet.parity_model``) with borch_webgpu in CPython on the ``cpu``
device and writes ``inputs.json`` (the workload, each tensor's name, shape and offset), ``weights.bin``
(the float32 state dict), ``sample.bin`` (the input, then our logits) and ``model.onnx``: what the
page's worker hands its peers in the browser, so that the Node run applies the same parity gate."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

import borch_webgpu as torch
from borch_webgpu import _bench_resnet as bench


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="peer_inputs.py")
    ap.add_argument("out", type=Path)
    ap.add_argument("--sizes", choices=sorted(bench.PAGE), default="full")
    ns = ap.parse_args(argv)
    C = dict(bench.SIZES[ns.sizes], **bench.PAGE[ns.sizes], sizes=ns.sizes)
    ns.out.mkdir(parents=True, exist_ok=True)
    model, x, logits, onnx = bench.parity_model(C["width"], C["hw"], "cpu")
    entries, chunks, at = [], [], 0
    for name, t in model.state_dict().items():
        if t.dtype == torch.float32:
            a = np.ascontiguousarray(t.numpy(), dtype=np.float32)
            entries.append({"name": name, "shape": list(a.shape), "offset": at})
            chunks.append(a.tobytes())
            at += a.nbytes
    (ns.out / "weights.bin").write_bytes(b"".join(chunks))
    (ns.out / "sample.bin").write_bytes(x.numpy().astype(np.float32).tobytes() + logits.numpy().astype(np.float32).tobytes())
    (ns.out / "model.onnx").write_bytes(onnx)
    keys = ("sizes", "width", "hw", "train_batch", "infer_batches", "steps", "runs")
    (ns.out / "inputs.json").write_text(json.dumps({"config": {k: C[k] for k in keys}, "weights": entries,
                                                    "x_shape": list(x.shape), "logits_shape": list(logits.shape)}))
    print(f"peer inputs in {ns.out}: {len(entries)} tensors, {at} weight bytes, onnx {len(onnx)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
