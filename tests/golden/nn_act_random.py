"""Checks of the random ops of borch_webgpu/ops/_nn_act.py and _nn_extra.py, whose training outputs cannot match
PyTorch's stream (their goldens, cases_nn_act.py, hold the shapes and the evaluation-mode values): the
distributions they promise, determinism under manual_seed, and their gradients.

``python nn_act_random.py [--device cpu|webgpu]`` runs every check and prints ``nn_act random: N passed, M failed``;
tests/unit/test_nn_act.py runs them on cpu and tests/browser/test_nn_more_webgpu.py on WebGPU in Chromium.
"""
from __future__ import annotations

import argparse
import math
import sys
import traceback

import numpy as np

import borch_webgpu as torch
import borch_webgpu.nn.functional as F

SELU_ALPHA = 1.7580993408473766  # -SELU's negative saturation, the value alpha dropout gives a dropped element


def _np(t):
    return np.asarray(t.detach().cpu().tolist(), dtype=np.float64)


def _a(p):
    return 1 / math.sqrt((SELU_ALPHA ** 2 * p + 1) * (1 - p))


def rrelu_training_slopes_are_uniform_in_bounds_and_seeded(dev):
    x = -torch.ones(20000, device=dev)
    torch.manual_seed(3)
    slopes = -_np(F.rrelu(x, 0.1, 0.3, training=True))
    assert slopes.min() >= 0.1 - 1e-7 and slopes.max() <= 0.3 + 1e-7, (slopes.min(), slopes.max())
    assert abs(slopes.mean() - 0.2) < 0.003                          # uniform: mean (l + u) / 2
    assert abs(slopes.var() - 0.2 ** 2 / 12) < 0.0005                # and variance (u - l)^2 / 12
    torch.manual_seed(3)
    assert np.array_equal(-_np(F.rrelu(x, 0.1, 0.3, training=True)), slopes)
    pos = torch.rand(100, device=dev) + 0.1
    assert np.array_equal(_np(F.rrelu(pos, training=True)), _np(pos))  # positives pass unchanged


def rrelu_training_gradient_is_the_drawn_slope(dev):
    x = (torch.rand(50, device=dev) - 0.5).requires_grad_()
    y = F.rrelu(x, 0.2, 0.4, training=True)
    y.sum().backward()
    xs, ys, g = _np(x), _np(y), _np(x.grad)
    neg = xs < 0
    assert np.allclose(g[neg], ys[neg] / xs[neg], rtol=1e-5)
    assert np.all(g[~neg] == 1.0)


def rrelu_module_follows_train_and_eval(dev):
    m = torch.nn.RReLU(0.1, 0.3)
    x = -torch.ones(1000, device=dev)
    assert len(set(_np(m(x)).tolist())) > 100
    assert np.allclose(_np(m.eval()(x)), -0.2)


def alpha_dropout_keeps_zero_mean_unit_variance(dev):
    for p in (0.2, 0.5):
        torch.manual_seed(0)
        x = torch.randn(50000, device=dev)
        y = _np(F.alpha_dropout(x, p, training=True))
        assert abs(y.mean()) < 0.02 and abs(y.std() - 1) < 0.02, (p, y.mean(), y.std())
        a = _a(p)
        dropped = np.isclose(y, -SELU_ALPHA * a * (1 - p), atol=1e-6)
        assert abs(dropped.mean() - p) < 0.01                       # the dropped share is p
        assert np.allclose(y[~dropped], a * _np(x)[~dropped] + SELU_ALPHA * a * p, atol=1e-5)


def alpha_dropout_gradient_is_the_kept_scale(dev):
    x = torch.randn(1000, device=dev).requires_grad_()
    F.alpha_dropout(x, 0.3, training=True).sum().backward()
    assert set(np.round(_np(x.grad), 5)) <= {0.0, round(_a(0.3), 5)}


def feature_alpha_dropout_draws_one_value_per_channel(dev):
    torch.manual_seed(1)
    y = _np(F.feature_alpha_dropout(torch.zeros(8, 500, 3, device=dev), 0.5, training=True))
    assert np.all(y[:, :, :1] == y)                                  # constant over each channel
    dropped = np.isclose(y[:, :, 0], -SELU_ALPHA * _a(0.5) * 0.5)
    assert abs(dropped.mean() - 0.5) < 0.03


def dropout3d_zeroes_whole_channels_and_scales_the_rest(dev):
    torch.manual_seed(2)
    y = _np(F.dropout3d(torch.ones(4, 400, 2, 2, 2, device=dev), 0.25)).reshape(4, 400, -1)
    assert np.all(y[:, :, :1] == y)
    assert np.all(np.isclose(y, 0.0) | np.isclose(y, 1 / 0.75))
    assert abs((y[:, :, 0] == 0).mean() - 0.25) < 0.03
    unbatched = _np(F.dropout3d(torch.ones(300, 2, 2, 2, device=dev), 0.5)).reshape(300, -1)
    assert np.all(unbatched[:, :1] == unbatched) and 0.4 < (unbatched[:, 0] == 0).mean() < 0.6


def dropout_modules_are_identity_in_eval(dev):
    x = torch.randn(2, 3, 2, 2, 2, device=dev)
    for m in (torch.nn.AlphaDropout(0.5), torch.nn.FeatureAlphaDropout(0.5), torch.nn.Dropout3d(0.5)):
        assert np.array_equal(_np(m.eval()(x)), _np(x))
        assert not np.array_equal(_np(m.train()(x)), _np(x))


def torch_dropout_positional_train_flag(dev):
    torch.manual_seed(4)
    y = _np(torch.dropout(torch.ones(10000, device=dev), 0.3, True))
    assert np.all(np.isclose(y, 0.0) | np.isclose(y, 1 / 0.7)) and abs((y == 0).mean() - 0.3) < 0.02
    z = torch.ones(2, 3, device=dev)
    assert torch.dropout_(z, 1.0, True) is z and z.sum().item() == 0.0


CHECKS = [rrelu_training_slopes_are_uniform_in_bounds_and_seeded, rrelu_training_gradient_is_the_drawn_slope,
          rrelu_module_follows_train_and_eval, alpha_dropout_keeps_zero_mean_unit_variance,
          alpha_dropout_gradient_is_the_kept_scale, feature_alpha_dropout_draws_one_value_per_channel,
          dropout3d_zeroes_whole_channels_and_scales_the_rest, dropout_modules_are_identity_in_eval,
          torch_dropout_positional_train_flag]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cpu")
    dev = ap.parse_args().device
    failed = 0
    for check in CHECKS:
        try:
            check(dev)
        except Exception:  # noqa: BLE001 - report every failing check
            failed += 1
            print(f"FAIL {check.__name__}\n{traceback.format_exc()}")
    print(f"nn_act random: {len(CHECKS) - failed} passed, {failed} failed [device {dev}]")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
