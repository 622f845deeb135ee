"""torch.distributions on WebGPU in Chromium: PyTorch's answers frozen in tests/golden/dist.json replayed
on the device (values and gradients of the ON_WEBGPU cases of dist_cases.py, their sampling statistics and
reparameterization gradients at 1,000 samples, every error), and ``import torch`` in the page's Python reaching ``torch.distributions``
(the alias maps submodules) with the RL idioms running on ``webgpu``."""
from __future__ import annotations

import sys
from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[1] / "golden"

ALIAS_SCRIPT = """
import torch
from torch.distributions import Categorical, Normal
import torch.distributions as D
import borch_webgpu
assert torch.distributions is borch_webgpu.distributions and D is borch_webgpu.distributions
probs = torch.tensor([0.1, 0.2, 0.7], requires_grad=True)
m = Categorical(probs)
action = m.sample()
loss = -m.log_prob(action) - 0.01 * m.entropy()
loss.backward()
mu = torch.tensor([0.5], requires_grad=True)
a = Normal(mu, torch.tensor([0.2])).rsample()
a.sum().backward()
print(probs.device.type, action.dtype, probs.grad.shape, mu.grad.tolist(), type(m).__module__)
"""


def test_distribution_goldens_on_webgpu(browser, summary_line):
    sys.path.insert(0, str(GOLDEN))
    try:
        from dist_cases import ON_WEBGPU
    finally:
        sys.path.remove(str(GOLDEN))
    code, out, err = browser.run_golden("replay_dist.py", ["--device", "webgpu", "--samples", "1000", "--all-errors",
                                                           *ON_WEBGPU], timeout_s=600)
    print(*[line for line in out.splitlines() if line.startswith("seconds:")])
    last = [line for line in out.splitlines() if line.startswith("distributions:")]
    summary_line("webgpu " + (last[-1] if last else "distributions: no summary"))
    assert code == 0 and last and " 0 failed" in last[-1], (out + err)[-6000:]


def test_import_torch_distributions_resolves_in_the_page(browser):
    code, out, err = browser.run(ALIAS_SCRIPT)
    assert code == 0, (out + err)[-4000:]
    assert out.strip().splitlines()[-1] == ("webgpu torch.int64 torch.Size([3]) [1.0] "
                                            "borch_webgpu.distributions.categorical"), out + err
