"""The padding layers (``ZeroPad2d``, ``ConstantPad1d``, ``ReflectionPad2d``, ``ReplicationPad3d``,
``CircularPad2d`` ...): PyTorch's modules over ``F.pad``, with its names, padding tuples and reprs."""
from __future__ import annotations

from ...tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d",
           "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
           "ReplicationPad3d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d"]


class _PadNd(Module):
    """``padding``: an int (the same on every side) or PyTorch's tuple (left, right, top, bottom, front, back)."""
    n = 1
    mode = "constant"

    def __init__(self, padding) -> None:
        super().__init__()
        # a tuple of another length is kept as PyTorch keeps it (F.pad refuses it at the first forward)
        self.padding = tuple(padding) if isinstance(padding, (tuple, list)) else (padding,) * (2 * self.n)

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    def __init__(self, padding, value: float) -> None:
        super().__init__(padding)
        self.value = value

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """Pad the last dim with ``value``: (C, W) or (N, C, W).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.ConstantPad1d((1, 2), 3.5)(torch.zeros(1, 2))
        tensor([[3.5000, 0.0000, 0.0000, 3.5000, 3.5000]])
    """
    n = 1


class ConstantPad2d(_ConstantPadNd):
    """Pad the last two dims with ``value``: (C, H, W) or (N, C, H, W).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.ConstantPad2d(1, -1.0)(torch.zeros(1, 1, 1)).shape
        torch.Size([1, 3, 3])
    """
    n = 2


class ConstantPad3d(_ConstantPadNd):
    """Pad the last three dims with ``value``: (C, D, H, W) or (N, C, D, H, W).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.ConstantPad3d(1, 0.5)(torch.zeros(1, 1, 1, 1)).shape
        torch.Size([1, 3, 3, 3])
    """
    n = 3


class _ZeroPadNd(_ConstantPadNd):
    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad1d(_ZeroPadNd):
    """Pad the last dim with zeros.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.ZeroPad1d((2, 0))(torch.ones(1, 2))
        tensor([[0., 0., 1., 1.]])
    """
    n = 1


class ZeroPad2d(_ZeroPadNd):
    """Pad the last two dims with zeros (``(left, right, top, bottom)`` or an int).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.ZeroPad2d((1, 1, 0, 1))(torch.ones(1, 1, 2, 2)).shape
        torch.Size([1, 1, 3, 4])
    """
    n = 2


class ZeroPad3d(_ZeroPadNd):
    """Pad the last three dims with zeros.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.ZeroPad3d(1)(torch.ones(1, 1, 1, 1, 1)).shape
        torch.Size([1, 1, 3, 3, 3])
    """
    n = 3


class ReflectionPad1d(_PadNd):
    """Pad the last dim with its reflection (the edge is not repeated); each pad must be smaller than the dim.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.ReflectionPad1d(2)(torch.arange(4.0).reshape(1, 1, 4))
        tensor([[[2., 1., 0., 1., 2., 3., 2., 1.]]])
    """
    n, mode = 1, "reflect"


class ReflectionPad2d(_PadNd):
    """Pad the last two dims with their reflection (the fast-neural-style example's padding).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.ReflectionPad2d(1)(torch.arange(4.0).reshape(1, 1, 2, 2)).shape
        torch.Size([1, 1, 4, 4])
    """
    n, mode = 2, "reflect"


class ReflectionPad3d(_PadNd):
    """Pad the last three dims with their reflection.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.ReflectionPad3d(1)(torch.ones(1, 1, 2, 2, 2)).shape
        torch.Size([1, 1, 4, 4, 4])
    """
    n, mode = 3, "reflect"


class ReplicationPad1d(_PadNd):
    """Pad the last dim by repeating its edge values.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.ReplicationPad1d((1, 2))(torch.tensor([[[1.0, 2.0]]]))
        tensor([[[1., 1., 2., 2., 2.]]])
    """
    n, mode = 1, "replicate"


class ReplicationPad2d(_PadNd):
    """Pad the last two dims by repeating their edge values.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.ReplicationPad2d(1)(torch.ones(1, 1, 2, 2)).sum().item()
        16.0
    """
    n, mode = 2, "replicate"


class ReplicationPad3d(_PadNd):
    """Pad the last three dims by repeating their edge values.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.ReplicationPad3d(1)(torch.ones(1, 1, 1, 1, 1)).shape
        torch.Size([1, 1, 3, 3, 3])
    """
    n, mode = 3, "replicate"


class _CircularPadNd(_PadNd):
    mode = "circular"

    def forward(self, input: Tensor) -> Tensor:
        if input.dim() not in (self.n + 1, self.n + 2):
            raise ValueError(f"expected {self.n + 1}D or {self.n + 2}D input (got {input.dim()}D input)")
        return F.pad(input, self.padding, "circular")


class CircularPad1d(_CircularPadNd):
    """Pad the last dim by wrapping around (the values from the other end).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.CircularPad1d(1)(torch.tensor([[[1.0, 2.0, 3.0]]]))
        tensor([[[3., 1., 2., 3., 1.]]])
    """
    n = 1


class CircularPad2d(_CircularPadNd):
    """Pad the last two dims by wrapping around.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.CircularPad2d(1)(torch.ones(1, 1, 2, 2)).shape
        torch.Size([1, 1, 4, 4])
    """
    n = 2


class CircularPad3d(_CircularPadNd):
    """Pad the last three dims by wrapping around.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.CircularPad3d(1)(torch.ones(1, 1, 2, 2, 2)).shape
        torch.Size([1, 1, 4, 4, 4])
    """
    n = 3
