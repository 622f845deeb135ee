"""What the goldens of tests/golden/cases_shapes_more.py cannot hold, on the cpu device: the random fills'
statistics and repeatability under manual_seed (their streams cannot match PyTorch's), and the Tensor facts
that name this process's memory (data_ptr, share_memory_, resize_ growing the storage, the post-accumulate
hook). tests/browser/test_shapes_more_webgpu.py runs the same checks on WebGPU in Chromium."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import borch_webgpu as torch  # noqa: E402
from shapes_more_checks import CHECKS  # noqa: E402


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_on_cpu(name):
    CHECKS[name](torch, "cpu")


def test_random_fills_reject_integer_tensors():
    with pytest.raises(RuntimeError, match="exponential_"):
        torch.zeros(3, dtype=torch.int64).exponential_()


def test_geometric_fills_integer_tensors():
    torch.manual_seed(1)
    x = torch.zeros(2000, dtype=torch.int64).geometric_(0.5)
    assert x.dtype is torch.int64 and int(x.min()) >= 1
    assert abs(x.float().mean().item() - 2.0) < 0.15
