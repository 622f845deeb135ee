"""timm's classifier head pieces: ``SelectAdaptivePool2d`` and ``create_classifier`` (no parameters of
their own, so a timm state dict is unaffected; the module names match timm's)."""
from __future__ import annotations

from .. import nn
from ..tensor import Tensor

__all__ = ["SelectAdaptivePool2d", "create_classifier", "reset_head"]

_POOLS = {"avg": nn.AdaptiveAvgPool2d, "max": nn.AdaptiveMaxPool2d}


class SelectAdaptivePool2d(nn.Module):
    """timm's global pool: ``pool_type`` ``'avg'``, ``'max'`` or ``''`` (no pooling), then a flatten.

    Example::

        >>> import borch_webgpu as torch
        >>> from borch_webgpu.models import SelectAdaptivePool2d
        >>> SelectAdaptivePool2d(pool_type="avg", flatten=True)(torch.ones(2, 8, 3, 3)).shape
        torch.Size([2, 8])
    """

    def __init__(self, output_size: int = 1, pool_type: str = "avg", flatten: bool = False) -> None:
        super().__init__()
        self.pool_type = pool_type or ""
        kind = self.pool_type.lower()
        if kind and kind not in _POOLS:
            raise ValueError(f"SelectAdaptivePool2d: pool_type must be one of 'avg', 'max' or '' (no pooling), got "
                             f"{pool_type!r} (timm's fast / avgmax / catavgmax pools are not in the catalog)")
        self.pool = _POOLS[kind](output_size) if kind else nn.Identity()
        self.flatten = nn.Flatten(1) if flatten else nn.Identity()

    def is_identity(self) -> bool:
        """True when there is no pooling."""
        return not self.pool_type

    def feat_mult(self) -> int:
        """How many features per channel the pool gives (1 for avg and max)."""
        return 1

    def forward(self, x: Tensor) -> Tensor:
        return self.flatten(self.pool(x))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(pool_type={self.pool_type}, flatten={self.flatten})"


def create_classifier(num_features: int, num_classes: int, pool_type: str = "avg"):
    """timm's (global_pool, fc): a Linear head, or Identity when ``num_classes`` is 0."""
    pool = SelectAdaptivePool2d(pool_type=pool_type, flatten=bool(pool_type))
    fc = nn.Linear(num_features * pool.feat_mult(), num_classes) if num_classes > 0 else nn.Identity()
    return pool, fc


def reset_head(model, num_classes: int, global_pool: str | None, attr: str) -> None:
    """timm's ``reset_classifier`` for a model whose head is ``model.global_pool`` then the classifier
    in attribute ``attr``: a new one for ``num_classes`` (0: none) after ``global_pool`` (None keeps the
    current one; 'avg', 'max', or '' for no pooling), on the model's device and in its mode."""
    if global_pool is None:
        global_pool = model.global_pool.pool_type
    model.num_classes = num_classes
    model.global_pool, fc = create_classifier(model.num_features, num_classes, pool_type=global_pool)
    setattr(model, attr, fc.to(model._device()))
    model.global_pool.train(model.training)
    getattr(model, attr).train(model.training)
