"""``F.max_unpool1d/2d/3d`` and ``F.fractional_max_pool2d/3d`` (and ``_with_indices``), written after
torch/nn/functional.py and ATen's FractionalMaxPool2d.cpp with other differentiable ops: an unpool is a
scatter of the values into a zero plane at their indices; a fractional pool gathers each output's window
(its start from PyTorch's pseudo-random interval formula, in float32 as ATen computes it) and takes the
max. ``_random_samples`` (N, C, dims) in [0, 1) fixes the intervals, as in PyTorch."""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor

__all__ = ["max_unpool1d", "max_unpool2d", "max_unpool3d", "fractional_max_pool2d", "fractional_max_pool3d",
           "fractional_max_pool2d_with_indices", "fractional_max_pool3d_with_indices"]


def _tuple(v, n: int) -> tuple:
    return tuple(v) if isinstance(v, (tuple, list)) else (v,) * n


def _unpool_output_size(input: Tensor, kernel_size, stride, padding, output_size) -> list[int]:
    input_size = input.size()
    n = len(kernel_size)
    default_size = [(input_size[-n + d] - 1) * stride[d] + kernel_size[d] - 2 * padding[d] for d in range(n)]
    if output_size is None:
        ret = default_size
    else:
        if len(output_size) == n + 2:
            output_size = output_size[2:]
        if len(output_size) != n:
            raise ValueError(f"output_size should be a sequence containing {n} or {n + 2} elements, but it has a "
                             f"length of '{len(output_size)}'")
        for d in range(n):
            min_size, max_size = default_size[d] - stride[d], default_size[d] + stride[d]
            if not min_size < output_size[d] < max_size:
                raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between {min_size} and '
                                 f"{max_size})")
        ret = list(output_size)
    for d in range(n):
        if ret[d] < 0:
            raise ValueError("max_unpooling: output_size must contain non-negative spatial dimensions, but got "
                             f"output_size[{d}]={ret[d]}")
    return ret


def _max_unpool(name: str, n: int, input: Tensor, indices: Tensor, kernel_size, stride, padding,
                output_size) -> Tensor:
    from .creation import zeros
    kernel_size = _tuple(kernel_size, n)
    stride = kernel_size if stride is None else _tuple(stride, n)
    padding = _tuple(padding, n)
    size = _unpool_output_size(input, kernel_size, stride, padding, output_size)
    if input.dim() not in (n + 1, n + 2):
        raise RuntimeError(f"{name}: expected {n + 1}D or {n + 2}D input, got {input.dim()}D")
    if tuple(indices.shape) != tuple(input.shape):
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor ({tuple(input.shape)}) "
                           f"but got indices tensor with shape: {tuple(indices.shape)}")
    if indices.dtype.name != "int64":
        raise RuntimeError(f"elements in indices should be type int64 but got: {indices.dtype}")
    lead = tuple(input.shape[:-n])
    plane = int(np.prod(size))
    flat_idx = indices.reshape(*lead, -1)
    if flat_idx.numel() and (int(flat_idx.min()) < 0 or int(flat_idx.max()) >= plane):
        bad = int(flat_idx.max()) if int(flat_idx.max()) >= plane else int(flat_idx.min())
        raise RuntimeError(f"Found an invalid max index: {bad} (output volumes are of size "
                           f"{'x'.join(str(s) for s in size)}")
    out = zeros(*lead, plane, dtype=input.dtype, device=input.device)
    return out.scatter(-1, flat_idx, input.reshape(*lead, -1)).reshape(*lead, *size)


def max_unpool1d(input: Tensor, indices: Tensor, kernel_size, stride=None, padding=0, output_size=None) -> Tensor:
    """The inverse of ``max_pool1d`` (with ``return_indices=True``): each value goes back to its index in a
    zero tensor of length ``(L - 1) * stride - 2 * padding + kernel_size`` (or ``output_size``).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> out, idx = F.max_pool1d(torch.tensor([[[1., 3., 2., 0.]]]), 2, return_indices=True)
        >>> F.max_unpool1d(out, idx, 2)
        tensor([[[0., 3., 2., 0.]]])
    """
    return _max_unpool("max_unpool1d", 1, input, indices, kernel_size, stride, padding, output_size)


def max_unpool2d(input: Tensor, indices: Tensor, kernel_size, stride=None, padding=0, output_size=None) -> Tensor:
    """The inverse of ``max_pool2d`` (with ``return_indices=True``): values go back to their (flat, per
    plane) indices in a zero (N, C, H_out, W_out) tensor; ``output_size`` picks among the sizes a
    strided pool maps to the same input size.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> x = torch.tensor([[[[1., 2.], [4., 3.]]]])
        >>> out, idx = F.max_pool2d(x, 2, return_indices=True)
        >>> F.max_unpool2d(out, idx, 2)
        tensor([[[[0., 0.],
                  [4., 0.]]]])
    """
    return _max_unpool("max_unpool2d", 2, input, indices, kernel_size, stride, padding, output_size)


def max_unpool3d(input: Tensor, indices: Tensor, kernel_size, stride=None, padding=0, output_size=None) -> Tensor:
    """The inverse of ``max_pool3d`` (with ``return_indices=True``), as :func:`max_unpool2d` in 3-D.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> out, idx = F.max_pool3d(torch.arange(8.).reshape(1, 1, 2, 2, 2), 2, return_indices=True)
        >>> F.max_unpool3d(out, idx, 2).flatten().tolist()
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 7.0]
    """
    return _max_unpool("max_unpool3d", 3, input, indices, kernel_size, stride, padding, output_size)


def _intervals(sample: float, input_size: int, output_size: int, pool_size: int) -> np.ndarray:
    """ATen's generate_intervals: the window starts, alpha in float32."""
    seq = np.zeros(output_size, dtype=np.int64)
    if output_size > 1:
        alpha = np.float32(input_size - pool_size) / np.float32(output_size - 1)
        s = np.float32(sample)
        for i in range(output_size - 1):
            seq[i] = int(np.float32((np.float32(i) + s) * alpha)) - int(np.float32(s * alpha))
    if output_size > 0:
        seq[output_size - 1] = input_size - pool_size
    return seq


def _fractional(name: str, n: int, input: Tensor, kernel_size, output_size, output_ratio, _random_samples):
    from .creation import tensor
    from .random import rand
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    kernel_size = _tuple(kernel_size, n)
    if output_size is None:
        if n == 2 and len(output_ratio) > 2:  # a bare float fails here too, as in PyTorch
            raise ValueError("fractional_max_pool2d requires output_ratio to either be a single Int or tuple of Ints.")
        ratio = _tuple(output_ratio, n)
        output_size = [int(input.size(-n + d) * ratio[d]) for d in range(n)]
    output_size = list(_tuple(output_size, n))
    batched = input.dim() == n + 2
    if input.dim() not in (n + 1, n + 2):
        raise RuntimeError(f"{name}(): Expected {n + 1}D or {n + 2}D tensor, but got: {list(input.shape)}")
    x = input if batched else input.unsqueeze(0)
    N, C = x.shape[0], x.shape[1]
    spatial = list(x.shape[2:])
    if _random_samples is None:
        _random_samples = rand(N, C, n, dtype=input.dtype, device=input.device)
    if _random_samples.size(2) != n:
        raise RuntimeError(f"Expect _random_samples.size(2) equals to {n}; got {_random_samples.size(2)}.")
    if _random_samples.size(0) != N:
        raise RuntimeError(f"Expect _random_samples to have the same batch size as input; got "
                           f"{_random_samples.size(0)} and {N}.")
    if _random_samples.size(1) != C:
        raise RuntimeError(f"Expect _random_samples.size(1) equals to input channel size.")
    words = ["time", "height", "width"][3 - n:]
    for d in range(n):
        if output_size[d] + kernel_size[d] - 1 > spatial[d]:
            raise RuntimeError(f"{name}(): pool {words[d]} {kernel_size[d]} too large relative to input "
                               f"{words[d]} {spatial[d]}")
    samples = np.asarray(_random_samples.detach().cpu().tolist(), dtype=np.float32)
    # ATen reads the samples in the order (width, height) for 2-D and (time, height, width) for 3-D
    order = [1, 0] if n == 2 else [0, 1, 2]
    strides = np.cumprod([1] + spatial[::-1])[:-1][::-1]         # flat offsets of each spatial dim
    win = np.stack(np.meshgrid(*[np.arange(k) for k in kernel_size], indexing="ij"), -1).reshape(-1, n)
    win_off = (win * strides).sum(-1)                                 # (K,)
    idx = np.empty((N, C, int(np.prod(output_size)), len(win_off)), dtype=np.int64)
    for b in range(N):
        for c in range(C):
            starts = [_intervals(float(samples[b, c, order[d]]), spatial[d], output_size[d], kernel_size[d])
                      for d in range(n)]
            grid = np.stack(np.meshgrid(*starts, indexing="ij"), -1).reshape(-1, n)
            idx[b, c] = (grid * strides).sum(-1)[:, None] + win_off[None, :]
    gidx = tensor(idx.reshape(N, C, -1), device=input.device)
    vals = x.reshape(N, C, -1).gather(2, gidx).reshape(N, C, idx.shape[2], idx.shape[3])
    out, arg = vals.max(-1)
    indices = gidx.reshape(N, C, idx.shape[2], idx.shape[3]).gather(3, arg.unsqueeze(-1)).squeeze(-1)
    out = out.reshape(N, C, *output_size)
    indices = indices.reshape(N, C, *output_size)
    if not batched:
        out, indices = out.squeeze(0), indices.squeeze(0)
    return out, indices


def fractional_max_pool2d_with_indices(input: Tensor, kernel_size, output_size=None, output_ratio=None,
                                       return_indices: bool = False, _random_samples=None):
    """:func:`fractional_max_pool2d` returning ``(output, indices)`` (flat indices per input plane).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> x = torch.arange(16.).reshape(1, 1, 4, 4)
        >>> out, idx = F.fractional_max_pool2d_with_indices(x, 2, output_size=2,
        ...                                                 _random_samples=torch.full((1, 1, 2), 0.5))
        >>> out, idx
        (tensor([[[[ 5.,  7.],
                  [13., 15.]]]]), tensor([[[[ 5,  7],
                  [13, 15]]]]))
    """
    return _fractional("fractional_max_pool2d", 2, input, kernel_size, output_size, output_ratio, _random_samples)


def fractional_max_pool2d(input: Tensor, kernel_size, output_size=None, output_ratio=None,
                          return_indices: bool = False, _random_samples=None):
    """Fractional max pooling (Graham, 2014): ``kernel_size`` windows at pseudo-random starts that map
    (H, W) to ``output_size`` (or ``output_ratio`` of it). ``_random_samples`` (N, C, 2), uniform in [0, 1),
    fixes the starts (PyTorch's formula; drawn with ``torch.rand`` when None).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.fractional_max_pool2d(torch.randn(2, 3, 7, 7), 3, output_ratio=(0.5, 0.5)).shape
        torch.Size([2, 3, 3, 3])
    """
    out, idx = fractional_max_pool2d_with_indices(input, kernel_size, output_size, output_ratio, return_indices,
                                                  _random_samples)
    return (out, idx) if return_indices else out


def fractional_max_pool3d_with_indices(input: Tensor, kernel_size, output_size=None, output_ratio=None,
                                       return_indices: bool = False, _random_samples=None):
    """:func:`fractional_max_pool3d` returning ``(output, indices)``.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> out, idx = F.fractional_max_pool3d_with_indices(torch.randn(1, 2, 5, 5, 5), 2, output_size=3)
        >>> out.shape, idx.dtype
        (torch.Size([1, 2, 3, 3, 3]), torch.int64)
    """
    return _fractional("fractional_max_pool3d", 3, input, kernel_size, output_size, output_ratio, _random_samples)


def fractional_max_pool3d(input: Tensor, kernel_size, output_size=None, output_ratio=None,
                          return_indices: bool = False, _random_samples=None):
    """Fractional max pooling over (T, H, W), as :func:`fractional_max_pool2d`; ``_random_samples`` is
    (N, C, 3).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.fractional_max_pool3d(torch.randn(1, 2, 6, 6, 6), 2, output_ratio=0.5).shape
        torch.Size([1, 2, 3, 3, 3])
    """
    out, idx = fractional_max_pool3d_with_indices(input, kernel_size, output_size, output_ratio, return_indices,
                                                  _random_samples)
    return (out, idx) if return_indices else out
