"""The ``*_copy`` functions: a view op's result in new contiguous memory (what code written for
functionalized graphs calls)."""
from __future__ import annotations

import builtins

from ..tensor import Tensor
from ._registry import OpDef, api, methods, register

__all__ = ["view_copy", "permute_copy", "expand_copy", "squeeze_copy", "unsqueeze_copy", "t_copy",
           "transpose_copy", "select_copy", "slice_copy", "split_copy", "split_with_sizes_copy", "unbind_copy",
           "diagonal_copy", "narrow_copy", "detach_copy", "alias_copy", "as_strided_copy", "unfold_copy"]

register(OpDef("view_copy", "copy", None, None, tol=(0, 0), extra={"messages": True},
               doc="the *_copy functions: a view op, then a contiguous copy"))


# ---- the *_copy functions -------------------------------------------------------------------------------
def _copy_of(name: str, view_name: str, view):
    def f(input: Tensor, *args, **kwargs):
        r = view(input, *args, **kwargs)
        if isinstance(r, tuple):
            return tuple(t.clone() for t in r)
        return r.clone()
    f.__name__ = name
    f.__qualname__ = name
    f.__doc__ = (f"``{view_name}`` with its result copied into new contiguous memory (no view of ``input``).\n\n"
                 "    Example::\n\n        >>> torch.view_copy(torch.arange(4), (2, 2))\n"
                 "        tensor([[0, 1],\n                [2, 3]])\n    ")
    return f


def _slice(input: Tensor, dim: int = 0, start=None, end=None, step: int = 1) -> Tensor:
    index = [builtins.slice(None)] * input.dim()
    index[dim] = builtins.slice(start, end, step)
    return input[tuple(index)]


def _squeeze(input: Tensor, dim=None) -> Tensor:
    return input.squeeze() if dim is None else input.squeeze(dim)


view_copy = _copy_of("view_copy", "Tensor.view", lambda x, size: x.view(size))
permute_copy = _copy_of("permute_copy", "torch.permute", lambda x, dims: x.permute(dims))
expand_copy = _copy_of("expand_copy", "Tensor.expand", lambda x, size, *, implicit=False: x.expand(size))
squeeze_copy = _copy_of("squeeze_copy", "torch.squeeze", _squeeze)
unsqueeze_copy = _copy_of("unsqueeze_copy", "torch.unsqueeze", lambda x, dim: x.unsqueeze(dim))
t_copy = _copy_of("t_copy", "torch.t", lambda x: x.t())
transpose_copy = _copy_of("transpose_copy", "torch.transpose", lambda x, dim0, dim1: x.transpose(dim0, dim1))
select_copy = _copy_of("select_copy", "torch.select", lambda x, dim, index: x.select(dim, index))
slice_copy = _copy_of("slice_copy", "x[start:end:step] along dim", _slice)
split_copy = _copy_of("split_copy", "torch.split", lambda x, split_size, dim=0: x.split(split_size, dim))
unbind_copy = _copy_of("unbind_copy", "torch.unbind", lambda x, dim=0: x.unbind(dim))
diagonal_copy = _copy_of("diagonal_copy", "torch.diagonal",
                         lambda x, offset=0, dim1=0, dim2=1: x.diagonal(offset, dim1, dim2))
narrow_copy = _copy_of("narrow_copy", "torch.narrow", lambda x, dim, start, length: x.narrow(dim, start, length))
detach_copy = _copy_of("detach_copy", "torch.detach", lambda x: x.detach())
alias_copy = _copy_of("alias_copy", "a view of the whole tensor", lambda x: x)
split_with_sizes_copy = _copy_of("split_with_sizes_copy", "torch.split_with_sizes",
                                 lambda x, split_sizes, dim=0: x.split_with_sizes(split_sizes, dim))
unfold_copy = _copy_of("unfold_copy", "Tensor.unfold", lambda x, dimension, size, step: x.unfold(dimension, size, step))
as_strided_copy = _copy_of("as_strided_copy", "torch.as_strided",
                           lambda x, size, stride, storage_offset=None: x.as_strided(size, stride, storage_offset))


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
methods(*[(f.__name__, f) for f in (view_copy, permute_copy, expand_copy, squeeze_copy, unsqueeze_copy, t_copy,
                                    transpose_copy, select_copy, slice_copy, split_copy, split_with_sizes_copy,
                                    unbind_copy, diagonal_copy, detach_copy, alias_copy, as_strided_copy,
                                    unfold_copy)], tensor=False)
api("narrow_copy", narrow_copy)
