"""In-place unary ops whose backward reads only their result (relu_, sigmoid_, tanh_, exp_ ...) run as
one kernel writing self, with no copy of the old values (ops/elementwise.py inplace_saving_out).
Their gradients must equal the out-of-place op's (which the goldens check against PyTorch), and a
later in-place change of the result must raise PyTorch's version error."""
from __future__ import annotations

import numpy as np
import pytest

import borch_webgpu as torch
from borch_webgpu.ops.memory import DIRECT

# a name can appear twice: torch.<name> checking for a sparse input (ops/_sparse_dispatch.py) and the dense function
NAMES = sorted({f.__name__ for f in DIRECT if f.__name__ not in ("add", "sub")})


def test_the_table_holds_the_ops_pytorch_saves_the_result_of():
    assert NAMES == sorted(["exp", "exp2", "expm1", "sqrt", "rsqrt", "reciprocal", "tan", "tanh", "sigmoid",
                            "relu"])


@pytest.mark.parametrize("name", NAMES)
def test_in_place_gradient_equals_out_of_place(name):
    vals = np.array([0.3, 1.7, 0.9, 2.5, 0.05, 1.2], np.float32)   # positive: sqrt/rsqrt/... are defined
    w = torch.tensor(np.linspace(-1, 1, 6).astype(np.float32))
    a = torch.tensor(vals, requires_grad=True)
    ref = getattr(torch, name)(a * 1.0)
    (ref * w).sum().backward()
    b = torch.tensor(vals, requires_grad=True)
    y = b * 1.0
    out = getattr(y, name + "_")()
    assert out is y
    assert y.grad_fn.name() == ref.grad_fn.name()
    (y * w).sum().backward()
    np.testing.assert_array_equal(y.detach().numpy(), ref.detach().numpy())
    np.testing.assert_array_equal(b.grad.numpy(), a.grad.numpy())


def test_changing_the_saved_result_raises_the_version_error():
    x = torch.tensor([-1.0, 2.0], requires_grad=True)
    y = (x * 1.0).relu_()
    y.add_(1.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_a_leaf_is_still_refused():
    x = torch.tensor([-1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        x.relu_()


@pytest.mark.parametrize("form", ["add_", "sub_", "iadd", "add_ broadcast"])
def test_in_place_add_and_sub_gradients_equal_out_of_place(form):
    a0 = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], np.float32)
    b0 = np.array([0.3, -0.6, 0.9], np.float32) if form == "add_ broadcast" else a0[::-1].copy()
    w = torch.tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    grads = []
    for inplace in (False, True):
        a = torch.tensor(a0, requires_grad=True)
        b = torch.tensor(b0, requires_grad=True)
        y = a * 2.0
        if form == "sub_":
            y = y.sub_(b, alpha=3) if inplace else y.sub(b, alpha=3)
        elif form == "iadd":
            if inplace:
                y += b
            else:
                y = y + b
        else:
            y = y.add_(b, alpha=0.5) if inplace else y.add(b, alpha=0.5)
        (y * y * w).sum().backward()
        grads.append((y.detach().numpy(), a.grad.numpy(), b.grad.numpy()))
    for got, want in zip(grads[1], grads[0]):
        np.testing.assert_array_equal(got, want)
