"""Record-time epilogue fusion on WebGPU in Chromium (SwiftShader here: a CPU, not a GPU): an in-place
relu right after batch norm or an add becomes that kernel's epilogue (Runtime.offer_epilogue /
take_epilogue); values, gradients and the autograd graph must be those of the separate kernels
(each checked against PyTorch by the goldens), with one dispatch fewer per relu."""
from __future__ import annotations

import json

EPILOGUE_SCRIPT = """
import json
import numpy as np
import borch_webgpu as torch
from borch_webgpu.device import webgpu as W

x0 = np.linspace(-2, 2, 2 * 3 * 4 * 4, dtype=np.float32).reshape(2, 3, 4, 4)
out = {}
offer = W.Runtime.offer_epilogue   # this Pyodide is shared with other tests: restored below
for fused in (True, False):
    if not fused:   # the separate kernels, each checked against PyTorch by the goldens
        W.Runtime.offer_epilogue = lambda self, *a: None
    torch.manual_seed(0)
    x = torch.tensor(x0, requires_grad=True)
    bn = torch.nn.BatchNorm2d(3)
    s0 = torch.webgpu.stats()["dispatches_recorded"]
    y = bn(x * 1.0).relu_()
    z = (y + x).relu_()
    n = torch.webgpu.stats()["dispatches_recorded"] - s0
    (z * torch.tensor(x0)).sum().backward()
    out[str(fused)] = {"z": z.tolist(), "gx": x.grad.tolist(), "gw": bn.weight.grad.tolist(), "forward_dispatches": n,
                       "fn": [z.grad_fn.name(), y.grad_fn.name()]}
W.Runtime.offer_epilogue = offer
print(json.dumps(out))
"""


def test_relu_epilogue_gives_the_separate_kernels_values(browser, summary_line):
    code, out, err = browser.run(EPILOGUE_SCRIPT)
    assert code == 0, err[-3000:]
    res = json.loads(out.strip().splitlines()[-1])
    fused, plain = res["True"], res["False"]
    for k in ("z", "gx", "gw", "fn"):
        assert fused[k] == plain[k], k
    summary_line(f"relu epilogue on WebGPU: batch norm + relu_ + add + relu_ forward in {fused['forward_dispatches']} "
                 f"dispatches ({plain['forward_dispatches']} as separate kernels), same values and gradients")
    assert fused["forward_dispatches"] == plain["forward_dispatches"] - 2, res
