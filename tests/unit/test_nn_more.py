"""The random parts of nn.functional / nn.init that goldens cannot pin (their streams are not PyTorch's):
gumbel_softmax and init.sparse_ checked by their defining properties; dirac_ as an identity convolution.
Their values otherwise (shapes, errors, reprs) are in the goldens (cases_nn_more.py, nn_meta_more.py)."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import borch_webgpu as torch
import borch_webgpu.nn.functional as F


def test_gumbel_softmax_soft_samples_are_distributions():
    torch.manual_seed(0)
    y = F.gumbel_softmax(torch.randn(64, 7), tau=0.7)
    v = y.numpy()
    assert v.shape == (64, 7) and (v >= 0).all()
    np.testing.assert_allclose(v.sum(-1), 1.0, rtol=1e-5)


def test_gumbel_softmax_argmax_follows_the_softmax_of_the_logits():
    # argmax(logits + Gumbel noise) is a sample of Categorical(softmax(logits)) (the Gumbel-max trick)
    torch.manual_seed(1)
    logits = torch.tensor([1.0, 0.0, -1.0, 2.0])
    n = 20000
    y = F.gumbel_softmax(logits.expand(n, 4), hard=True)
    freq = y.numpy().mean(0)
    want = np.exp(logits.numpy()) / np.exp(logits.numpy()).sum()
    # 4 standard errors of a frequency of n draws
    assert np.all(np.abs(freq - want) < 4 * np.sqrt(want * (1 - want) / n)), (freq, want)


def test_gumbel_softmax_hard_is_one_hot_with_the_soft_gradient():
    torch.manual_seed(2)
    logits = torch.randn(5, 6, requires_grad=True)
    w = torch.randn(5, 6)
    torch.manual_seed(3)
    hard = F.gumbel_softmax(logits, tau=0.5, hard=True, dim=-1)
    (hard * w).sum().backward()
    g_hard = logits.grad.numpy().copy()
    v = hard.detach().numpy()
    assert set(np.unique(v)) <= {0.0, 1.0} and (v.sum(-1) == 1).all()
    logits.grad = None
    torch.manual_seed(3)  # the same noise: the straight-through gradient is the soft sample's
    soft = F.gumbel_softmax(logits, tau=0.5, dim=-1)
    (soft * w).sum().backward()
    np.testing.assert_allclose(g_hard, logits.grad.numpy(), rtol=1e-5, atol=1e-6)
    assert (soft.detach().numpy().argmax(-1) == v.argmax(-1)).all()


def test_gumbel_softmax_eps_is_deprecated():
    with pytest.warns(UserWarning, match="`eps` parameter is deprecated and has no effect."):
        F.gumbel_softmax(torch.zeros(2, 3), eps=1e-5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        F.gumbel_softmax(torch.zeros(2, 3))


@pytest.mark.parametrize("rows,cols,sparsity", [(10, 4, 0.3), (7, 3, 0.5), (5, 2, 0.0), (4, 3, 1.0)])
def test_sparse_zeros_the_same_count_in_every_column(rows, cols, sparsity):
    torch.manual_seed(4)
    w = torch.nn.init.sparse_(torch.empty(rows, cols), sparsity, std=0.02)
    v = w.numpy()
    assert ((v == 0).sum(0) == math.ceil(sparsity * rows)).all()


def test_sparse_nonzeros_have_the_given_std():
    torch.manual_seed(5)
    v = torch.nn.init.sparse_(torch.empty(400, 50), 0.1, std=0.05).numpy()
    nz = v[v != 0]
    assert nz.size == 400 * 50 - 40 * 50
    assert abs(nz.std() - 0.05) < 0.002 and abs(nz.mean()) < 0.002


def test_sparse_is_reproducible_with_a_seed():
    torch.manual_seed(6)
    a = torch.nn.init.sparse_(torch.empty(6, 4), 0.5).numpy()
    torch.manual_seed(6)
    b = torch.nn.init.sparse_(torch.empty(6, 4), 0.5).numpy()
    np.testing.assert_array_equal(a, b)


def test_dirac_weight_is_an_identity_convolution():
    x = torch.randn(2, 3, 5, 5)
    w = torch.nn.init.dirac_(torch.empty(3, 3, 3, 3))
    np.testing.assert_allclose(F.conv2d(x, w, padding=1).numpy(), x.numpy(), rtol=1e-6, atol=1e-6)
