"""Indexing along dims: gather, scatter, scatter_add, index_select, index_add, masked_fill,
masked_select, nonzero, tril, triu (``x[key]``, ``x[key] = v`` and take are in subscript.py).

Advanced indexing is reduced to one primitive pair: ``take`` (read at a tensor of storage
offsets) and ``put`` (write or accumulate at them), both kernels in wgsl/index.wgsl. Bad indices
given as Python ints or lists raise at once; the cpu device raises at once; bad indices inside a
WebGPU tensor are found by the kernel and raised with the same exception and message, naming the
op and the user's line, at the next read of a value or the end of the enclosing ``scope()`` at the
latest (at once with launch blocking: see ``torch.webgpu.set_launch_blocking``)."""
from __future__ import annotations

import builtins

import numpy as np

from .. import _dtype, autograd
from ..device.gpu_errors import entry_function
from ..tensor import Tensor, _wrap_dim
from ._registry import OpDef, api, methods, register

__all__ = ["gather", "scatter", "scatter_add", "index_select", "index_add", "masked_fill",
           "masked_select", "nonzero", "tril", "triu", "argwhere"]

for _n in ("getitem", "setitem", "gather", "scatter", "index_select", "masked_fill", "masked_select", "nonzero",
           "tril", "triu"):
    register(OpDef(_n, "index", ("index.wgsl", "take"), None, tol=(0, 0), doc="indexing"))
# accumulating ops add in whatever order the GPU's atomics run: float sums differ in the last bits
for _n in ("scatter_add", "index_add"):
    register(OpDef(_n, "index", ("index.wgsl", "put"), None, tol=(1e-5, 1e-5), doc="indexing with accumulation"))
REGISTRY_PUT = ("index.wgsl", "put")


# ---- the two primitives ------------------------------------------------------------------------------
def _int_index(op: str, idx: Tensor) -> Tensor:
    if idx.dtype.category != 1 or idx.dtype.host:  # uint8 is a mask only in subscripts
        raise IndexError(f"{op}: tensors used as indices must be long, int, byte or bool tensors, got {idx.dtype}")
    return idx


def _np_check(op: str, idx: np.ndarray, size: int, exc: type, msg, negative: bool = True) -> None:
    if idx.size:
        bad = idx[((idx < -size) if negative else (idx < 0)) | (idx >= size)]
        if bad.size:
            i = int(bad.reshape(-1)[0])
            raise exc(msg(i, size) if callable(msg) else msg.format(index=i, size=size))


def _host_words(idx: Tensor) -> np.ndarray:
    """The words of idx's storage as numpy; read back when idx is on the GPU and the data is float64
    (held on the host on webgpu, borch_webgpu/_dtype.py)."""
    st = idx._storage
    if hasattr(st, "array"):
        return st.array
    whole = Tensor._make(st, (st.nbytes // 4,), idx.dtype, idx.device)
    return st.backend.to_numpy(whole, "indexing float64 data")


def _take(x: Tensor, dim: int, idx: Tensor, idx_strides, out_shape, exc: type, msg, negative: bool = False, *,
          op: str | None = None) -> Tensor:
    """out[c] = x[c with c[dim] := idx at c] (no autograd). idx_strides: idx's stride per out dim;
    negative: whether negative indices count from the end (else they are errors, as in gather).
    A bad index raises exc(msg) (msg: formatted with index= and size=, or a module-level function of
    (index, size)) as from op (default: the borch_webgpu function the user called)."""
    if op is None:
        op = entry_function()
    out_shape = tuple(out_shape)
    held = getattr(idx._storage, "held", False)   # int64 indices past int32, on the host (int64_range.py)
    if x._device.type == "webgpu" and not held:
        from ..device import gpu_index
        storage = gpu_index.take(x, dim, idx, idx_strides, out_shape, exc, msg, op, negative)
        return Tensor._make(storage, out_shape, x.dtype, x.device)
    b = x._backend()
    if held:
        from ..device.cpu import BACKEND
        xv = BACKEND.view(x)   # x read back: a held index past int32 raises below, one within selects here
    else:
        xv = b.view(x)
    words = _host_words(idx)
    iv = np.lib.stride_tricks.as_strided(words[idx._offset:], shape=out_shape,
                                         strides=tuple(s * words.itemsize for s in idx_strides)).astype(np.int64)
    size = x._shape[dim]
    _np_check(op, iv, size, exc, msg, negative)
    iv = np.where(iv < 0, iv + size, iv)
    # gather along dim: other dims of out index x directly
    grids = np.meshgrid(*[np.arange(s) for s in out_shape], indexing="ij") if out_shape else []
    grids = [g for g in grids]
    if out_shape:
        grids[dim] = iv
        res = xv[tuple(grids)]
    else:
        res = xv.reshape(-1)[iv] if xv.ndim else xv
    return Tensor._make(b.from_numpy(np.ascontiguousarray(res), x.dtype), out_shape, x.dtype, x.device)


def _put(out: Tensor, dim: int, idx: Tensor, idx_strides, src, src_shape, accumulate: bool, exc: type,
         msg, *, op: str | None = None) -> None:
    """out[c with c[dim] := idx at c] (+)= src[c] for c over src_shape, in place (no autograd); bad indices
    raise as in :func:`_take`."""
    if op is None:
        op = entry_function()
    src_shape = tuple(src_shape)
    if isinstance(src, Tensor) and src.dtype is not out.dtype:
        src = src.to(out.dtype)
    if getattr(idx._storage, "held", False):   # int64 indices past int32: PyTorch's error for a bad one
        words = idx._storage.array
        _np_check(op, np.lib.stride_tricks.as_strided(words[idx._offset:], shape=src_shape, strides=tuple(
            s * words.itemsize for s in idx_strides)), out._shape[dim], exc, msg, False)
    if out._device.type == "webgpu":
        from ..device import gpu_index
        gpu_index.put(out, dim, idx, idx_strides, src, src_shape, accumulate, exc, msg, op)
        out._bump_version()
        return
    b = out._backend()
    ov = b.view(out)
    words = _host_words(idx)
    iv = np.lib.stride_tricks.as_strided(words[idx._offset:], shape=src_shape,
                                         strides=tuple(s * words.itemsize for s in idx_strides)).astype(np.int64)
    size = out._shape[dim]
    _np_check(op, iv, size, exc, msg, False)
    iv = np.where(iv < 0, iv + size, iv)
    if isinstance(src, Tensor):
        sv = b.view(src)
        sv = np.lib.stride_tricks.as_strided(sv, shape=src_shape, strides=tuple(s * sv.itemsize for s in src._stride)) \
            if src_shape else sv
    else:
        sv = np.full(src_shape, src, dtype=out.dtype.storage_np)
    grids = list(np.meshgrid(*[np.arange(s) for s in src_shape], indexing="ij")) if src_shape else []
    if src_shape:
        grids[dim] = iv
        if accumulate:
            np.add.at(ov, tuple(grids), sv.astype(ov.dtype))
        else:
            ov[tuple(grids)] = sv
    else:
        if accumulate:
            ov.reshape(-1)[iv] += sv
        else:
            ov[...] = sv
    out._bump_version()


def _flat_storage_view(x: Tensor) -> Tensor:
    """A 1-D view over all of x's storage (offsets index it directly)."""
    from .views import make_view
    st = x._storage   # a GPU buffer holds dtype.gpu_np (int64 as int32), a host array storage_np
    n = st.nbytes // (x.dtype.storage_np if st.backend.name == "cpu" else x.dtype.gpu_np).itemsize
    return make_view(x, (n,), (1,), 0)


def _strides_for(shape, dim: int, idx: Tensor) -> list[int]:
    """idx broadcast over shape, varying only along dim (index_select/index_add)."""
    st = [0] * len(shape)
    if idx.dim():
        st[dim] = idx._stride[0]
    return st


# ---- gather / scatter / index_select / index_add ---------------------------------------------------------
_OOB = "index {index} is out of bounds for dimension {dim} with size {size}"


def _check_same_rank(op: str, x: Tensor, index: Tensor) -> None:
    if index.dim() != x.dim() and not (index.dim() <= 1 and x.dim() <= 1):
        raise RuntimeError(f"{op}(): Index tensor must have the same number of dimensions as input tensor")


def gather(input: Tensor, dim: int, index: Tensor, *, sparse_grad: bool = False) -> Tensor:
    """``out[i][j] = input[index[i][j]][j]`` for dim 0 (and so on): values picked along ``dim``."""
    x, idx = input, _int_index("gather", index)
    _check_same_rank("gather", x, idx)
    d = _wrap_dim(dim, builtins.max(x.dim(), 1), "gather") if x.dim() else 0
    for k in range(idx.dim()):
        if k != d and idx._shape[k] > x._shape[k]:
            raise RuntimeError(f"Size does not match at dimension {k} expected index {list(idx._shape)} to be no "
                               f"larger than self {list(x._shape)} apart from dimension {d}")
    if x.dim() == 0:
        x = x.reshape(1)
        idx1 = idx.reshape(1)
        out = _take(x, 0, idx1, idx1._stride, (1,), RuntimeError, _OOB.replace("{dim}", str(d)),
                    op="gather").reshape(idx._shape)
    else:
        out = _take(x, d, idx, idx._stride, idx._shape, RuntimeError, _OOB.replace("{dim}", str(d)), op="gather")
    x_shape = input._shape
    autograd.record("GatherBackward0", [input, None], [out],
                    lambda g: (_zeros_like_shape(g, x_shape).scatter_add(d, index, g), None))
    return out


def _zeros_like_shape(g: Tensor, shape) -> Tensor:
    from .creation import zeros
    return zeros(shape, dtype=g.dtype, device=g.device)


def _scatter(op: str, input: Tensor, dim: int, index: Tensor, src, accumulate: bool) -> Tensor:
    x, idx = input, _int_index(op, index)
    _check_same_rank(op, x, idx)
    d = _wrap_dim(dim, builtins.max(x.dim(), 1), op) if x.dim() else 0
    if isinstance(src, Tensor):
        if src.dtype is not x.dtype:
            raise RuntimeError(f"{op}(): Expected self.dtype to be equal to src.dtype")
        for k in range(idx.dim()):
            if idx._shape[k] > src._shape[k]:
                raise RuntimeError(f"Expected index {list(idx._shape)} to be smaller than self {list(x._shape)} apart "
                                   f"from dimension {d} and to be smaller size than src {list(src._shape)}")
    for k in range(idx.dim()):
        if k != d and idx._shape[k] > x._shape[k]:
            raise RuntimeError(f"Expected index {list(idx._shape)} to be smaller than self {list(x._shape)} apart from "
                               f"dimension {d}")
    out = x.detach().clone()
    if idx.numel():
        tgt = out if out.dim() else out.reshape(1)
        i2 = idx if idx.dim() else idx.reshape(1)
        s2 = src if not isinstance(src, Tensor) or src.dim() else src.reshape(1)
        _put(tgt, d, i2, i2._stride, s2, i2._shape, accumulate, RuntimeError, _OOB.replace("{dim}", str(d)), op=op)
    return out


def scatter(input: Tensor, dim: int, index: Tensor, src=None, *, value=None, reduce=None) -> Tensor:
    """A copy of ``input`` with values from ``src`` (a tensor or a number) written at ``index`` along ``dim``."""
    if reduce is not None:
        raise NotImplementedError("scatter: reduce= is not implemented; use scatter_add or scatter_reduce")
    if src is None:
        src = value
    if src is None:
        raise TypeError("scatter() missing 1 required positional argument: 'src' or 'value'")
    if not isinstance(src, Tensor):
        src = builtins.float(src) if input.dtype.is_floating_point else builtins.int(src)
    out = _scatter("scatter", input, dim, index, src, False)
    d = _wrap_dim(dim, builtins.max(input.dim(), 1), "scatter") if input.dim() else 0
    if isinstance(src, Tensor):
        autograd.record("ScatterBackward0", [input, None, src], [out],
                        lambda g: (g.scatter(d, index, 0.0), None, g.gather(d, index)))
    else:
        autograd.record("ScatterBackward1", [input, None], [out], lambda g: (g.scatter(d, index, 0.0), None))
    return out


def scatter_add(input: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """A copy of ``input`` with ``src`` added at ``index`` along ``dim`` (repeated indices accumulate)."""
    if not isinstance(src, Tensor):
        raise TypeError(f"scatter_add(): argument 'src' (position 4) must be Tensor, not {type(src).__name__}")
    out = _scatter("scatter_add", input, dim, index, src, True)
    d = _wrap_dim(dim, builtins.max(input.dim(), 1), "scatter_add") if input.dim() else 0
    autograd.record("ScatterAddBackward0", [input, None, src], [out], lambda g: (g, None, g.gather(d, index)))
    return out


_SELF_OOB = "index out of range in self"


def _index_select(op: str, x: Tensor, d: int, idx: Tensor) -> Tensor:
    """The slices of x along d at the 1-D (or 0-d) idx, without autograd; a bad index raises PyTorch's
    ``IndexError: index out of range in self`` as from op (index_select, embedding), or for dim 1 of a
    tensor of 2 or more dims the RuntimeError of PyTorch's CPU fast path for that case."""
    if x.dim() == 0:
        return _take(x.reshape(1), 0, idx.reshape(-1), (idx._stride[0] if idx.dim() else 0,), (idx.numel(),),
                     IndexError, _SELF_OOB, op=op).reshape(idx._shape)
    shape = list(x._shape)
    shape[d] = idx.numel()
    exc, msg = (RuntimeError, "INDICES element is out of DATA bounds, id={index} axis_dim={size}") \
        if d == 1 and x.dim() > 1 else (IndexError, _SELF_OOB)
    return _take(x, d, idx, _strides_for(shape, d, idx), shape, exc, msg, op=op)


def index_select(input: Tensor, dim: int, index: Tensor) -> Tensor:
    """The slices of ``input`` along ``dim`` at the positions in the 1-D ``index``."""
    if index.dtype.category != 1:
        raise RuntimeError(f"index_select(): Expected dtype int32/int64 for index but got: {index.dtype}")
    x, idx = input, _int_index("index_select", index)
    if idx.dim() > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    d = _wrap_dim(dim, builtins.max(x.dim(), 1), "index_select") if x.dim() else 0
    out = _index_select("index_select", x, d, idx)
    x_shape = input._shape
    autograd.record("IndexSelectBackward0", [input, None], [out],
                    lambda g: (_zeros_like_shape(g, x_shape).index_add(d, index, g), None))
    return out


def index_add(input: Tensor, dim: int, index: Tensor, source: Tensor, *, alpha=1) -> Tensor:
    """A copy of ``input`` with ``alpha * source`` added at ``index`` along ``dim``."""
    x, idx = input, _int_index("index_add", index)
    if idx.dim() > 1:
        raise IndexError("index_add_(): Index is supposed to be a vector")
    if source.dtype is not x.dtype:
        raise RuntimeError(f"index_add_(): self ({x.dtype}) and source ({source.dtype}) must have the same scalar "
                           "type")
    d = _wrap_dim(dim, builtins.max(x.dim(), 1), "index_add") if x.dim() else 0
    if source.dim() != x.dim() and not (source.dim() <= 1 and x.dim() <= 1):
        raise IndexError("index_add_(): Source/destination tensor must have same slice shapes.")
    if x.dim() and (source._shape[d] if source.dim() else 1) != idx.numel():
        raise RuntimeError(f"index_add_(): Number of indices ({idx.numel()}) should be equal to source.size(dim) "
                           f"({source._shape[d] if source.dim() else 1})")
    if x.dim() > 1 and d in (0, x.dim() - 1) and alpha == 1 and idx.dtype is _dtype.int64:
        # PyTorch's CPU index_add goes through scatter_add here, and raises scatter_add's error
        exc, msg = RuntimeError, _OOB.replace("{dim}", str(d))
    else:
        exc, msg = IndexError, _SELF_OOB
    src = source * alpha if alpha != 1 else source
    out = x.detach().clone()
    if idx.numel():
        tgt = out if out.dim() else out.reshape(1)
        s2 = src.detach() if src.dim() else src.detach().reshape(1)
        i2 = idx.reshape(-1)
        _put(tgt, d, i2, _strides_for(s2._shape, d, i2), s2, s2._shape, True, exc, msg, op="index_add")
    autograd.record("IndexAddBackward0", [input, None, source], [out],
                    lambda g: (g, None, g.index_select(d, index) * alpha if alpha != 1 else g.index_select(d, index)))
    return out


# ---- masks -------------------------------------------------------------------------------------------------
def _bool_mask(op: str, mask) -> Tensor:
    if not isinstance(mask, Tensor):
        raise TypeError(f"{op}(): argument 'mask' must be Tensor, not {type(mask).__name__}")
    if mask.dtype.name != "bool":
        raise RuntimeError(f"{op} only supports boolean masks, but got mask with dtype "
                           f"{'long' if mask.dtype.name == 'int64' else mask.dtype.name}")
    return mask


def masked_fill(input: Tensor, mask: Tensor, value) -> Tensor:
    """``input`` with ``value`` (a number or a 0-d tensor) where ``mask`` is True."""
    from .elementwise import where
    mask = _bool_mask("masked_fill_", mask)
    if isinstance(value, Tensor):
        if value.dim() != 0:
            raise RuntimeError(f"masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value.dim()} dimension(s).")
    if not isinstance(value, Tensor):
        value = builtins.float(value) if input.dtype.is_floating_point else (
            builtins.bool(value) if input.dtype.name == "bool" else builtins.int(value))
    r = where(mask, value if not isinstance(value, Tensor) else value.to(input.dtype), input)
    return r if r.dtype is input.dtype else r.to(input.dtype)


def nonzero(input: Tensor, *, as_tuple: bool = False):
    """Indices of the nonzero elements: an (n, ndim) int64 tensor, or a tuple of 1-D tensors (``as_tuple``).

    The number of results depends on the data, so on WebGPU this waits for the GPU (as on CUDA)."""
    from .creation import tensor
    host = input.detach()._host("nonzero()")
    idx = np.argwhere(host != 0) if host.ndim else np.zeros((1 if host != 0 else 0, 0), np.int64)
    if host.ndim == 0:
        from .creation import zeros
        return (zeros(idx.shape[0], dtype=_dtype.int64, device=input.device),) if as_tuple else \
            zeros((idx.shape[0], 0), dtype=_dtype.int64, device=input.device)
    if as_tuple:
        if host.ndim == 0:
            return (tensor(np.zeros(idx.shape[0], np.int64), device=input.device),)
        return tuple(tensor(idx[:, k].astype(np.int64), device=input.device) for k in range(host.ndim))
    return tensor(idx.astype(np.int64).reshape(-1, host.ndim), device=input.device)


def argwhere(input: Tensor) -> Tensor:
    """The indices of the non-zero elements, one row per element (``nonzero``).

    Example::

        >>> torch.argwhere(torch.tensor([[0, 1], [1, 0]]))
        tensor([[0, 1],
                [1, 0]])
    """
    return nonzero(input)


def masked_select(input: Tensor, mask: Tensor) -> Tensor:
    """The elements of ``input`` where ``mask`` is True, as a 1-D tensor (waits for the GPU: data-dependent size)."""
    mask = _bool_mask("masked_select", mask)
    from .elementwise import _broadcast
    shape = _broadcast("masked_select", [input._shape, mask._shape])
    x = input.expand(shape) if tuple(input._shape) != shape else input
    m = mask.expand(shape) if tuple(mask._shape) != shape else mask
    return x[m]


def _tri(op: str, input: Tensor, diagonal: int, lower: bool) -> Tensor:
    from .creation import arange
    from .elementwise import where
    if input.dim() < 2:
        raise RuntimeError(f"{op}: input tensor must have at least 2 dimensions")
    r, c = input._shape[-2], input._shape[-1]
    rows = arange(r, device=input.device).reshape(r, 1)
    cols = arange(c, device=input.device).reshape(1, c)
    keep = (cols - rows <= diagonal) if lower else (cols - rows >= diagonal)
    zero = False if input.dtype.name == "bool" else (0.0 if input.dtype.is_floating_point else 0)
    return where(keep, input, zero)


def tril(input: Tensor, diagonal: int = 0) -> Tensor:
    """The lower triangle (on and below ``diagonal``) of the last two dims; the rest zero."""
    return _tri("tril", input, diagonal, True)


def triu(input: Tensor, diagonal: int = 0) -> Tensor:
    """The upper triangle (on and above ``diagonal``) of the last two dims; the rest zero."""
    return _tri("triu", input, diagonal, False)


# ---- backward helpers for views (used by views.py) -------------------------------------------------------------
def slice_backward(g: Tensor, in_shape, d: int, start: int, stop: int, step: int) -> Tensor:
    from . import views
    from .memory import assign
    out = _zeros_like_shape(g, in_shape)
    assign(views.slice_dim(out, d, start, builtins.max(stop, start), step), g.detach())
    autograd.record("SliceBackwardBackward0", [g], [out], lambda gg: (views.slice_dim(gg, d, start, stop, step),))
    return out


def select_backward(g: Tensor, in_shape, d: int, index: int) -> Tensor:
    from . import views
    from .memory import assign
    out = _zeros_like_shape(g, in_shape)
    assign(views.select(out, d, index), g.detach())
    autograd.record("SelectBackwardBackward0", [g], [out], lambda gg: (views.select(gg, d, index),))
    return out


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
methods(("gather", gather), ("index_select", index_select), ("masked_select", masked_select), ("nonzero", nonzero),
        ("argwhere", argwhere))
methods(("scatter", scatter), ("scatter_add", scatter_add), ("index_add", index_add), ("masked_fill", masked_fill),
        ("tril", tril), ("triu", triu), inplace=True)
# the backward of views.slice_dim and views.select (the views sit below this module)
api("_slice_backward", method=slice_backward)
api("_select_backward", method=select_backward)
