"""float64 and the default dtype on the cpu device, against PyTorch's answers frozen in
tests/golden/dtype64.json (tests/golden/generate_dtype64.py): creation, casts, arithmetic, unary math,
reductions, matmul, promotion, nn functions, printing and autograd, floats to rtol 1e-12. The same
file is replayed on WebGPU in Chromium by tests/browser/test_dtype64_webgpu.py."""
from __future__ import annotations

import importlib
import sys
from pathlib import Path

import numpy as np
import pytest

import borch_webgpu as torch

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import replay_dtype64  # noqa: E402

CASES = replay_dtype64.load()


def test_every_case_is_frozen():
    import dtype64_cases
    assert [tuple(c[:2]) for c in dtype64_cases.CASES] == [(c["id"], c["expr"]) for c in CASES], \
        "dtype64_cases.py changed: run python tests/golden/generate_dtype64.py (needs torch==2.13.0)"


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_matches_pytorch_cpu(case):
    err = replay_dtype64.check(case, "cpu")
    assert err is None, err


def test_placement_on_cpu():
    assert replay_dtype64.placement_failures("cpu") == []


def test_the_comparison_catches_a_float32_step():
    # the tolerance is what makes the goldens a float64 test: one float32 rounding fails it
    want = {"tensor": {"dtype": "torch.float64", "shape": [1], "values": [0.1]}}
    got = {"tensor": {"dtype": "torch.float64", "shape": [1], "values": [float(np.float32(0.1))]}}
    assert replay_dtype64.close(got, want) is not None
    assert replay_dtype64.close(want, want) is None


def test_safetensors_keep_float64_both_ways(tmp_path):
    st = importlib.import_module("safetensors.numpy")
    x = torch.tensor([0.1, 1e-300, 1 / 3], dtype=torch.float64)
    path = tmp_path / "m.safetensors"
    torch.serialization.save_file({"x": x, "f": x.float()}, str(path))
    theirs = st.load(path.read_bytes())
    assert theirs["x"].dtype == np.float64 and theirs["x"].tolist() == x.tolist()
    back = torch.load(str(path))
    assert back["x"].dtype is torch.float64 and back["x"].tolist() == x.tolist()
    assert back["f"].dtype is torch.float32
    blob = st.save({"a": np.array([0.1, 0.7])})
    assert torch.load(blob)["a"].tolist() == [0.1, 0.7]


def test_module_double_and_state_dict():
    m = torch.nn.Linear(3, 2).double()
    assert m.weight.dtype is torch.float64 and m.bias.dtype is torch.float64
    y = m(torch.tensor([[0.1, 0.2, 0.3]], dtype=torch.float64))
    assert y.dtype is torch.float64
    y.sum().backward()
    assert m.weight.grad.dtype is torch.float64
    assert all(v.dtype is torch.float64 for v in m.state_dict().values())


def test_set_default_dtype_is_restored_and_checked():
    with pytest.raises(TypeError, match="only floating-point types"):
        torch.set_default_dtype(torch.int32)
    torch.set_default_dtype(torch.float64)
    try:
        assert torch.tensor([0.5]).dtype is torch.float64 and torch.ones(1).dtype is torch.float64
        assert torch.tensor([0.5], dtype=torch.float32).dtype is torch.float32
    finally:
        torch.set_default_dtype(torch.float32)
    assert torch.get_default_dtype() is torch.float32
