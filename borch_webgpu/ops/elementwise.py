"""Elementwise ops: the shared dispatch (operands, broadcasting, type promotion, autograd) and the
binary and ternary ops (arithmetic, comparisons, logical ops, where, lerp)."""
from __future__ import annotations

import builtins
import math
import numbers

import numpy as np

from .. import _dtype, autograd
from ..device import backend_for
from ..device.capture import Dyn
from ..device.int64_range import ZERO_DIVISION, check_zero_divisor
from ..tensor import Tensor
from ._registry import OpDef, api, methods, register
from ._shapes import _broadcast, broadcast_shapes

__all__ = ["add", "sub", "mul", "div", "subtract", "multiply", "divide", "true_divide", "floor_divide", "remainder",
           "fmod", "pow", "atan2", "arctan2", "maximum", "minimum", "fmax", "fmin", "eq", "ne", "lt", "le", "gt", "ge", "greater",
           "less", "greater_equal", "less_equal", "not_equal", "logical_and", "logical_or", "logical_xor", "where",
           "lerp", "broadcast_shapes", "sum_to", "ew"]


# ---- shapes, operands and promotion ---------------------------------------------------------------
def _py_scalar(x):
    if isinstance(x, Dyn):
        return x  # a value recomputed at every replay of a captured step
    if isinstance(x, (builtins.bool, np.bool_)):
        return builtins.bool(x)
    if isinstance(x, numbers.Integral):
        return builtins.int(x)
    if isinstance(x, numbers.Real):
        return builtins.float(x)
    if isinstance(x, numbers.Complex):
        return builtins.complex(x)
    raise TypeError(f"unsupported scalar type {type(x).__name__}")


_PLAIN = (builtins.float, builtins.int, builtins.bool)


def operands(op: str, args):
    """Validate operands (tensors or Python numbers); returns (normalised args, device)."""
    dev = None
    for x in args:  # the common case, checked cheaply: tensors on one device and plain Python numbers
        if isinstance(x, Tensor):
            if dev is None:
                dev = x._device
            elif x._device is not dev and x._device != dev:
                break
        elif type(x) not in _PLAIN:
            break
    else:
        if dev is not None:
            return list(args), dev
    ts = [x for x in args if isinstance(x, Tensor)]
    if not ts:
        raise TypeError(f"{op}(): expected at least one Tensor argument")
    dev = ts[0].device
    if any(t.device != dev for t in ts):
        gpu = [t for t in ts if t.device.type != "cpu"]
        dev = gpu[0].device
        fixed = []
        for x in args:
            if isinstance(x, Tensor) and x.device != dev:
                if x.dim() != 0:
                    raise RuntimeError(f"{op}: Expected all tensors to be on the same device, but found at least "
                                       f"two devices, {dev} and {x.device}!")
                x = x.to(dev)
            fixed.append(x)
        args = fixed
    out = []
    for x in args:
        if isinstance(x, Tensor):
            out.append(x)
        elif isinstance(x, (numbers.Number, np.generic)):
            out.append(_py_scalar(x))
        else:
            raise TypeError(f"{op}(): argument must be a Tensor or a number, not {type(x).__name__}")
    return out, dev


def promote(args) -> _dtype.dtype:
    dims, zero, scal = [], [], []
    for x in args:
        if isinstance(x, Tensor):
            (dims if x._shape else zero).append(x.dtype)
        else:
            scal.append(x)
    if not zero and not scal and len(dims) > 1 and all(d is dims[0] for d in dims):
        return dims[0]
    return _dtype.result_type_of(dims, zero, scal)


def _bf16_value(x: float) -> float:
    """The Python float x rounded to the nearest bfloat16."""
    from ..device.bf16 import round_bf16
    return builtins.float(round_bf16(x))


def _fix_scalar(x, C):
    if isinstance(x, Tensor):
        return x
    if C.category == 2:
        return x if isinstance(x, Dyn) else builtins.float(x)
    if C.category == 1:
        v = builtins.int(x)
        if -(2 ** 31) <= v < 2 ** 31 and not C.host:
            return v
        # past int32 the scalar wraps into the dtype, as in PyTorch (uint8 + 2**40 + 3 adds 3, int32 + 2**40 adds 0,
        # int64 + 2**63 wraps; int64 holds the rest: exact on cpu, on the host on webgpu, device/host64.py)
        if not -(2 ** 63) <= v < 2 ** 64:
            raise OverflowError("int too big to convert" if v > 0 else "can't convert negative int to unsigned")
        return builtins.int(np.array(v & (2 ** 64 - 1), dtype=np.uint64).astype(np.int64).astype(C.np))
    return builtins.int(builtins.bool(x))


def _floatify(d):
    return d if d.is_floating_point or d.is_complex else _dtype.get_default_dtype()


def dtypes_for(op: OpDef, args):
    """(compute C, op result R, stored out) for an op's dtype rule."""
    rule = op.dtype_rule
    res = promote(args)
    if rule == "promote":
        if res.name == "bool":
            return _dtype.int32, _dtype.int32, _dtype.bool_
        return res, res, res
    if rule == "float":
        f = _floatify(res)
        return f, f, f
    if rule in ("compare", "logical"):
        C = res if res.name != "bool" else _dtype.bool_
        return C, _dtype.bool_, _dtype.bool_
    if rule == "predicate":  # isnan, isinf ...: float64 is tested as float64
        return (_dtype.float64 if res.name == "float64" else _dtype.float32), _dtype.bool_, _dtype.bool_
    if rule == "where":
        res = promote(args[1:])
        C = res if res.name != "bool" else _dtype.int32
        return C, C, res
    if rule == "same":
        if res.name == "bool":
            return _dtype.int32, _dtype.int32, _dtype.bool_
        return res, res, res
    raise AssertionError(rule)


def _grad_name(op: OpDef) -> str:
    return op.extra.get("grad_name") or "".join(p.capitalize() for p in op.name.split("_")) + "Backward0"


def ew(op: OpDef, *args, params=(), block: str | None = None, dtypes=None, out: Tensor | None = None,
       grad_name: str | None = None) -> Tensor:
    """Run elementwise op ``op`` on tensors/scalars with broadcasting, promotion and autograd.

    ``out``: write the result into this tensor (``out=`` arguments and in-place ops); the kernel
    writes it directly when nothing records a graph and no operand partly overlaps it."""
    args, dev = operands(op.name, args)
    C, R, O = dtypes or dtypes_for(op, args)
    if C.category == 3 or op.dtype_rule == "predicate" and any(
            isinstance(x, Tensor) and x.dtype.category == 3 for x in args):
        # complex: computed on the host by numpy (ops/_complex_ew.py); isnan & co. test both parts
        from . import _complex_ew
        return _complex_ew.ew(op, args, dev, C, R, O, params, out)
    if C.name == "float16":  # half precision is stored, not computed: kernels work in f32
        C = _dtype.float32
        R = _dtype.float32 if R.name == "float16" else R
    kargs = [_fix_scalar(x, C) for x in args]
    if C is _dtype.bfloat16 and op.dtype_rule == "compare":  # PyTorch compares with the scalar as a bfloat16
        kargs = [_bf16_value(x) if x.__class__ is builtins.float else x for x in kargs]
    shape = _broadcast(op.name, [x._shape if isinstance(x, Tensor) else () for x in kargs])
    wgsl = (op.wgsl[0], block) if block else None
    if out is not None:
        from .memory import _check_result, assign, check_no_overlap
        _check_result(op.name, out, _Meta(shape, O))
        if not any(x is out for x in kargs):   # in-place ops checked (or exempted) in memory.inplace
            check_no_overlap(out)
        if autograd.graph.needs_grad(*args, out):
            raise RuntimeError(f"{op.name}(): functions with out=... arguments don't support automatic "
                               "differentiation, but one of the arguments requires grad.")
        if len(kargs) == 1 and kargs[0] is out and op.extra.get("epilogue") and \
                _fold_into_producer(op.extra["epilogue"], out):
            out._bump_version()  # e.g. an in-place relu became the epilogue of the kernel that wrote out
            return out
        if _direct_ok(out, kargs, dev):
            backend_for(dev).elementwise(op, kargs, C, R, shape, out.dtype, params=params, wgsl=wgsl, out=out)
            out._bump_version()
            return out
        r = ew(op, *args, params=params, block=block, dtypes=(C, R, O))
        assign(out, r)
        return out
    storage = backend_for(dev).elementwise(op, kargs, C, R, shape, O, params=params, wgsl=wgsl)
    res = Tensor._make(storage, shape, O, dev)
    if op.backward is not None and O.is_floating_point:
        autograd.record(grad_name or _grad_name(op), args, [res], lambda g: op.backward(g, *args, res, *params),
                        [a for a in args if isinstance(a, Tensor)] + ([res] if op.extra.get("saves_out") else []))
    return res


def _fold_into_producer(name: str, self: Tensor) -> bool:
    """On webgpu: whether the dispatch that just wrote all of self (a fresh contiguous result) took op
    ``name`` as its epilogue (Runtime.take_epilogue), so that no kernel of its own is needed."""
    if self._device.type != "webgpu" or self._offset != 0 or not self.is_contiguous():
        return False
    from ..device.gpu_backend import backend
    return backend().rt.take_epilogue(name, self._storage.bid, self.numel())


class _Meta:
    """Shape and dtype of a result not computed yet (for the out= checks)."""

    def __init__(self, shape, dtype):
        self._shape, self.dtype = shape, dtype


def _direct_ok(out: Tensor, operands, dev) -> bool:
    """Whether a kernel may write ``out`` while reading ``operands``: each operand that shares its
    memory reads exactly the element being written (same offset and strides), and a non-contiguous
    ``out`` goes with at most two operands."""
    if out.device != dev:
        return False
    for x in operands:
        if isinstance(x, Tensor) and x._storage is out._storage and \
                (x._offset, tuple(x._stride), tuple(x._shape)) != (out._offset, tuple(out._stride), tuple(out._shape)):
            return False
    return out.is_contiguous() or len(operands) <= 2


def sum_to(g: Tensor, shape) -> Tensor:
    """Sum a broadcast gradient back to ``shape``."""
    shape = tuple(shape)
    if tuple(g._shape) == shape:
        return g
    lead = g.dim() - len(shape)
    dims = list(range(lead)) + [lead + i for i, s in enumerate(shape) if s == 1 and g._shape[lead + i] != 1]
    r = g.sum(dim=dims, keepdim=True) if dims else g
    return r.reshape(shape)


def _tg(g, x):
    """g summed to x's shape when x is a float tensor that may need a gradient, else None."""
    if isinstance(x, Tensor) and x.dtype.is_floating_point:
        return sum_to(g, x._shape)
    return None


def _reg(name, block, ref, rule="promote", backward=None, tol=(1e-6, 1e-6), file="ops_binary.wgsl", **extra):
    return register(OpDef(name, "binary", (file, block), ref, dtype_rule=rule, backward=backward, tol=tol,
                          extra=extra))


# ---- arithmetic ------------------------------------------------------------------------------------
def _div_back(g, a, b, out):
    ga = _tg(g / b, a) if isinstance(a, Tensor) else None
    gb = _tg(-g * out / b, b) if isinstance(b, Tensor) else None
    return ga, gb


ADD = _reg("add", "add", np.add, backward=lambda g, a, b, out: (_tg(g, a), _tg(g, b)))
SUB = _reg("sub", "sub", np.subtract, backward=lambda g, a, b, out: (_tg(g, a), _tg(-g, b) if isinstance(b, Tensor)
                                                                     else None))
MUL = _reg("mul", "mul", np.multiply,
           backward=lambda g, a, b, out: (_tg(g * b, a) if isinstance(a, Tensor) else None,
                                          _tg(g * a, b) if isinstance(b, Tensor) else None))
DIV = _reg("div", "div", np.true_divide, rule="float", backward=_div_back, tol=(2e-6, 1e-6))
DIV_TRUNC = register(OpDef("_div_trunc", "binary", ("ops_binary.wgsl", "div_trunc_f"),
                           lambda a, b: np.trunc(np.true_divide(a, b)) if np.asarray(a).dtype.kind == "f"
                           else _int_div(a, b, "trunc"), tol=(1e-6, 1e-6),
                           backward=lambda g, a, b, out: (_tg(g * 0, a), _tg(g * 0, b)),
                           extra={"int_block": "div_trunc_i", "grad_name": "DivBackward1", "golden": "div"}))
DIV_FLOOR = register(OpDef("floor_divide", "binary", ("ops_binary.wgsl", "div_floor_f"),
                           lambda a, b: np.floor_divide(a, b) if np.asarray(a).dtype.kind == "f"
                           else _int_div(a, b, "floor"), tol=(1e-6, 1e-6),
                           backward=lambda g, a, b, out: (_tg(g * 0, a), _tg(g * 0, b)),
                           extra={"int_block": "div_floor_i", "grad_name": "DivBackward1"}))
REMAINDER = _reg("remainder", "remainder_f", lambda a, b: _np_rem(a, b), tol=(1e-5, 1e-5),
                 backward=lambda g, a, b, out: (_tg(g, a), _tg(-g * floor_divide(a, b), b) if isinstance(b, Tensor)
                                                else None),
                 int_block="remainder_i")
FMOD = _reg("fmod", "fmod_f", lambda a, b: _np_fmod(a, b), tol=(1e-5, 1e-5),
            backward=lambda g, a, b, out: (_tg(g, a), _tg(-g * (a / b).trunc(), b) if isinstance(b, Tensor) else None),
            int_block="fmod_i")


def _int_div(a, b, mode):
    a, b = np.asarray(a), np.asarray(b)
    check_zero_divisor(a, b)
    with np.errstate(all="ignore"):
        q = np.floor_divide(a, np.where(b == 0, 1, b))
        if mode == "trunc":
            r = a - q * b
            q = np.where((r != 0) & ((a < 0) != (b < 0)), q + 1, q)
    return q


def _overflow_nan(a, b, r):
    """NaN where a / b overflows for finite a and b, as PyTorch's vectorized fmod/remainder."""
    a, b = np.asarray(a), np.asarray(b)
    with np.errstate(all="ignore"):
        bad = np.isfinite(a) & np.isfinite(b) & (b != 0) & ~np.isfinite(a / b)
    return np.where(bad, np.float32(np.nan), r)


def _np_rem(a, b):
    if np.asarray(a).dtype.kind == "f" or np.asarray(b).dtype.kind == "f":
        m = np.fmod(a, b)
        return _overflow_nan(a, b, np.where((m != 0) & ((np.asarray(b) < 0) != (m < 0)), m + b, m))
    check_zero_divisor(a, b)
    return np.remainder(a, b)


def _np_fmod(a, b):
    if np.asarray(a).dtype.kind == "f" or np.asarray(b).dtype.kind == "f":
        return _overflow_nan(a, b, np.fmod(a, b))
    check_zero_divisor(a, b)
    return np.fmod(a, b)


_BOOL_KERNELS = {"_div_trunc": "div_trunc", "floor_divide": "div_floor", "remainder": "remainder", "fmod": "fmod"}


def _check_int_operands(op: str, a, b, O) -> None:
    """Integer division: PyTorch's errors for bool operands and for a Python number 0 as the divisor
    (at once, on both devices). A zero inside a divisor tensor is found where the division runs: by
    numpy on cpu, by the kernel on webgpu (device/int64_range.py), never by a read here."""
    if O.name == "bool":
        _broadcast(op, [x._shape for x in (a, b) if isinstance(x, Tensor)])  # shapes are checked first
        raise NotImplementedError(f'"{_BOOL_KERNELS[op]}_cpu" not implemented for \'Bool\'')
    if not isinstance(b, Tensor) and b == 0 and (not isinstance(a, Tensor) or a.numel() > 0):
        raise RuntimeError(ZERO_DIVISION)


def _check_alpha(other, alpha, input) -> None:
    if isinstance(alpha, builtins.float):
        ints = [x for x in (input, other) if isinstance(x, Tensor)]
        if ints and all(not t.dtype.is_floating_point for t in ints) and not any(
                isinstance(x, builtins.float) for x in (input, other)):
            raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")


# input + c * other in one kernel: add/sub with alpha (SGD's p.add_(grad, alpha=-lr), Adam's updates)
ADD_SCALED = register(OpDef("_add_scaled", "ternary", ("ops_binary.wgsl", "add_scaled"), lambda a, b, c: a + c * b,
                            tol=(1e-6, 1e-6), backward=lambda g, a, b, c, out: (
                                _tg(g, a), _tg(g * c, b) if isinstance(b, Tensor) else None, None),
                            extra={"golden": "add", "grad_name": "AddBackward0"}))


def _scaled(op: OpDef, name: str, input, other, alpha, out):
    if alpha == 1 and not isinstance(alpha, Dyn):
        return ew(op, input, other, out=out)
    if not isinstance(other, Tensor):
        return ew(op, input, other * alpha, out=out)
    if other.dtype is _dtype.bfloat16 and not isinstance(alpha, Dyn) and \
            dtypes_for(op, [input, other])[2] is _dtype.bfloat16:
        # PyTorch's bfloat16 kernel rounds alpha, then other * alpha, to bfloat16 before adding
        return ew(op, input, other * _bf16_value(alpha), out=out)
    if name == "sub":
        alpha = -alpha
    return ew(ADD_SCALED, input, other, alpha, out=out, grad_name=_grad_name(op))


def add(input, other, *, alpha=1, out=None) -> Tensor:
    """``input + alpha * other``, broadcasting; either side may be a Python scalar."""
    _check_alpha(other, alpha, input)
    return _scaled(ADD, "add", input, other, alpha, out)


def sub(input, other, *, alpha=1, out=None) -> Tensor:
    """``input - alpha * other``, broadcasting; either side may be a Python scalar."""
    _no_bool_sub(input, other)
    _check_alpha(other, alpha, input)
    return _scaled(SUB, "sub", input, other, alpha, out)


def _is_bool(x) -> bool:
    return x.dtype.name == "bool" if isinstance(x, Tensor) else isinstance(x, builtins.bool)


def _no_bool_sub(a, b) -> None:
    if _is_bool(a) and _is_bool(b):
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                           "Use the `^` or `logical_xor()` operator instead.")
    if _is_bool(a) or _is_bool(b):
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")


def mul(input, other, *, out=None) -> Tensor:
    """``input * other``, broadcasting; either side may be a Python scalar."""
    return ew(MUL, input, other, out=out)


def div(input, other, *, rounding_mode=None, out=None) -> Tensor:
    """``input / other``: true division (integers give float32), or ``rounding_mode='trunc'``/``'floor'``."""
    if rounding_mode is None:
        return ew(DIV, input, other, out=out)
    if rounding_mode not in ("trunc", "floor"):
        raise ValueError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                         f"'{rounding_mode}'")
    op = DIV_TRUNC if rounding_mode == "trunc" else DIV_FLOOR
    return _int_aware(op, input, other, out)


def _int_aware(op: OpDef, a, b, out=None) -> Tensor:
    args, _ = operands(op.name, (a, b))
    C, R, O = dtypes_for(op, args)
    block = None
    if C.category != 2:
        _check_int_operands(op.name, args[0], args[1], O)
        block = op.extra["int_block"]
    return ew(op, *args, block=block, out=out)


def floor_divide(input, other, *, out=None) -> Tensor:
    """``input // other`` (rounds toward negative infinity)."""
    return _int_aware(DIV_FLOOR, input, other, out)


def remainder(input, other, *, out=None) -> Tensor:
    """Python's ``%``: the result has the sign of the divisor."""
    return _int_aware(REMAINDER, input, other, out)


def fmod(input, other, *, out=None) -> Tensor:
    """C's fmod: the result has the sign of the dividend."""
    return _int_aware(FMOD, input, other, out)


def _out(r: Tensor, out) -> Tensor:
    """Write a result into a caller's ``out=`` tensor."""
    if out is None:
        return r
    from .memory import assign
    if tuple(out._shape) != tuple(r._shape):
        raise RuntimeError(f"out=: expected an out tensor of shape {list(r._shape)}, got {list(out._shape)}")
    from .memory import check_no_overlap
    check_no_overlap(out)
    assign(out, r)
    return out


subtract, multiply, divide, true_divide = sub, mul, div, div

# ---- pow, atan2, maximum, minimum ------------------------------------------------------------------
def _pow_back(g, a, b, out):
    ga = _tg(where(b == 0, 0.0, g * b * pow(a, b - 1)), a) if isinstance(a, Tensor) else None
    gb = _tg(g * out * _safe_log(a, b), b) if isinstance(b, Tensor) else None
    return ga, gb


POW = _reg("pow", "pow", lambda a, b: np.power(a, b), rule="float", tol=(1e-5, 1e-6), grad_name="PowBackward1",
           backward=_pow_back)


def _safe_log(a, b):
    # d/db a**b = a**b * log(a); PyTorch masks a == 0 (where b >= 0) to 0
    if isinstance(a, Tensor):
        return where((a == 0) & (b >= 0), 0.0, a.log())
    return math.log(a) if a > 0 else (0.0 if a == 0 else float("nan"))


POW_SCALAR = register(OpDef("_pow_scalar", "unary", ("ops_unary.wgsl", "pow_scalar"), lambda a, p: np.power(a, p),
                            dtype_rule="float", tol=(1e-5, 1e-6),
                            backward=lambda g, a, out, p: (g * p * pow(a, p - 1) if p != 2 else g * 2 * a,),
                            extra={"grad_name": "PowBackward0", "golden": "pow"}))
RPOW_SCALAR = register(OpDef("_rpow_scalar", "unary", ("ops_unary.wgsl", "rpow_scalar"),
                             lambda a, p: np.power(a.dtype.type(p), a), dtype_rule="float", tol=(1e-5, 1e-6),
                             backward=lambda g, a, out, p: (g * out * (math.log(p) if p > 0 else
                                                                       (0.0 if p == 0 else float("nan"))),),
                             extra={"grad_name": "PowBackward1", "golden": "pow", "saves_out": True}))
IPOW = register(OpDef("_ipow", "unary", ("ops_unary.wgsl", "ipow_scalar"), lambda a, p: np.power(a, p),
                      dtype_rule="same", tol=(0, 0), extra={"golden": "pow"}))
def _np_ipow(a, b):
    """Integer powers as the WGSL kernel computes them: wrapping int32, negative exponents give 0
    except for bases 1 and -1 (PyTorch's result)."""
    a, b = np.broadcast_arrays(np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64))
    with np.errstate(all="ignore"):
        pos = np.power(a, np.maximum(b, 0))
    neg = np.where(a == 1, 1, np.where(a == -1, np.where(b % 2 == 0, 1, -1), 0))
    return np.where(b < 0, neg, pos)


POW_I = register(OpDef("_pow_i", "binary", ("ops_binary.wgsl", "pow_i"), _np_ipow, tol=(0, 0),
                       extra={"golden": "pow"}))


def pow(input, exponent, *, out=None) -> Tensor:  # noqa: A001 - torch's name
    """``input ** exponent``; either may be a Python number."""
    args, _ = operands("pow", (input, exponent))
    res = promote(args)
    if res.name == "bool":
        raise NotImplementedError("\"pow\" not implemented for 'Bool'")
    if res.is_complex:
        return ew(POW, input, exponent, out=out)   # ops/_complex_ew.py
    if not isinstance(input, Tensor):
        base = args[0]
        if res.is_floating_point:
            e = exponent if exponent.dtype is res else exponent.to(res)
            return ew(RPOW_SCALAR, e, params=(builtins.float(base),), out=out)
        return ew(POW_I, base, exponent, out=out)
    if isinstance(exponent, Tensor):
        if not res.is_floating_point:
            return ew(POW_I, input, exponent, out=out)
        return ew(POW, input, exponent, out=out)
    e = args[1]
    if res.is_floating_point:
        x = input if input.dtype is res else input.to(res)
        return ew(POW_SCALAR, x, params=(builtins.float(e),), out=out)
    if e < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    x = input if input.dtype is res else input.to(res)
    return ew(IPOW, x, params=(builtins.int(e),), out=out)


def _atan2_back(g, a, b, out):
    d = a * a + b * b
    return _tg(g * b / d, a), _tg(-g * a / d, b)


ATAN2 = _reg("atan2", "atan2", np.arctan2, rule="float", backward=_atan2_back, tol=(2e-6, 2e-6))


def atan2(input, other, *, out=None) -> Tensor:
    """The angle of (other, input), element-wise, in radians."""
    _tensors_only("atan2", input, other)
    return ew(ATAN2, input, other, out=out)


arctan2 = atan2


def _minmax_back(pick_a):
    def back(g, a, b, out):
        mask_a = pick_a(a, b)
        # ties split the gradient evenly, as PyTorch does
        tie = (a == b)
        ga = where(tie, g / 2, where(mask_a, g, 0.0))
        gb = where(tie, g / 2, where(mask_a, 0.0, g))
        return _tg(ga, a), _tg(gb, b)
    return back


def _np_max(a, b, nan_wins=True):
    a, b = np.broadcast_arrays(np.asarray(a), np.asarray(b))
    r = np.where(a < b, b, a)
    if a.dtype.kind == "f":
        na, nb = np.isnan(a), np.isnan(b)
        r = np.where(na, a if nan_wins else b, np.where(nb, b if nan_wins else a, r))
    return r


def _np_min(a, b, nan_wins=True):
    a, b = np.broadcast_arrays(np.asarray(a), np.asarray(b))
    r = np.where(b < a, b, a)
    if a.dtype.kind == "f":
        na, nb = np.isnan(a), np.isnan(b)
        r = np.where(na, a if nan_wins else b, np.where(nb, b if nan_wins else a, r))
    return r


MAXIMUM = _reg("maximum", "maximum", _np_max, rule="promote", backward=_minmax_back(lambda a, b: a > b), tol=(0, 0))
MINIMUM = _reg("minimum", "minimum", _np_min, rule="promote", backward=_minmax_back(lambda a, b: a < b), tol=(0, 0))
def _fminmax_back(pick_a):
    def back(g, a, b, out):
        mask_a = pick_a(a, b)  # ties go to the first operand, as in PyTorch's fmax/fmin
        return _tg(where(mask_a, g, 0.0), a), _tg(where(mask_a, 0.0, g), b)
    return back


FMAX = _reg("fmax", "fmax", lambda a, b: _np_max(a, b, False), rule="promote",
            backward=_fminmax_back(lambda a, b: (a >= b) | b.isnan()), tol=(0, 0))
FMIN = _reg("fmin", "fmin", lambda a, b: _np_min(a, b, False), rule="promote",
            backward=_fminmax_back(lambda a, b: (a <= b) | b.isnan()), tol=(0, 0))


def _tensors_only(op, a, b):
    if not isinstance(a, Tensor) or not isinstance(b, Tensor):
        raise TypeError(f"{op}(): argument 'other' (position 2) must be Tensor, not "
                        f"{type(b if isinstance(a, Tensor) else a).__name__}")


def maximum(input, other, *, out=None) -> Tensor:
    """Element-wise maximum (NaN propagates)."""
    _tensors_only("maximum", input, other)
    return ew(MAXIMUM, input, other, out=out)


def minimum(input, other, *, out=None) -> Tensor:
    """Element-wise minimum (NaN propagates)."""
    _tensors_only("minimum", input, other)
    return ew(MINIMUM, input, other, out=out)


def fmax(input, other, *, out=None) -> Tensor:
    """Element-wise maximum that ignores NaN (NaN only when both are NaN)."""
    _tensors_only("fmax", input, other)
    return ew(FMAX, input, other, out=out)


def fmin(input, other, *, out=None) -> Tensor:
    """Element-wise minimum that ignores NaN (NaN only when both are NaN)."""
    _tensors_only("fmin", input, other)
    return ew(FMIN, input, other, out=out)


# ---- comparisons and logical ops ---------------------------------------------------------------------
_CMP = {}
for _n, _ref in (("eq", np.equal), ("ne", np.not_equal), ("lt", np.less), ("le", np.less_equal),
                 ("gt", np.greater), ("ge", np.greater_equal)):
    _CMP[_n] = _reg(_n, _n, _ref, rule="compare", tol=(0, 0))
_LOGIC = {}
for _n, _ref in (("logical_and", np.logical_and), ("logical_or", np.logical_or), ("logical_xor", np.logical_xor)):
    _LOGIC[_n] = _reg(_n, _n, _ref, rule="logical", tol=(0, 0))


def _cmp(name):
    op = _CMP[name]

    def f(input, other, *, out=None) -> Tensor:
        return ew(op, input, other, out=out)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"Element-wise ``{name}`` comparison, broadcasting; the result is a bool tensor."
    return f


eq, ne, lt, le, gt, ge = (_cmp(n) for n in ("eq", "ne", "lt", "le", "gt", "ge"))
greater, less, greater_equal, less_equal, not_equal = gt, lt, ge, le, ne


def _logic(name):
    op = _LOGIC[name]

    def f(input, other, *, out=None) -> Tensor:
        _tensors_only(name, input, other)
        return ew(op, input, other, out=out)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"Element-wise ``{name}`` (nonzero is True); the result is a bool tensor."
    return f


logical_and, logical_or, logical_xor = (_logic(n) for n in ("logical_and", "logical_or", "logical_xor"))

# ---- ternary ops -----------------------------------------------------------------------------------------
WHERE = register(OpDef("where", "ternary", ("ops_binary.wgsl", "where"), lambda c, a, b: np.where(c, a, b),
                       dtype_rule="where", tol=(0, 0),
                       backward=lambda g, c, a, b, out: (None, _tg(where(c, g, 0.0), a) if isinstance(a, Tensor)
                                                         else None,
                                                         _tg(where(c, 0.0, g), b) if isinstance(b, Tensor) else None),
                       extra={"grad_name": "WhereBackward0"}))


def where(condition, input=None, other=None, *, out=None):
    """``input`` where ``condition`` else ``other`` (either may be a Python number);
    ``where(condition)`` alone is ``nonzero(condition, as_tuple=True)``."""
    if not isinstance(condition, Tensor):
        raise TypeError("where(): argument 'condition' must be Tensor")
    if input is None and other is None:
        return condition.nonzero(as_tuple=True)
    if condition.dtype.name != "bool":
        raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor with dtype "
                           f"{_dtype.SCALAR_NAMES[condition.dtype.name]}")
    return ew(WHERE, condition, input, other, out=out)


def _lerp_back(g, a, b, w, out):
    ga = _tg(g * (1 - w), a)
    gb = _tg(g * w, b)
    gw = _tg(g * (b - a), w) if isinstance(w, Tensor) else None
    return ga, gb, gw


LERP = register(OpDef("lerp", "ternary", ("ops_binary.wgsl", "lerp"),
                      lambda a, b, w: np.where(np.abs(w) < 0.5, a + w * (b - a), b - (b - a) * (1 - w)),
                      dtype_rule="float", tol=(1e-6, 1e-6), backward=_lerp_back))


def lerp(input, end, weight, *, out=None) -> Tensor:
    """``input + weight * (end - input)``; weight a tensor or a number."""
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"lerp_kernel_scalar\" not implemented for '{_tname(input.dtype)}'")
    for name, t in (("end", end), ("weight", weight)):
        if isinstance(t, Tensor) and t.dtype is not input.dtype:
            raise RuntimeError(f"expected dtype {input.dtype.name} for `{name}` but got dtype {t.dtype.name}")
    return ew(LERP, input, end, weight, out=out)


def _tname(d) -> str:
    return _dtype.SCALAR_NAMES[d.name]


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
def _binop(fn, reflected=False):
    def f(self, other):
        if not isinstance(other, (Tensor, numbers.Number, np.generic)):
            return NotImplemented
        return fn(other, self) if reflected else fn(self, other)
    return f


api("add", add, inplace=True)
api("sub", sub, inplace=True, aliases=("subtract",))
api("mul", mul, inplace=True, aliases=("multiply",))
api("div", div, inplace=True, aliases=("divide", "true_divide"))
api("atan2", atan2, inplace=True, aliases=("arctan2",))
api("gt", gt, inplace=True, aliases=("greater",))
api("lt", lt, inplace=True, aliases=("less",))
api("ge", ge, inplace=True, aliases=("greater_equal",))
api("le", le, inplace=True, aliases=("less_equal",))
api("ne", ne, inplace=True, aliases=("not_equal",))
methods(("floor_divide", floor_divide), ("remainder", remainder), ("fmod", fmod), ("pow", pow), ("eq", eq),
        ("logical_and", logical_and), ("logical_or", logical_or), ("logical_xor", logical_xor), ("lerp", lerp),
        inplace=True)
methods(("maximum", maximum), ("minimum", minimum), ("fmax", fmax), ("fmin", fmin))
api("where", where, method=lambda self, condition, other: where(condition, self, other))
api("broadcast_shapes", broadcast_shapes, tensor=False)
def _sum_to_size(self, *size) -> Tensor:
    """This tensor summed over its broadcast dims down to ``size`` (``sum_to_size(2, 1)`` or a tuple)."""
    return sum_to(self, size[0] if len(size) == 1 and not isinstance(size[0], builtins.int) else size)


api("sum_to_size", method=_sum_to_size)
for _d, _f in (("add", add), ("sub", sub), ("mul", mul), ("truediv", div), ("floordiv", floor_divide),
               ("mod", remainder), ("pow", pow)):
    api(f"__{_d}__", method=_binop(_f))
    api(f"__r{_d}__", method=_binop(_f, reflected=True))
    api(f"__i{_d}__", _f, writes_self=True)
for _d, _f in (("eq", eq), ("ne", ne), ("lt", lt), ("le", le), ("gt", gt), ("ge", ge)):
    api(f"__{_d}__", method=_binop(_f))
# & | ^ << >> and their reflected and in-place forms: ops/binary_extra.py (the bitwise ops)
