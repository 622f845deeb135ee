"""A training step run eagerly, then captured as one CUDA graph and replayed, in the page: the capture is
fullgraph (it raises at any read back to the host), so it holds only if the step keeps everything on the GPU.
The test gives the source of ``build() -> (optimizer, step)``; the replays must repeat the eager losses."""
from __future__ import annotations

import json

import pytest

RUN = r"""
import json
import borch_webgpu as torch
from borch_webgpu import nn

{build}

opt, step = build()
eager = []
for _ in range({steps}):
    opt.zero_grad(set_to_none=True)
    eager.append(step().item())

opt, step = build()
opt.zero_grad(set_to_none=True)
step()                                             # a warm-up step, as in PyTorch's CUDA graph recipe
opt.zero_grad(set_to_none=True)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):                          # fullgraph: raises at any read back to the host
    static_loss = step()
replayed = []
for _ in range({steps} - 1):
    g.replay()
    replayed.append(static_loss.item())
print(json.dumps({{"eager": eager, "replayed": replayed, "dispatches": g._graph.n_dispatches}}))
"""


def check_captured_step(browser, summary_line, build: str, what: str, steps: int = 4) -> None:
    code, out, err = browser.run(RUN.format(build=build.strip(), steps=steps))
    assert code == 0, (out + err)[-4000:]
    r = json.loads(out.strip().splitlines()[-1])
    eager, replayed = r["eager"], r["replayed"]
    summary_line(f"webgpu {what} training step as one CUDA graph of {r['dispatches']} dispatches")
    # the replays are steps 2..steps of the same training run done eagerly
    assert replayed == pytest.approx(eager[1:], rel=1e-5, abs=1e-6), r
    assert eager[0] > eager[-1], r
