"""Pooling modules over ``F.max_pool*``, ``F.avg_pool*`` and ``F.adaptive_*``, with PyTorch's ``repr``."""
from __future__ import annotations

from ...tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["MaxPool1d", "MaxPool2d", "AvgPool1d", "AvgPool2d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d",
           "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "LPPool1d", "LPPool2d", "MaxPool3d", "AvgPool3d",
           "AdaptiveAvgPool3d", "AdaptiveMaxPool3d", "LPPool3d"]


def _single(x):
    return tuple(x) if isinstance(x, (list, tuple)) else (x,)


class _MaxPoolNd(Module):
    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices: bool = False,
                 ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def extra_repr(self) -> str:
        return ("kernel_size={kernel_size}, stride={stride}, padding={padding}, dilation={dilation}, "
                "ceil_mode={ceil_mode}".format(**self.__dict__))


class MaxPool1d(_MaxPoolNd):
    """Max over windows of (N, C, L) inputs; ``return_indices`` also returns where each max was."""

    def forward(self, input: Tensor):
        return F.max_pool1d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class MaxPool2d(_MaxPoolNd):
    """Max over windows of (N, C, H, W) inputs; ``return_indices`` also returns where each max was.

    Example::

        >>> from borch_webgpu import nn
        >>> nn.MaxPool2d(3, stride=2)
        MaxPool2d(kernel_size=3, stride=2, padding=0, dilation=1, ceil_mode=False)
    """

    def forward(self, input: Tensor):
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class MaxPool3d(_MaxPoolNd):
    """Max over windows of (N, C, D, H, W) inputs (``F.max_pool3d``).

    Example::

        >>> from borch_webgpu import nn
        >>> nn.MaxPool3d(2)
        MaxPool3d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
    """

    def forward(self, input: Tensor):
        return F.max_pool3d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class _AvgPoolNd(Module):
    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool1d(_AvgPoolNd):
    """Mean over windows of (N, C, L) inputs."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
                 count_include_pad: bool = True) -> None:
        super().__init__()
        self.kernel_size = _single(kernel_size)
        self.stride = _single(stride if stride is not None else kernel_size)
        self.padding = _single(padding)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)


class AvgPool2d(_AvgPoolNd):
    """Mean over windows of (N, C, H, W) inputs (``divisor_override`` replaces the window size)."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False, count_include_pad: bool = True,
                 divisor_override: int | None = None) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)


class AvgPool3d(AvgPool2d):
    """Mean over windows of (N, C, D, H, W) inputs (``F.avg_pool3d``).

    Example::

        >>> from borch_webgpu import nn
        >>> nn.AvgPool3d(2, stride=1)
        AvgPool3d(kernel_size=2, stride=1, padding=0)
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool3d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)


class _AdaptivePoolNd(Module):
    def __init__(self, output_size) -> None:
        super().__init__()
        self.output_size = output_size

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptivePoolNd):
    """Mean over windows chosen so that the output length is ``output_size``."""

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool1d(input, self.output_size)


class AdaptiveAvgPool2d(_AdaptivePoolNd):
    """Mean over windows chosen so that the output is ``output_size`` (an int, a pair, None keeps a dim).

    Example::

        >>> from borch_webgpu import nn
        >>> nn.AdaptiveAvgPool2d((1, 1))
        AdaptiveAvgPool2d(output_size=(1, 1))
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool2d(input, self.output_size)


class AdaptiveAvgPool3d(_AdaptivePoolNd):
    """Mean over windows chosen so that the output is ``output_size`` (an int, a triple, None keeps a dim)
    (``F.adaptive_avg_pool3d``).

    Example::

        >>> from borch_webgpu import nn
        >>> nn.AdaptiveAvgPool3d((1, None, 2))
        AdaptiveAvgPool3d(output_size=(1, None, 2))
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool3d(input, self.output_size)


class _AdaptiveMaxPoolNd(_AdaptivePoolNd):
    def __init__(self, output_size, return_indices: bool = False) -> None:
        super().__init__(output_size)
        self.return_indices = return_indices


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    """Max over windows chosen so that the output length is ``output_size``."""

    def forward(self, input: Tensor):
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    """Max over windows chosen so that the output is ``output_size``."""

    def forward(self, input: Tensor):
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    """Max over windows chosen so that the output is ``output_size`` (``F.adaptive_max_pool3d``).

    Example::

        >>> from borch_webgpu import nn
        >>> nn.AdaptiveMaxPool3d(2, return_indices=True)
        AdaptiveMaxPool3d(output_size=2)
    """

    def forward(self, input: Tensor):
        return F.adaptive_max_pool3d(input, self.output_size, self.return_indices)


class _LPPoolNd(Module):
    def __init__(self, norm_type: float, kernel_size, stride=None, ceil_mode: bool = False) -> None:
        super().__init__()
        self.norm_type, self.kernel_size, self.stride, self.ceil_mode = norm_type, kernel_size, stride, ceil_mode

    def extra_repr(self) -> str:
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, "
                f"ceil_mode={self.ceil_mode}")


class LPPool1d(_LPPoolNd):
    """Power-average pooling over (N, C, L) (``F.lp_pool1d``).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.LPPool1d(2, 2)(torch.tensor([[[3., 4.]]])).tolist()
        [[[5.0]]]
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.lp_pool1d(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)


class LPPool2d(_LPPoolNd):
    """Power-average pooling over (N, C, H, W) (``F.lp_pool2d``).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.LPPool2d(1, 2)(torch.ones(1, 1, 2, 2)).tolist()
        [[[[4.0]]]]
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.lp_pool2d(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)


class LPPool3d(_LPPoolNd):
    """Power-average pooling over (N, C, D, H, W) (``F.lp_pool3d``).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.LPPool3d(1, 2)(torch.ones(1, 1, 2, 2, 2)).flatten().tolist()
        [8.0]
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.lp_pool3d(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)
