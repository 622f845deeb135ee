"""Dropout modules: active in training mode, the identity in eval mode."""
from __future__ import annotations

from ...tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout"]


class _DropoutNd(Module):
    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    """In training, zero each element with probability ``p`` and scale the others by ``1 / (1 - p)``.

    Example::

        >>> import borch_webgpu as torch
        >>> d = torch.nn.Dropout(0.5).eval()
        >>> d(torch.ones(3)).tolist()
        [1.0, 1.0, 1.0]
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutNd):
    """In training, zero whole channels of (N, C, L) or (C, L) inputs with probability ``p``."""

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    """In training, zero whole channels of (N, C, H, W) inputs with probability ``p``."""

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout2d(input, self.p, self.training, self.inplace)


# ---- Dropout3d and the alpha dropouts ---------------------------------------------------------------------
class AlphaDropout(_DropoutNd):
    """In training, alpha dropout (:func:`torch.nn.functional.alpha_dropout`): SELU's mean and variance kept.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.AlphaDropout(0.2).eval()(torch.ones(2))
        tensor([1., 1.])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(_DropoutNd):
    """In training, alpha dropout of whole channels (:func:`torch.nn.functional.feature_alpha_dropout`).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.FeatureAlphaDropout(0.2)
        FeatureAlphaDropout(p=0.2, inplace=False)
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.feature_alpha_dropout(input, self.p, self.training)


class Dropout3d(_DropoutNd):
    """In training, zero whole channels of (N, C, D, H, W) or (C, D, H, W) inputs with probability ``p``.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.Dropout3d(0.3)
        Dropout3d(p=0.3, inplace=False)
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout3d(input, self.p, self.training, self.inplace)
