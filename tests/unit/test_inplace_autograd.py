"""In-place writes and autograd on the cpu device: what PyTorch refuses on a leaf that requires grad
(or a view of one), what it allows inside ``torch.no_grad()``, and the gradients of writes into
non-leaf tensors. The messages and numbers below were printed by torch 2.13.0 (CPU build)."""
from __future__ import annotations

import re

import numpy as np
import pytest

import borch_webgpu as torch

LEAF = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW = "a view of a leaf Variable that requires grad is being used in an in-place operation."
OUT = "add(): functions with out=... arguments don't support automatic differentiation, but one of the arguments " \
      "requires grad."


def _idx(*v):
    return torch.tensor(list(v))


# (what, the write on a (3, 2) leaf w, the message torch 2.13.0 raises)
CASES = [
    ("w[0] = 5.", lambda w: w.__setitem__(0, 5.), VIEW),
    ("w[0] = tensor", lambda w: w.__setitem__(0, torch.zeros(2)), VIEW),
    ("w[1:, 0] = 5.", lambda w: w.__setitem__((slice(1, None), 0), 5.), VIEW),
    ("w[0][0] = 1.", lambda w: w[0].__setitem__(0, 1.), VIEW),
    ("w[:] = 5.", lambda w: w.__setitem__(slice(None), 5.), LEAF),  # a full slice is w itself in PyTorch
    ("w[...] = 5.", lambda w: w.__setitem__(Ellipsis, 5.), LEAF),
    ("w[[0, 1]] = 5.", lambda w: w.__setitem__([0, 1], 5.), LEAF),
    ("w[mask] = 5.", lambda w: w.__setitem__(torch.ones(3, 2, dtype=torch.bool), 5.), LEAF),
    ("w[index] = tensor", lambda w: w.__setitem__(_idx(0), torch.zeros(2)), LEAF),
    ("w.add_(1)", lambda w: w.add_(1), LEAF),
    ("w += 1", lambda w: w.__iadd__(1), LEAF),
    ("w.mul_(2)", lambda w: w.mul_(2), LEAF),
    ("w.clamp_(0, 1)", lambda w: w.clamp_(0, 1), LEAF),
    ("w.copy_(t)", lambda w: w.copy_(torch.zeros(3, 2)), LEAF),
    ("w.fill_(1.)", lambda w: w.fill_(1.), LEAF),
    ("w.fill_(tensor(1.))", lambda w: w.fill_(torch.tensor(1.)), LEAF),
    ("w.zero_()", lambda w: w.zero_(), LEAF),
    ("w.masked_fill_", lambda w: w.masked_fill_(torch.ones(3, 2, dtype=torch.bool), 0.), LEAF),
    ("w.index_put_", lambda w: w.index_put_((_idx(0),), torch.zeros(2)), LEAF),
    ("w.index_put_(accumulate)", lambda w: w.index_put_((_idx(0),), torch.zeros(2), accumulate=True), LEAF),
    ("w.scatter_(value)", lambda w: w.scatter_(0, torch.zeros(1, 2, dtype=torch.int64), 0.), LEAF),
    ("w.scatter_(src)", lambda w: w.scatter_(0, torch.zeros(1, 2, dtype=torch.int64), torch.zeros(1, 2)), LEAF),
    ("w.uniform_()", lambda w: w.uniform_(), LEAF),
    ("w.normal_()", lambda w: w.normal_(), LEAF),
    ("w.random_(3)", lambda w: w.random_(3), LEAF),
    ("w.bernoulli_()", lambda w: w.bernoulli_(), LEAF),
    ("w.t_()", lambda w: w.t_(), LEAF),
    ("w.transpose_(0, 1)", lambda w: w.transpose_(0, 1), LEAF),
    ("w.unsqueeze_(0)", lambda w: w.unsqueeze_(0), LEAF),
    ("w[0].add_(1)", lambda w: w[0].add_(1), VIEW),
    ("w.view(-1).mul_(2)", lambda w: w.view(-1).mul_(2), VIEW),
    ("w.t().add_(1)", lambda w: w.t().add_(1), VIEW),
    ("w[0].zero_()", lambda w: w[0].zero_(), VIEW),
    ("w[0].fill_(1.)", lambda w: w[0].fill_(1.), VIEW),
    ("w[0].copy_(t)", lambda w: w[0].copy_(torch.zeros(2)), VIEW),
    ("w[0].uniform_()", lambda w: w[0].uniform_(), VIEW),
    ("w.view(3, 2).t_()", lambda w: w.view(3, 2).t_(), VIEW),
    ("torch.add(a, b, out=w)", lambda w: torch.add(torch.ones(3, 2), torch.ones(3, 2), out=w), OUT),
]


@pytest.mark.parametrize("write,message", [(c[1], c[2]) for c in CASES], ids=[c[0] for c in CASES])
def test_an_in_place_write_into_a_leaf_that_requires_grad_raises_pytorchs_error(write, message):
    w = torch.ones(3, 2, requires_grad=True)
    with pytest.raises(RuntimeError, match=re.escape(message)):
        write(w)
    assert w.is_leaf and w.grad_fn is None
    np.testing.assert_array_equal(w.detach().numpy(), np.ones((3, 2), np.float32))  # nothing was written


@pytest.mark.parametrize("write", [c[1] for c in CASES], ids=[c[0] for c in CASES])
def test_the_same_writes_are_allowed_inside_no_grad_and_w_stays_a_leaf(write):
    w = torch.ones(3, 2, requires_grad=True)
    with torch.no_grad():
        write(w)
    assert w.is_leaf and w.requires_grad and w.grad_fn is None


def test_detached_tensors_and_data_may_be_written():
    w = torch.ones(3, requires_grad=True)
    w.detach().add_(1)
    w.data.mul_(3)
    np.testing.assert_array_equal(w.detach().numpy(), [6., 6., 6.])


def test_no_grad_writes_of_optimizers_and_init_keep_working():
    lin = torch.nn.Linear(3, 2)
    torch.nn.init.zeros_(lin.weight)
    torch.nn.init.uniform_(lin.bias, -1, 1)
    opt = torch.optim.SGD(lin.parameters(), lr=0.1)
    lin(torch.ones(4, 3)).sum().backward()
    opt.step()
    np.testing.assert_allclose(lin.weight.detach().numpy(), np.full((2, 3), -0.4, np.float32), rtol=1e-6)
    assert lin.weight.is_leaf and lin.bias.is_leaf


@pytest.mark.parametrize("key,grad", [
    (0, [0., 2., 2.]),
    (slice(1, None), [8., 0., 0.]),  # loss (b * b).sum()
    ([0, 2], [0., 8., 0.]),
])
def test_a_number_written_into_a_non_leaf_gives_those_elements_zero_gradient(key, grad):
    a = torch.ones(3, requires_grad=True)
    b = a * 2
    b[key] = 5.
    (b.sum() if key == 0 else (b * b).sum()).backward()
    np.testing.assert_array_equal(a.grad.numpy(), grad)


def test_a_number_written_through_a_view_of_a_non_leaf():
    a = torch.ones(2, 3, requires_grad=True)
    b = a * 2
    b[0][1] = 5.
    (b * b).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [[8., 0., 8.], [8., 8., 8.]])


@pytest.mark.parametrize("op,call", [
    ("mm", lambda a, o: torch.mm(a, a, out=o)),
    ("matmul", lambda a, o: torch.matmul(a, a, out=o)),
    ("addmm", lambda a, o: torch.addmm(a, a, a, out=o)),
    ("bmm", lambda a, o: torch.bmm(a.unsqueeze(0), a.unsqueeze(0), out=o.unsqueeze(0))),
])
def test_out_of_a_matrix_product_with_an_input_that_requires_grad_raises(op, call):
    # torch 2.13: "mm(): functions with out=... arguments don't support automatic differentiation, ..."
    a, o = torch.ones(2, 2, requires_grad=True), torch.empty(2, 2)
    with pytest.raises(RuntimeError, match=re.escape(OUT.replace("add()", f"{op}()"))):
        call(a, o)
    with torch.no_grad():
        call(a, o)
    np.testing.assert_array_equal(o.numpy(), np.full((2, 2), 3. if op == "addmm" else 2., np.float32))
