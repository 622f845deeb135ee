"""Sparse COO tensors, torch.sparse, torch.autograd.Variable, the legacy torch.cuda types and torch.embedding_bag
on the cpu device, against PyTorch's answers frozen in tests/golden/sparse.json by
tests/golden/generate_sparse.py (torch 2.13.0): values, indices, reprs, is_coalesced, gradients (and whether
they are sparse or dense), error types and messages. Then what the goldens cannot pin down: which op a
refusal names, that float64 stays float64, and that dense ops pay no sparse check beyond mm/addmm/matmul/mv."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import replay_sparse  # noqa: E402
import sparse_cases  # noqa: E402

import borch_webgpu as torch  # noqa: E402

GOLD = replay_sparse.load()
SPECS = {c[0]: c for c in sparse_cases.CASES}
ERRORS = {e[0]: e for e in sparse_cases.ERRORS}


def test_sparse_json_is_up_to_date_with_the_cases():
    stale = "sparse_cases.py changed: run python tests/golden/generate_sparse.py (needs torch==2.13.0)"
    assert [c["id"] for c in GOLD["cases"]] == list(SPECS), stale
    assert [e["id"] for e in GOLD["errors"]] == list(ERRORS), stale


@pytest.mark.parametrize("case", GOLD["cases"], ids=[c["id"] for c in GOLD["cases"]])
def test_matches_pytorch(case):
    errs = replay_sparse.check_case(case, SPECS[case["id"]][1])
    assert not errs, "\n".join(errs)


@pytest.mark.parametrize("want", GOLD["errors"], ids=[e["id"] for e in GOLD["errors"]])
def test_raises_what_pytorch_raises(want):
    spec = ERRORS[want["id"]]
    errs = replay_sparse.check_error(want, spec[1], spec[2])
    assert not errs, "\n".join(errs)


def _s(**kw):
    return torch.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], [3., 4., 5.], (2, 3), device="cpu", **kw)


# ops PyTorch 2.13 refuses on sparse COO tensors too (the goldens hold the messages of a few of them)
@pytest.mark.parametrize("call,op", [(lambda s: s.exp(), "exp"), (lambda s: torch.log(s), "log"),
                                     (lambda s: s.view(6), "view"), (lambda s: torch.cos(s), "cos"),
                                     (lambda s: s.sigmoid(), "sigmoid"), (lambda s: s.cumsum(1), "cumsum")])
def test_refusals_name_the_op(call, op):
    with pytest.raises(NotImplementedError, match=rf"Could not run 'aten::{op}' with arguments from the 'SparseCPU'"):
        call(_s())


def test_float64_values_stay_float64():
    s = torch.sparse_coo_tensor([[0, 1]], torch.tensor([1e-300, 3.0], dtype=torch.float64, device="cpu"), (2,))
    d = s.to_dense()
    assert d.dtype is torch.float64 and d.tolist() == [1e-300, 3.0]
    m = torch.mm(s.to_dense().reshape(1, 2).to_sparse(), torch.ones(2, 1, dtype=torch.float64, device="cpu"))
    assert m.dtype is torch.float64 and m.item() == 3.0


def test_sparse_leaf_grad_resets_and_accumulates():
    s = _s(requires_grad=True)
    d = torch.ones(3, 2, device="cpu")
    torch.mm(s, d).sum().backward()
    torch.mm(s, d).sum().backward()
    assert s.grad.layout is torch.strided and s.grad.tolist() == [[4.0] * 3] * 2
    s.grad = None
    assert s.grad is None
    s.to_dense().sum().backward()
    assert s.grad.is_sparse and s.grad.to_dense().tolist() == [[0., 0., 1.], [1., 0., 1.]]


def test_dense_mm_unchanged_and_isinstance():
    a = torch.arange(6., device="cpu").reshape(2, 3)
    assert torch.mm(a, a.t()).tolist() == (a @ a.t()).tolist() == [[5.0, 14.0], [14.0, 50.0]]
    assert isinstance(_s(), torch.Tensor) and not torch.ones(1).is_sparse


def test_to_dense_checks_indices_without_check_invariants():
    s = torch.sparse_coo_tensor([[0, 5]], [1., 2.], (3,), device="cpu")
    with pytest.raises(RuntimeError, match="index 5 is out of bounds for dim 0 with size 3"):
        s.to_dense()


def test_embedding_bag_output_is_f_embedding_bags():
    w = torch.tensor(np.arange(12.0, dtype=np.float32).reshape(4, 3), device="cpu")
    idx, off = torch.tensor([0, 3, 1], device="cpu"), torch.tensor([0, 1], device="cpu")
    for m, name in enumerate(("sum", "mean", "max")):
        want = torch.nn.functional.embedding_bag(idx, w, off, mode=name)
        assert torch.embedding_bag(w, idx, off, False, m)[0].tolist() == want.tolist()
