"""``Upsample`` (over ``F.interpolate``) and the deprecated ``UpsamplingNearest2d`` / ``UpsamplingBilinear2d``."""
from __future__ import annotations

from ...tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d"]


class Upsample(Module):
    """Resize (N, C, *) inputs to ``size`` or by ``scale_factor`` with ``mode`` ('nearest', 'linear',
    'bilinear', 'bicubic', ...), as ``F.interpolate``."""

    def __init__(self, size=None, scale_factor=None, mode: str = "nearest", align_corners: bool | None = None,
                 recompute_scale_factor: bool | None = None) -> None:
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor = tuple(float(factor) for factor in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self) -> str:
        info = "scale_factor=" + repr(self.scale_factor) if self.scale_factor is not None else "size=" + repr(self.size)
        return info + ", mode=" + repr(self.mode)


class UpsamplingNearest2d(Upsample):
    """Deprecated: ``Upsample(size, scale_factor, mode='nearest')`` for (N, C, H, W) inputs.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.UpsamplingNearest2d(scale_factor=2)(torch.ones(1, 1, 1, 2)).shape
        torch.Size([1, 1, 2, 4])
    """

    def __init__(self, size=None, scale_factor=None) -> None:
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """Deprecated: ``Upsample(size, scale_factor, mode='bilinear', align_corners=True)`` for (N, C, H, W) inputs.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.UpsamplingBilinear2d(size=(1, 3))(torch.tensor([[[[0., 1.]]]]))
        tensor([[[[0.0000, 0.5000, 1.0000]]]])
    """

    def __init__(self, size=None, scale_factor=None) -> None:
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)
