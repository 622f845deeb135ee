"""Unfold and Fold: the sliding-block modules over ``F.unfold`` / ``F.fold``, with PyTorch's arguments and repr."""
from __future__ import annotations

from ...tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["Fold", "Unfold"]


class Fold(Module):
    """Sum columns (N, C * kh * kw, L) back into an (N, C, *output_size) image (``F.fold``).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.Fold((2, 3), 2)(torch.ones(1, 4, 2)).shape
        torch.Size([1, 1, 2, 3])
    """

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1) -> None:
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def forward(self, input: Tensor) -> Tensor:
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")


class Unfold(Module):
    """Sliding blocks of (N, C, H, W) as the columns of (N, C * kh * kw, L) (``F.unfold``).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.Unfold(2)(torch.ones(1, 3, 4, 5)).shape
        torch.Size([1, 12, 12])
    """

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1) -> None:
        super().__init__()
        self.kernel_size, self.dilation, self.padding, self.stride = kernel_size, dilation, padding, stride

    def forward(self, input: Tensor) -> Tensor:
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, padding={self.padding}, "
                f"stride={self.stride}")
