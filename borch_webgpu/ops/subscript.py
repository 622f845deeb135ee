"""``x[key]`` and ``x[key] = value``: ints, slices, None and ``...`` make views; index tensors,
lists and bool masks become a tensor of storage offsets read with ``take`` or written with ``put``
(the primitives of indexing.py); index_put; torch.take (``x.reshape(-1)[index]``)."""
from __future__ import annotations

import builtins
import numbers
import warnings

import numpy as np

from .. import _dtype, autograd
from ._registry import api, methods
from ..tensor import Tensor
from .indexing import (_flat_storage_view, _int_index, _np_check, _put, _take, _zeros_like_shape, nonzero)

__all__ = ["getitem", "setitem", "index_put", "index_put_", "take"]


# ---- x[key] -------------------------------------------------------------------------------------------------
def _to_index_tensor(k, device) -> Tensor:
    from .creation import tensor
    if isinstance(k, Tensor):
        return k.to(device) if k.device != device else k
    arr = np.asarray(k)
    if arr.dtype == np.bool_:
        return tensor(arr, device=device)
    if arr.size and arr.dtype.kind not in "iu":
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    return tensor(arr.astype(np.int64), device=device)


def _expand_key(x: Tensor, key):
    """Normalise key into a list of items and check the number of indexed dims."""
    if not isinstance(key, tuple):
        key = (key,)
    items = []
    for k in key:
        if isinstance(k, (range, tuple)):  # PyTorch reads a range or a nested tuple as a list of indices
            k = list(k)
        if isinstance(k, (list, np.ndarray)) or (isinstance(k, Tensor)):
            items.append(("adv", k))
        elif k is None:
            items.append(("none", None))
        elif k is Ellipsis:
            items.append(("ellipsis", None))
        elif isinstance(k, builtins.bool):
            items.append(("bool", k))
        elif isinstance(k, (numbers.Integral, np.integer)):
            items.append(("int", builtins.int(k)))
        elif isinstance(k, slice):
            items.append(("slice", k))
        else:
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
                             f"valid indices (got {type(k).__name__})")
    consumed = 0
    for kind, k in items:
        if kind in ("int", "slice"):
            consumed += 1
        elif kind == "adv":
            t = k if isinstance(k, Tensor) else None
            is_bool = (t is not None and t.dtype.name in ("bool", "uint8")) or \
                (t is None and np.asarray(k).dtype == np.bool_)
            consumed += (t.dim() if t is not None else np.asarray(k).ndim) if is_bool else 1
    if consumed > x.dim():
        raise IndexError(f"too many indices for tensor of dimension {x.dim()}")
    out, expanded = [], False
    for kind, k in items:
        if kind == "ellipsis":
            # PyTorch expands the first ellipsis; later ones stand for no dims
            if not expanded:
                out += [("slice", slice(None))] * (x.dim() - consumed)
                expanded = True
        else:
            out.append((kind, k))
    return out


def _slice_bounds(s: slice, size: int) -> tuple[int, int, int]:
    step = 1 if s.step is None else builtins.int(s.step)
    if step <= 0:
        raise ValueError("step must be greater than zero")
    start, stop, _ = slice(s.start, s.stop, step).indices(size)
    return start, builtins.max(stop, start), step


def _basic(x: Tensor, items):
    """Apply the basic items; returns (view, [(dim in view, index tensor)])."""
    from . import views
    cur, d, adv = x, 0, []
    for kind, k in items:
        if kind == "none":
            cur = views.unsqueeze(cur, d)
            d += 1
        elif kind == "bool":
            cur = views.unsqueeze(cur, d)
            if not k:
                cur = views.slice_dim(cur, d, 0, 0, 1)
            d += 1
        elif kind == "int":
            size = cur._shape[d]
            if not -size <= k < size:
                raise IndexError(f"index {k} is out of bounds for dimension {d} with size {size}")
            cur = views.select(cur, d, k)
        elif kind == "slice":
            start, stop, step = _slice_bounds(k, cur._shape[d])
            if (start, stop, step) != (0, cur._shape[d], 1):
                cur = views.slice_dim(cur, d, start, stop, step)
            d += 1
        else:  # advanced
            t = _to_index_tensor(k, x.device)
            if t.dtype.name == "uint8":  # a byte mask: PyTorch still takes it, with this warning
                warnings.warn("indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool "
                              "instead.", UserWarning, stacklevel=3)
                t = t != 0
            if t.dtype.name == "bool":
                for j in range(t.dim()):
                    if t._shape[j] != cur._shape[d + j]:
                        raise IndexError(f"The shape of the mask {list(t._shape)} at index {j} does not match the shape "
                                         f"of the indexed tensor {list(cur._shape)} at index {d + j}")
                if t.dim() == 0:
                    cur = views.unsqueeze(cur, d)
                    t = nonzero(t.reshape(1), as_tuple=True)
                    adv.append((d, t[0]))
                    d += 1
                    continue
                parts = nonzero(t, as_tuple=True)
                for j, p in enumerate(parts):
                    adv.append((d + j, p))
                d += t.dim()
            else:
                _int_index("index", t)
                if not isinstance(k, Tensor):
                    _np_check("index", np.asarray(k), cur._shape[d], IndexError, _adv_message(len(adv)))
                adv.append((d, t))
                d += 1
    return cur, adv


def _offsets(v: Tensor, adv, strides, base_offset: int):
    """Storage offsets (int tensor, shape = result shape) for advanced indices on view v."""
    from .creation import arange
    from .elementwise import broadcast_shapes, where
    idx_shapes = [t._shape for _, t in adv]
    try:
        bshape = broadcast_shapes(*idx_shapes)
    except RuntimeError:
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together with shapes " +
                         ", ".join(str(list(s)) for s in idx_shapes)) from None
    dims = [d for d, _ in adv]
    consecutive = dims == list(range(dims[0], dims[0] + len(dims)))
    rest = [d for d in range(v.dim()) if d not in dims]
    if consecutive:
        layout = [("r", d) for d in rest if d < dims[0]] + [("b", None)] + [("r", d) for d in rest if d > dims[0]]
    else:
        layout = [("b", None)] + [("r", d) for d in rest]
    out_shape = []
    for kind, d in layout:
        out_shape += list(bshape) if kind == "b" else [v._shape[d]]
    nb = len(bshape)
    pos_b = [i for i, (kind, _) in enumerate(layout) if kind == "b"][0]
    total = None
    for d, t in adv:
        size = v._shape[d]
        t = where(t < 0, t + size, t) if t.numel() else t
        # place t's (broadcast) dims at the b position of the result
        shp = [1] * pos_b + [1] * (nb - t.dim()) + list(t._shape) + [1] * (len(layout) - pos_b - 1)
        term = t.reshape(shp) * strides[d]
        total = term if total is None else total + term
    out_dim = 0
    for kind, d in layout:
        if kind == "b":
            out_dim += nb
            continue
        shp = [1] * len(out_shape)
        shp[out_dim] = v._shape[d]
        term = arange(v._shape[d], device=v.device).reshape(shp) * strides[d]
        total = total + term
        out_dim += 1
    total = (total + base_offset).expand(out_shape) if base_offset else total.expand(out_shape)
    return total, tuple(out_shape)


def _adv_message(k: int) -> str:
    """PyTorch's message for a bad value in the k-th index tensor (it counts index tensors, not dims)."""
    return "index {index} is out of bounds for dimension " + str(k) + " with size {size}"


def _check_adv(v: Tensor, adv, op: str, msg=None) -> None:
    """Check each index tensor against its dim: at once on the cpu device; on WebGPU the take kernel
    checks it against a probe of the dim's size (device/gpu_errors.py says when it raises)."""
    from .creation import zeros
    for k, (d, t) in enumerate(adv):
        size = v._shape[d]
        m = _adv_message(k) if msg is None else msg
        if v._device.type != "webgpu":
            _np_check(op, t._host("indexing"), size, IndexError, m)
        elif t.numel():
            probe = zeros(size if size else 1, dtype=_dtype.int32, device=v.device)
            if size == 0:
                probe = probe.narrow(0, 0, 0)
            _take(probe, 0, t.reshape(-1), (t.reshape(-1)._stride[0],), (t.numel(),), IndexError, m, negative=True,
                  op=op)


def getitem(x: Tensor, key) -> Tensor:
    """``x[key]``: a view for ints, slices, None and ``...``; a copy for index tensors, lists and masks."""
    return _getitem(x, key, "__getitem__")


def _getitem(x: Tensor, key, op: str, msg=None) -> Tensor:
    """x[key] whose bad indices raise as from op (msg: instead of PyTorch's message for x[key])."""
    items = _expand_key(x, key)
    v, adv = _basic(x, items)
    if not adv:
        if v is x:
            from .views import _alias
            return _alias(x)
        return v
    _check_adv(v, adv, op, msg)
    offs, out_shape = _offsets(v, adv, v._stride, v._offset)
    flat = _flat_storage_view(v)
    offs = offs.contiguous().int() if offs.dtype is not _dtype.int32 else offs.contiguous()
    out = _take(flat, 0, offs.reshape(-1), (1,), (offs.numel(),), IndexError,
                "index {index} is out of bounds for storage of size {size}", op=op).reshape(out_shape)
    from ..device.gpu_backend import contiguous_strides
    if autograd.graph.needs_grad(v):
        coffs, _ = _offsets(v, adv, contiguous_strides(v._shape), 0)
        coffs = coffs.contiguous().int().reshape(-1)
        v_shape = v._shape

        def back(g):
            return (_index_put_flat(_zeros_like_shape(g, v_shape), coffs, g.reshape(-1), True),)
        autograd.record("IndexBackward0", [v], [out], back)
    return out


def _index_put_flat(base: Tensor, flat_offsets: Tensor, values: Tensor, accumulate: bool) -> Tensor:
    """A copy of contiguous ``base`` with ``values`` (1-D, one per offset) written/added at flat offsets;
    differentiable in base and values."""
    out = base.detach().contiguous().clone()
    flat = out.reshape(-1)
    _put(flat, 0, flat_offsets, flat_offsets._stride, values.detach(), values._shape, accumulate, IndexError,
         "index {index} is out of bounds for dimension 0 with size {size}", op="index_put_")

    def back(g):
        gflat = g.reshape(-1)
        gb = g if accumulate else _index_put_flat(g, flat_offsets, _zeros_like_shape(g, values._shape), False)
        return (gb, _take_flat(gflat, flat_offsets))
    autograd.record("IndexPutBackward0", [base, values], [out], back)
    return out


def _take_flat(flat: Tensor, offsets: Tensor) -> Tensor:
    out = _take(flat.contiguous(), 0, offsets, offsets._stride, offsets._shape, IndexError,
                "index {index} is out of bounds for dimension 0 with size {size}", op="__getitem__")
    autograd.record("TakeBackward0", [flat], [out],
                    lambda g: (_index_put_flat(_zeros_like_shape(g, flat._shape), offsets, g, True),))
    return out


# ---- x[key] = value --------------------------------------------------------------------------------------------
def setitem(x: Tensor, key, value) -> None:
    """``x[key] = value`` (value: a number or a tensor broadcastable to ``x[key]``)."""
    _setitem(x, key, value, "__setitem__")


def _setitem(x: Tensor, key, value, op: str) -> None:
    from .creation import full
    from .memory import assign, check_leaf_write, inplace
    from .views import expand
    items = _expand_key(x, key)
    v, adv = _basic(x, items)
    check_leaf_write("__setitem__", v)  # v is x itself when the key selects all of x (":", "...", index tensors)
    if v is x:
        from .views import _alias
        v = _alias(x)
    if not adv:
        from .memory import check_no_overlap
        check_no_overlap(v)   # copy_'s check, as PyTorch's (x[0] = 1 on an expanded x is allowed, x[:] = 1 is not)
        if isinstance(value, Tensor):
            value = _check_value_shape(value, v._shape)
            if autograd.graph.needs_grad(x, value):
                inplace("__setitem__", lambda old, val: expand(val.to(v.dtype), v._shape), v, value)
                return
        elif autograd.graph.needs_grad(x):  # a number written into part of a graph: its slots get zero gradient
            inplace("__setitem__", lambda old: full(v._shape, value, dtype=v.dtype, device=v.device), v)
            return
        assign(v, value)
        return
    _check_adv(v, adv, op)
    offs, out_shape = _offsets(v, adv, v._stride, v._offset)
    offs = offs.contiguous().int().reshape(-1)
    if isinstance(value, Tensor):
        value = _check_value_shape(value, out_shape)
        vals = expand(value.to(x.dtype), out_shape).contiguous().reshape(-1)
    else:
        vals = full((offs.numel(),), value, dtype=x.dtype, device=x.device)
    if autograd.graph.needs_grad(x, value):
        from ..device.gpu_backend import contiguous_strides
        coffs, _ = _offsets(v, adv, contiguous_strides(v._shape), 0)
        coffs = coffs.contiguous().int().reshape(-1)
        inplace("__setitem__", lambda old, val: _index_put_flat(old, coffs, val, False), v, vals)
        return
    _put(_flat_storage_view(v), 0, offs, offs._stride, vals, vals._shape, False, IndexError,
         "index {index} is out of bounds for storage of size {size}", op=op)


def _check_value_shape(value: Tensor, tshape) -> Tensor:
    """value, with leading size-1 dims dropped as PyTorch allows, checked to broadcast to tshape."""
    vshape = list(value._shape)
    while vshape and vshape[0] == 1 and len(vshape) > len(tshape):
        vshape.pop(0)
    if not (len(vshape) <= len(tshape) and all(a == b or a == 1 for a, b in zip(vshape[::-1], tshape[::-1]))):
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(value._shape)} cannot be broadcast to "
                           f"indexing result of shape {list(tshape)}")
    return value.reshape(vshape) if len(vshape) != value.dim() else value


def index_put(input: Tensor, indices, values: Tensor, accumulate: bool = False) -> Tensor:
    """A copy of ``input`` with ``values`` written (or added) at the index tensors ``indices``."""
    out = input.clone()
    index_put_(out, indices, values, accumulate)
    return out


def index_put_(input: Tensor, indices, values: Tensor, accumulate: bool = False) -> Tensor:
    from .memory import check_leaf_write
    check_leaf_write("index_put_", input)
    if not accumulate:
        _setitem(input, tuple(indices), values, "index_put_")
        return input
    from .views import expand
    items = _expand_key(input, tuple(indices))
    v, adv = _basic(input, items)
    _check_adv(v, adv, "index_put_")
    from ..device.gpu_backend import contiguous_strides
    coffs, out_shape = _offsets(v, adv, contiguous_strides(v._shape), 0)
    coffs = coffs.contiguous().int().reshape(-1)
    vals = expand(values.to(input.dtype), out_shape).contiguous().reshape(-1)
    from .memory import inplace
    inplace("index_put_", lambda old, val: _index_put_flat(old, coffs, val, True), input, vals)
    return input


def take(input: Tensor, index: Tensor) -> Tensor:
    """``input`` treated as 1-D, read at ``index`` (negative indices count from the end)."""
    return _getitem(input.reshape(-1), index, "take",
                    "out of range: tried to access index {index} on a tensor of {size} elements.")


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
api("__getitem__", method=getitem)
api("__setitem__", method=setitem)
api("index_put", index_put)
api("index_put_", method=index_put_)
methods(("take", take))
