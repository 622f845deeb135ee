"""The random ops of borch_webgpu/ops/_nn_act.py and _nn_extra.py, whose training outputs cannot match PyTorch's
stream (the goldens, tests/golden/cases_nn_act.py, hold their shapes and their evaluation-mode values): the
distributions they promise, determinism under manual_seed, and their gradients (cpu device)."""
from __future__ import annotations

import math

import numpy as np
import pytest

import borch_webgpu as torch
import borch_webgpu.nn.functional as F

SELU_ALPHA = 1.7580993408473766  # -SELU's negative saturation, the value alpha dropout gives a dropped element


def _np(t):
    return np.asarray(t.detach().tolist(), dtype=np.float64)


def test_rrelu_training_slopes_are_uniform_in_bounds_and_seeded():
    x = -torch.ones(20000)
    torch.manual_seed(3)
    slopes = -_np(F.rrelu(x, 0.1, 0.3, training=True))
    assert slopes.min() >= 0.1 and slopes.max() <= 0.3
    assert abs(slopes.mean() - 0.2) < 0.003                          # uniform: mean (l + u) / 2
    assert abs(slopes.var() - 0.2 ** 2 / 12) < 0.0005                # and variance (u - l)^2 / 12
    torch.manual_seed(3)
    assert np.array_equal(-_np(F.rrelu(x, 0.1, 0.3, training=True)), slopes)
    pos = torch.rand(100) + 0.1
    assert torch.equal(F.rrelu(pos, training=True), pos)             # positives pass unchanged


def test_rrelu_training_gradient_is_the_drawn_slope():
    x = (torch.rand(50) - 0.5).requires_grad_()
    y = F.rrelu(x, 0.2, 0.4, training=True)
    y.sum().backward()
    xs, ys, g = _np(x), _np(y), _np(x.grad)
    neg = xs < 0
    assert np.allclose(g[neg], ys[neg] / xs[neg], rtol=1e-5)
    assert np.all(g[~neg] == 1.0)


def test_rrelu_module_follows_train_and_eval():
    m = torch.nn.RReLU(0.1, 0.3)
    x = -torch.ones(1000)
    assert len(set(m(x).tolist())) > 100
    assert np.allclose(_np(m.eval()(x)), -0.2)


@pytest.mark.parametrize("p", [0.2, 0.5])
def test_alpha_dropout_keeps_zero_mean_unit_variance(p):
    torch.manual_seed(0)
    x = torch.randn(200000)
    y = _np(F.alpha_dropout(x, p, training=True))
    assert abs(y.mean()) < 0.01 and abs(y.std() - 1) < 0.01
    a = 1 / math.sqrt((SELU_ALPHA ** 2 * p + 1) * (1 - p))
    dropped = np.isclose(y, -SELU_ALPHA * a * (1 - p), atol=1e-6)
    assert abs(dropped.mean() - p) < 0.01                           # the dropped share is p
    kept = ~dropped
    assert np.allclose(y[kept], a * _np(x)[kept] + SELU_ALPHA * a * p, atol=1e-5)


def test_alpha_dropout_gradient_is_the_kept_scale():
    p = 0.3
    x = torch.randn(1000).requires_grad_()
    y = F.alpha_dropout(x, p, training=True)
    y.sum().backward()
    a = 1 / math.sqrt((SELU_ALPHA ** 2 * p + 1) * (1 - p))
    assert set(np.round(_np(x.grad), 5)) <= {0.0, round(a, 5)}


def test_feature_alpha_dropout_draws_one_value_per_channel():
    torch.manual_seed(1)
    y = _np(F.feature_alpha_dropout(torch.zeros(8, 500, 3), 0.5, training=True))
    assert np.all(y[:, :, :1] == y)                                  # constant over each channel
    p, a = 0.5, 1 / math.sqrt((SELU_ALPHA ** 2 * 0.5 + 1) * 0.5)
    dropped = np.isclose(y[:, :, 0], -SELU_ALPHA * a * (1 - p))
    assert abs(dropped.mean() - p) < 0.03


def test_dropout3d_zeroes_whole_channels_and_scales_the_rest():
    torch.manual_seed(2)
    y = _np(F.dropout3d(torch.ones(4, 400, 2, 2, 2), 0.25))
    per_channel = y.reshape(4, 400, -1)
    assert np.all(per_channel[:, :, :1] == per_channel)
    assert np.all(np.isclose(per_channel, 0.0) | np.isclose(per_channel, 1 / 0.75))
    assert abs((per_channel[:, :, 0] == 0).mean() - 0.25) < 0.03
    unbatched = _np(F.dropout3d(torch.ones(300, 2, 2, 2), 0.5)).reshape(300, -1)
    assert np.all(unbatched[:, :1] == unbatched) and 0.4 < (unbatched[:, 0] == 0).mean() < 0.6


def test_dropout_modules_are_identity_in_eval():
    x = torch.randn(2, 3, 2, 2, 2)
    for m in (torch.nn.AlphaDropout(0.5), torch.nn.FeatureAlphaDropout(0.5), torch.nn.Dropout3d(0.5)):
        assert torch.equal(m.eval()(x), x)
        assert not torch.equal(m.train()(x), x)


def test_torch_dropout_positional_train_flag():
    torch.manual_seed(4)
    y = _np(torch.dropout(torch.ones(10000), 0.3, True))
    assert np.all(np.isclose(y, 0.0) | np.isclose(y, 1 / 0.7)) and abs((y == 0).mean() - 0.3) < 0.02
    z = torch.ones(2, 3)
    assert torch.dropout_(z, 1.0, True) is z and z.sum().item() == 0.0
