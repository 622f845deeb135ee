"""More random draws: Tensor.exponential_, geometric_, log_normal_, cauchy_ (uniform or normal draws of
ops/random.py's stream, transformed by the inverse CDF on the tensor's device), torch.poisson and
torch.binomial (drawn on the host by numpy, seeded from the same stream, so ``manual_seed`` repeats
them). The streams cannot match PyTorch's; the tests check statistics and repeatability."""
from __future__ import annotations

import math

import numpy as np

from .. import _dtype, autograd
from .memory import assign, check_write
from ..tensor import Tensor
from ._registry import OpDef, api, methods, register
from .random import _fill, default_generator

__all__ = ["poisson", "binomial"]

for _n in ("exponential_", "poisson"):
    register(OpDef(_n, "random", None, None, tol=(0, 0), extra={"messages": True},
                   doc="random draws (shape/dtype goldens; statistics in tests/unit/test_shapes_more.py)"))


def _unit_(op: str, self: Tensor, generator) -> Tensor:
    check_write(op, self)
    if not self.dtype.is_floating_point:
        raise RuntimeError(f"{op} expects a floating point tensor, got {self.dtype}")
    return _fill("uniform", self._shape, self.dtype, self.device, 0.0, 1.0, generator)


def _exponential_(self: Tensor, lambd: float = 1.0, *, generator=None) -> Tensor:
    """Fill with draws from the exponential distribution of rate ``lambd`` (mean ``1 / lambd``).

    Example::

        >>> x = torch.empty(1000).exponential_(2.)
        >>> bool((x >= 0).all())
        True
    """
    if not lambd > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd:g}")
    u = _unit_("exponential_", self, generator)
    with autograd.no_grad():
        assign(self, (-u).log1p() / (-float(lambd)))
    return self


def _geometric_(self: Tensor, p: float, *, generator=None) -> Tensor:
    """Fill with draws from the geometric distribution: the number of Bernoulli(``p``) trials up to and
    including the first success (1, 2, 3, ...).

    Example::

        >>> bool((torch.empty(100).geometric_(0.3) >= 1).all())
        True
    """
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p:g}")
    if not (self.dtype.is_floating_point or self.dtype.category == 1):
        raise RuntimeError(f"geometric_ expects a numeric tensor, got {self.dtype}")
    check_write("geometric_", self)
    u = _fill("uniform", self._shape, self.dtype if self.dtype.is_floating_point else _dtype.float32, self.device,
              0.0, 1.0, generator)
    with autograd.no_grad():
        assign(self, ((-u).log1p() / math.log1p(-p)).ceil().clamp_min(1))
    return self


def _log_normal_(self: Tensor, mean: float = 1.0, std: float = 2.0, *, generator=None) -> Tensor:
    """Fill with ``exp(N(mean, std²))`` draws (the log-normal distribution).

    Example::

        >>> bool((torch.empty(100).log_normal_() > 0).all())
        True
    """
    if not std > 0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std:g}")
    check_write("log_normal_", self)
    z = _fill("normal", self._shape, self.dtype, self.device, float(mean), float(std), generator)
    with autograd.no_grad():
        assign(self, z.exp())
    return self


def _cauchy_(self: Tensor, median: float = 0.0, sigma: float = 1.0, *, generator=None) -> Tensor:
    """Fill with draws from the Cauchy distribution ``median + sigma * tan(pi * (u - 1/2))``.

    Example::

        >>> torch.manual_seed(0)  # doctest: +ELLIPSIS
        <...Generator object at 0x...>
        >>> torch.empty(5).cauchy_().shape
        torch.Size([5])
    """
    if not sigma > 0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={sigma:g}")
    u = _unit_("cauchy_", self, generator)
    with autograd.no_grad():
        assign(self, ((u - 0.5) * math.pi).tan() * float(sigma) + float(median))
    return self


def _host_rng(generator) -> np.random.Generator:
    key, start = (generator or default_generator)._take(1)
    return np.random.default_rng([int(key) & 0xFFFFFFFF, int(start) & 0xFFFFFFFF])


def poisson(input: Tensor, generator=None) -> Tensor:
    """Draws from the Poisson distribution with the rates in ``input`` (same shape and dtype).

    Example::

        >>> torch.poisson(torch.zeros(3))
        tensor([0., 0., 0.])
    """
    from .creation import tensor
    if not input.dtype.is_floating_point:
        name = {"int64": "Long", "int32": "Int", "bool": "Bool"}.get(input.dtype.name, input.dtype.name)
        raise NotImplementedError(f"\"poisson_cpu\" not implemented for '{name}'")
    rates = np.asarray(input.detach().cpu().numpy(), dtype=np.float64)
    if (rates < 0).any() or np.isnan(rates).any():
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    out = _host_rng(generator).poisson(rates).astype(np.float64)
    return tensor(out, dtype=input.dtype, device=input.device)


def binomial(count: Tensor, prob: Tensor, generator=None) -> Tensor:
    """Draws from the binomial distributions of ``count`` trials with success probability ``prob``
    (float tensors of one broadcast shape; the result has ``count``'s dtype).

    Example::

        >>> torch.binomial(torch.tensor([3., 5.]), torch.tensor([1., 0.]))
        tensor([3., 0.])
    """
    from .creation import tensor
    if not (count.dtype.is_floating_point and prob.dtype.is_floating_point):
        raise NotImplementedError("\"binomial_cpu\" not implemented for 'Long'")
    n = np.asarray(count.detach().cpu().numpy(), dtype=np.float64)
    p = np.asarray(prob.detach().cpu().numpy(), dtype=np.float64)
    n, p = np.broadcast_arrays(n, p)
    out = _host_rng(generator).binomial(n.astype(np.int64), np.clip(p, 0.0, 1.0)).astype(np.float64)
    out = np.where(np.isnan(p) | (p < 0) | (p > 1), np.nan, out)
    return tensor(out, dtype=count.dtype, device=count.device)


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
api("exponential_", method=_exponential_)
api("geometric_", method=_geometric_)
api("log_normal_", method=_log_normal_)
api("cauchy_", method=_cauchy_)
methods(("poisson", poisson), ("binomial", binomial), tensor=False)
