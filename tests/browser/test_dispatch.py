"""The dispatch path on WebGPU: pooled buffers, cached bind groups, batched flushes, no leaks."""
from __future__ import annotations

import json


def test_memory_is_flat_and_nothing_is_recreated_in_a_loop(browser, summary_line):
    code, out, err = browser.run("""
import json
import borch_webgpu as torch
from borch_webgpu.device import _ffi
# earlier tests share this Pyodide: collect their garbage before warming up, so that it is not
# released (back into the pool) in the middle of the measured loop
import gc
gc.collect()
x = torch.rand(1000)
w = torch.rand(1000, requires_grad=True)
for _ in range(20):  # warm up: pipelines, pool, bind groups
    loss = ((x * w).sigmoid() - 0.5).pow(2).sum()
    loss.backward()
    w.grad = None
torch.webgpu.synchronize()
st0, calls0 = torch.webgpu.stats(), _ffi.calls
mem = []
for i in range(500):
    loss = ((x * w).sigmoid() - 0.5).pow(2).sum()
    loss.backward()
    w.grad = None
    if i in (249, 499):  # the same point of the loop: memory in use must not grow
        torch.webgpu.synchronize()
        mem.append(torch.webgpu.memory_allocated())
st1 = torch.webgpu.stats()
mem0, mem1 = mem
print(json.dumps({"mem0": mem0, "mem1": mem1, "buffers": st1["buffersCreated"] - st0["buffersCreated"],
                  "pipelines": st1["pipelines"] - st0["pipelines"],
                  "bindgroups": st1["bindGroupsCreated"] - st0["bindGroupsCreated"],
                  "dispatches": st1["dispatches_recorded"] - st0["dispatches_recorded"],
                  "calls": _ffi.calls - calls0}))
""")
    assert code == 0, err
    r = json.loads(out.strip().splitlines()[-1])
    assert r["mem1"] == r["mem0"], r
    assert r["buffers"] == 0 and r["pipelines"] == 0 and r["bindgroups"] == 0, r
    per_step = r["dispatches"] / 500
    summary_line(f"training-like loop on WebGPU: {per_step:.0f} dispatches and {r['calls'] / 500:.3f} "
                 f"Python->JS calls per step, memory flat at {r['mem1']} bytes")
    assert r["calls"] / r["dispatches"] < 0.05, r  # dispatches are batched, not one JS call each
