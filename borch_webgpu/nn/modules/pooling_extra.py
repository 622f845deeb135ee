"""``MaxUnpool1d/2d/3d`` and ``FractionalMaxPool2d/3d`` (``F.max_unpool*``, ``F.fractional_max_pool*``),
with PyTorch's constructor checks and ``repr``."""
from __future__ import annotations

from ...tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d", "FractionalMaxPool2d", "FractionalMaxPool3d"]


def _tuple(v, n: int) -> tuple:
    return tuple(v) if isinstance(v, (tuple, list)) else (v,) * n


class _MaxUnpoolNd(Module):
    _n = 0
    _fn = ""

    def __init__(self, kernel_size, stride=None, padding=0) -> None:
        super().__init__()
        self.kernel_size = _tuple(kernel_size, self._n)
        self.stride = _tuple(stride if stride is not None else kernel_size, self._n)
        self.padding = _tuple(padding, self._n)

    def forward(self, input: Tensor, indices: Tensor, output_size: list[int] | None = None) -> Tensor:
        return getattr(F, self._fn)(input, indices, self.kernel_size, self.stride, self.padding, output_size)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpoolNd):
    """The inverse of :class:`MaxPool1d`: ``forward(input, indices, output_size=None)`` puts each value back
    at its index, zeros elsewhere (``F.max_unpool1d``).

    Example::

        >>> import borch_webgpu as torch
        >>> pool, unpool = torch.nn.MaxPool1d(2, return_indices=True), torch.nn.MaxUnpool1d(2)
        >>> out, idx = pool(torch.tensor([[[1., 2., 3., 4., 5., 6., 7., 8.]]]))
        >>> unpool(out, idx)
        tensor([[[0., 2., 0., 4., 0., 6., 0., 8.]]])
    """

    _n, _fn = 1, "max_unpool1d"


class MaxUnpool2d(_MaxUnpoolNd):
    """The inverse of :class:`MaxPool2d` (``F.max_unpool2d``); ``output_size`` picks among the sizes that
    pool to the same input size.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.MaxUnpool2d(2, stride=2)
        MaxUnpool2d(kernel_size=(2, 2), stride=(2, 2), padding=(0, 0))
    """

    _n, _fn = 2, "max_unpool2d"


class MaxUnpool3d(_MaxUnpoolNd):
    """The inverse of :class:`MaxPool3d` (``F.max_unpool3d``).

    Example::

        >>> import borch_webgpu as torch
        >>> pool, unpool = torch.nn.MaxPool3d(2, return_indices=True), torch.nn.MaxUnpool3d(2)
        >>> out, idx = pool(torch.randn(1, 2, 4, 4, 4))
        >>> unpool(out, idx).shape
        torch.Size([1, 2, 4, 4, 4])
    """

    _n, _fn = 3, "max_unpool3d"


class _FractionalMaxPoolNd(Module):
    _n = 0
    _fn = ""

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices: bool = False,
                 _random_samples=None) -> None:
        super().__init__()
        name = type(self).__name__
        if self._n == 3 and (isinstance(kernel_size, int) and kernel_size <= 0 or
                             isinstance(kernel_size, (tuple, list)) and not all(k > 0 for k in kernel_size)):
            raise ValueError(f"kernel_size must be greater than 0, but got {kernel_size}")
        self.kernel_size = _tuple(kernel_size, self._n)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = _tuple(output_size, self._n) if output_size is not None else None
        self.output_ratio = _tuple(output_ratio, self._n) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError(f"{name} requires specifying either an output size, or a pooling ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def forward(self, input: Tensor):
        return getattr(F, self._fn)(input, self.kernel_size, self.output_size, self.output_ratio, self.return_indices,
                                    _random_samples=self._random_samples)


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    """Fractional max pooling over (H, W) (``F.fractional_max_pool2d``): ``kernel_size`` windows at
    pseudo-random starts giving ``output_size`` (or ``output_ratio`` of the input); a ``_random_samples``
    buffer (N, C, 2) fixes the starts.

    Example::

        >>> import borch_webgpu as torch
        >>> m = torch.nn.FractionalMaxPool2d(3, output_ratio=(0.5, 0.5))
        >>> m(torch.randn(2, 4, 10, 10)).shape
        torch.Size([2, 4, 5, 5])
    """

    _n, _fn = 2, "fractional_max_pool2d"


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    """Fractional max pooling over (T, H, W) (``F.fractional_max_pool3d``; ``_random_samples`` (N, C, 3)).

    Example::

        >>> import borch_webgpu as torch
        >>> m = torch.nn.FractionalMaxPool3d(2, output_size=(3, 3, 3))
        >>> m(torch.randn(1, 2, 6, 6, 6)).shape
        torch.Size([1, 2, 3, 3, 3])
    """

    _n, _fn = 3, "fractional_max_pool3d"
