"""int64 on WebGPU, in Chromium (device/int64_range.py).

Before, ``torch.arange(70000).sum()`` gave -1845002296 and ``torch.tensor([2**31-1]) + 1`` gave
-2147483648. Now every case of tests/golden/int64.json (PyTorch 2.13's int64 results) gives
PyTorch's value when it fits int32 (partial sums past int32 included) or when its values enter past
int32 (held on the host, computed by the cpu kernels, results that fit sent back to the GPU), and a GPU
kernel whose exact result leaves int32 raises OverflowError naming the op and the user's line: at the end
of the enclosing scope, or by the line with launch blocking. The check costs float ops nothing (no error
site, no extra dispatch) and an int64 op no extra dispatch; a captured graph with an int64 op raises at its
replay; int64 tensors that fit stay on the GPU.

Promote at first read (device/gpu_int64_promote.py): a GPU kernel's result past int32 (sum, prod, cumsum,
cumprod, matmul, add/sub/mul/neg/abs/square/pow) that is read before another kernel uses it moves to the
host with its exact value (the MOVES cases: PyTorch's values, also for further ops, print and tolist);
one that a later kernel used first raises OverflowError naming the op and the line (the USED cases). A
read costs the same dispatches, submits and JS calls for int64 as for float32."""
from __future__ import annotations

import json
from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[1] / "golden"

SCRIPT = '''
import json, sys
sys.path.insert(0, "/home/pyodide/tests/golden")
import replay_int64 as r
import borch_webgpu as torch
out = {"replay": [r.main(["--device", "webgpu"]), r.main(["--device", "webgpu", "--launch-blocking"])]}

def counts(fn):
    torch.webgpu.synchronize()
    s0 = torch.webgpu.stats()
    fn()
    s1 = torch.webgpu.stats()
    return [s1[k] - s0[k] for k in ("dispatches_recorded", "fallible_dispatches", "error_sites")]

f, i = torch.ones(1000), torch.ones(1000, dtype=torch.long)
ops = {"float_add": lambda: f + 1, "int64_add": lambda: i + 1, "float_sum": lambda: f.sum(),
       "int64_sum": lambda: i.sum()}
for k, fn in ops.items():   # warm: pipelines exist, and an error site per line (made once)
    counts(fn)
    out[k] = counts(fn)

def io(fn):   # what a read costs: dispatches, submits, JS calls (the overflow slots add none of them)
    torch.webgpu.synchronize()
    s0 = torch.webgpu.stats()
    fn()
    s1 = torch.webgpu.stats()
    return [s1[k] - s0[k] for k in ("dispatches_recorded", "submits", "js_calls")]

reads = {"float_add": lambda: (f + 1)[:1].tolist(), "int64_add": lambda: (i + 1)[:1].tolist(),
         "float_sum": lambda: f.sum().item(), "int64_sum": lambda: i.sum().item()}
for k, fn in reads.items():
    io(fn)
    out["read_" + k] = io(fn)

# promote at first read: a GPU result past int32 read first moves to the host, exact; one a later kernel
# used first raises, naming the op and the line
p0 = torch.webgpu.stats()["promotions"]
s = torch.arange(70000).sum()
out["promoted"] = [s.item(), type(s._storage).__name__, str(s.device), (s + 1).item(),
                   torch.webgpu.stats()["promotions"] - p0]
from pyodide.ffi import run_sync
out["promoted_async"] = [run_sync(torch.arange(70000).sum().item_async()),
                         torch.arange(70000).sum().to("cpu", non_blocking=True).tolist(),
                         str(torch.arange(70000).cumsum(0)[-2:])]
try:
    t = torch.arange(70000).sum() * 2
    t.item()
    out["used"] = None
except OverflowError as e:
    out["used"] = str(e)

def step(a, b):
    return (a * b).sum()

g = torch.compile(step, fullgraph=True)
a = torch.tensor([3, 4])
for _ in range(3):
    g(a, a)
out["graph_ok"] = g(a, torch.tensor([5, 6])).item()
try:
    with torch.scope():
        g(torch.tensor([70000, 1]), torch.tensor([70000, 1]))
    out["graph_overflow"] = None
except OverflowError as e:
    out["graph_overflow"] = str(e)
out["graph_after"] = g(a, a).item()
try:   # a graph's replay reads a result past int32 that no read moved yet: the wrapped words went on
    g(torch.tensor([2**31 - 1, 1]).cumsum(0), torch.tensor([0, 0])).item()
    out["graph_used"] = None
except OverflowError as e:
    out["graph_used"] = str(e)

from borch_webgpu.device.cpu import CPUStorage
from borch_webgpu.device.gpu_backend import GPUStorage
big = torch.tensor([2**40, 7])
fit = big // 2**20
out["placement"] = [type(x._storage).__name__ for x in (big, big * 3, fit, big > 5, torch.tensor([1, 2]))]
out["devices"] = [str(x.device) for x in (big, fit)]
try:
    torch.tensor([1, 2]).add_(2**40)
    out["in_place"] = None
except OverflowError as e:
    out["in_place"] = str(e)
print(json.dumps(out))
'''


def test_int64_gives_pytorchs_value_or_raises_overflow_on_webgpu(browser, summary_line):
    browser.mount_golden()
    code, out, err = browser.run(SCRIPT)
    lines = [x for x in out.splitlines() if x.startswith("int64:")]
    summary_line("webgpu " + "; ".join(lines))
    assert code == 0 and len(lines) == 2 and all(" 0 failed" in x for x in lines), out[-6000:] + err[-3000:]
    r = json.loads(out.strip().splitlines()[-1])
    assert r["replay"] == [0, 0]
    assert r["float_add"] == [1, 0, 0] and r["int64_add"] == [1, 1, 0], r       # one dispatch each
    assert r["float_sum"][1:] == [0, 0] and r["int64_sum"][0] == r["float_sum"][0] and r["int64_sum"][1] == 1, r
    assert r["read_int64_add"] == r["read_float_add"] and r["read_int64_sum"] == r["read_float_sum"], r
    assert r["read_int64_add"][0] == 1, r                                 # one dispatch
    assert r["promoted"] == [2449965000, "CPUStorage", "webgpu:0", 2449965001, 1], r["promoted"]
    assert r["promoted_async"] == [2449965000, 2449965000, "tensor([2449895001, 2449965000])"], r["promoted_async"]
    assert r["used"] is not None and r["used"].startswith("sum: the int64 result 2449965000 does not fit in int32"), r
    assert "a later GPU op used it" in r["used"] and "(sum at " in r["used"], r["used"]
    assert r["graph_ok"] == 3 * 5 + 4 * 6 and r["graph_after"] == 25
    assert r["graph_overflow"] is not None and r["graph_overflow"].startswith(
        "mul: the int64 result of 70000 * 70000 = 4900000000 does not fit in int32"), r["graph_overflow"]
    assert "(mul at " in r["graph_overflow"] and "captured in 'step'" in r["graph_overflow"], r["graph_overflow"]
    assert r["graph_used"] is not None and r["graph_used"].startswith(
        "cumsum: the int64 result 2147483648 does not fit in int32") and "a later GPU op used it" in r["graph_used"], r
    assert r["placement"] == ["CPUStorage", "CPUStorage", "GPUStorage", "GPUStorage", "GPUStorage"], r["placement"]
    assert r["devices"] == ["webgpu:0", "webgpu:0"]
    assert r["in_place"] is not None and r["in_place"].startswith(
        "add: the int64 result 1099511627777 does not fit in int32, which this GPU tensor holds"), r["in_place"]
