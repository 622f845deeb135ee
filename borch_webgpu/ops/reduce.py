"""Reductions over all dims, one dim or several, with keepdim: sum mean prod max min amax amin
argmax argmin var std var_mean std_mean norm logsumexp all any, and softmax / log_softmax."""
from __future__ import annotations

import builtins
import math

import numpy as np

from .. import _dtype, autograd
from ..tensor import Tensor, _wrap_dim
from . import _return_types as _rt
from ._registry import OpDef, api, methods, register

__all__ = ["sum", "mean", "prod", "max", "min", "amax", "amin", "argmax", "argmin", "var", "std", "var_mean",
           "std_mean", "norm", "logsumexp", "all", "any", "softmax", "log_softmax", "count_nonzero"]

_max, _min, _sum, _any, _all = builtins.max, builtins.min, builtins.sum, builtins.any, builtins.all


def reduce_dims(op: str, ndim: int, dim) -> tuple[int, ...]:
    if dim is None:
        return tuple(range(ndim))
    dims = (dim,) if isinstance(dim, builtins.int) else tuple(dim)
    if ndim == 0:  # a 0-d tensor accepts dim 0 / -1 and has nothing to reduce
        for d in dims:
            _wrap_dim(d, 0, op)
        return ()
    if not dims:
        return tuple(range(ndim))
    out = []
    for d in dims:
        w = _wrap_dim(d, ndim, op)
        if w in out:
            raise RuntimeError(f"{op}: dim {w} appears multiple times in the list of dims")
        out.append(w)
    return tuple(sorted(out))


def _out_shape(shape, dims, keepdim):
    if keepdim:
        return tuple(1 if d in dims else s for d, s in enumerate(shape))
    return tuple(s for d, s in enumerate(shape) if d not in dims)


def _kernel(op: OpDef, x: Tensor, dims, keepdim: bool, C, R, params=(), block=None) -> Tensor:
    shape = _out_shape(x._shape, dims, keepdim)
    if C.name == "float16":  # half precision is stored, not computed
        C = _dtype.float32
    wgsl = (op.wgsl[0], block) if block else None
    storage = x._backend().reduce(op, x, dims, shape, C, R, params=params, wgsl=wgsl)
    return Tensor._make(storage, shape, R, x.device)


def _red(name, ref, tol=(1e-5, 1e-5), state_words=1, **extra):
    return register(OpDef(name, "reduce", ("ops_reduce.wgsl", name), ref, tol=tol, state_words=state_words,
                          extra=extra))


def _acc(a):
    """The numpy accumulator for a reduction on the cpu device: float64 for floats (numpy's float32
    sums along a strided axis add sequentially, which loses more than PyTorch's)."""
    return np.float64 if a.dtype.kind == "f" else (np.complex128 if a.dtype.kind == "c" else None)


SUM = _red("sum", lambda a, dims: np.sum(a, axis=dims, dtype=_acc(a)))
MEAN = _red("mean", lambda a, dims: np.mean(a, axis=dims, dtype=_acc(a)) if a.size or dims else np.float32(np.nan),
            tol=(1e-5, 1e-6))
PROD = _red("prod", lambda a, dims: np.prod(a, axis=dims), tol=(1e-5, 1e-6))
AMAX = _red("amax", lambda a, dims: np.max(a, axis=dims), tol=(0, 0))
AMIN = _red("amin", lambda a, dims: np.min(a, axis=dims), tol=(0, 0))
ARGMAX = _red("argmax", lambda a, dims: _np_argext(a, dims, np.nanargmax, True), tol=(0, 0), state_words=2)
ARGMIN = _red("argmin", lambda a, dims: _np_argext(a, dims, np.nanargmin, False), tol=(0, 0), state_words=2)
ALL = _red("all", lambda a, dims: np.all(a != 0, axis=dims), tol=(0, 0))
ANY = _red("any", lambda a, dims: np.any(a != 0, axis=dims), tol=(0, 0))
VAR = _red("var", lambda a, dims, c: _np_var(a, dims, c).astype(_out_float(a)), tol=(2e-5, 1e-6), state_words=3)
STD = _red("std", lambda a, dims, c: np.sqrt(_np_var(a, dims, c)).astype(_out_float(a)), tol=(2e-5, 1e-6),
           state_words=3)
LOGSUMEXP = _red("logsumexp", lambda a, dims: _np_lse(a, dims), tol=(2e-6, 2e-6), state_words=2)
_NORM_REFS = {
    "norm2": lambda a, dims: np.sqrt(np.sum(a * a, axis=dims)),
    "norm1": lambda a, dims: np.sum(np.abs(a), axis=dims),
    "norm_inf": lambda a, dims: np.max(np.abs(a), axis=dims) if a.size else np.zeros(()),
    "norm_ninf": lambda a, dims: np.min(np.abs(a), axis=dims),
    "norm0": lambda a, dims: np.sum(a != 0, axis=dims).astype(np.float32),
    "normp": lambda a, dims, p: np.power(np.sum(np.power(np.abs(a), p), axis=dims), 1.0 / p),
}
NORM = register(OpDef("norm", "reduce", ("ops_reduce.wgsl", "norm2"), _NORM_REFS["norm2"], tol=(2e-5, 1e-6),
                      extra={"refs": _NORM_REFS}))
SOFTMAX = register(OpDef("softmax", "composite", None, None, tol=(2e-6, 1e-7), doc="exp(x - max) / sum"))
LOG_SOFTMAX = register(OpDef("log_softmax", "composite", None, None, tol=(2e-6, 2e-6), doc="x - max - log(sum)"))
MAX = register(OpDef("max", "composite", None, None, tol=(0, 0), doc="amax, or (values, indices) with dim"))
MIN = register(OpDef("min", "composite", None, None, tol=(0, 0), doc="amin, or (values, indices) with dim"))


def _out_float(a) -> type:
    """The float type a reference returns for values a: float64 for float64, else float32."""
    return np.float64 if a.dtype == np.float64 else np.float32


def _np_argext(a, dims, fn, largest):
    nan = np.isnan(a) if a.dtype.kind == "f" else np.zeros(a.shape, bool)
    if not dims:
        flat = a.reshape(-1)
        nflat = nan.reshape(-1)
        if nflat.any():
            return np.int64(np.argmax(nflat))
        return np.int64(np.argmax(flat) if largest else np.argmin(flat))
    d = dims[0]
    r = np.argmax(a, axis=d) if largest else np.argmin(a, axis=d)
    if nan.any():
        r = np.where(nan.any(axis=d), np.argmax(nan, axis=d), r)
    return r


def _np_var(a, dims, c):
    n = np.prod([a.shape[d] for d in dims]) if dims else a.size
    m = np.mean(a, axis=dims, keepdims=True, dtype=np.float64)
    ss = np.sum((a - m) ** 2, axis=dims, dtype=np.float64)
    dof = n - c
    with np.errstate(all="ignore"):
        return ss / dof if dof > 0 else np.where(ss > 0, np.inf, np.nan)


def _np_lse(a, dims):
    with np.errstate(all="ignore"):
        m = np.max(a, axis=dims, keepdims=True) if a.size else np.zeros([1] * a.ndim, a.dtype)
        m = np.where(np.isfinite(m), m, 0)
        return (np.log(np.sum(np.exp(a - m), axis=dims)) + np.squeeze(m, axis=dims)).astype(_out_float(a))


def _expand_back(g: Tensor, shape, dims, keepdim: bool) -> Tensor:
    """g (the reduced shape) broadcast back over the reduced dims of ``shape``."""
    if not keepdim:
        for d in dims:
            g = g.unsqueeze(d)
    return g.expand(shape)


def _require(op: str, x) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")
    return x


def _real_only(op: str, x: Tensor, kernel: str | None = None) -> None:
    """Orderings have no meaning for complex values: PyTorch's errors."""
    from ._complex_core import refuse_complex
    refuse_complex(x, *((NotImplementedError, f"\"{kernel}\" not implemented for '{{}}'") if kernel else
                        (RuntimeError, f"{op}(): does not support complex input")))


def sum(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:  # noqa: A001 - torch's name
    """Sum over ``dim`` (all dims when None); integers and bools sum to int64."""
    x = _require("sum", input)
    out_t = dtype if dtype is not None else (x.dtype if x.dtype.is_floating_point or x.dtype.is_complex
                                             else _dtype.int64)
    _dtype.check_supported(out_t, "sum")
    if dtype is not None and out_t is not x.dtype:
        x = x.to(out_t)
    C = out_t if out_t.name != "bool" else _dtype.int32
    dims = reduce_dims("sum", x.dim(), dim)
    out = _kernel(SUM, x, dims, keepdim, C, out_t)
    shape = x._shape
    autograd.record("SumBackward1" if dim is not None else "SumBackward0", [x], [out],
                    lambda g: (_expand_back(g, shape, dims, keepdim),))
    return out


def _float_only(op: str, x: Tensor, dtype=None):
    d = dtype or x.dtype
    if not (d.is_floating_point or d.is_complex):
        raise RuntimeError(f"{op}(): could not infer output dtype. Input dtype must be either a floating point or "
                           f"complex dtype. Got: {_dtype.SCALAR_NAMES[d.name]}")
    return d


def mean(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """Mean over ``dim`` (all dims when None); floating inputs only, as in PyTorch."""
    x = _require("mean", input)
    d = _float_only("mean", x, dtype)
    if d is not x.dtype:
        x = x.to(d)
    dims = reduce_dims("mean", x.dim(), dim)
    out = _kernel(MEAN, x, dims, keepdim, d, d)
    shape = x._shape
    n = math.prod(shape[i] for i in dims) if dims else 1
    autograd.record("MeanBackward1" if dim is not None else "MeanBackward0", [x], [out],
                    lambda g: (_expand_back(g / n, shape, dims, keepdim),))
    return out


def prod(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """Product over one dim (or all elements when ``dim`` is None)."""
    x = _require("prod", input)
    if x.dtype.is_complex and dtype is None:
        from . import _complex_more
        return _complex_more.prod(x, dim, keepdim)
    out_t = dtype if dtype is not None else (x.dtype if x.dtype.is_floating_point else _dtype.int64)
    if out_t is not x.dtype:
        x = x.to(out_t)
    if dim is not None and not isinstance(dim, builtins.int):
        raise TypeError("prod(): argument 'dim' must be int, not tuple")
    if dim is None and keepdim:
        raise TypeError("prod() received an invalid combination of arguments: keepdim=True needs dim")
    dims = reduce_dims("prod", x.dim(), dim)
    C = out_t if out_t.name != "bool" else _dtype.int32
    out = _kernel(PROD, x, dims, keepdim, C, out_t)
    shape = x._shape

    def back(g):
        from .elementwise import where
        ge = _expand_back(g, shape, dims, keepdim)
        oe = _expand_back(out, shape, dims, keepdim)
        zero = x == 0
        nz = sum(zero.long(), dim=list(dims), keepdim=True) if dims else sum(zero.long())
        others = _kernel(PROD, where(zero, 1.0, x), dims, True, C, out_t)
        if not dims:
            others = others.reshape([1] * len(shape)) if shape else others
        alt = where(nz == 1, others, 0.0).expand(shape) if shape else where(nz == 1, others, 0.0)
        return (ge * where(zero, alt, oe / where(zero, 1.0, x)),)
    autograd.record("ProdBackward1" if dim is not None else "ProdBackward0", [x], [out], back, [x, out])
    return out


def _even_split_back(x: Tensor, out: Tensor, dims, keepdim: bool):
    def back(g):
        from .elementwise import where
        oe = _expand_back(out, x._shape, dims, keepdim)
        mask = (x == oe) | (x.isnan() & oe.isnan())
        count = sum(mask.float(), dim=list(dims), keepdim=True) if dims else sum(mask.float())
        return (where(mask, _expand_back(g, x._shape, dims, keepdim) / count, 0.0),)
    return back


def _check_nonempty(op: str, x: Tensor, dims, full: bool = False) -> None:
    """full: reducing all dims of an empty tensor (PyTorch raises RuntimeError; argmax IndexError)."""
    if x.numel() == 0 and (full or not dims or _any(x._shape[d] == 0 for d in dims)):
        if not full and dims:
            raise IndexError(f"{op}(): Expected reduction dim {dims[0]} to have non-zero size.")
        exc = IndexError if op in ("argmax", "argmin") else RuntimeError
        raise exc(f"{op}(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                  f"reduction dim with the 'dim' argument.")


def amax(input: Tensor, dim=(), keepdim: bool = False) -> Tensor:
    """Largest value over ``dim`` (all dims for ``()``); gradient split evenly between ties."""
    x = _require("amax", input)
    _real_only("amax", x, "max_values_cpu")
    dims = reduce_dims("amax", x.dim(), dim if dim != () else None)
    _check_nonempty("amax", x, dims, full=dim in ((), None))
    C = x.dtype if x.dtype.name != "bool" else _dtype.int32
    out = _kernel(AMAX, x, dims, keepdim, C, x.dtype)
    autograd.record("AmaxBackward0", [x], [out], _even_split_back(x, out, dims, keepdim), [x, out])
    return out


def amin(input: Tensor, dim=(), keepdim: bool = False) -> Tensor:
    """Smallest value over ``dim`` (all dims for ``()``); gradient split evenly between ties."""
    x = _require("amin", input)
    _real_only("amin", x, "min_values_cpu")
    dims = reduce_dims("amin", x.dim(), dim if dim != () else None)
    _check_nonempty("amin", x, dims, full=dim in ((), None))
    C = x.dtype if x.dtype.name != "bool" else _dtype.int32
    out = _kernel(AMIN, x, dims, keepdim, C, x.dtype)
    autograd.record("AminBackward0", [x], [out], _even_split_back(x, out, dims, keepdim), [x, out])
    return out


def _arg(op: OpDef, x: Tensor, dim, keepdim: bool) -> Tensor:
    _real_only(op.name, x)
    if x.dtype.name == "bool":
        raise RuntimeError(f"\"{op.name}_cpu\" not implemented for 'Bool'")
    if dim is None:
        _check_nonempty(op.name, x, (), full=True)
        flat = x.reshape(-1)
        out = _kernel(op, flat, (0,), False, x.dtype if x.dtype.name != "bool" else _dtype.int32, _dtype.int64)
        return out.reshape([1] * x.dim()) if keepdim else out
    dims = reduce_dims(op.name, x.dim(), dim)
    _check_nonempty(op.name, x, dims)
    return _kernel(op, x, dims, keepdim, x.dtype if x.dtype.name != "bool" else _dtype.int32, _dtype.int64)


def argmax(input: Tensor, dim=None, keepdim: bool = False) -> Tensor:
    """Index of the largest value (of the flattened tensor when ``dim`` is None); the first on ties."""
    return _arg(ARGMAX, _require("argmax", input), dim, keepdim)


def argmin(input: Tensor, dim=None, keepdim: bool = False) -> Tensor:
    """Index of the smallest value (of the flattened tensor when ``dim`` is None); the first on ties."""
    return _arg(ARGMIN, _require("argmin", input), dim, keepdim)




def _index_back(x: Tensor, idx: Tensor, d: int, keepdim: bool):
    def back(g, _gi=None):
        from .creation import arange
        from .elementwise import where
        gk = g if keepdim else g.unsqueeze(d)
        ik = idx if keepdim else idx.unsqueeze(d)
        shape = [1] * x.dim()
        shape[d] = x._shape[d]
        pos = arange(x._shape[d], device=x.device).reshape(shape)
        return (where(pos == ik, gk, 0.0),)
    return back


def _minmax(name: str, input, dim, keepdim: bool):
    """max/min: of all elements, ``(values, indices)`` along ``dim``, or elementwise with a tensor."""
    x = _require(name, input)
    red, arg, ret = (AMAX, ARGMAX, _rt.max) if name == "max" else (AMIN, ARGMIN, _rt.min)
    if isinstance(dim, Tensor):
        from .elementwise import maximum, minimum
        return (maximum if name == "max" else minimum)(x, dim)
    _real_only(name, x, f"{name}_all" if dim is None else None)
    C = x.dtype if x.dtype.name != "bool" else _dtype.int32
    if dim is None:
        _check_nonempty(name, x, ())
        dims = reduce_dims(name, x.dim(), None)
        out = _kernel(red, x, dims, False, C, x.dtype)
        autograd.record(f"{name.capitalize()}Backward1", [x], [out], _even_split_back(x, out, dims, False), [x, out])
        return out
    if x.dim() == 0:
        return ret((x.clone(), _arg(arg, x, dim, keepdim)))
    d = _wrap_dim(dim, x.dim(), name)
    _check_nonempty(name, x, (d,))
    values = _kernel(red, x, (d,), keepdim, C, x.dtype)
    indices = _kernel(arg, x, (d,), keepdim, C, _dtype.int64)
    autograd.record(f"{name.capitalize()}Backward0", [x], [values], _index_back(x, indices, d, keepdim), [x])
    return ret((values, indices))


def max(input: Tensor, dim=None, keepdim: bool = False, *, out=None):  # noqa: A001 - torch's name
    """``max(x)``: the largest value; ``max(x, dim)``: ``(values, indices)``; ``max(x, other)``: maximum."""
    return _minmax("max", input, dim, keepdim)


def min(input: Tensor, dim=None, keepdim: bool = False, *, out=None):  # noqa: A001 - torch's name
    """``min(x)``: the smallest value; ``min(x, dim)``: ``(values, indices)``; ``min(x, other)``: minimum."""
    return _minmax("min", input, dim, keepdim)


def _correction(op: str, unbiased, correction) -> float:
    if correction is not None and unbiased is not None:
        raise RuntimeError(f"{op}: cannot specify both correction and unbiased arguments")
    if correction is not None:
        return builtins.float(correction)
    if unbiased is None:
        return 1.0
    return 1.0 if unbiased else 0.0


def _var_args(dim, unbiased, keepdim):
    # var(x, unbiased_bool) is PyTorch's old positional form
    if isinstance(dim, builtins.bool):
        return None, dim, keepdim
    return dim, unbiased, keepdim


def var(input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *, correction=None) -> Tensor:
    """Variance over ``dim`` with ``correction`` (1 = Bessel's, the default)."""
    x = _require("var", input)
    dim, unbiased, keepdim = _var_args(dim, unbiased, keepdim)
    if x.dtype.is_complex:
        from . import _complex_more
        return _complex_more.var(x, dim, unbiased, keepdim, correction, std=False)
    d = _float_only("var", x)
    c = _correction("var", unbiased, correction)
    dims = reduce_dims("var", x.dim(), dim)
    out = _scaled_moment(VAR, x, dims, keepdim, d, c, 2)
    n = math.prod(x._shape[i] for i in dims) if dims else 1

    def back(g):
        m = mean(x, dim=list(dims), keepdim=True) if dims else mean(x)
        return (_expand_back(g, x._shape, dims, keepdim) * 2 * (x - m) / _max(n - c, 0),)
    autograd.record("VarBackward0", [x], [out], back, [x])
    return out


def std(input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *, correction=None) -> Tensor:
    """Standard deviation over ``dim`` with ``correction`` (1 = Bessel's, the default)."""
    x = _require("std", input)
    dim, unbiased, keepdim = _var_args(dim, unbiased, keepdim)
    if x.dtype.is_complex:
        from . import _complex_more
        return _complex_more.var(x, dim, unbiased, keepdim, correction, std=True)
    d = _float_only("std", x)
    c = _correction("std", unbiased, correction)
    dims = reduce_dims("std", x.dim(), dim)
    out = _scaled_moment(STD, x, dims, keepdim, d, c, 1)
    n = math.prod(x._shape[i] for i in dims) if dims else 1

    def back(g):
        m = mean(x, dim=list(dims), keepdim=True) if dims else mean(x)
        from .elementwise import where
        so = _expand_back(out, x._shape, dims, keepdim)
        # where the std is 0 PyTorch's gradient is 0 (not 0/0)
        return (where(so == 0, 0.0, _expand_back(g, x._shape, dims, keepdim) * (x - m) / (so * _max(n - c, 0))),)
    autograd.record("StdBackward0", [x], [out], back, [x, out])
    return out


def _scaled_moment(op: OpDef, x: Tensor, dims, keepdim: bool, d, c: float, power: int) -> Tensor:
    """var/std of rows whose values pass 2^60 are computed on x scaled by a power of two (exact),
    then scaled back: float32 has no room for the squares of values above ~1e19, which PyTorch's
    CPU kernels (double accumulators) handle."""
    from .elementwise import ew, where
    from .unary import UNARY
    with autograd.no_grad():
        if x.numel() == 0 or not dims:
            return _kernel(op, x, dims, keepdim, d, d, params=(c,))
        s = amax(x.abs(), list(dims), keepdim=True)
        s = where((s < 2.0 ** 60) | s.isinf() | s.isnan(), 1.0, ew(UNARY["_pow2_floor"], s))
        y = x / s
        # centre first: Welford's float32 steps lose the digits of a large common offset
        y = y - mean(y, list(dims), keepdim=True)
        r = _kernel(op, y, dims, keepdim, d, d, params=(c,))
        s = s if keepdim else s.reshape(r._shape)
        return r * (s * s if power == 2 else s)


def var_mean(input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *, correction=None):
    """``(var, mean)`` over ``dim``."""
    return var(input, dim, unbiased, keepdim, correction=correction), mean(input, dim, keepdim)


def std_mean(input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *, correction=None):
    """``(std, mean)`` over ``dim``."""
    return std(input, dim, unbiased, keepdim, correction=correction), mean(input, dim, keepdim)


def logsumexp(input: Tensor, dim, keepdim: bool = False) -> Tensor:
    """``log(sum(exp(input)))`` over ``dim``, computed stably."""
    x = _require("logsumexp", input)
    if x.dtype.is_complex:
        from . import _complex_more
        return _complex_more.logsumexp(x, reduce_dims("logsumexp", x.dim(), dim), keepdim)
    if not x.dtype.is_floating_point:
        x = x.float()
    dims = reduce_dims("logsumexp", x.dim(), dim)
    out = _kernel(LOGSUMEXP, x, dims, keepdim, x.dtype, x.dtype)

    def back(g):
        from .unary import exp
        return (_expand_back(g, x._shape, dims, keepdim) * exp(x - _expand_back(out, x._shape, dims, keepdim)),)
    autograd.record("LogsumexpBackward0", [x], [out], back, [x, out])
    return out


def norm(input: Tensor, p="fro", dim=None, keepdim: bool = False, out=None, dtype=None) -> Tensor:
    """Vector p-norm over ``dim`` (all elements when None): p = 2 ('fro'), 1, inf, -inf, 0 or any number."""
    x = _require("norm", input)
    if x.dtype.is_complex:
        x = x.abs()   # the norms of complex values are those of their magnitudes
    _float_only("norm", x, dtype)
    if p is None or p == "fro":
        p = 2
    if isinstance(p, str):
        raise RuntimeError(f"norm: p='{p}' is not supported (matrix norms need linalg)")
    p = builtins.float(p)
    dims = reduce_dims("norm", x.dim(), dim)
    block, params = {2.0: ("norm2", ()), 1.0: ("norm1", ()), math.inf: ("norm_inf", ()),
                     -math.inf: ("norm_ninf", ()), 0.0: ("norm0", ())}.get(p, ("normp", (p,)))
    r = _kernel(NORM, x, dims, keepdim, x.dtype, x.dtype, params=params, block=block)

    def back(g):
        from .elementwise import where
        from .unary import abs as _abs, sign
        ge = _expand_back(g, x._shape, dims, keepdim)
        re = _expand_back(r, x._shape, dims, keepdim)
        if p == 2.0:
            return (where(re == 0, 0.0, ge * x / re),)
        if p == 1.0:
            return (ge * sign(x),)
        if p in (math.inf, -math.inf):
            mask = _abs(x) == re
            cnt = sum(mask.float(), dim=list(dims), keepdim=True) if dims else sum(mask.float())
            return (where(mask, ge * sign(x) / cnt, 0.0),)
        if p == 0.0:
            return (ge * 0,)
        return (where(re == 0, 0.0, ge * x * _abs(x) ** (p - 2) / re ** (p - 1)),)
    autograd.record("NormBackward1" if dim is not None else "NormBackward0", [x], [r], back, [x, r])
    return r


def count_nonzero(input: Tensor, dim=None) -> Tensor:
    """Number of nonzero elements over ``dim``."""
    return sum(input != 0, dim=dim)


def all(input: Tensor, dim=None, keepdim: bool = False) -> Tensor:  # noqa: A001 - torch's name
    """True when every element (over ``dim``) is nonzero (a uint8 input gives uint8 0 / 1, as in PyTorch)."""
    x = _require("all", input)
    dims = reduce_dims("all", x.dim(), dim)
    C = x.dtype if x.dtype.name != "bool" else _dtype.bool_
    return _kernel(ALL, x, dims, keepdim, C, x.dtype if x.dtype.name == "uint8" else _dtype.bool_)  # as PyTorch


def any(input: Tensor, dim=None, keepdim: bool = False) -> Tensor:  # noqa: A001 - torch's name
    """True when some element (over ``dim``) is nonzero (a uint8 input gives uint8 0 / 1, as in PyTorch)."""
    x = _require("any", input)
    dims = reduce_dims("any", x.dim(), dim)
    C = x.dtype if x.dtype.name != "bool" else _dtype.bool_
    return _kernel(ANY, x, dims, keepdim, C, x.dtype if x.dtype.name == "uint8" else _dtype.bool_)  # as PyTorch


def _softmax_dim(op: str, x: Tensor, dim) -> int:
    if dim is None:
        # PyTorch's deprecated implicit choice (it warns): 0 for 0-, 1- and 3-D inputs, else 1
        import warnings
        warnings.warn(f"Implicit dimension choice for {op} has been deprecated. Change the call to include dim=X "
                      "as an argument.", UserWarning, stacklevel=3)
        dim = 0 if x.dim() in (0, 1, 3) else 1
    return _wrap_dim(dim, _max(x.dim(), 1), op) if x.dim() else 0


def softmax(input: Tensor, dim=None, _stacklevel: int = 3, dtype=None) -> Tensor:
    """``exp(x - max) / sum(exp(x - max))`` along ``dim``."""
    x = _require("softmax", input)
    if dtype is not None:
        x = x.to(dtype)
    elif not x.dtype.is_floating_point:
        raise NotImplementedError(f"\"softmax_lastdim_kernel_impl\" not implemented for "
                                  f"'{_dtype.SCALAR_NAMES[x.dtype.name]}'")
    d = _softmax_dim("softmax", x, dim)
    if x.dim() == 0:
        return softmax(x.reshape(1), 0).reshape(())
    if x.numel() == 0:
        return x.clone()
    with autograd.no_grad():
        from .unary import exp
        # PyTorch's order: subtract the max (inf - inf is NaN there too), exponentiate, normalise
        e = exp(x - amax(x, d, keepdim=True))
        out = e / sum(e, d, keepdim=True)

    def back(g):
        return (out * (g - sum(g * out, d, keepdim=True)),)
    autograd.record("SoftmaxBackward0", [x], [out], back, [out])
    return out


def log_softmax(input: Tensor, dim=None, _stacklevel: int = 3, dtype=None) -> Tensor:
    """``x - max - log(sum(exp(x - max)))`` along ``dim``."""
    x = _require("log_softmax", input)
    if dtype is not None:
        x = x.to(dtype)
    elif not x.dtype.is_floating_point:
        raise NotImplementedError(f"\"log_softmax_lastdim_kernel_impl\" not implemented for "
                                  f"'{_dtype.SCALAR_NAMES[x.dtype.name]}'")
    d = _softmax_dim("log_softmax", x, dim)
    if x.dim() == 0:
        return log_softmax(x.reshape(1), 0).reshape(())
    if x.numel() == 0:
        return x.clone()
    with autograd.no_grad():
        from .unary import exp, log
        # (x - max) first, as PyTorch: x - logsumexp(x) would cancel for large x
        shifted = x - amax(x, d, keepdim=True)
        out = shifted - log(sum(exp(shifted), d, keepdim=True))

    def back(g):
        from .unary import exp
        return (g - exp(out) * sum(g, d, keepdim=True),)
    autograd.record("LogSoftmaxBackward0", [x], [out], back, [out])
    return out


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
methods(("sum", sum), ("mean", mean), ("prod", prod), ("max", max), ("min", min), ("amax", amax), ("amin", amin),
        ("argmax", argmax), ("argmin", argmin), ("var", var), ("std", std), ("norm", norm), ("logsumexp", logsumexp),
        ("all", all), ("any", any), ("count_nonzero", count_nonzero))
api("softmax", softmax, method=lambda self, dim, dtype=None: softmax(self, dim, dtype=dtype))
api("log_softmax", log_softmax, method=lambda self, dim, dtype=None: log_softmax(self, dim, dtype=dtype))
methods(("std_mean", std_mean), ("var_mean", var_mean), tensor=False)
