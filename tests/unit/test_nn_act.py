"""The random ops of borch_webgpu/ops/_nn_act.py and _nn_extra.py on the cpu device: the checks of
tests/golden/nn_act_random.py (distributions, determinism under manual_seed, gradients), one test each;
tests/browser/test_nn_more_webgpu.py runs the same checks on WebGPU in Chromium."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "golden"))

import nn_act_random  # noqa: E402


@pytest.mark.parametrize("check", nn_act_random.CHECKS, ids=[c.__name__ for c in nn_act_random.CHECKS])
def test_random_op_on_cpu(check):
    check("cpu")
