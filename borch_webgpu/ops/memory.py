"""Copies and in-place writes: clone, contiguous, copy_, and the machinery every in-place op
(``add_``, ``x[i] = v``, ``+=``) goes through, including autograd through views (CopySlices)."""
from __future__ import annotations

import weakref

from .. import _dtype, autograd
from ..autograd.graph import Node, _check_leaf, check_leaf_write, edge_of, needs_grad  # noqa: F401
from ..device import backend_for
from ..tensor import Tensor
from ._registry import REGISTRY, OpDef, api, register
from ._shapes import broadcast_shapes

__all__ = ["clone", "contiguous", "assign", "inplace", "can_cast", "has_overlap", "check_no_overlap", "check_write"]

_OVERLAP = ("unsupported operation: more than one element of the written-to tensor refers to a single memory "
            "location. Please clone() the tensor before performing the operation.")   # PyTorch's words
# in-place ops that PyTorch lets write into an expanded tensor (fills; the indexed writes only warn)
NO_OVERLAP_CHECK = frozenset({"fill_", "zero_", "masked_fill_", "index_fill_", "fill_diagonal_", "__setitem__",
                              "index_put_"})


def has_overlap(t: Tensor) -> bool:
    """Do elements of t share memory (a stride 0 over a size past 1: an ``expand``ed tensor)?"""
    return any(stride == 0 and size > 1 for size, stride in zip(t._shape, t._stride))


def check_no_overlap(t: Tensor) -> None:
    """PyTorch's refusal to write into a tensor whose elements share memory, as its TensorIterator's
    internal-overlap check does."""
    if has_overlap(t):
        raise RuntimeError(_OVERLAP)


def check_write(op: str, t: Tensor) -> None:
    """Both checks of an in-place fill that computes new values (uniform_, normal_ ...)."""
    check_leaf_write(op, t)
    check_no_overlap(t)

CLONE = register(OpDef("clone", "unary", ("ops_unary.wgsl", "copy"), lambda a: a.copy(), tol=(0, 0),
                       doc="copy into new contiguous memory"))
CONTIGUOUS = register(OpDef("contiguous", "unary", ("ops_unary.wgsl", "copy"), lambda a: a.copy(), tol=(0, 0),
                            doc="the tensor itself when contiguous, else a contiguous copy"))


def _copy_kernel(src: Tensor, shape, dtype, out: Tensor | None = None):
    C = {"bool": _dtype.int32, "float16": _dtype.float32}.get(src.dtype.name, src.dtype)
    return backend_for(src.device).elementwise(REGISTRY["_to_copy"], [src], C, C, shape, dtype, out=out)


def clone(input: Tensor, *, memory_format=None) -> Tensor:
    """A copy of ``input`` in new contiguous memory (gradients flow back to ``input``)."""
    storage = _copy_kernel(input, input._shape, input.dtype)
    out = Tensor._make(storage, input._shape, input.dtype, input._device)
    autograd.record("CloneBackward0", [input], [out], lambda g: (g,))
    return out


def contiguous(input: Tensor, memory_format=None) -> Tensor:
    """``input`` itself when its memory is contiguous, else a contiguous copy."""
    if input.is_contiguous():
        return input
    return clone(input)


def can_cast(frm, to) -> bool:
    """PyTorch's rule for writing a result into an existing tensor (in-place ops, out=)."""
    return frm.category <= to.category


def _check_result(op: str, self: Tensor, r: Tensor) -> None:
    if tuple(r._shape) != tuple(self._shape):
        raise RuntimeError(f"{op}: output with shape {list(self._shape)} doesn't match the broadcast shape "
                           f"{list(r._shape)}")
    if not can_cast(r.dtype, self.dtype):
        names = _dtype.SCALAR_NAMES
        raise RuntimeError(f"{op}: result type {names[r.dtype.name]} can't be cast to the desired output type "
                           f"{names[self.dtype.name]}")


_CPP_NAME = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "int64_t", "int32": "int",
             "int16": "int16_t", "int8": "int8_t", "uint8": "uint8_t"}


def assign(dst: Tensor, src) -> None:
    """Write ``src`` (a tensor broadcastable to dst, or a Python scalar) into dst's memory. No autograd."""
    if isinstance(src, Tensor):
        if src.dtype.is_complex and not dst.dtype.is_complex:
            import warnings
            warnings.warn("Casting complex values to real discards the imaginary part", UserWarning, stacklevel=3)
            src = src.real
        if src._device != dst._device:
            if src.dim() == 0 or src._device.type == "cpu" or dst._device.type == "cpu":
                src = src.to(dst._device)
        if src._storage is dst._storage:
            if (src._offset, src._stride, src._shape, src.dtype) == (dst._offset, dst._stride, dst._shape, dst.dtype):
                return  # copying a tensor onto itself
            src = Tensor._make(_copy_kernel(src, src._shape, src.dtype), src._shape, src.dtype, src._device)
        check_expandable("copy", src._shape, dst._shape)
        _copy_kernel(src, dst._shape, dst.dtype, out=dst)
    else:
        from .creation import FILL
        val = src
        C = dst.dtype if dst.dtype.name != "bool" else _dtype.int32
        if C.category == 3:
            val = complex(val)
        elif isinstance(val, complex):   # PyTorch's words for a complex number written into a real tensor
            raise RuntimeError(f"value cannot be converted to type {_CPP_NAME.get(C.name, C.name)} without overflow")
        elif C.category == 2:
            val = float(val)
        elif C.category == 1:
            val = int(val)
            if C.host:
                from .creation import check_fill_value
                check_fill_value(C, val)
            elif not -(2 ** 63) <= val < 2 ** 63 or (C.name == "int32" and not -(2 ** 31) <= val < 2 ** 31):
                raise RuntimeError(f"value cannot be converted to type {'int' if C.name == 'int32' else 'int64_t'} "
                                   "without overflow")   # PyTorch's message
        else:
            val = int(bool(val))
        backend_for(dst._device).elementwise(FILL, [val], C, C, dst._shape, dst.dtype, out=dst)
    dst._bump_version()


def check_expandable(op: str, src_shape, dst_shape) -> None:
    """src must broadcast to exactly dst's shape."""
    ok = len(src_shape) <= len(dst_shape) and all(s == d or s == 1 for s, d in zip(src_shape[::-1], dst_shape[::-1]))
    if not ok:
        raise RuntimeError(f"{op}: output with shape {list(dst_shape)} doesn't match the broadcast shape "
                           f"{list(_bshape(src_shape, dst_shape))}")


def _bshape(a, b):
    try:
        return broadcast_shapes(a, b)
    except RuntimeError:
        return a


def inplace(op: str, fn, self: Tensor, *args, **kwargs) -> Tensor:
    """Run the out-of-place ``fn(self, *args)`` and write its result into ``self``.

    With autograd recording, ``fn`` runs on a clone of self (the backward may need the old values,
    as in PyTorch, which saves original_self), and self takes the result's place in the graph.
    An expanded ``self`` is refused as PyTorch does, except by the ops of NO_OVERLAP_CHECK.
    """
    if op not in NO_OVERLAP_CHECK:
        check_no_overlap(self)
    if op == "abs_" and self.dtype.is_complex:
        raise RuntimeError("In-place abs is not supported for complex tensors.")
    if needs_grad(self, *args, *kwargs.values()):
        _check_leaf(op, self)
        direct = DIRECT.get(fn)
        if direct is not None and self._base is None:
            r = direct(self, *args, **kwargs)  # one kernel writes self: its backward reads no old value
            if r is not None:
                return r
        r = fn(clone(self), *args, **kwargs)
        _check_result(op, self, r)
        assign(self, r.detach())
        rebase(self, r)
        return self
    if _accepts_out(fn):
        # the op's kernel writes self directly when it can (ops/elementwise.py ew(out=...))
        r = fn(self, *args, out=self, **kwargs)
        if r is self:
            return self
    else:
        r = fn(self, *args, **kwargs)
    _check_result(op, self, r)
    assign(self, r)
    return self


# fn -> a function(self, *args, **kwargs) that applies fn to self in place with autograd in one kernel,
# or returns None where it does not apply: for ops whose backward reads no old value of self (relu,
# sigmoid, tanh, exp ... read only their result; add and sub read nothing), so no copy of the old
# values is kept (ops/elementwise.py fills this)
DIRECT: dict = {}


def _accepts_out(fn) -> bool:
    cached = _OUT_CACHE.get(fn)
    if cached is None:
        import inspect
        try:
            cached = "out" in inspect.signature(fn).parameters
        except (TypeError, ValueError):
            cached = False
        _OUT_CACHE[fn] = cached
    return cached


_OUT_CACHE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def rebase(self: Tensor, r: Tensor) -> None:
    """Make ``self`` (just overwritten with r's values) stand for r in the graph."""
    base = self._base
    if base is None:
        self.grad_fn, self._output_nr = r.grad_fn, r._output_nr
        return
    if r.grad_fn is None and not r._requires_grad and not base.requires_grad:
        return
    geom = rel_geom(self, base)
    base_shape = base._shape
    node = Node("CopySlices", [edge_of(base), edge_of(r)],
                lambda g: (strided_fill(g, geom, 0.0), strided_take(g, geom)),
                (), [(base._shape, base.dtype, base._device)])
    base.grad_fn, base._output_nr = node, 0
    view_of_base(self, base, base_shape)


def rel_geom(v: Tensor, base: Tensor):
    """v's (shape, stride, offset) relative to its base, which must be contiguous."""
    if not base.is_contiguous():
        raise NotImplementedError("in-place changes of a view whose base is not contiguous are not supported with "
                                  "autograd; call .contiguous() on the base first")
    return (v._shape, v._stride, v._offset - base._offset)


def view_of_base(v: Tensor, base: Tensor, base_shape) -> None:
    """Give view v a grad_fn that takes its slice of base's current history."""
    geom = rel_geom(v, base)
    node = Node("AsStridedBackward0", [edge_of(base)], lambda g: (strided_put(g, base_shape, geom),), (),
                [(v._shape, v.dtype, v._device)])
    v.grad_fn, v._output_nr = node, 0
    v._view_src_fn = base.grad_fn


def _geom_view(t: Tensor, geom) -> Tensor:
    from .views import make_view
    shape, stride, offset = geom
    return make_view(t, shape, stride, offset)


def strided_take(g: Tensor, geom) -> Tensor:
    """The elements of g (contiguous, base-shaped) at a view's geometry, as a new tensor (differentiable)."""
    g = g.contiguous()
    out = clone(_geom_view(g.detach(), geom))
    base_shape = g._shape
    autograd.record("AsStridedBackward0", [g], [out], lambda gg: (strided_put(gg, base_shape, geom),))
    return out


def strided_put(gv: Tensor, base_shape, geom) -> Tensor:
    """Zeros of base_shape with gv written at a view's geometry (differentiable in gv)."""
    from .creation import zeros
    out = zeros(base_shape, dtype=gv.dtype, device=gv.device)
    assign(_geom_view(out, geom), gv.detach())
    autograd.record("AsStridedScatterBackward0", [gv], [out], lambda g: (strided_take(g, geom),))
    return out


def strided_fill(g: Tensor, geom, value: float) -> Tensor:
    """A copy of g with the view's elements set to value (differentiable in g)."""
    out = clone(g.detach()).contiguous()
    assign(_geom_view(out, geom), value)
    autograd.record("CopySlicesBackward", [g], [out], lambda gg: (strided_fill(gg, geom, 0.0),))
    return out


def copy_(self: Tensor, src, non_blocking: bool = False) -> Tensor:
    """Copy src's values into self (broadcasting, converting dtype and device)."""
    if not isinstance(src, Tensor):
        raise TypeError(f"copy_(): argument 'src' (position 1) must be Tensor, not {type(src).__name__}")
    if not needs_grad(self, src):
        check_no_overlap(self)
        assign(self, src)
        return self

    def fn(_old, s):
        from .views import expand
        check_expandable("copy_", s._shape, self._shape)
        return expand(s.to(self.device).to(self.dtype), self._shape)
    return inplace("copy_", fn, self, src)


def fill_(self: Tensor, value) -> Tensor:
    """Set every element to ``value`` (a number or a 0-d tensor)."""
    if isinstance(value, Tensor):
        if value.dim() != 0:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with {value.dim()} "
                               "dimensions.")
        if needs_grad(self, value):
            from .views import expand
            return inplace("fill_", lambda _old, v: expand(v.to(self.dtype), self._shape), self, value)
        value = value.item()
    if needs_grad(self):
        from .creation import full
        return inplace("fill_", lambda old: full(old._shape, value, dtype=old.dtype, device=old.device), self)
    assign(self, value)
    return self


def zero_(self: Tensor) -> Tensor:
    """Set every element to zero."""
    return fill_(self, 0)


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
api("fill_", fill_)  # torch.fill_ too
api("zero_", zero_)
api("clone", clone)
api("contiguous", method=contiguous)
api("copy_", method=copy_)
api("_view_of_base", method=view_of_base)  # for autograd's edge_of, which sits below the ops
