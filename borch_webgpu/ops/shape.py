"""Ops that build new tensors from others' pieces: cat, stack, flip, roll, repeat, tile, pad."""
from __future__ import annotations

import builtins

import numpy as np

from .. import autograd
from ..tensor import Tensor, _wrap_dim
from ._registry import OpDef, api, methods, register
from .memory import assign
from .views import make_view, narrow, slice_dim

__all__ = ["cat", "concat", "concatenate", "stack", "hstack", "vstack", "flip", "fliplr", "flipud", "roll", "tile",
           "pad"]

for _n in ("cat", "stack", "flip", "roll", "repeat", "tile", "pad"):
    register(OpDef(_n, "copy", ("ops_unary.wgsl", "copy"), None, tol=(0, 0), doc="copies pieces of tensors"))


def cat(tensors, dim: int = 0, *, out=None) -> Tensor:
    """Join tensors along an existing dim (1-D empty tensors are skipped, as in PyTorch)."""
    if isinstance(tensors, Tensor):
        raise TypeError("cat(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor")
    ts = list(tensors)
    if not ts:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    for t in ts:
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element in argument 0, but got {type(t).__name__}")
    ref = next((t for t in ts if not (t.dim() == 1 and t._shape[0] == 0)), ts[0])
    if ref.dim() == 0:
        raise RuntimeError("zero-dimensional tensor (at position 0) cannot be concatenated")
    d = _wrap_dim(dim, ref.dim(), "cat")
    parts = [t for t in ts if not (t.dim() == 1 and t._shape[0] == 0 and ref.dim() != 1)]
    dev = ref.device
    from .elementwise import promote
    dt = promote(parts)
    for i, t in enumerate(parts):
        if t.dim() != ref.dim():
            raise RuntimeError(f"Tensors must have same number of dimensions: got {ref.dim()} and {t.dim()}")
        for k in range(ref.dim()):
            if k != d and t._shape[k] != ref._shape[k]:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. Expected size "
                                   f"{ref._shape[k]} but got size {t._shape[k]} for tensor number {i} in the list.")
        if t.device != dev:
            raise RuntimeError(f"Expected all tensors to be on the same device, but found at least two devices, "
                               f"{dev} and {t.device}!")
    shape = list(ref._shape)
    shape[d] = builtins.sum(t._shape[d] for t in parts)
    from .creation import empty, held_empty
    held = dt.name == "int64" and any(getattr(t._storage, "held", False) for t in parts)  # values past int32
    res = held_empty(shape, dt) if held else empty(shape, dtype=dt, device=dev)
    off = 0
    sizes = []
    for t in parts:
        n = t._shape[d]
        if n:
            assign(slice_dim(res, d, off, off + n, 1), t.detach())
        sizes.append(n)
        off += n

    def back(g):
        outs, o = [], 0
        for n in sizes:
            outs.append(narrow(g, d, o, n))
            o += n
        return tuple(outs)
    autograd.record("CatBackward0", parts, [res], back)
    if out is not None:
        from .elementwise import _out
        return _out(res, out)
    return res


concat = concatenate = cat


def stack(tensors, dim: int = 0, *, out=None) -> Tensor:
    """Join tensors of one shape along a new dim."""
    ts = list(tensors)
    if not ts:
        raise RuntimeError("stack expects a non-empty TensorList")
    for i, t in enumerate(ts):
        if tuple(t._shape) != tuple(ts[0]._shape):
            raise RuntimeError(f"stack expects each tensor to be equal size, but got {list(ts[0]._shape)} at entry 0 "
                               f"and {list(t._shape)} at entry {i}")
    d = _wrap_dim(dim, ts[0].dim() + 1, "stack")
    return cat([t.unsqueeze(d) for t in ts], d, out=out)


def hstack(tensors) -> Tensor:
    """The tensors joined column-wise: along dim 0 for 1-D tensors, else dim 1.

    Example::

        >>> torch.hstack([torch.tensor([1, 2]), torch.tensor([3])])
        tensor([1, 2, 3])
    """
    ts = [t if t.dim() else t.reshape(1) for t in tensors]
    return cat(ts, 0 if ts[0].dim() == 1 else 1)


def vstack(tensors) -> Tensor:
    """The tensors stacked row-wise along dim 0 (1-D tensors become rows).

    Example::

        >>> torch.vstack([torch.tensor([1, 2]), torch.tensor([3, 4])])
        tensor([[1, 2],
                [3, 4]])
    """
    ts = [t.reshape(1, -1) if t.dim() < 2 else t for t in tensors]
    return cat(ts, 0)


def flip(input: Tensor, dims) -> Tensor:
    """A copy with the order of elements reversed along ``dims``."""
    dims = [dims] if isinstance(dims, builtins.int) else list(dims)
    n = input.dim()
    ds = [_wrap_dim(d, builtins.max(n, 1), "flip") for d in dims]
    if len(set(ds)) != len(ds):
        raise RuntimeError("flip: dims has duplicates, original flip dims size=" + str(len(dims)))
    if n == 0 or input.numel() == 0:
        return input.clone()
    stride, off = list(input._stride), input._offset
    for d in ds:
        off += (input._shape[d] - 1) * stride[d]
        stride[d] = -stride[d]
    # a view with negative strides (internal only; kernels index with wrapping u32 arithmetic)
    v = make_view(input.detach(), input._shape, stride, off)
    from .memory import clone
    with autograd.no_grad():
        out = clone(v)
    autograd.record("FlipBackward0", [input], [out], lambda g: (flip(g, ds),))
    return out


def fliplr(input: Tensor) -> Tensor:
    """A copy with dim 1 reversed (left-right).

    Example::

        >>> torch.fliplr(torch.tensor([[1, 2, 3]]))
        tensor([[3, 2, 1]])
    """
    return flip(input, [1])


def flipud(input: Tensor) -> Tensor:
    """A copy with dim 0 reversed (up-down).

    Example::

        >>> torch.flipud(torch.tensor([1, 2, 3]))
        tensor([3, 2, 1])
    """
    return flip(input, [0])


def roll(input: Tensor, shifts, dims=None) -> Tensor:
    """Elements shifted along ``dims`` (wrapping around); without dims the tensor is flattened first."""
    if dims is None:
        if isinstance(shifts, (tuple, list)) and len(shifts) != 1:
            raise RuntimeError("roll: shifts and dims must align when dims is not given")
        s = shifts if isinstance(shifts, builtins.int) else shifts[0]
        return roll(input.reshape(-1), s, 0).reshape(input._shape)
    shifts = [shifts] if isinstance(shifts, builtins.int) else list(shifts)
    dims = [dims] if isinstance(dims, builtins.int) else list(dims)
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    out = input
    for s, d in zip(shifts, dims):
        d = _wrap_dim(d, builtins.max(input.dim(), 1), "roll")
        size = out._shape[d]
        if size == 0:
            continue
        s = s % size
        if s == 0:
            out = out.clone() if out is input else out
            continue
        out = cat([narrow(out, d, size - s, s), narrow(out, d, 0, size - s)], d)
    return out if out is not input else input.clone()


def repeat(input: Tensor, *sizes) -> Tensor:
    """The tensor tiled ``sizes`` times along each dim (``sizes`` may have more dims than the tensor)."""
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = tuple(sizes[0])
    sizes = tuple(builtins.int(s) for s in sizes)
    if len(sizes) < input.dim():
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of "
                           "tensor")
    x = input.reshape((1,) * (len(sizes) - input.dim()) + tuple(input._shape))
    inter, target = [], []
    for r, s in zip(sizes, x._shape):
        inter += [1, s]
        target += [r, s]
    y = x.reshape(inter).expand(target)
    return y.reshape([r * s for r, s in zip(sizes, x._shape)])


def tile(input: Tensor, dims) -> Tensor:
    """Like repeat, but ``dims`` shorter than the tensor's rank is padded with 1s on the left."""
    dims = (dims,) if isinstance(dims, builtins.int) else tuple(dims)
    if len(dims) < input.dim():
        dims = (1,) * (input.dim() - len(dims)) + dims
    return repeat(input, dims)


def pad(input: Tensor, pad, mode: str = "constant", value=None) -> Tensor:
    """Pad the last ``len(pad) // 2`` dims: ``(left, right, top, bottom, ...)``; modes constant, reflect,
    replicate (and circular). Negative padding crops."""
    pad = [builtins.int(p) for p in pad]
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    k = len(pad) // 2
    if k > input.dim():
        raise RuntimeError("Padding length too large")
    if mode == "constant":
        return _pad_constant(input, pad, 0.0 if value is None else value)
    if value is not None and value != 0:
        raise RuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument")
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if input.dim() < k + 1 or input.dim() > k + 2 or k > 3:
        raise NotImplementedError(f"Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now "
                                  f"(pad of {2 * k} values, input of {input.dim()} dims, mode {mode})")
    out = input
    for j in range(k):
        d = input.dim() - 1 - j
        left, right = pad[2 * j], pad[2 * j + 1]
        size = out._shape[d]
        if mode == "reflect" and (left >= size or right >= size):
            raise RuntimeError(f"Argument #4: Padding size should be less than the corresponding input dimension, "
                               f"but got: padding ({left}, {right}) at dimension {d} of input {list(input._shape)}")
        if mode == "circular" and (left > size or right > size):
            raise RuntimeError("Padding value causes wrapping around more than once.")
        idx = np.arange(-left, size + right)
        if mode == "reflect":
            period = 2 * (size - 1) if size > 1 else 1
            idx = np.abs(idx) % period
            idx = np.where(idx >= size, period - idx, idx)
        elif mode == "replicate":
            idx = np.clip(idx, 0, size - 1)
        else:
            idx = idx % size
        from .creation import tensor
        out = out.index_select(d, tensor(idx.astype(np.int64), device=input.device))
    return out


def _pad_constant(input: Tensor, pad, value) -> Tensor:
    from .creation import full
    k = len(pad) // 2
    shape = list(input._shape)
    src = input
    for j in range(k):
        d = input.dim() - 1 - j
        left, right = pad[2 * j], pad[2 * j + 1]
        # negative pads crop first
        if left < 0:
            src = narrow(src, d, -left, src._shape[d] + left)
            left = 0
        if right < 0:
            src = narrow(src, d, 0, src._shape[d] + right)
            right = 0
        shape[d] = src._shape[d] + left + right
        if shape[d] < 0:
            raise RuntimeError(f"The input size {input._shape[d]}, plus negative padding {pad[2 * j]} and "
                               f"{pad[2 * j + 1]} resulted in a negative output size, which is invalid. Check dimension "
                               f"{d} of your input.")
    out = full(shape, value, dtype=input.dtype, device=input.device)
    region = out
    for j in range(k):
        d = input.dim() - 1 - j
        left = builtins.max(pad[2 * j], 0)
        region = narrow(region, d, left, src._shape[d])
    assign(region, src.detach())
    starts = [(input.dim() - 1 - j, builtins.max(pad[2 * j], 0)) for j in range(k)]

    def back(g):
        r = g
        for d, left in starts:
            r = narrow(r, d, left, src._shape[d])
        return (r,)
    autograd.record("ConstantPadNdBackward0", [src], [out], back)
    return out


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
def _dims_arg(dims):
    return dims[0] if len(dims) == 1 and not isinstance(dims[0], builtins.int) else dims


api("flip", flip, method=lambda self, *dims: flip(self, _dims_arg(dims)))
api("tile", tile, method=lambda self, *dims: tile(self, _dims_arg(dims)))
methods(("fliplr", fliplr), ("flipud", flipud), ("roll", roll))
api("repeat", method=repeat)
methods(("cat", cat), ("concat", concat), ("concatenate", concatenate), ("hstack", hstack), ("stack", stack),
        ("vstack", vstack), tensor=False)
