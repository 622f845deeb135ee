"""Splits that return views: tensor_split (at indices or into sections), hsplit/vsplit/dsplit,
split_with_sizes, and the ``unsafe_*`` splits (PyTorch's splits without its view-tracking checks:
here the same views as ``split`` and ``chunk``)."""
from __future__ import annotations

import builtins

from ..tensor import Tensor, _wrap_dim
from ._registry import OpDef, methods, register
from .views import narrow, split

__all__ = ["tensor_split", "hsplit", "vsplit", "dsplit", "split_with_sizes", "unsafe_split", "unsafe_chunk",
           "unsafe_split_with_sizes"]

for _n, _doc in (("tensor_split", "narrow views at indices or into sections (also the unsafe_* splits)"),
                 ("hsplit", "tensor_split along dim 1 (0 for 1-D), vsplit along 0, dsplit along 2"),
                 ("split_with_sizes", "narrow views of given sizes")):
    register(OpDef(_n, "view", None, None, tol=(0, 0), doc=_doc, extra={"messages": True}))


def tensor_split(input: Tensor, indices_or_sections, dim: int = 0):
    """Views of ``input`` split along ``dim``: into ``sections`` nearly equal parts (the first
    ``size % sections`` one longer), or at the listed ``indices`` (an int, a list, or an int64 tensor).

    Example::

        >>> [p.tolist() for p in torch.tensor_split(torch.arange(7), 3)]
        [[0, 1, 2], [3, 4], [5, 6]]
        >>> [p.tolist() for p in torch.arange(7).tensor_split([1, 5])]
        [[0], [1, 2, 3, 4], [5, 6]]
    """
    if input.dim() == 0:
        raise RuntimeError(f"tensor_split expected at least a 1-dimensional tensor, but got a tensor with "
                           f"{input.dim()} dims")
    d = _wrap_dim(dim, input.dim(), "tensor_split")
    size = input._shape[d]
    ios = indices_or_sections
    if isinstance(ios, Tensor):
        if ios.dtype.name != "int64":
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
                               f"{ios.dtype.name.capitalize()}")
        if ios.dim() > 1:
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                               f"one-dimensional tensor, but got a tensor with {ios.dim()} dims")
        ios = ios.item() if ios.dim() == 0 else ios.tolist()
    if isinstance(ios, builtins.int):
        if ios <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {ios}")
        each, extra = divmod(size, ios)
        bounds, start = [], 0
        for i in range(ios):
            start += each + (1 if i < extra else 0)
            bounds.append(start)
        bounds = bounds[:-1]
    else:
        bounds = [builtins.int(i) for i in ios]
    out, start = [], 0
    for b in [*bounds, size]:
        s, e, _ = slice(start, b).indices(size)
        out.append(narrow(input, d, s, builtins.max(e - s, 0)))
        start = b
    return tuple(out)


def _dir_split(op: str, input: Tensor, indices_or_sections, min_dims: int, dim: int):
    if input.dim() < min_dims:
        raise RuntimeError(f"torch.{op} requires a tensor with at least {min_dims} dimension, but got a tensor with "
                           f"{input.dim()} dimensions!")
    if isinstance(indices_or_sections, builtins.int):
        size = input._shape[dim]
        if indices_or_sections == 0 or size % indices_or_sections:
            raise RuntimeError(f"torch.{op} attempted to split along dimension {dim}, but the size of the dimension "
                               f"{size} is not divisible by the split_size {indices_or_sections}!")
    return tensor_split(input, indices_or_sections, dim)


def hsplit(input: Tensor, indices_or_sections):
    """``tensor_split`` along dim 1 (dim 0 for a 1-D tensor); a number of sections must divide the size.

    Example::

        >>> [p.shape for p in torch.hsplit(torch.zeros(2, 4), 2)]
        [torch.Size([2, 2]), torch.Size([2, 2])]
    """
    if input.dim() == 0:
        raise RuntimeError("torch.hsplit requires a tensor with at least 1 dimension, but got a tensor with 0 "
                           "dimensions!")
    return _dir_split("hsplit", input, indices_or_sections, 1, 0 if input.dim() == 1 else 1)


def vsplit(input: Tensor, indices_or_sections):
    """``tensor_split`` along dim 0 of a tensor with at least 2 dims.

    Example::

        >>> [p.tolist() for p in torch.vsplit(torch.arange(4).reshape(4, 1), [1])]
        [[[0]], [[1], [2], [3]]]
    """
    return _dir_split("vsplit", input, indices_or_sections, 2, 0)


def dsplit(input: Tensor, indices_or_sections):
    """``tensor_split`` along dim 2 of a tensor with at least 3 dims.

    Example::

        >>> [p.shape for p in torch.dsplit(torch.zeros(1, 2, 6), 3)]
        [torch.Size([1, 2, 2]), torch.Size([1, 2, 2]), torch.Size([1, 2, 2])]
    """
    return _dir_split("dsplit", input, indices_or_sections, 3, 2)


def split_with_sizes(input: Tensor, split_sizes, dim: int = 0):
    """Views of the listed sizes along ``dim`` (they must add up to the dim's size).

    Example::

        >>> [p.tolist() for p in torch.split_with_sizes(torch.arange(5), [2, 3])]
        [[0, 1], [2, 3, 4]]
    """
    return split(input, [builtins.int(s) for s in split_sizes], dim)


def unsafe_split(tensor: Tensor, split_size, dim: int = 0):
    """``torch.split`` with an int size (the same views here).

    Example::

        >>> torch.unsafe_split(torch.arange(5), 2)
        (tensor([0, 1]), tensor([2, 3]), tensor([4]))
    """
    if not isinstance(split_size, builtins.int):
        raise TypeError(f"unsafe_split(): argument 'split_size' must be int, not {type(split_size).__name__}")
    return tensor.split(split_size, dim)


def unsafe_chunk(input: Tensor, chunks: int, dim: int = 0):
    """``torch.chunk`` (the same views here).

    Example::

        >>> torch.unsafe_chunk(torch.arange(5), 2)
        (tensor([0, 1, 2]), tensor([3, 4]))
    """
    return input.chunk(chunks, dim)


def unsafe_split_with_sizes(input: Tensor, split_sizes, dim: int = 0):
    """``torch.split_with_sizes`` (the same views here).

    Example::

        >>> torch.unsafe_split_with_sizes(torch.arange(5), [1, 4])
        (tensor([0]), tensor([1, 2, 3, 4]))
    """
    return input.split_with_sizes(split_sizes, dim)


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
methods(("tensor_split", tensor_split), ("hsplit", hsplit), ("vsplit", vsplit), ("dsplit", dsplit),
        ("split_with_sizes", split_with_sizes), ("unsafe_split", unsafe_split), ("unsafe_chunk", unsafe_chunk),
        ("unsafe_split_with_sizes", unsafe_split_with_sizes))
