"""Convolutions: ``Conv1d``, ``Conv2d``, ``Conv3d``, ``ConvTranspose1d``, ``ConvTranspose2d``,
``ConvTranspose3d`` (over ``F.conv*``),
with PyTorch's arguments (padding ints, tuples, 'same' or 'valid'; padding modes through ``F.pad``),
checks, initialisation and ``repr``."""
from __future__ import annotations

import math

from ...autograd import no_grad
from ...ops.creation import empty
from ...tensor import Size, Tensor
from .. import functional as F, init
from ..parameter import Parameter
from .module import Module

__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"]


def _ntuple(n: int):
    def parse(x):
        if isinstance(x, (list, tuple)):
            return tuple(x)
        return (x,) * n
    return parse


_single, _pair, _triple = _ntuple(1), _ntuple(2), _ntuple(3)


def _reverse_repeat_tuple(t, n: int) -> tuple:
    return tuple(x for x in reversed(t) for _ in range(n))


class _ConvNd(Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride, padding, dilation, transposed: bool,
                 output_padding, groups: int, bias: bool, padding_mode: str, device=None, dtype=None) -> None:
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        valid_padding_strings = {"same", "valid"}
        if isinstance(padding, str):
            if padding not in valid_padding_strings:
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {valid_padding_strings}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        valid_padding_modes = {"zeros", "reflect", "replicate", "circular"}
        if padding_mode not in valid_padding_modes:
            raise ValueError(f"padding_mode must be one of {valid_padding_modes}, but got "
                             f"padding_mode='{padding_mode}'")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.transposed = transposed
        self.output_padding = output_padding
        self.groups = groups
        self.padding_mode = padding_mode
        if isinstance(self.padding, str):
            self._reversed_padding_repeated_twice = [0, 0] * len(kernel_size)
            if padding == "same":
                for d, k, i in zip(dilation, kernel_size, range(len(kernel_size) - 1, -1, -1)):
                    total = d * (k - 1)
                    left = total // 2
                    self._reversed_padding_repeated_twice[2 * i] = left
                    self._reversed_padding_repeated_twice[2 * i + 1] = total - left
        else:
            self._reversed_padding_repeated_twice = _reverse_repeat_tuple(self.padding, 2)
        shape = (in_channels, out_channels // groups) if transposed else (out_channels, in_channels // groups)
        self.weight = Parameter(empty(shape + tuple(kernel_size), device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(empty(out_channels, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        with no_grad():
            init.kaiming_uniform_(self.weight, a=math.sqrt(5))
            if self.bias is not None:
                fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
                bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self) -> str:
        s = "{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}"
        if self.padding != (0,) * len(self.padding):
            s += ", padding={padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += ", dilation={dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += ", output_padding={output_padding}"
        if self.groups != 1:
            s += ", groups={groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += ", padding_mode={padding_mode}"
        return s.format(**self.__dict__)

    def _padded(self, input: Tensor, fn, zero):
        """``fn(input, padding)`` with this layer's padding (non-zero modes pad with F.pad first)."""
        if self.padding_mode != "zeros":
            return fn(F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode), zero)
        return fn(input, self.padding)


class Conv1d(_ConvNd):
    """1-D convolution over (N, C_in, L) (or unbatched (C_in, L)) inputs.

    Example::

        >>> from borch_webgpu import nn
        >>> nn.Conv1d(16, 33, 3, stride=2)
        Conv1d(16, 33, kernel_size=(3,), stride=(2,))
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, dilation=1,
                 groups: int = 1, bias: bool = True, padding_mode: str = "zeros", device=None, dtype=None) -> None:
        super().__init__(in_channels, out_channels, _single(kernel_size), _single(stride),
                         padding if isinstance(padding, str) else _single(padding), _single(dilation), False,
                         _single(0), groups, bias, padding_mode, device, dtype)

    def _conv_forward(self, input: Tensor, weight: Tensor, bias: Tensor | None) -> Tensor:
        return self._padded(input, lambda x, p: F.conv1d(x, weight, bias, self.stride, p, self.dilation, self.groups),
                            _single(0))

    def forward(self, input: Tensor) -> Tensor:
        return self._conv_forward(input, self.weight, self.bias)


class Conv2d(_ConvNd):
    """2-D convolution over (N, C_in, H, W) (or unbatched (C_in, H, W)) inputs; ``groups=in_channels`` is
    a depthwise convolution.

    Example::

        >>> from borch_webgpu import nn
        >>> nn.Conv2d(3, 8, 3, padding=1, bias=False)
        Conv2d(3, 8, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1), bias=False)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, dilation=1,
                 groups: int = 1, bias: bool = True, padding_mode: str = "zeros", device=None, dtype=None) -> None:
        super().__init__(in_channels, out_channels, _pair(kernel_size), _pair(stride),
                         padding if isinstance(padding, str) else _pair(padding), _pair(dilation), False, _pair(0),
                         groups, bias, padding_mode, device, dtype)

    def _conv_forward(self, input: Tensor, weight: Tensor, bias: Tensor | None) -> Tensor:
        return self._padded(input, lambda x, p: F.conv2d(x, weight, bias, self.stride, p, self.dilation, self.groups),
                            _pair(0))

    def forward(self, input: Tensor) -> Tensor:
        return self._conv_forward(input, self.weight, self.bias)


class Conv3d(_ConvNd):
    """3-D convolution over (N, C_in, D, H, W) (or unbatched (C_in, D, H, W)) inputs (``F.conv3d``).

    Example::

        >>> from borch_webgpu import nn
        >>> nn.Conv3d(4, 8, 3, padding=1)
        Conv3d(4, 8, kernel_size=(3, 3, 3), stride=(1, 1, 1), padding=(1, 1, 1))
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, dilation=1,
                 groups: int = 1, bias: bool = True, padding_mode: str = "zeros", device=None, dtype=None) -> None:
        super().__init__(in_channels, out_channels, _triple(kernel_size), _triple(stride),
                         padding if isinstance(padding, str) else _triple(padding), _triple(dilation), False,
                         _triple(0), groups, bias, padding_mode, device, dtype)

    def _conv_forward(self, input: Tensor, weight: Tensor, bias: Tensor | None) -> Tensor:
        return self._padded(input, lambda x, p: F.conv3d(x, weight, bias, self.stride, p, self.dilation, self.groups),
                            _triple(0))

    def forward(self, input: Tensor) -> Tensor:
        return self._conv_forward(input, self.weight, self.bias)


class _ConvTransposeNd(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, transposed, output_padding,
                 groups, bias, padding_mode, device=None, dtype=None) -> None:
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {self.__class__.__name__}')
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, transposed,
                         output_padding, groups, bias, padding_mode, device, dtype)

    def _output_padding(self, input: Tensor, output_size, stride, padding, kernel_size, num_spatial_dims: int,
                        dilation=None) -> list:
        if output_size is None:
            return list(_single(self.output_padding))
        has_batch_dim = input.dim() == num_spatial_dims + 2
        num_non_spatial = 2 if has_batch_dim else 1
        if len(output_size) == num_non_spatial + num_spatial_dims:
            output_size = output_size[num_non_spatial:]
        if len(output_size) != num_spatial_dims:
            raise ValueError(f"ConvTranspose{num_spatial_dims}D: for {input.dim()}D input, output_size must have "
                             f"{num_spatial_dims} or {num_non_spatial + num_spatial_dims} elements (got "
                             f"{len(output_size)})")
        min_sizes, max_sizes = [], []
        for d in range(num_spatial_dims):
            size = ((input.size(d + num_non_spatial) - 1) * stride[d] - 2 * padding[d] +
                    (dilation[d] if dilation is not None else 1) * (kernel_size[d] - 1) + 1)
            min_sizes.append(size)
            max_sizes.append(size + stride[d] - 1)
        for size, lo, hi in zip(output_size, min_sizes, max_sizes):
            if size < lo or size > hi:
                raise ValueError(f"requested an output size of {output_size}, but valid sizes range from {min_sizes} "
                                 f"to {max_sizes} (for an input of {Size(input.shape[2:])})")
        return [output_size[d] - min_sizes[d] for d in range(num_spatial_dims)]


class ConvTranspose1d(_ConvTransposeNd):
    """1-D transposed convolution (the gradient of Conv1d with respect to its input)."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, output_padding=0,
                 groups: int = 1, bias: bool = True, dilation=1, padding_mode: str = "zeros", device=None,
                 dtype=None) -> None:
        super().__init__(in_channels, out_channels, _single(kernel_size), _single(stride), _single(padding),
                         _single(dilation), True, _single(output_padding), groups, bias, padding_mode, device, dtype)

    def forward(self, input: Tensor, output_size=None) -> Tensor:
        op = self._output_padding(input, output_size, self.stride, self.padding, self.kernel_size, 1, self.dilation)
        return F.conv_transpose1d(input, self.weight, self.bias, self.stride, self.padding, op, self.groups,
                                  self.dilation)


class ConvTranspose2d(_ConvTransposeNd):
    """2-D transposed convolution (the gradient of Conv2d with respect to its input): upsampling by ``stride``.

    Example::

        >>> from borch_webgpu import nn
        >>> nn.ConvTranspose2d(16, 8, 3, stride=2, padding=1, output_padding=1)
        ConvTranspose2d(16, 8, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), output_padding=(1, 1))
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, output_padding=0,
                 groups: int = 1, bias: bool = True, dilation=1, padding_mode: str = "zeros", device=None,
                 dtype=None) -> None:
        super().__init__(in_channels, out_channels, _pair(kernel_size), _pair(stride), _pair(padding),
                         _pair(dilation), True, _pair(output_padding), groups, bias, padding_mode, device, dtype)

    def forward(self, input: Tensor, output_size=None) -> Tensor:
        op = self._output_padding(input, output_size, self.stride, self.padding, self.kernel_size, 2, self.dilation)
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding, op, self.groups,
                                  self.dilation)


class ConvTranspose3d(_ConvTransposeNd):
    """3-D transposed convolution (the gradient of Conv3d with respect to its input): upsampling of
    (N, C_in, D, H, W) (or (C_in, D, H, W)) by ``stride`` (``F.conv_transpose3d``); ``output_size`` in
    ``forward`` picks the output padding as PyTorch's does.

    Example::

        >>> from borch_webgpu import nn
        >>> nn.ConvTranspose3d(16, 8, 3, stride=2, padding=1, output_padding=1)
        ConvTranspose3d(16, 8, kernel_size=(3, 3, 3), stride=(2, 2, 2), padding=(1, 1, 1), output_padding=(1, 1, 1))
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, output_padding=0,
                 groups: int = 1, bias: bool = True, dilation=1, padding_mode: str = "zeros", device=None,
                 dtype=None) -> None:
        super().__init__(in_channels, out_channels, _triple(kernel_size), _triple(stride), _triple(padding),
                         _triple(dilation), True, _triple(output_padding), groups, bias, padding_mode, device, dtype)

    def forward(self, input: Tensor, output_size=None) -> Tensor:
        op = self._output_padding(input, output_size, self.stride, self.padding, self.kernel_size, 3, self.dilation)
        return F.conv_transpose3d(input, self.weight, self.bias, self.stride, self.padding, op, self.groups,
                                  self.dilation)
