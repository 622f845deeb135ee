"""The dispatch-path benchmark. Runs inside Pyodide through either runner:

    python -m borch_webgpu.run scripts/bench_ops.py            # headless Chromium
    python -m borch_webgpu.run --node scripts/bench_ops.py     # Node 20 + Dawn (a real GPU on a server)

For each workload it prints wall time per op, achieved GFLOP/s or GB/s, Python->JS calls per op
and dispatches per op (both counted by the runtime), then the memory in use before and after
10,000 ops (it must stay flat), and the pipelines created. Timings include the GPU work: each
timed block ends with a flush and a wait for the queue (torch.webgpu.synchronize()).
"""
from __future__ import annotations

import json
import sys
import time

import borch_webgpu as torch
from borch_webgpu.device import _ffi
from borch_webgpu.device import webgpu as rt_mod


def sync() -> None:
    torch.webgpu.synchronize()


def measure(fn, reps: int, warmup: int = 2):
    for _ in range(warmup):
        fn()
    sync()
    rt = rt_mod.runtime()
    calls0, disp0 = _ffi.calls, rt.dispatches
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    sync()
    dt = (time.perf_counter() - t0) / reps
    return dt, (_ffi.calls - calls0) / reps, (rt.dispatches - disp0) / reps


def main() -> int:
    if not torch.webgpu.is_available():
        print("bench_ops: WebGPU is not available here", file=sys.stderr)
        return 2
    info = torch.webgpu.adapter_info()
    soft = info["is_software"]
    print(f"adapter: {info['vendor']} / {info['architecture']} {info['description']}"
          f"{' (software renderer: SwiftShader on the CPU)' if soft else ''}")
    rows = []

    def row(name, dt, calls, disp, work, unit):
        rate = work / dt / 1e9
        rows.append({"op": name, "ms_per_op": dt * 1e3, unit: rate, "js_calls_per_op": calls,
                     "dispatches_per_op": disp})
        print(f"{name:<24} {dt * 1e3:10.3f} ms/op  {rate:10.2f} {unit:<7} {calls:6.3f} JS calls/op  "
              f"{disp:5.2f} dispatches/op", flush=True)

    a1, b1 = torch.rand(1024), torch.rand(1024)
    dt, c, d = measure(lambda: a1 + b1, 2000 if not soft else 500)
    row("add 1K", dt, c, d, 3 * 4 * 1024, "GB/s")

    n = 4 * 1024 * 1024
    a4, b4 = torch.rand(n), torch.rand(n)
    dt, c, d = measure(lambda: a4 + b4, 50 if not soft else 5)
    row("add 4M", dt, c, d, 3 * 4 * n, "GB/s")

    dt, c, d = measure(lambda: a4.sum(), 50 if not soft else 5)
    row("sum 4M", dt, c, d, 4 * n, "GB/s")

    if hasattr(torch, "matmul"):
        for size, reps in ((1024, 20 if not soft else 1), (4096, 10 if not soft else 0)):
            if reps == 0:
                print(f"matmul {size}x{size}: skipped on the software adapter (SwiftShader runs at well under "
                      f"1 GFLOP/s: one product would take minutes)")
                continue
            x, y = torch.rand(size, size), torch.rand(size, size)
            dt, c, d = measure(lambda: x @ y, reps, warmup=1)
            row(f"matmul {size}x{size}", dt, c, d, 2 * size ** 3, "GFLOP/s")
    else:
        print("matmul: not available in this build")

    # memory in use must be flat over 10,000 ops that make and drop tensors
    del a1, b1, a4, b4
    x = y = None
    x = torch.rand(1024)
    for _ in range(10):
        y = x + 1
        y = y * 2
    del y
    sync()
    before = torch.webgpu.memory_allocated()
    for _ in range(5000):
        y = x + 1
        y = y * 2
    del y
    sync()
    after = torch.webgpu.memory_allocated()
    st = torch.webgpu.stats()
    print(f"memory allocated: {before} bytes before, {after} bytes after 10,000 ops (reserved "
          f"{torch.webgpu.memory_reserved()} bytes, peak {torch.webgpu.max_memory_allocated()} bytes)")
    print(f"pipelines created: {st['pipelines']}, buffers created: {st['buffersCreated']}, "
          f"bind groups created: {st['bindGroupsCreated']}, flushes: {st['flushes']}, submits: {st['submits']}")
    print("JSON " + json.dumps({"adapter": info, "rows": rows, "memory_before": before, "memory_after": after,
                                "stats": st}))
    return 0 if after == before else 1


if __name__ == "__main__":
    sys.exit(main())
