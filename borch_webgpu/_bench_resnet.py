"""The benchmark program that :mod:`borch_webgpu.bench` runs inside Pyodide (through the runner).

    python -m borch_webgpu.run [--node] borch_webgpu/_bench_resnet.py [--sizes full|small] [options]

Workload (as shared/bench): CIFAR ResNet-18 (``resnet18_cifar``: 3x3 stem, no max-pool, 10 classes),
deterministic inputs from our generator; training step = SGD lr 0.05 momentum 0.9, cross-entropy,
loss read back with ``.item()`` every step, every step inside ``scope()``; eager: 2 warm-up steps,
compiled (``torch.compile`` of the whole step): 3 (eager warm-up, capture, first replay). Inference:
eval mode, ``no_grad``, logits read back each run, 3 warm-ups. MNIST MLP 784-256-10, batch 64.

Per variant: wall ms per steady step (min/median/mean/max), counters per step (differences of
``torch.webgpu.stats()`` over the timed steps), memory allocated after the steps and its peak during
them, and GPU time per step by timestamp-query (extra steps with timing on) when the adapter has it.
Prints a line per variant and one ``JSON {...}`` line at the end. Fetches nothing.
"""
from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
import traceback

import borch_webgpu as torch
from borch_webgpu import nn
from borch_webgpu.nn import functional as F
from borch_webgpu.vision.models import resnet18_cifar

SIZES = {
    "full": dict(width=64, hw=32, train_batches=[16, 64, 128], infer_batches=[1, 16], steps=10, runs=20,
                 mlp_steps=30),
    "small": dict(width=8, hw=16, train_batches=[4, 8], infer_batches=[1, 4], steps=3, runs=3, mlp_steps=3),
}
# the benchmark page's workloads (web/bench/, bench/peers_node.mjs): one training batch and the
# inference batches of shared/bench, at the sizes above
PAGE = {"full": dict(train_batch=64, infer_batches=[1, 16]), "small": dict(train_batch=4, infer_batches=[1, 4])}
LEVELS = {"live_bytes", "peak_bytes", "pooled_bytes", "graph_bytes"}   # levels, not counters
now = time.perf_counter


HOST: list[float] = []


def say(*a):
    print(*a, flush=True)


def snap() -> dict:
    return {k: v for k, v in torch.webgpu.stats().items() if isinstance(v, (int, float)) and k not in LEVELS}


def per_step(a: dict, b: dict, n: int) -> dict:
    d = {k: (b[k] - a[k]) / n for k in a if k in b}
    if "js_calls" in d:   # the stats() call of snapshot b is one crossing
        d["js_calls"] = (b["js_calls"] - a["js_calls"] - 1) / n
    return d


def stat_ms(ts: list[float]) -> dict:
    ms = [t * 1e3 for t in ts]
    return {"min": round(min(ms), 3), "median": round(statistics.median(ms), 3),
            "mean": round(statistics.fmean(ms), 3), "max": round(max(ms), 3), "n": len(ms)}


def gpu_total() -> float | None:
    for _ in range(3):   # timestamps are read back asynchronously: let the callbacks land
        torch.webgpu.synchronize()
    return torch.webgpu.gpu_time_ms()


def measure(fn, warm: int, n: int, gpu_n: int) -> dict:
    """Warm up, then time n calls of fn (counters, memory), then gpu_n more with GPU timing on."""
    out = []
    t0 = now()
    for _ in range(warm):
        out.append(fn())
    torch.webgpu.synchronize()
    warm_s = now() - t0
    torch.webgpu.reset_peak_memory_stats()
    a = snap()
    ts = []
    for _ in range(n):
        t = now()
        out.append(fn())
        ts.append(now() - t)
    b = snap()
    res = {"ms": stat_ms(ts), "warmup_s": round(warm_s, 3), "per_step": per_step(a, b, n),
           "memory_allocated": torch.webgpu.memory_allocated(),
           "max_memory_allocated": torch.webgpu.max_memory_allocated(),
           "memory_reserved": torch.webgpu.memory_reserved(), "gpu_ms": None}
    if gpu_n and torch.webgpu.enable_gpu_timing(True):
        try:
            g0 = gpu_total()
            for _ in range(gpu_n):
                fn()
            g1 = gpu_total()
            if g0 is not None and g1 is not None:
                res["gpu_ms"] = round((g1 - g0) / gpu_n, 4)
        finally:
            torch.webgpu.enable_gpu_timing(False)
    res["values"] = out
    return res


def profile(compiled, label: str) -> dict | None:
    """Per-kernel GPU time of one more run of a compiled function's graph (every dispatch timed on its
    own): totals by kernel family and mode, and the slowest dispatches with their grids and sizes."""
    fn = getattr(compiled, "_compiled", compiled)   # torch.compile(module) wraps a compiled function
    graphs = [e.graph for e in fn._cache.values() if e.graph is not None]
    if not graphs:
        return None
    rows = graphs[0].profile()
    if rows is None:
        return None
    by: dict = {}
    for r in rows:
        k = r["kernel"]
        name = "/".join(str(p) for p in k[:3]) if k else "?"
        t = by.setdefault(name, [0, 0.0])
        t[0] += 1
        t[1] += max(r["ns"], 0) / 1e6
    total = sum(v[1] for v in by.values())
    top = sorted(by.items(), key=lambda kv: -kv[1][1])
    say(f"{label} profile: {len(rows)} dispatches, {total:.3f} ms of GPU time (each dispatch in its own pass)")
    for name, (n, ms) in top[:16]:
        say(f"  {ms:8.3f} ms {100 * ms / max(total, 1e-9):5.1f}%  x{n:<4d} {name}")
    slow = sorted(rows, key=lambda r: -r["ns"])[:12]
    for r in slow:
        say(f"  slow {r['ns'] / 1e3:8.1f} us grid {r['grid']} {r['kernel']} words {r['words'][:25]}")
    return {"dispatches": len(rows), "ms": round(total, 4),
            "by_kernel": {n: {"count": c, "ms": round(ms, 4)} for n, (c, ms) in top},
            "slowest": [{"us": round(r["ns"] / 1e3, 2), "kernel": str(r["kernel"]), "grid": list(r["grid"]),
                         "words": [int(w) for w in r["words"][:25]]} for r in slow]}


def parity_model(width: int, hw: int, device) -> tuple:
    """The benchmark page's shared model (web/bench/): ``resnet18_cifar(width)`` in eval mode with
    torch's initialisation and batch-norm affine parameters and running statistics drawn away from
    (1, 0) (a peer that ignored one would fail the gate), a fixed input of 2 images, our logits for it,
    and the model exported by ``torch.onnx.export`` with a dynamic batch axis: (model, x, logits, onnx)."""
    import io
    torch.manual_seed(0)
    model = resnet18_cifar(num_classes=10, width=width).to(device)
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
    x = torch.randn(2, 3, hw, hw, generator=g).to(device)
    with torch.no_grad():
        logits = model(x)
    buf = io.BytesIO()
    torch.onnx.export(model, (x,), buf, input_names=["x"], output_names=["y"],
                      dynamic_axes={"x": {0: "batch"}, "y": {0: "batch"}})
    return model, x, logits, buf.getvalue()


def cleanup() -> None:
    gc.collect()
    torch.webgpu.synchronize()
    torch.webgpu.empty_cache()


def data(b: int, hw: int, shape=None, seed=1234):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(b, *(shape or (3, hw, hw)), generator=g)
    y = torch.randint(0, 10, (b,), generator=g)
    return x.to("webgpu"), y.to("webgpu")


def train_variant(make_model, x, y, compiled: bool, C: dict) -> dict:
    torch.manual_seed(0)
    model = make_model().to("webgpu")
    model.train()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    if compiled:
        def train_step(x, y):
            opt.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            return loss
        cstep = torch.compile(train_step)

        def step():
            with torch.scope():
                t = now()
                loss = cstep(x, y)
                HOST.append(now() - t)  # guards, copies, patches and the replay call, before the wait
                return loss.item()
    else:
        def step():
            with torch.scope():
                loss = F.cross_entropy(model(x), y)
                opt.zero_grad()
                loss.backward()
                opt.step()
                return loss.item()
    HOST.clear()
    res = measure(step, 3 if compiled else 2, C["steps"], C["gpu_steps"])
    if compiled:
        timed = HOST[3:3 + C["steps"]]
        res["host_ms_median"] = round(statistics.median(timed) * 1e3, 3) if timed else None
        if C.get("profile"):
            res["profile"] = profile(cstep, f"train B{x.shape[0]}")
    res["losses"] = [round(v, 5) for v in res.pop("values")]
    del model, opt, step
    if compiled:
        del cstep
    cleanup()
    return res


def infer_variant(model, x, compiled: bool, C: dict) -> dict:
    f = torch.compile(model) if compiled else model

    def run():
        with torch.scope():
            with torch.no_grad():
                return f(x).numpy()
    res = measure(run, 3, C["runs"], C["gpu_steps"])
    if compiled and C.get("profile"):
        res["profile"] = profile(f, f"infer B{x.shape[0]}")
    o = res.pop("values")[-1]
    res["logit0"] = float(o.reshape(-1)[0])
    del f, run
    cleanup()
    return res


def both(label: str, fn, want_compiled: bool) -> dict:
    """{'eager': ..., 'compiled': ... or None}, printing one line per variant."""
    out = {}
    for kind in ("eager", "compiled"):
        if kind == "compiled" and not want_compiled:
            out[kind] = None
            continue
        if kind == "compiled" and not hasattr(torch, "compile"):
            say(f"{label} compiled: torch.compile does not exist")
            out[kind] = None
            continue
        try:
            r = fn(kind == "compiled")
        except Exception as e:  # record and go on: one broken variant must not lose the others
            traceback.print_exc()
            say(f"{label} {kind}: FAILED {type(e).__name__}: {e}")
            out[kind] = None
            out[kind + "_error"] = f"{type(e).__name__}: {e}"
            cleanup()
            continue
        out[kind] = r
        ps = r["per_step"]
        say(f"{label} {kind}: median {r['ms']['median']} ms (min {r['ms']['min']}); GPU {r['gpu_ms']} ms; "
            f"dispatches {ps.get('dispatches')}, js_calls {ps.get('js_calls')}, bind groups "
            f"{ps.get('bindGroupsCreated')}, pipelines {ps.get('pipelinesCreated')}, buffers "
            f"{ps.get('buffersCreated')}, flushes {ps.get('flushes')}, submits {ps.get('submits')}; "
            f"memory {r['memory_allocated']} B, peak {r['max_memory_allocated']} B; warm-up {r['warmup_s']} s"
            + (f"; host part of a step {r['host_ms_median']} ms" if r.get("host_ms_median") is not None else ""))
    e, c = out.get("eager"), out.get("compiled")
    if e and c and "losses" in e:
        k = min(len(e["losses"]), len(c["losses"]))
        out["loss_max_abs_diff"] = max(abs(a - b) for a, b in zip(e["losses"][:k], c["losses"][:k]))
    return out


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="_bench_resnet.py")
    ap.add_argument("--sizes", choices=sorted(SIZES), default="full")
    ap.add_argument("--sections", default="train,infer,mlp")
    ap.add_argument("--train-batches", help="comma-separated training batch sizes (default: the sizes' own)")
    ap.add_argument("--infer-batches", help="comma-separated inference batch sizes (default: the sizes' own)")
    ap.add_argument("--steps", type=int, help="timed training steps per variant")
    ap.add_argument("--runs", type=int, help="timed inference runs per variant")
    ap.add_argument("--gpu-steps", type=int, help="extra steps with GPU timing on (0: none; default = steps)")
    ap.add_argument("--no-compile", action="store_true")
    ap.add_argument("--profile", action="store_true", help="time every dispatch of the compiled graphs once")
    ap.add_argument("--replay-chunk", type=int, help="dispatches per submit when a graph replays (js/gpu.mjs; 128)")
    ap.add_argument("--no-trace-fusion", action="store_true", help="register graphs without fusing over the "
                    "trace (device/trace_fusion.py), for A/B runs")
    ap.add_argument("--no-residual-fusion", action="store_true", help="fuse conv + batch norm over the trace "
                    "but not the residual add after them, for A/B runs")
    ap.add_argument("--one-pass-channels", type=int, help="the fewest channels for which a compiled step's "
                    "batch-norm kernels take the elementwise kernel after them (or a gradient sum) on a GPU "
                    "(device/gpu_norm.py's ONE_PASS_CHANNELS; 0: always, 1000000: never), for A/B runs")
    ap.add_argument("--split-channels", type=int, help="the same for the split-K sums alone (gpu_norm.py's "
                    "SPLIT_CHANNELS), for A/B runs")
    ap.add_argument("--no-tail-fusion", action="store_true", help="leave split sums as dispatches of their own "
                    "instead of tails of the next conv (device/trace_fusion_tail.py), for A/B runs")
    ap.add_argument("--no-ew-fusion", action="store_true", help="leave elementwise chains as one dispatch per op "
                    "instead of one kernel (device/trace_fusion_ew.py), for A/B runs")
    ap.add_argument("--offsets-array", action="store_true", help="replay with an array of dynamic offsets per "
                    "dispatch instead of a range of the graph's Uint32Array")
    ap.add_argument("--eager-flush", type=int, help="submit eager work every N dispatches (the runtime's "
                    "EAGER_FLUSH; 4096: only when a value is read)")
    return ap.parse_args(sys.argv[1:] if argv is None else argv)


def run(ns: argparse.Namespace) -> dict | None:
    """Run the benchmark (inside Pyodide) as ``ns`` says; the results (None without WebGPU)."""
    if ns.eager_flush:
        from borch_webgpu.device import webgpu as _rtm
        _rtm.EAGER_FLUSH = ns.eager_flush
    if ns.no_trace_fusion:
        from borch_webgpu.device import trace_fusion
        trace_fusion.BN_EPILOGUE.clear()
    if ns.no_residual_fusion:
        from borch_webgpu.device import trace_fusion
        trace_fusion.RESIDUAL = False
    if ns.split_channels is not None:
        from borch_webgpu.device import gpu_norm
        gpu_norm.SPLIT_CHANNELS["gpu"] = ns.split_channels
    if ns.no_tail_fusion:
        from borch_webgpu.device import trace_fusion_tail
        trace_fusion_tail.ENABLED = False
    if ns.no_ew_fusion:
        from borch_webgpu.device import trace_fusion_ew
        trace_fusion_ew.ENABLED = False
    if ns.one_pass_channels is not None:
        from borch_webgpu.device import gpu_norm
        gpu_norm.ONE_PASS_CHANNELS["gpu"] = ns.one_pass_channels
    if ns.replay_chunk or ns.offsets_array:
        from borch_webgpu.device import webgpu as _rtm
        st = _rtm.runtime().js.state
        if ns.replay_chunk:
            st.replayChunk = ns.replay_chunk
        if ns.offsets_array:
            st.offsetsData = False
    C = dict(SIZES[ns.sizes])
    for key in ("train_batches", "infer_batches"):
        if getattr(ns, key):
            C[key] = [int(b) for b in getattr(ns, key).split(",")]
    C["steps"] = ns.steps or C["steps"]
    C["runs"] = ns.runs or C["runs"]
    C["gpu_steps"] = C["steps"] if ns.gpu_steps is None else ns.gpu_steps
    C["profile"] = ns.profile
    sections = set(ns.sections.split(","))
    want_c = not ns.no_compile
    if not torch.webgpu.is_available():
        say("bench: WebGPU is not available")
        return None
    info = torch.webgpu.adapter_info()
    OUT: dict = {"adapter": {k: info.get(k) for k in ("vendor", "architecture", "device", "description",
                                                       "is_software", "features")},
                 "sizes": ns.sizes, "config": C, "has_compile": hasattr(torch, "compile"),
                 "timestamp_query": "timestamp-query" in (info.get("features") or [])}
    say(f"adapter: {info.get('vendor')} / {info.get('architecture')} / {info.get('device')} / "
        f"{info.get('description')} software={info.get('is_software')}; sizes {ns.sizes} {C}")
    t_all = now()

    def resnet():
        return resnet18_cifar(num_classes=10, width=C["width"])

    if "train" in sections:
        OUT["train"] = {}
        for b in C["train_batches"]:
            x, y = data(b, C["hw"])
            OUT["train"][f"b{b}"] = both(f"train B{b}", lambda c: train_variant(resnet, x, y, c, C), want_c)
            del x, y
            cleanup()
    if "infer" in sections:
        OUT["infer"] = {}
        torch.manual_seed(0)
        model = resnet().to("webgpu")
        model.eval()
        for b in C["infer_batches"]:
            x, _ = data(b, C["hw"])
            OUT["infer"][f"b{b}"] = both(f"infer B{b}", lambda c: infer_variant(model, x, c, C), want_c)
            del x
        del model
        cleanup()
    if "mlp" in sections:
        def mlp():
            return nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
        x, y = data(64, 28, shape=(1, 28, 28), seed=99)
        Cm = dict(C, steps=C["mlp_steps"], gpu_steps=C["mlp_steps"] if C["gpu_steps"] else 0)
        OUT["mlp"] = {"shape": "784-256-10", "batch": 64,
                      **both("mlp 784-256-10 B64", lambda c: train_variant(mlp, x, y, c, Cm), want_c)}
        del x, y
        cleanup()
    OUT["seconds"] = round(now() - t_all, 2)
    OUT["final_stats"] = torch.webgpu.stats()
    return OUT


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark (inside Pyodide) and print its ``JSON`` line."""
    out = run(parse(argv))
    if out is None:
        return 2
    say("JSON " + json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
