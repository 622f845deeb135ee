"""Gamma draws with implicit reparameterization gradients, and the regularized lower incomplete gamma
function, computed on the host in float64 with numpy (as ops/random_more.py's poisson and binomial).

A gamma draw x ~ Gamma(a, 1) is made by numpy from the same random stream as every other draw (so
``manual_seed`` repeats it; it cannot match PyTorch's stream). Its gradient is the implicit one
(Figurnov et al. 2018, the rule behind PyTorch's ``_standard_gamma_grad``):
dx/da = -(dP(a, x)/da) / p(x; a), with P the regularized lower incomplete gamma function and p the density;
dP/da is a central difference of P in float64."""
from __future__ import annotations

import math

import numpy as np

from ._ops import torch

from ..autograd import Function
from ..ops.random_more import _host_rng

_lgamma = np.frompyfunc(math.lgamma, 1, 1)


def _lgam(a: np.ndarray) -> np.ndarray:
    return np.asarray(_lgamma(a), dtype=np.float64)


def gammainc_np(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """P(a, x) for a > 0, x >= 0 (float64): the series below a + 1, Lentz's continued fraction above."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    out = np.full(a.shape, np.nan)
    with np.errstate(all="ignore"):
        log_pre = a * np.log(np.where(x > 0, x, 1.0)) - x - _lgam(np.where(a > 0, a, 1.0))
        series = (x < a + 1) & (x > 0)
        if series.any():
            aa, xx = a[series], x[series]
            term = 1.0 / aa
            total = term.copy()
            ap = aa.copy()
            for _ in range(2000):
                ap = ap + 1
                term = term * xx / ap
                total = total + term
                if np.all(np.abs(term) < np.abs(total) * 1e-17):
                    break
            out[series] = total * np.exp(log_pre[series])
        frac = (x >= a + 1) & (x > 0)
        if frac.any():
            aa, xx = a[frac], x[frac]
            tiny = 1e-300
            b = xx + 1 - aa
            c = np.full(aa.shape, 1.0 / tiny)
            d = 1.0 / b
            h = d.copy()
            for i in range(1, 2000):
                an = -i * (i - aa)
                b = b + 2
                d = an * d + b
                d = np.where(np.abs(d) < tiny, tiny, d)
                c = b + an / c
                c = np.where(np.abs(c) < tiny, tiny, c)
                d = 1.0 / d
                delta = d * c
                h = h * delta
                if np.all(np.abs(delta - 1) < 1e-16):
                    break
            out[frac] = 1.0 - np.exp(log_pre[frac]) * h
        out[(x == 0) & (a > 0)] = 0.0
        out[np.isinf(x) & (x > 0) & (a > 0)] = 1.0
    return out


def _gamma_sample_grad(x: np.ndarray, a: np.ndarray) -> np.ndarray:
    """dx/da of a Gamma(a, 1) draw x held at fixed quantile (float64)."""
    h = np.maximum(a, 1e-3) * 1e-4
    h = np.minimum(h, a * 0.5)
    dp_da = (gammainc_np(a + h, x) - gammainc_np(a - h, x)) / (2 * h)
    with np.errstate(all="ignore"):
        log_pdf = (a - 1) * np.log(x) - x - _lgam(a)
        return -dp_da / np.exp(log_pdf)


def _to_np(t) -> np.ndarray:
    return np.asarray(t.detach().cpu().numpy(), dtype=np.float64)


class _StandardGamma(Function):
    @staticmethod
    def forward(ctx, concentration):
        a = _to_np(concentration)
        x = _host_rng(None).standard_gamma(a)
        x = np.maximum(x, np.finfo(np.float32 if concentration.dtype == torch.float32 else np.float64).tiny)
        out = torch.tensor(x, dtype=concentration.dtype, device=concentration.device)
        ctx.save_for_backward(out, concentration)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, concentration = ctx.saved_tensors
        dx = _gamma_sample_grad(_to_np(x), _to_np(concentration))
        return grad * torch.tensor(dx, dtype=concentration.dtype, device=concentration.device)


def standard_gamma(concentration):
    """Gamma(concentration, 1) draws of ``concentration``'s shape, differentiable by implicit
    reparameterization."""
    return _StandardGamma.apply(concentration)


class _GammaInc(Function):
    @staticmethod
    def forward(ctx, a, x):
        out = gammainc_np(_to_np(a), _to_np(x))
        ctx.save_for_backward(a, x)
        return torch.tensor(out, dtype=x.dtype, device=x.device)

    @staticmethod
    def backward(ctx, grad):
        a, x = ctx.saved_tensors
        if ctx.needs_input_grad[0]:
            raise NotImplementedError("the derivative for 'igamma: input' is not implemented.")
        return None, grad * torch.exp((a - 1) * torch.log(x) - x - torch.lgamma(a))


def gammainc(a, x):
    """The regularized lower incomplete gamma function P(a, x) (``torch.special.gammainc``)."""
    a, x = torch.broadcast_tensors(a, x)
    return _GammaInc.apply(a, x)
