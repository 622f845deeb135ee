"""Bad indices and zero divisors that WebGPU kernels find, in Chromium: raised where the user can act.

Before, a bad index inside a kernel was raised at the next unrelated read of a value, possibly steps
later and outside the ``try`` around the step, naming neither the op nor the line. Now: PyTorch's
exception and message (tests/golden/kernel_errors.json, from torch 2.13 on its cpu device), then
the op and the user's line, raised at the end of the enclosing ``torch.scope()`` at the latest, at
the op's own line with launch blocking, and after a replay of a captured graph naming the graph's
op; the normal path makes no more JS calls than before."""
from __future__ import annotations

import json
from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
MESSAGES = {c["id"]: c["message"] for c in json.loads((GOLDEN / "kernel_errors.json").read_text())["cases"]}


def test_every_bad_index_raises_pytorchs_error_with_op_and_line_in_the_scope(browser, summary_line):
    """Every golden case, inside try / scope(): at the scope's end, and with launch blocking by its line."""
    browser.mount_golden()
    code, out, err = browser.run("""
import sys
sys.path.insert(0, "/home/pyodide/tests/golden")
import replay_kernel_errors as r
codes = [r.main(["--device", "webgpu"]), r.main(["--device", "webgpu", "--launch-blocking"])]
sys.exit(max(codes))
""")
    lines = [x for x in out.splitlines() if x.startswith("kernel errors:")]
    summary_line("webgpu " + "; ".join(lines))
    assert code == 0 and len(lines) == 2 and all(" 0 failed" in x for x in lines), out[-6000:] + err[-3000:]


SCRIPT = '''
import json
import traceback
import borch_webgpu as torch
from borch_webgpu.device import _ffi
out = {}
x = torch.arange(6.).reshape(3, 2)
emb = torch.nn.Embedding(4, 2)
bad = torch.tensor([1, 9])

def user_line(e):
    return [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == __file__][-1]

# (a) a step in try / scope(): raised there, not at a later read
try:
    with torch.scope():
        h = emb(bad)  # LINE_A
        y = (h * 2).sum(0)
        z = y + 1
    out["a"] = None
except IndexError as e:
    out["a"] = str(e)
out["a_after"] = (x * 2).sum().item()   # the device works and the error is not raised again

# without a scope: raised at the next read, still naming the op and its line
g = x.gather(0, torch.tensor([[5, 0]]))  # LINE_B
w = torch.ones(4) * 3
try:
    w.sum().item()
    out["a2"] = None
except RuntimeError as e:
    out["a2"] = str(e)

# (b) launch blocking: raised by the op's own line
torch.webgpu.set_launch_blocking(True)
try:
    h = emb(bad)  # LINE_C
    h = h * 2
    out["b"] = None
except IndexError as e:
    out["b"] = [str(e), user_line(e)]

# captured graphs: no host sync while capturing (fullgraph would raise), a replay with a bad
# index raises naming the graph's op and its line
def step(idx):
    return x.gather(0, idx) * 2  # LINE_D

f = torch.compile(step, fullgraph=True)
good = torch.tensor([[0, 1]])
for _ in range(3):
    f(good)
try:
    f(torch.tensor([[5, 0]]))  # LINE_E
    out["d_blocking"] = None
except RuntimeError as e:
    out["d_blocking"] = [str(e), user_line(e)]
torch.webgpu.set_launch_blocking(False)
try:
    with torch.scope():
        r = f(torch.tensor([[5, 0]]))
        r = r + 1
    out["d"] = None
except RuntimeError as e:
    out["d"] = str(e)
out["d_after"] = f(good).tolist()

# (c) the normal path: no more JS calls per step than the same step without ops that can fail
lin = torch.nn.Linear(2, 3)
opt = torch.optim.SGD(list(emb.parameters()) + list(lin.parameters()), lr=0.1)
idx, tgt = torch.tensor([0, 1, 2, 3]), torch.tensor([0, 1, 2, 0])
F = torch.nn.functional

def train(fallible, read):
    with torch.scope():
        h = emb(idx) if fallible else emb.weight * 1.0
        logits = lin(h)
        loss = F.cross_entropy(logits, tgt) if fallible else ((logits - 1) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if read:
            loss.item()

def per_step(fallible, read, n=10):
    for _ in range(2):
        train(fallible, read)
    torch.webgpu.synchronize()
    st0, c0 = torch.webgpu.stats(), _ffi.calls
    for _ in range(n):
        train(fallible, read)
    st1 = torch.webgpu.stats()
    return {"calls": (_ffi.calls - c0) / n, "sites": st1["error_sites"] - st0["error_sites"],
            "dispatches": (st1["dispatches_recorded"] - st0["dispatches_recorded"]) / n,
            "fallible": (st1["fallible_dispatches"] - st0["fallible_dispatches"]) / n}

out["c"] = {f"{fa}-{rd}": per_step(fa, rd) for fa in (True, False) for rd in (True, False)}

# sync debug mode (torch.cuda.set_sync_debug_mode's)
import warnings
torch.webgpu.set_sync_debug_mode("warn")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    x.sum().item()
out["warn"] = [str(c.message) for c in caught]
torch.webgpu.set_sync_debug_mode(2)
try:
    x.sum().item()
    out["error_mode"] = None
except RuntimeError as e:
    out["error_mode"] = str(e)
torch.webgpu.set_sync_debug_mode("default")
out["modes"] = torch.webgpu.get_sync_debug_mode()
try:
    torch.webgpu.set_sync_debug_mode("loud")
except RuntimeError as e:
    out["bad_mode"] = str(e)
print(json.dumps(out))
'''


def test_errors_point_at_the_op_and_line_and_the_normal_path_adds_no_js_calls(browser, summary_line):
    lines = {m: i + 1 for i, line in enumerate(SCRIPT.splitlines()) for m in ("LINE_A", "LINE_B", "LINE_C", "LINE_D",
                                                                              "LINE_E") if f"# {m}" in line}
    code, out, err = browser.run(SCRIPT)
    assert code == 0, out[-3000:] + err[-3000:]
    r = json.loads(out.strip().splitlines()[-1])
    snippet = f"/home/pyodide/snippet_{browser.counter}.py"
    scope_end = "found by a WebGPU kernel, raised at the end of torch.scope()"
    # (a)
    assert r["a"] == f"{MESSAGES['embedding']} (embedding at {snippet}:{lines['LINE_A']}; {scope_end})", r["a"]
    assert r["a_after"] == 30.0
    assert r["a2"] == (f"{MESSAGES['gather']} (gather at {snippet}:{lines['LINE_B']}; found by a WebGPU kernel, "
                       "raised at Tensor.item())"), r["a2"]
    # (b)
    assert r["b"] == [f"{MESSAGES['embedding']} (embedding at {snippet}:{lines['LINE_C']}; found by a WebGPU kernel, "
                      "raised at the op itself (launch blocking is on))", lines["LINE_C"]], r["b"]
    # captured graphs
    captured = f"gather at {snippet}:{lines['LINE_D']}, captured in 'step'"
    assert r["d_blocking"] == [f"{MESSAGES['gather']} ({captured}; found by a WebGPU kernel, raised at the end of "
                               "the replay of 'step' (launch blocking is on))", lines["LINE_E"]], r["d_blocking"]
    assert r["d"] == f"{MESSAGES['gather']} ({captured}; {scope_end})", r["d"]
    assert r["d_after"] == [[0.0, 6.0]]
    # (c)
    c = r["c"]
    assert c["True-True"]["fallible"] > 0 and c["False-True"]["fallible"] == 0, c
    assert all(v["sites"] == 0 for v in c.values()), c       # sites are made once per line, not per step
    assert all(v["dispatches"] < 192 for v in c.values()), c  # one flush per step (EAGER_FLUSH) in both
    assert c["True-True"]["calls"] == c["False-True"]["calls"], c          # a read covers the check
    assert c["True-False"]["calls"] == c["False-False"]["calls"] + 1, c    # else the scope's end reads once
    summary_line(f"kernel errors: JS calls per training step with index ops {c['True-True']['calls']:.0f} "
                 f"(without {c['False-True']['calls']:.0f}); a scope with no read pays "
                 f"{c['True-False']['calls'] - c['False-False']['calls']:.0f} read at its end")
    # sync debug mode
    assert r["warn"] == ["called a synchronizing WebGPU operation: Tensor.item()"], r["warn"]
    assert r["error_mode"] == "called a synchronizing WebGPU operation: Tensor.item()"
    assert r["modes"] == 0
    want = json.loads((GOLDEN / "kernel_errors.json").read_text())["set_sync_debug_mode"]["message"]
    assert r["bad_mode"] == want
