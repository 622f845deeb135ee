"""ONNX mappings of the tensor ops: arithmetic, activations, shapes, casts and reductions.

Each mapping is called with the graph and the traced call's own arguments (``g.result`` is what the
call returned) and adds the nodes that compute that result. ``SYMBOLIC`` maps an API name (a
``torch.*`` function, a Tensor method or a ``torch.nn.functional`` function) to its mapping.
"""
from __future__ import annotations

import math

from ..tensor import Tensor
from ._graph import dtype_name
from .errors import UnsupportedOperatorError

SYMBOLIC: dict = {}


def onnx_op(*names: str):
    def deco(fn):
        for n in names:
            if n in SYMBOLIC:
                raise ValueError(f"onnx mapping for {n} registered twice")
            SYMBOLIC[n] = fn
        return fn
    return deco


def unsupported(g, what: str, supported_version: int | None = None):
    return UnsupportedOperatorError(f"aten::{what}", g.opset, supported_version)


def operand(g, v, dtype: str) -> str:
    """A tensor (cast to ``dtype`` when it differs) or a Python number as a constant of ``dtype``."""
    if isinstance(v, Tensor):
        name = g.value(v)
        if dtype_name(v) != dtype:
            from ._proto import DTYPES
            name = g.op("Cast", name, dims=g.sym(v), dtype=dtype, to=DTYPES[dtype])
        return name
    return g.const(v, dtype)


def wrap_dim(d: int, ndim: int) -> int:
    return d + ndim if d < 0 else d


# ---- arithmetic -------------------------------------------------------------------------------
def _binary(op_type: str, reflected: bool = False):
    def sym(g, input, other, *, alpha=1, rounding_mode=None):
        if rounding_mode is not None:
            raise unsupported(g, f"div(rounding_mode={rounding_mode!r})")
        dt = dtype_name(g.result)
        a, b = (other, input) if reflected else (input, other)
        an, bn = operand(g, a, dt), operand(g, b, dt)
        if alpha != 1:
            bn = g.op("Mul", bn, g.const(alpha, dt), dims=g.sym(b) if isinstance(b, Tensor) else (), dtype=dt)
        g.emit(op_type, an, bn, dims=g.broadcast(a, b))
    return sym


for _names, _op in ((("add", "__add__", "__iadd__"), "Add"), (("sub", "subtract", "__sub__", "__isub__"), "Sub"),
                    (("mul", "multiply", "__mul__", "__imul__"), "Mul"),
                    (("div", "divide", "true_divide", "__truediv__", "__itruediv__"), "Div"),
                    (("pow", "__pow__", "__ipow__"), "Pow")):
    onnx_op(*_names)(_binary(_op))
for _name, _op in (("__radd__", "Add"), ("__rsub__", "Sub"), ("__rmul__", "Mul"), ("__rtruediv__", "Div"),
                   ("__rpow__", "Pow")):
    onnx_op(_name)(_binary(_op, reflected=True))


@onnx_op("matmul", "mm", "bmm", "__matmul__")
def _matmul(g, input, other):
    g.emit("MatMul", g.value(input), g.value(other), dims=_matmul_dims(g, input, other))


def _matmul_dims(g, a, b) -> tuple:
    out = list(g.result.shape)
    da = g.sym(a)
    if len(da) >= 2 and isinstance(da[-2], str) and len(out) >= 2:
        out[-2] = da[-2]
    for j in range(3, len(out) + 1):   # batch dims (broadcast)
        for x in (a, b):
            d = g.sym(x)
            if len(d) >= j and isinstance(d[-j], str):
                out[-j] = d[-j]
    return tuple(out)


# ---- activations --------------------------------------------------------------------------------
def _unary(op_type: str):
    def sym(g, input, *args, **kwargs):
        g.emit(op_type, g.value(input), dims=g.same(input))
    return sym


for _names, _op in ((("relu",), "Relu"), (("sigmoid",), "Sigmoid"), (("tanh",), "Tanh"), (("exp",), "Exp"),
                    (("log",), "Log"), (("sqrt",), "Sqrt"), (("abs", "absolute"), "Abs"),
                    (("neg", "negative", "__neg__"), "Neg"), (("erf",), "Erf"), (("reciprocal",), "Reciprocal"),
                    (("selu",), "Selu"), (("hardswish",), "HardSwish")):
    onnx_op(*_names)(_unary(_op))


@onnx_op("leaky_relu")
def _leaky_relu(g, input, negative_slope=0.01, inplace=False):
    g.emit("LeakyRelu", g.value(input), dims=g.same(input), alpha=float(negative_slope))


@onnx_op("elu")
def _elu(g, input, alpha=1.0, inplace=False):
    g.emit("Elu", g.value(input), dims=g.same(input), alpha=float(alpha))


@onnx_op("hardsigmoid")
def _hardsigmoid(g, input, inplace=False):
    g.emit("HardSigmoid", g.value(input), dims=g.same(input), alpha=1.0 / 6, beta=0.5)


@onnx_op("silu")
def _silu(g, input, inplace=False):
    x = g.value(input)
    g.emit("Mul", x, g.op("Sigmoid", x, dims=g.same(input)), dims=g.same(input))


def _clip(g, input, lo, hi):
    dt = dtype_name(input)
    args = [g.value(input), g.const(lo, dt) if lo is not None else "", g.const(hi, dt) if hi is not None else ""]
    while args[-1] == "":
        args.pop()
    g.emit("Clip", *args, dims=g.same(input))


@onnx_op("hardtanh")
def _hardtanh(g, input, min_val=-1.0, max_val=1.0, inplace=False):
    _clip(g, input, min_val, max_val)


@onnx_op("relu6")
def _relu6(g, input, inplace=False):
    _clip(g, input, 0.0, 6.0)


@onnx_op("clamp", "clip")
def _clamp(g, input, min=None, max=None):
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        raise unsupported(g, "clamp (with tensor bounds)")
    _clip(g, input, min, max)


@onnx_op("gelu")
def _gelu(g, input, approximate="none"):
    x, dims = g.value(input), g.same(input)
    if g.opset >= 20:
        g.emit("Gelu", x, dims=dims, approximate=approximate)
    elif approximate == "none":   # 0.5 x (1 + erf(x / sqrt 2))
        e = g.op("Erf", g.op("Div", x, g.const(math.sqrt(2.0)), dims=dims), dims=dims)
        half = g.op("Mul", x, g.const(0.5), dims=dims)
        g.emit("Mul", half, g.op("Add", e, g.const(1.0), dims=dims), dims=dims)
    else:
        raise unsupported(g, "gelu(approximate='tanh')", 20)


@onnx_op("softmax", "log_softmax")
def _softmax(g, input, dim=None, _stacklevel=3, dtype=None):
    if dtype is not None:
        raise unsupported(g, "softmax(dtype=...)")
    if dim is None:  # PyTorch's implicit choice (it warns)
        dim = 0 if input.ndim in (0, 1, 3) else 1
    op = "LogSoftmax" if g.current_name == "log_softmax" else "Softmax"
    g.emit(op, g.value(input), dims=g.same(input), axis=int(dim))


# ---- aliases and casts ------------------------------------------------------------------------
@onnx_op("detach", "detach_", "requires_grad_", "contiguous", "clone", "cpu", "cuda", "webgpu", "to", "type", "float",
         "int", "long", "bool", "half", "double")
def _alias_or_cast(g, input, *args, **kwargs):
    res = g.result
    if not isinstance(res, Tensor):
        return
    if dtype_name(res) == dtype_name(input):
        g.bind(res, g.value(input), g.sym(input))
    else:
        from ._proto import DTYPES
        g.emit("Cast", g.value(input), dims=g.same(input), to=DTYPES[dtype_name(res)])


# ---- shapes ----------------------------------------------------------------------------------
def _shape_args(shape) -> tuple:
    return tuple(shape[0]) if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else tuple(shape)


def reshape_to(g, input, minus_one: int | None) -> None:
    """Reshape ``input`` to the traced result's shape. A symbolic axis that keeps its place and size is
    written as 0 (copy the input's dim), and one that is merged into another axis makes that axis -1."""
    out = tuple(g.result.shape)
    d_in, shape_in = g.sym(input), tuple(input.shape)
    if 0 in out:
        raise unsupported(g, "reshape (to a shape with a zero-sized dim)")
    onnx, dims, copying = [], [], True
    for i, s in enumerate(out):
        copying = copying and i < len(shape_in) and s == shape_in[i]
        if copying and isinstance(d_in[i], str):
            onnx.append(0)
            dims.append(d_in[i])
        else:
            onnx.append(int(s))
            dims.append(int(s))
    merged = [d for i, d in enumerate(d_in) if isinstance(d, str) and not (i < len(onnx) and onnx[i] == 0)]
    if merged:
        free = [i for i, v in enumerate(onnx) if v != 0]
        pos = minus_one if minus_one is not None and minus_one in free else (free[0] if len(free) == 1 else None)
        if pos is None:
            raise RuntimeError(f"onnx.export: {g.current_name}: the input of shape {shape_in} has the dynamic axes "
                               f"{merged}; its new shape {out} hard-codes their traced sizes. Write -1 for the dim "
                               "that grows with them (x.view(x.size(0), -1) -> x.flatten(1)).")
        onnx[pos], dims[pos] = -1, g.symbol()
    g.emit("Reshape", g.value(input), g.const(onnx, "int64"), dims=tuple(dims))


@onnx_op("view", "reshape")
def _reshape(g, input, *shape):
    shape = _shape_args(shape)
    minus = [i for i, s in enumerate(shape) if s == -1]
    reshape_to(g, input, minus[0] if minus else None)


@onnx_op("flatten")
def _flatten(g, input, start_dim=0, end_dim=-1):
    n = input.ndim
    if n == 0 or g.result.ndim == n:
        g.bind(g.result, g.value(input), g.sym(input))
        return
    s, e = wrap_dim(start_dim, n), wrap_dim(end_dim, n)
    d = g.sym(input)
    if s == 1 and e == n - 1:
        rest = d[1:]
        dims = (d[0], int(math.prod(input.shape[1:])) if all(isinstance(x, int) for x in rest) else g.symbol())
        g.emit("Flatten", g.value(input), dims=dims, axis=1)
        return
    reshape_to(g, input, s)


def _transpose(g, input, perm):
    d = g.sym(input)
    g.emit("Transpose", g.value(input), dims=tuple(d[p] for p in perm), perm=list(perm))


@onnx_op("permute")
def _permute(g, input, *dims):
    _transpose(g, input, [wrap_dim(p, input.ndim) for p in _shape_args(dims)])


@onnx_op("transpose", "swapaxes", "swapdims")
def _swap(g, input, dim0, dim1):
    perm = list(range(input.ndim))
    a, b = wrap_dim(dim0, input.ndim), wrap_dim(dim1, input.ndim)
    perm[a], perm[b] = perm[b], perm[a]
    _transpose(g, input, perm)


@onnx_op("t", "T")
def _t(g, input):
    if input.ndim < 2:
        g.bind(g.result, g.value(input), g.sym(input))
    else:
        _transpose(g, input, list(reversed(range(input.ndim))))


@onnx_op("unsqueeze")
def _unsqueeze(g, input, dim):
    d = wrap_dim(dim, input.ndim + 1)
    dims = list(g.sym(input))
    dims.insert(d, 1)
    g.emit("Unsqueeze", g.value(input), g.const([d], "int64"), dims=tuple(dims))


@onnx_op("squeeze")
def _squeeze(g, input, dim=None):
    d_in = g.sym(input)
    wanted = range(input.ndim) if dim is None else [wrap_dim(x, input.ndim) for x in
                                                      (dim if isinstance(dim, (tuple, list)) else [dim])]
    axes = [i for i in wanted if input.shape[i] == 1]
    if any(isinstance(d_in[i], str) for i in axes):
        raise RuntimeError(f"onnx.export: squeeze: dim(s) {axes} of the input are dynamic axes; their size is 1 "
                           "only in the traced example")
    if not axes:
        g.bind(g.result, g.value(input), d_in)
        return
    g.emit("Squeeze", g.value(input), g.const(axes, "int64"), dims=tuple(x for i, x in enumerate(d_in)
                                                                          if i not in axes))


@onnx_op("cat", "concat", "concatenate")
def _cat(g, tensors, dim=0):
    parts = [t for t in tensors if not (t.ndim == 1 and t.shape[0] == 0)]   # torch skips empty 1-D tensors
    axis = wrap_dim(dim, g.result.ndim)
    dims = list(g.result.shape)
    for t in parts:
        for i, x in enumerate(g.sym(t)):
            if isinstance(x, str):
                dims[i] = g.symbol() if i == axis else x
    g.emit("Concat", *[g.value(t) for t in parts], dims=tuple(dims), axis=axis)


@onnx_op("stack")
def _stack(g, tensors, dim=0):
    axis = wrap_dim(dim, g.result.ndim)
    dims = list(g.result.shape)
    names = []
    for t in tensors:
        d = list(g.sym(t))
        for i, x in enumerate(d):
            if isinstance(x, str):
                dims[i + (i >= axis)] = x
        d.insert(axis, 1)
        names.append(g.op("Unsqueeze", g.value(t), g.const([axis], "int64"), dims=tuple(d), dtype=dtype_name(t)))
    g.emit("Concat", *names, dims=tuple(dims), axis=axis)


# ---- reductions ------------------------------------------------------------------------------
@onnx_op("mean", "sum")
def _reduce(g, input, dim=None, keepdim=False, *, dtype=None):
    if dtype is not None:
        raise unsupported(g, f"{g.current_name}(dtype=...)")
    n = input.ndim
    axes = list(range(n)) if dim is None or dim == () else \
        sorted(wrap_dim(d, n) for d in (dim if isinstance(dim, (tuple, list)) else [dim]))
    d_in = g.sym(input)
    dims = tuple((1 if i in axes else x) for i, x in enumerate(d_in) if keepdim or i not in axes)
    op = "ReduceMean" if g.current_name == "mean" else "ReduceSum"
    name = reduce(g, op, operand(g, input, dtype_name(g.result)), axes, dims, dtype_name(g.result), keepdim)
    g.bind(g.result, name, dims)


def reduce(g, op: str, x: str, axes: list[int], dims: tuple, dtype: str, keepdim: bool) -> str:
    """ReduceMean / ReduceSum over ``axes``: the axes are an input since opset 13 (ReduceSum) and 18
    (ReduceMean), an attribute before."""
    if op == "ReduceSum" or g.opset >= 18:
        return g.op(op, x, g.const(axes, "int64"), dims=dims, dtype=dtype, keepdims=int(bool(keepdim)))
    return g.op(op, x, dims=dims, dtype=dtype, axes=axes, keepdims=int(bool(keepdim)))
