"""Soak: many training steps of the catalog's MNIST CNN, each inside ``torch.scope()``; memory must stay flat.

``python -m borch_webgpu.run bench/soak_mnist.py`` (Chromium) or ``... --node bench/soak_mnist.py`` (Node +
Dawn, a real GPU); in plain CPython it runs on the cpu device, where the counters (WebGPU buffers) are 0.
Options: ``--steps 10000 --every 1000 --batch 32 --size 28 --warmup 1000``.

The model is ``create_model("borchvision", "mnist_cnn")`` (three conv-BN-ReLU stages, SGD with momentum);
the data are MNIST-shaped random batches (a few fixed ones, cycled, so every step does the same work and
nothing is read from a file). The loss is read back once per window, as a training loop that prints it.

One line per window of ``--every`` steps: the allocated bytes at its end (``memory_allocated()``), their
peak inside the window (``max_memory_allocated()``), the buffer pool's high-water mark (the most bytes
held by tensors plus pooled buffers, ``memory_reserved()``, at any step end of the window; it only grows
when a buffer is created), and the buffers, pipelines and bind groups created in the window. The last
line is JSON: ``{"windows": [...], "flat": bool, ...}``; flat: after ``--warmup`` steps every window
has the same allocated bytes, peak and high-water, and creates no buffer.
"""
from __future__ import annotations

import argparse
import json
import sys
import time

import borch_webgpu as torch
from borch_webgpu import nn


def counters(on_gpu: bool) -> dict:
    if not on_gpu:
        return {"allocated": 0, "reserved": 0, "buffers": 0, "pipelines": 0, "bind_groups": 0}
    s = torch.webgpu.stats()
    return {"allocated": torch.webgpu.memory_allocated(), "reserved": torch.webgpu.memory_reserved(),
            "buffers": s["buffersCreated"], "pipelines": s["pipelines"], "bind_groups": s["bindGroupsCreated"]}


def soak(steps: int, every: int, batch: int, size: int, warmup: int, seed: int = 0) -> dict:
    torch.manual_seed(seed)
    on_gpu = torch.get_default_device().type == "webgpu"
    model = torch.models.create_model("borchvision", "mnist_cnn", num_classes=10, in_chans=1)
    opt = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
    data = [(torch.randn(batch, 1, size, size), torch.randint(0, 10, (batch,))) for _ in range(4)]
    windows = []
    before = counters(on_gpu)
    high = before["reserved"]
    if on_gpu:
        torch.webgpu.reset_peak_memory_stats()
    t0 = time.perf_counter()
    for step in range(1, steps + 1):
        x, y = data[step % len(data)]
        with torch.scope():
            opt.zero_grad()
            loss = nn.functional.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            if step % every == 0:
                last_loss = loss.item()
        if on_gpu:
            high = max(high, torch.webgpu.memory_reserved())
        if step % every == 0:
            if on_gpu:
                torch.webgpu.synchronize()
            now = counters(on_gpu)
            w = {"steps": step, "allocated": now["allocated"],
                 "peak": torch.webgpu.max_memory_allocated() if on_gpu else 0, "pool_high_water": high,
                 "new_buffers": now["buffers"] - before["buffers"],
                 "new_pipelines": now["pipelines"] - before["pipelines"],
                 "new_bind_groups": now["bind_groups"] - before["bind_groups"],
                 "loss": round(last_loss, 4), "ms_per_step": round((time.perf_counter() - t0) * 1000 / every, 2)}
            windows.append(w)
            print(f"steps {step:6d}: allocated {w['allocated']} B, peak {w['peak']} B, pool high-water "
                  f"{w['pool_high_water']} B, new buffers {w['new_buffers']}, pipelines {w['new_pipelines']}, "
                  f"bind groups {w['new_bind_groups']}, loss {w['loss']}, {w['ms_per_step']} ms/step", flush=True)
            before, high = now, now["reserved"]
            if on_gpu:
                torch.webgpu.reset_peak_memory_stats()
            t0 = time.perf_counter()
    settled = [w for w in windows if w["steps"] > warmup]
    keys = ("allocated", "peak", "pool_high_water")
    flat = bool(settled) and all(all(w[k] == settled[0][k] for k in keys) and w["new_buffers"] == 0
                                 for w in settled)
    return {"device": str(torch.get_default_device()), "steps": steps, "every": every, "batch": batch,
            "size": size, "warmup": warmup, "windows": windows, "flat": flat}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=10_000)
    ap.add_argument("--every", type=int, default=1_000)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--size", type=int, default=28)
    ap.add_argument("--warmup", type=int, default=1_000)
    ns = ap.parse_args(argv)
    if ns.steps < 1 or ns.every < 1 or ns.steps % ns.every:
        ap.error(f"--steps ({ns.steps}) must be a positive multiple of --every ({ns.every})")
    r = soak(ns.steps, ns.every, ns.batch, ns.size, ns.warmup)
    if torch.webgpu.is_available():
        r["adapter"] = {k: torch.webgpu.adapter_info().get(k) for k in ("vendor", "architecture", "is_software")}
    print(json.dumps(r))
    return 0 if r["flat"] else 1


if __name__ == "__main__":
    sys.exit(main())
