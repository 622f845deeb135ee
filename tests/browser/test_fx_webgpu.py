"""torch.fx on WebGPU in Chromium: the ON_WEBGPU cases of tests/golden/fx_cases.py traced in the page and
their GraphModules (and fx.Interpreter, and the tutorials' transformations: relu -> gelu, conv-bn fusion,
inserted nodes, Transformer, graph_copy) run on the device against PyTorch 2.13's outputs and code text in
tests/golden/fx.json; then ``import torch.fx`` as a script writes it, through the page's torch alias."""
from __future__ import annotations

import sys
from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[1] / "golden"

ALIAS_SCRIPT = '''
import torch
import torch.fx
from torch.fx import symbolic_trace
import borch_webgpu
assert torch.fx is borch_webgpu.fx, torch.fx

class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 2)
    def forward(self, x):
        return torch.nn.functional.relu(self.lin(x)).sum(dim=1)

m = M().to("webgpu")
gm = symbolic_trace(m)
x = torch.randn(4, 3, device="webgpu")
print("device", gm(x).device.type, "same", bool(torch.allclose(gm(x), m(x))))
print(gm.code.strip().splitlines()[2].strip())
'''


def test_fx_goldens_on_webgpu(replay_on_webgpu):
    sys.path.insert(0, str(GOLDEN))
    try:
        from fx_cases import ON_WEBGPU
    finally:
        sys.path.remove(str(GOLDEN))
    replay_on_webgpu("replay_fx.py", "fx:", ON_WEBGPU)


def test_import_torch_fx_through_the_alias(browser):
    code, out, err = browser.run(ALIAS_SCRIPT, timeout_s=300)
    assert code == 0, (out + err)[-4000:]
    assert "device webgpu same True" in out, out
    assert "relu = torch.nn.functional.relu(lin, inplace = False);  lin = None" in out, out
