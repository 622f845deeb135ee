"""Distance modules over ``nn.functional``: CosineSimilarity and PairwiseDistance, with PyTorch's arguments."""
from __future__ import annotations

from ...tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["CosineSimilarity", "PairwiseDistance"]


class CosineSimilarity(Module):
    """Cosine similarity of ``x1`` and ``x2`` along ``dim`` (``F.cosine_similarity``).

    Example::

        >>> import borch_webgpu as torch
        >>> cos = torch.nn.CosineSimilarity(dim=0)
        >>> cos(torch.tensor([1., 0.]), torch.tensor([1., 1.])).item()
        0.7071067690849304
    """

    def __init__(self, dim: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self.dim, self.eps = dim, eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.cosine_similarity(x1, x2, self.dim, self.eps)


class PairwiseDistance(Module):
    """``||x1 - x2 + eps||_p`` over the last dimension (``F.pairwise_distance``).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.PairwiseDistance(eps=0.0)(torch.tensor([[0., 0.]]), torch.tensor([[3., 4.]])).tolist()
        [5.0]
    """

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        super().__init__()
        self.norm, self.eps, self.keepdim = p, eps, keepdim

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)
