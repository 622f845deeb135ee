"""The tensor path in plain CPython on the cpu device: creation, conversion, dtypes, bad input.

Expected values here are either exact by construction or compared with numpy; everything that
depends on PyTorch's numerics is in the goldens (tests/golden/)."""
from __future__ import annotations

import numpy as np
import pytest

import borch_webgpu as torch


def test_default_device_in_cpython_is_cpu():
    assert torch.get_default_device() == torch.device("cpu")
    assert torch.ones(2).device.type == "cpu"


def test_tensor_from_lists_scalars_and_numpy():
    assert torch.tensor([[1, 2], [3, 4]]).dtype is torch.int64
    assert torch.tensor([1.0, 2]).dtype is torch.float32
    assert torch.tensor(True).dtype is torch.bool
    assert torch.tensor(np.arange(3, dtype=np.int32)).dtype is torch.int32
    assert torch.tensor(np.ones(3)).dtype is torch.float64  # numpy float64 stays float64, as in PyTorch
    t = torch.tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert t.shape == (2, 3) and repr(t.shape) == "torch.Size([2, 3])"
    assert t.tolist() == [[0, 1, 2], [3, 4, 5]]
    assert isinstance(t.numpy(), np.ndarray) and t.numpy().dtype == np.float32
    assert torch.tensor(5).item() == 5 and isinstance(torch.tensor(5).item(), int)
    assert torch.from_numpy(np.array([1, 2])).dtype is torch.int64


def test_creation_functions():
    assert torch.zeros(2, 3).tolist() == [[0.0] * 3] * 2
    assert torch.ones((2,)).tolist() == [1.0, 1.0]
    assert torch.arange(5).tolist() == list(range(5))
    assert torch.arange(1, 2, 0.25).tolist() == [1.0, 1.25, 1.5, 1.75]
    assert torch.arange(10, 0, -3).tolist() == [10, 7, 4, 1]
    assert torch.full((2,), 7).dtype is torch.int64
    assert torch.zeros_like(torch.ones(2, 2, dtype=torch.int32)).dtype is torch.int32
    assert torch.empty(3, 4).shape == (3, 4)


def test_to_and_dtype_conversions():
    t = torch.tensor([1.5, -2.7])
    assert t.long().tolist() == [1, -2]
    assert t.to(torch.bool).tolist() == [True, True]
    assert t.to("cpu") is t
    assert torch.tensor([0, 3]).float().dtype is torch.float32


@pytest.mark.parametrize("bad,exc", [
    (lambda: torch.ones(2, 3) + torch.ones(4), RuntimeError),
    (lambda: torch.ones(2, 3).item(), RuntimeError),
    (lambda: torch.tensor([2 ** 63]), ValueError),
    (lambda: torch.tensor([[1, 2], [3]]), ValueError),
    (lambda: torch.zeros(-1), RuntimeError),
    (lambda: torch.ones(2).sum(dim=3), IndexError),
    (lambda: torch.arange(0, 10, 0), RuntimeError),
    (lambda: torch.tensor([True]) - torch.tensor([True]), RuntimeError),
    (lambda: torch.Tensor(3), TypeError),
    (lambda: torch.device("tpu"), RuntimeError),
])
def test_bad_input_raises_a_clear_python_exception(bad, exc):
    with pytest.raises(exc) as info:
        bad()
    assert str(info.value)  # a message, never an empty one


def test_error_messages_name_the_op_and_values():
    with pytest.raises(RuntimeError, match=r"add: The size of tensor a \(3\) must match the size of tensor b \(4\)"):
        torch.ones(2, 3) + torch.ones(4)
    with pytest.raises(ValueError, match="Overflow when unpacking long long"):
        torch.tensor([2 ** 63])
    with pytest.raises(ValueError, match=r"expected sequence of length 2 at dim 1 \(got 1\)"):
        torch.tensor([[1, 2], [3]])
