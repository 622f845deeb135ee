"""torch.<name>_(input, ...): the in-place function forms PyTorch exposes next to Tensor.<name>_ (ops/special.py's
torch_inplace). Each writes into its input and returns it, with the values Tensor.<name>_ gives (whose results
the golden cases check against PyTorch)."""
from __future__ import annotations

import pytest

import borch_webgpu as torch

NAMES = ["abs", "acos", "asin", "atan", "ceil", "cos", "cosh", "erf", "exp", "exp2", "expm1", "floor", "frac", "log",
         "log10", "log1p", "log2", "neg", "negative", "reciprocal", "round", "rsqrt", "sigmoid", "sin", "sinh", "sqrt",
         "square", "tan", "tanh", "trunc", "fix", "nan_to_num", "acosh", "arccosh", "asinh", "arcsinh", "atanh",
         "arctanh", "erfc", "i0", "sinc", "logit", "deg2rad", "rad2deg"]
ARGS = {"clamp": ((0.3,), {"max": 0.6}), "clip": ((0.5,), {}), "clamp_min": ((0.5,), {}),
        "clamp_max": ((0.5,), {}), "xlogy": ((2.0,), {}), "ldexp": ((torch.tensor([1, -2, 3]),), {})}


@pytest.mark.parametrize("name", NAMES + sorted(ARGS))
def test_function_form_writes_its_input(name):
    base = torch.tensor([0.25, 0.5, 0.75]) if name not in ("acosh", "arccosh") else torch.tensor([1.5, 2.0, 4.0])
    args, kwargs = ARGS.get(name, ((), {}))
    x, y = base.clone(), base.clone()
    r = getattr(torch, name + "_")(x, *args, **kwargs)
    assert r is x
    assert getattr(y, name + "_")(*args, **kwargs).tolist() == x.tolist()
    assert x.tolist() != base.tolist() or name in ("abs", "frac", "nan_to_num")  # those leave these values


@pytest.mark.parametrize("name", ["gcd", "lcm"])
def test_integer_function_forms(name):
    x, y = torch.tensor([4, 6, 0]), torch.tensor([4, 6, 0])
    other = torch.tensor([6, 4, 5])
    assert getattr(torch, name + "_")(x, other) is x
    assert x.tolist() == getattr(y, name + "_")(other).tolist()


def test_addmv_function_form():
    x = torch.zeros(2)
    assert torch.addmv_(x, torch.ones(2, 2), torch.tensor([1.0, 2.0]), alpha=2) is x
    assert x.tolist() == [6.0, 6.0]
