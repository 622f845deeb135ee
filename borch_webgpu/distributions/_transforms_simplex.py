"""Transforms onto the simplex and onto triangular / positive-definite matrices (PyTorch's
``StickBreakingTransform``, ``LowerCholeskyTransform``, ``PositiveDefiniteTransform``); re-exported by
``transforms.py``."""
from __future__ import annotations

from ._ops import torch

from . import constraints
from ._transform_base import Transform

__all__ = ["StickBreakingTransform", "LowerCholeskyTransform", "PositiveDefiniteTransform"]


def _clipped_sigmoid(x):
    finfo = torch.finfo(x.dtype)
    return torch.clamp(torch.sigmoid(x), min=finfo.tiny, max=1.0 - finfo.eps)


class StickBreakingTransform(Transform):
    r"""From unconstrained space to the simplex of one more dimension by a stick-breaking process
    (bijective; the one :func:`biject_to` uses for ``constraints.simplex``).

    Example::

        >>> from borch_webgpu.distributions.transforms import StickBreakingTransform
        >>> StickBreakingTransform()(torch.tensor([0.0, 0.0]))
        tensor([0.3333, 0.3333, 0.3333])
    """

    domain = constraints.real_vector
    codomain = constraints.simplex
    bijective = True

    def __eq__(self, other):
        return isinstance(other, StickBreakingTransform)

    def _offset(self, like, n):
        return torch.arange(n, 0, -1, dtype=like.dtype, device=like.device)  # n, n-1, ..., 1

    def _call(self, x):
        offset = self._offset(x, x.shape[-1])
        z = _clipped_sigmoid(x - offset.log())
        z_cumprod = (1 - z).cumprod(-1)
        pad = torch.nn.functional.pad
        return pad(z, [0, 1], value=1) * pad(z_cumprod, [1, 0], value=1)

    def _inverse(self, y):
        y_crop = y[..., :-1]
        offset = self._offset(y, y_crop.shape[-1])
        sf = 1 - y_crop.cumsum(-1)
        # we clamp to make sure that sf is positive which sometimes does not
        # happen when y[-1] ~ 0 or y[:-1].sum() ~ 1
        sf = torch.clamp(sf, min=torch.finfo(y.dtype).tiny)
        return y_crop.log() - sf.log() + offset.log()

    def log_abs_det_jacobian(self, x, y):
        offset = self._offset(x, x.shape[-1])
        x = x - offset.log()
        # use the identity 1 - sigmoid(x) = exp(-x) * sigmoid(x)
        return (-x + torch.nn.functional.logsigmoid(x) + y[..., :-1].log()).sum(-1)

    def forward_shape(self, shape):
        if len(shape) < 1:
            raise ValueError("Too few dimensions on input")
        return shape[:-1] + (shape[-1] + 1,)

    def inverse_shape(self, shape):
        if len(shape) < 1:
            raise ValueError("Too few dimensions on input")
        return shape[:-1] + (shape[-1] - 1,)


class LowerCholeskyTransform(Transform):
    r"""From unconstrained matrices to lower-triangular matrices with a positive diagonal (not
    bijective: the upper triangle is dropped).

    Example::

        >>> from borch_webgpu.distributions.transforms import LowerCholeskyTransform
        >>> LowerCholeskyTransform()(torch.tensor([[0.0, 5.0], [2.0, 0.0]]))
        tensor([[1., 0.],
                [2., 1.]])
    """

    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.lower_cholesky

    def __eq__(self, other):
        return isinstance(other, LowerCholeskyTransform)

    def _call(self, x):
        return x.tril(-1) + x.diagonal(dim1=-2, dim2=-1).exp().diag_embed()

    def _inverse(self, y):
        return y.tril(-1) + y.diagonal(dim1=-2, dim2=-1).log().diag_embed()


class PositiveDefiniteTransform(Transform):
    r"""From unconstrained matrices to positive-definite matrices: ``L @ L.mT`` of the
    :class:`LowerCholeskyTransform`.

    Example::

        >>> from borch_webgpu.distributions.transforms import PositiveDefiniteTransform
        >>> PositiveDefiniteTransform()(torch.tensor([[0.0, 5.0], [2.0, 0.0]]))
        tensor([[1., 2.],
                [2., 5.]])
    """

    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.positive_definite

    def __eq__(self, other):
        return isinstance(other, PositiveDefiniteTransform)

    def _call(self, x):
        x = LowerCholeskyTransform()(x)
        return x @ x.mT

    def _inverse(self, y):
        y = torch.linalg.cholesky(y)
        return LowerCholeskyTransform().inv(y)
