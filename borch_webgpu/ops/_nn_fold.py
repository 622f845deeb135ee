"""``F.unfold`` (im2col) and ``F.fold`` (col2im): sliding blocks of a (N, C, H, W) input as columns and back.

Both are one index op over the padded, flattened image: unfold is an ``index_select`` of the blocks'
positions (computed on the host from the shapes only), fold the matching ``index_add`` that sums the
overlaps, so autograd gives each the other as its gradient, on both devices."""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor
from ._registry import OpDef, register

__all__ = ["unfold", "fold"]

# unfold moves values (exact); fold sums the overlapping blocks in float32
register(OpDef("unfold", "nn", None, None, tol=(0, 0), extra={"messages": True},
               doc="sliding blocks as columns (im2col): an index_select"))
register(OpDef("fold", "nn", None, None, tol=(1e-6, 1e-6), extra={"messages": True},
               doc="columns summed back into an image (col2im): an index_add"))


def _pair(v) -> tuple[int, int]:
    return (int(v[0]), int(v[1])) if isinstance(v, (tuple, list)) else (int(v), int(v))


def _check_args(k, d, p, s) -> None:
    if k[0] <= 0 or k[1] <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got kernel_height: {k[0]} kernel_width: {k[1]}")
    if d[0] <= 0 or d[1] <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got dilation_height: {d[0]} "
                           f"dilation_width: {d[1]}")
    if p[0] < 0 or p[1] < 0:
        raise RuntimeError(f"padding should be non-negative, but got pad_height: {p[0]} pad_width: {p[1]}")
    if s[0] <= 0 or s[1] <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got stride_height: {s[0]} stride_width: {s[1]}")


def _blocks(size, k, d, p, s) -> tuple[int, int]:
    return tuple((size[i] + 2 * p[i] - d[i] * (k[i] - 1) - 1) // s[i] + 1 for i in range(2))


def _positions(size, k, d, p, s, blocks) -> np.ndarray:
    """Flat positions in the padded (H + 2p, W + 2p) image, ordered (ki, kj, block row, block col)."""
    wp = size[1] + 2 * p[1]
    ki, kj, bi, bj = np.meshgrid(np.arange(k[0]), np.arange(k[1]), np.arange(blocks[0]), np.arange(blocks[1]),
                                 indexing="ij")
    return ((ki * d[0] + bi * s[0]) * wp + kj * d[1] + bj * s[1]).reshape(-1).astype(np.int64)


def _not_float(name: str, x: Tensor) -> None:
    if not x.dtype.is_floating_point:
        names = {"int64": "Long", "int32": "Int", "bool": "Bool", "float16": "Half", "bfloat16": "BFloat16"}
        raise NotImplementedError(f"\"{name}_out_cpu\" not implemented for '{names.get(x.dtype.name, x.dtype.name)}'")


def unfold(input: Tensor, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """Extract sliding ``kernel_size`` blocks of (N, C, H, W) (or (C, H, W)) input as the columns of a
    (N, C * kh * kw, L) tensor, L the number of blocks.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.unfold(torch.arange(6.).reshape(1, 1, 2, 3), 2).tolist()
        [[[0.0, 1.0], [1.0, 2.0], [3.0, 4.0], [4.0, 5.0]]]
    """
    from .creation import tensor as make
    from .shape import pad
    k, d, p, s = _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride)
    _check_args(k, d, p, s)
    nd = input.dim()
    if nd < 3:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-nd}, {nd - 1}], but got {nd})")
    shape = tuple(input.shape)
    if not ((nd == 3 and shape[0] and shape[1] and shape[2]) or (nd == 4 and shape[1] and shape[2] and shape[3])):
        raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
                           f"dimensions for input, but got: {list(shape)}")
    _not_float("im2col", input)
    x = input if nd == 4 else input.unsqueeze(0)
    n, c, h, w = tuple(x.shape)
    blocks = _blocks((h, w), k, d, p, s)
    if blocks[0] < 1 or blocks[1] < 1:
        raise RuntimeError(f"Given input with spatial size ({h}, {w}), kernel_size=({k[0]}, {k[1]}), dilation=("
                           f"{d[0]}, {d[1]}), padding=({p[0]}, {p[1]}), calculated shape of the array of sliding "
                           f"blocks as ({blocks[0]}, {blocks[1]}), but its components must be at least one.")
    xp = pad(x, (p[1], p[1], p[0], p[0])) if p != (0, 0) else x
    idx = make(_positions((h, w), k, d, p, s, blocks), device=x.device)
    flat = xp.reshape(n, c, (h + 2 * p[0]) * (w + 2 * p[1]))
    cols = flat.index_select(2, idx).reshape(n, c * k[0] * k[1], blocks[0] * blocks[1])
    return cols if nd == 4 else cols.squeeze(0)


def fold(input: Tensor, output_size, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """Sum the columns of (N, C * kh * kw, L) (or (C * kh * kw, L)) input back into a (N, C, *output_size)
    image: the adjoint of ``unfold`` (overlapping blocks add up).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.fold(torch.ones(1, 4, 2), (2, 3), 2).tolist()
        [[[[1.0, 2.0, 1.0], [1.0, 2.0, 1.0]]]]
    """
    from .creation import tensor as make, zeros
    out_hw, k, d, p, s = _pair(output_size), _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride)
    _check_args(k, d, p, s)
    nd = input.dim()
    shape = tuple(input.shape)
    if not ((nd == 2 and shape[0] and shape[1]) or (nd == 3 and shape[1] and shape[2])):
        raise RuntimeError(f"Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
                           f"dimensions for input, but got: {list(shape)}")
    x = input if nd == 3 else input.unsqueeze(0)
    n, planes, length = tuple(x.shape)
    if planes % (k[0] * k[1]):
        raise RuntimeError(f"Expected size of input's dimension 1 to be divisible by the product of kernel_size, but "
                           f"got input.size(1)={planes} and kernel_size=({k[0]}, {k[1]}).")
    blocks = _blocks(out_hw, k, d, p, s)
    where = (f"Given output_size=({out_hw[0]}, {out_hw[1]}), kernel_size=({k[0]}, {k[1]}), dilation=({d[0]}, "
             f"{d[1]}), padding=({p[0]}, {p[1]}), stride=({s[0]}, {s[1]}), ")
    if length != blocks[0] * blocks[1]:
        raise RuntimeError(f"{where}expected size of input's dimension 2 to match the calculated number of sliding "
                           f"blocks {blocks[0]} * {blocks[1]} = {blocks[0] * blocks[1]}, but got "
                           f"input.size(2)={length}.")
    if blocks[0] < 1 or blocks[1] < 1:
        raise RuntimeError(f"{where}calculated shape of the array of sliding blocks as ({blocks[0]}, {blocks[1]}), "
                           f"which is too small (non-positive)")
    _not_float("col2im", input)
    c = planes // (k[0] * k[1])
    hp, wp = out_hw[0] + 2 * p[0], out_hw[1] + 2 * p[1]
    idx = make(_positions(out_hw, k, d, p, s, blocks), device=x.device)
    img = zeros((n, c, hp * wp), dtype=x.dtype, device=x.device).index_add(2, idx, x.reshape(n, c, -1))
    img = img.reshape(n, c, hp, wp)[:, :, p[0]:p[0] + out_hw[0], p[1]:p[1] + out_hw[1]]
    return img if nd == 3 else img.squeeze(0)
