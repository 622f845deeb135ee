"""nn.utils.fusion, ao.quantization.fuse_modules / fuse_modules_qat and the nn.intrinsic containers on the
cpu device, against PyTorch 2.13's answers frozen in tests/golden/fusion.json
(tests/golden/generate_fusion.py): fused weights and biases, outputs, print(model) after fusion,
module types and training flags, state-dict keys, hooks, and the errors' types and messages."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import borch_webgpu as torch  # noqa: E402
import replay_fusion  # noqa: E402
from fusion_model_cases import ALL_CASES  # noqa: E402

CASES = replay_fusion.load()
FNS = dict(ALL_CASES)


def test_every_case_is_frozen():
    assert [(name, fn.match) for name, fn in ALL_CASES] == [(c["id"], c.get("match", "exact")) for c in CASES], \
        "the fusion cases changed: run PYTHONPATH= /tmp/torchenv/bin/python tests/golden/generate_fusion.py"


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_matches_pytorch_cpu(case):
    torch.manual_seed(0)
    problems = replay_fusion.check(case, FNS[case["id"]], torch, "cpu")
    assert not problems, "\n".join(problems)


def test_names_are_where_pytorch_has_them():
    from borch_webgpu.ao.quantization.fuse_modules import fuse_known_modules
    from borch_webgpu.nn.utils import fusion
    assert torch.nn.utils.fuse_conv_bn_eval is fusion.fuse_conv_bn_eval
    assert torch.nn.utils.fuse_linear_bn_weights is fusion.fuse_linear_bn_weights
    assert torch.ao.quantization.fuse_modules.__name__ == "fuse_modules"   # the function shadows its module
    assert fuse_known_modules.__module__ == "borch_webgpu.ao.quantization.fuse_modules"
    for name in torch.nn.intrinsic.__all__:
        assert getattr(torch.nn.intrinsic, name) is getattr(torch.ao.nn.intrinsic, name), name
    assert issubclass(torch.ao.nn.intrinsic.ConvBnReLU2d, torch.nn.Sequential)


def test_fused_resnet_like_block_gives_the_unfused_output():
    """Independent of the goldens: fusing an eval model leaves its output unchanged (within float32 folding)."""
    sys.path.insert(0, str(GOLDEN))
    from fusion_model_cases import EVAL_RUNS, resnet_like
    model = resnet_like(torch).eval()
    for m in model.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            with torch.no_grad():
                m.running_mean.uniform_(-1, 1)
                m.running_var.uniform_(0.5, 2)
                m.weight.uniform_(0.5, 1.5)
    x = torch.randn(2, 3, 8, 8)
    fused = torch.ao.quantization.fuse_modules(model, EVAL_RUNS)
    assert torch.allclose(fused(x), model(x), rtol=1e-4, atol=1e-5)
    assert sum(isinstance(m, torch.nn.BatchNorm2d) for m in fused.modules()) == 0
