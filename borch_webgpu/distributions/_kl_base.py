"""The KL registry and dispatch behind ``kl.py`` (``register_kl``, ``kl_divergence``) and the helpers the
formulas share; the formulas register themselves from kl.py, _kl_cross.py and _kl_more.py."""
from __future__ import annotations

import warnings
from functools import total_ordering

from ._ops import torch
from .distribution import Distribution
from .utils import euler_constant as _euler_gamma  # noqa: F401  (used by the formulas)

_KL_REGISTRY: dict = {}  # Source of truth mapping a few general (type, type) pairs to functions.
_KL_MEMOIZE: dict = {}   # Memoized version mapping many specific (type, type) pairs to functions.

__all__ = ["register_kl", "kl_divergence"]

_inf = float("inf")


def register_kl(type_p, type_q):
    """Decorator to register a pairwise function with :func:`kl_divergence`.

    Example::

        >>> from borch_webgpu.distributions import Normal, register_kl, kl_divergence
        >>> class MyNormal(Normal):
        ...     pass
        >>> @register_kl(MyNormal, MyNormal)
        ... def kl_mine(p, q):
        ...     return torch.zeros(())
        >>> kl_divergence(MyNormal(0.0, 1.0), MyNormal(1.0, 1.0))
        tensor(0.)

    Args:
        type_p (type): a subclass of :class:`~torch.distributions.Distribution`.
        type_q (type): a subclass of :class:`~torch.distributions.Distribution`.
    """
    if not isinstance(type_p, type) and issubclass(type_p, Distribution):
        raise TypeError(f"Expected type_p to be a Distribution subclass but got {type_p}")
    if not isinstance(type_q, type) and issubclass(type_q, Distribution):
        raise TypeError(f"Expected type_q to be a Distribution subclass but got {type_q}")

    def decorator(fun):
        _KL_REGISTRY[type_p, type_q] = fun
        _KL_MEMOIZE.clear()  # reset since lookup order may have changed
        return fun

    return decorator


@total_ordering
class _Match:
    __slots__ = ["types"]

    def __init__(self, *types):
        self.types = types

    def __eq__(self, other):
        return self.types == other.types

    def __le__(self, other):
        for x, y in zip(self.types, other.types):
            if not issubclass(x, y):
                return False
            if x is not y:
                break
        return True


def _dispatch_kl(type_p, type_q):
    """The most specific approximate match, lexicographically (p's type first), as PyTorch finds it."""
    matches = [(super_p, super_q) for super_p, super_q in _KL_REGISTRY
               if issubclass(type_p, super_p) and issubclass(type_q, super_q)]
    if not matches:
        return NotImplemented
    left_p, left_q = min(_Match(*m) for m in matches).types
    right_q, right_p = min(_Match(*reversed(m)) for m in matches).types
    left_fun = _KL_REGISTRY[left_p, left_q]
    right_fun = _KL_REGISTRY[right_p, right_q]
    if left_fun is not right_fun:
        warnings.warn(f"Ambiguous kl_divergence({type_p.__name__}, {type_q.__name__}). "
                      f"Please register_kl({left_p.__name__}, {right_q.__name__})", RuntimeWarning, stacklevel=2)
    return left_fun


def _infinite_like(tensor):
    return torch.full_like(tensor, _inf)


def _x_log_x(tensor):
    return torch.xlogy(tensor, tensor)


def _batch_trace_XXT(bmat):
    n, m = bmat.size(-1), bmat.size(-2)
    flat_trace = bmat.reshape(-1, m * n).pow(2).sum(-1)
    return flat_trace.reshape(bmat.shape[:-2])


def _set(t, mask, value):
    """PyTorch's ``t[mask] = value`` as a new tensor."""
    return torch.where(mask, torch.full_like(t, value), t)


def kl_divergence(p, q):
    r"""The Kullback-Leibler divergence :math:`KL(p \| q)` between two distributions, batched.

    Example::

        >>> from borch_webgpu.distributions import Normal, kl_divergence
        >>> kl_divergence(Normal(0.0, 1.0), Normal(1.0, 2.0))
        tensor(0.4431)

    Raises:
        NotImplementedError: if the distribution types have not been registered via :func:`register_kl`.
    """
    try:
        fun = _KL_MEMOIZE[type(p), type(q)]
    except KeyError:
        fun = _dispatch_kl(type(p), type(q))
        _KL_MEMOIZE[type(p), type(q)] = fun
    if fun is NotImplemented:
        raise NotImplementedError(f"No KL(p || q) is implemented for p type {p.__class__.__name__} "
                                  f"and q type {q.__class__.__name__}")
    return fun(p, q)
