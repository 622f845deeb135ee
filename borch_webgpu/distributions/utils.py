"""Helpers shared by the distributions (PyTorch's ``torch.distributions.utils``): broadcasting of
parameters, logits <-> probs, and ``lazy_property`` (a parameter computed from the other on first use)."""
from __future__ import annotations

from functools import update_wrapper
from numbers import Number

from .. import _dtype, autograd
from ..tensor import Size, Tensor

__all__ = ["broadcast_all", "logits_to_probs", "clamp_probs", "probs_to_logits", "lazy_property",
           "tril_matrix_to_vec", "vec_to_tril_matrix"]

euler_constant = 0.57721566490153286060


def _torch():
    from ._ops import torch
    return torch


def broadcast_all(*values):
    """Broadcasts numbers and tensors to one shape; numbers become tensors of the first tensor's dtype
    and device (or of the default dtype).

    Example::

        >>> from borch_webgpu.distributions.utils import broadcast_all
        >>> [tuple(v.shape) for v in broadcast_all(torch.zeros(2, 1), 1.0, torch.ones(3))]
        [(2, 3), (2, 3), (2, 3)]
    """
    torch = _torch()
    if not all(isinstance(v, (Tensor, Number)) for v in values):
        raise ValueError("Input arguments must all be instances of Number, torch.Tensor or objects "
                         "implementing __torch_function__.")
    if not all(isinstance(v, Tensor) for v in values):
        options = dict(dtype=_dtype.get_default_dtype())
        for value in values:
            if isinstance(value, Tensor):
                options = dict(dtype=value.dtype, device=value.device)
                break
        values = [v if isinstance(v, Tensor) else torch.tensor(float(v), **options) for v in values]
    # as ATen's expand_outplace: a tensor that already has the broadcast shape is returned itself (so a
    # leaf parameter stays a leaf, and prints as one in the validation messages)
    shape = tuple(torch.broadcast_shapes(*(tuple(v.shape) for v in values)))
    return tuple(v if tuple(v.shape) == shape else v.expand(shape) for v in values)


def _standard_normal(shape, dtype, device) -> Tensor:
    return _torch().empty(shape, dtype=dtype, device=device).normal_()


def _sum_rightmost(value, dim: int):
    """Sums the ``dim`` rightmost dimensions of ``value`` (which may be a plain number when dim == 0)."""
    if dim == 0:
        return value
    return value.reshape(tuple(value.shape[:-dim]) + (-1,)).sum(-1)


def logits_to_probs(logits: Tensor, is_binary: bool = False) -> Tensor:
    """Probabilities from logits: a sigmoid when ``is_binary``, else a softmax over the last dimension.

    Example::

        >>> from borch_webgpu.distributions.utils import logits_to_probs
        >>> logits_to_probs(torch.tensor([0.0, 0.0]))
        tensor([0.5000, 0.5000])
    """
    torch = _torch()
    if is_binary:
        return torch.sigmoid(logits)
    return torch.nn.functional.softmax(logits, dim=-1)


def clamp_probs(probs: Tensor) -> Tensor:
    """Clamps probabilities into ``[eps, 1 - eps]`` of their dtype.

    Example::

        >>> from borch_webgpu.distributions.utils import clamp_probs
        >>> bool(clamp_probs(torch.tensor([0.0])) > 0)
        True
    """
    eps = _dtype.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs: Tensor, is_binary: bool = False) -> Tensor:
    """Logits from probabilities (clamped first): log-odds when ``is_binary``, else ``log(p)``.

    Example::

        >>> from borch_webgpu.distributions.utils import probs_to_logits
        >>> probs_to_logits(torch.tensor([0.5]), is_binary=True)
        tensor([0.])
    """
    torch = _torch()
    ps_clamped = clamp_probs(probs)
    if is_binary:
        return torch.log(ps_clamped) - torch.log1p(-ps_clamped)
    return torch.log(ps_clamped)


class lazy_property:
    """A property computed on first use and then stored on the instance (under grad mode, so that a
    lazily computed parameter keeps its graph), as PyTorch's ``lazy_property``.

    Example::

        >>> from borch_webgpu.distributions.utils import lazy_property
        >>> class A:
        ...     @lazy_property
        ...     def x(self):
        ...         return 3
        >>> a = A(); a.x, 'x' in a.__dict__
        (3, True)
    """

    def __init__(self, wrapped):
        self.wrapped = wrapped
        update_wrapper(self, wrapped)

    def __get__(self, instance, obj_type=None):
        if instance is None:
            return _lazy_property_and_property(self.wrapped)
        with autograd.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


class _lazy_property_and_property(lazy_property, property):
    """What the class sees (``Categorical.logits``): both a lazy_property and a property, so
    documentation tools treat it as a property."""

    def __init__(self, wrapped):
        property.__init__(self, wrapped)


def _tril_mask(n: int, diag: int, device):
    torch = _torch()
    arange = torch.arange(n, device=device)
    return arange < arange.view(-1, 1) + (diag + 1)


def tril_matrix_to_vec(mat: Tensor, diag: int = 0) -> Tensor:
    """The lower triangle of the last two dimensions (below ``diag``) as a vector, row by row.

    Example::

        >>> from borch_webgpu.distributions.utils import tril_matrix_to_vec
        >>> tril_matrix_to_vec(torch.tensor([[1., 2.], [3., 4.]]))
        tensor([1., 3., 4.])
    """
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    return mat[..., _tril_mask(n, diag, mat.device)]


def vec_to_tril_matrix(vec: Tensor, diag: int = 0) -> Tensor:
    """The inverse of :func:`tril_matrix_to_vec`: a vector filled into a lower-triangular matrix.

    Example::

        >>> from borch_webgpu.distributions.utils import vec_to_tril_matrix
        >>> vec_to_tril_matrix(torch.tensor([1., 3., 4.]))
        tensor([[1., 0.],
                [3., 4.]])
    """
    n = (-(1 + 2 * diag) + ((1 + 2 * diag) ** 2 + 8 * vec.shape[-1] + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2
    eps = _dtype.finfo(vec.dtype).eps
    if round(n) - n > eps:
        raise ValueError(f"The size of last dimension is {vec.shape[-1]} which cannot be expressed as "
                         "the lower triangular part of a square D x D matrix.")
    n = round(n)
    mat = vec.new_zeros(tuple(vec.shape[:-1]) + (n, n))
    mat[..., _tril_mask(n, diag, vec.device)] = vec
    return mat


def _size(shape) -> Size:
    return shape if isinstance(shape, Size) else Size(tuple(shape))
