"""Random cases of the op surface, checked against numpy: a correct value or PyTorch's exception type.

One case is plain data (a dict): an op family and op, operands (shape, dtype, a view: transposed,
sliced with a step, expanded; values drawn from a seed), and the op's arguments (dims, keepdim,
indices). :func:`build` draws a case through a *picker* (``choice(seq)``, ``integer(lo, hi)``): the
hypothesis picker of tests/unit/test_ops_property.py, or :class:`RandomPick` (seeded, for the fixed
sample that replay_property.py runs on WebGPU in Chromium, where hypothesis is not installed).

:func:`reference` says what PyTorch gives, computed with numpy: ``("value", array, dtype name)`` or
``("raises", exception type name)``; the rules (type promotion, which inputs raise what) were checked
by running the same cases on real PyTorch 2.13 (``python tests/golden/property_cases.py`` with torch
installed: every case of the seeded sample must agree). :func:`check` runs a case on ``lib``
(borch_webgpu, or torch itself) on a device and returns None or what differs.
"""
from __future__ import annotations

import random
import warnings

import numpy as np

DTYPES = ("float32", "int64", "int32", "bool")
CAT = {"bool": 0, "int32": 1, "int64": 1, "float32": 2}
BINARY = ("add", "sub", "mul", "div", "floor_divide", "remainder", "fmod", "maximum", "minimum", "atan2",
          "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or")
SCALAR_OK = ("add", "sub", "mul", "div", "floor_divide", "remainder", "fmod", "eq", "ne", "lt", "le", "gt", "ge")
FLOAT_OUT = ("exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "reciprocal")
SAME_OUT = ("neg", "abs", "floor", "ceil", "trunc", "round", "sign", "relu", "square")
REDUCE = ("sum", "mean", "amax", "amin", "prod", "argmax")
INDEX = ("int", "slice", "tensor", "gather", "index_select", "where")
SHAPE = ("transpose", "permute", "reshape", "unsqueeze", "cat", "flip")
FAMILIES = ("binary", "binary", "unary", "reduce", "index", "shape", "matmul")
_NP_BINARY = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.true_divide,
              "floor_divide": np.floor_divide, "remainder": np.remainder, "fmod": np.fmod, "maximum": np.maximum,
              "minimum": np.minimum, "atan2": np.arctan2, "eq": np.equal, "ne": np.not_equal, "lt": np.less,
              "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal, "logical_and": np.logical_and,
              "logical_or": np.logical_or}
_NP_UNARY = {"exp": np.exp, "log": np.log, "sqrt": np.sqrt, "sin": np.sin, "cos": np.cos, "tanh": np.tanh,
             "sigmoid": lambda x: 1 / (1 + np.exp(-x)), "reciprocal": lambda x: 1 / x, "neg": np.negative,
             "abs": np.abs, "floor": np.floor, "ceil": np.ceil, "trunc": np.trunc, "round": np.round,
             "sign": lambda x: np.where(np.isnan(x), 0, np.sign(x)),  # PyTorch: sign(nan) is 0
             "relu": lambda x: np.maximum(x, 0), "square": np.square}


class RandomPick:
    """A seeded picker (the fixed sample)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choice(self, seq):
        return seq[self.rng.randrange(len(seq))]

    def integer(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)


# ---- drawing a case ------------------------------------------------------------------------------
def _shape(pick, rank=None, lo=0) -> list[int]:
    rank = pick.integer(0, 3) if rank is None else rank
    return [pick.choice((1, 2, 3, 4, lo, 2)) for _ in range(rank)]


def _operand(pick, shape, dtypes=DTYPES, ints=(-5, 5)) -> dict:
    views = ["contiguous"]
    if len(shape) >= 2:
        views.append("transposed")
    if len(shape) >= 1:
        views.append("sliced")
        if shape[0] != 1:
            views.append("expanded")
    return {"shape": list(shape), "dtype": pick.choice(dtypes), "view": pick.choice(views),
            "seed": pick.integer(0, 2 ** 31 - 1), "ints": list(ints), "special": pick.integer(0, 4) == 0}


def _broadcast_partner(pick, shape) -> list[int]:
    k = pick.integer(0, len(shape))
    out = [pick.choice((d, d, 1)) for d in shape[len(shape) - k:]]
    out = [pick.choice((1, 2, 3)) for _ in range(pick.integer(0, 1))] + out
    if out and pick.integer(0, 7) == 0:  # not broadcastable (usually)
        out[pick.integer(0, len(out) - 1)] = pick.choice((2, 3, 5))
    return out


def build(pick) -> dict:
    family = pick.choice(FAMILIES)
    case = {"family": family}
    if family == "binary":
        op = pick.choice(BINARY)
        a = _operand(pick, _shape(pick))
        if op in SCALAR_OK and pick.integer(0, 5) == 0:
            b = {"scalar": pick.choice((0, 1, 2, -3, 0.5, -2.0, 0.0, True, False))}
        else:
            b = _operand(pick, _broadcast_partner(pick, a["shape"]))
        case.update(op=op, operands=[a, b])
    elif family == "unary":
        case.update(op=pick.choice(FLOAT_OUT + SAME_OUT),
                    operands=[_operand(pick, _shape(pick), ("float32", "float32", "int64", "int32"))])
    elif family == "reduce":
        op = pick.choice(REDUCE)
        dtypes = ("float32", "int64", "int32") + (("bool",) if op == "sum" else ())
        a = _operand(pick, _shape(pick), dtypes, (-1, 1) if op == "prod" else (-5, 5))
        if op == "argmax":
            a["special"] = False
        r = len(a["shape"])
        dim = pick.choice((None, pick.integer(-r - 1, max(r, 1))))
        case.update(op=op, operands=[a], dim=dim, keepdim=dim is not None and pick.integer(0, 1) == 1)
    elif family == "index":
        op = pick.choice(INDEX)
        # indices into empty tensors, or index_select of bools, raise by PyTorch's code path, not by a rule
        nonempty = op in ("tensor", "index_select")
        a = _operand(pick, _shape(pick, pick.integer(1, 3), lo=1 if nonempty else 0),
                     DTYPES[:3] if op == "index_select" else DTYPES)
        r, n = len(a["shape"]), a["shape"][0]
        case.update(op=op, operands=[a])
        if op == "int":
            case["index"] = pick.integer(-n - 1, n)
        elif op == "slice":
            case["index"] = [pick.choice((None, pick.integer(-n - 2, n + 2))) for _ in range(2)] + \
                [pick.choice((None, 1, 2, 3))]
        elif op in ("tensor", "index_select"):
            d = 0 if op == "tensor" else pick.integer(-r, r - 1)
            size = a["shape"][d]
            lo, hi = (-size, size - 1) if op == "tensor" else (0, size - 1)
            # out of range (index_select: past the end along dim 0 only; along other dims PyTorch's cpu
            # kernel raises IndexError or RuntimeError by the tensor's layout)
            if pick.integer(0, 5) == 0 and (op == "tensor" or d % r == 0):
                lo, hi = lo - (2 if op == "tensor" else 0), hi + 2
            case.update(dim=d, index=[pick.integer(lo, hi) for _ in range(pick.integer(0, 4))])
        elif op == "gather":
            d = pick.integer(-r, r - 1)
            ishape = [pick.integer(0, s) if i != d % r else pick.integer(0, 3) for i, s in enumerate(a["shape"])]
            size = a["shape"][d]
            top = size - 1 if pick.integer(0, 5) else size + 1
            rng = random.Random(pick.integer(0, 2 ** 31 - 1))
            case.update(dim=d, ishape=ishape, index=[rng.randint(0, max(top, 0)) for _ in range(int(np.prod(ishape)))])
        else:  # where
            case["operands"] = [_operand(pick, _broadcast_partner(pick, a["shape"]), ("bool",)), a,
                                _operand(pick, _broadcast_partner(pick, a["shape"]), ("float32",))]
    elif family == "shape":
        op = pick.choice(SHAPE)
        a = _operand(pick, _shape(pick))
        r = len(a["shape"])
        case.update(op=op, operands=[a])
        if op == "transpose":
            case["dims"] = [pick.integer(-r - 1, max(r, 1)), pick.integer(-r, max(r - 1, 0))]
        elif op == "permute":
            perm = list(range(r))
            random.Random(pick.integer(0, 999)).shuffle(perm)
            if perm and pick.integer(0, 5) == 0:
                perm[0] = perm[-1]  # a repeated dim (when r > 1)
            case["dims"] = perm
        elif op in ("unsqueeze", "flip"):
            case["dims"] = [pick.integer(-r - 2, r + 1)]
        elif op == "cat":
            d = pick.integer(-max(r, 1), max(r, 1) - 1)
            other = list(a["shape"])
            if other:
                other[d] = pick.integer(0, 3)
                if pick.integer(0, 6) == 0:
                    other[(d + 1) % r] += 1
            case.update(dims=[d], operands=[a, _operand(pick, other, (a["dtype"],))])
    else:  # matmul
        m, k, n = pick.integer(1, 4), pick.integer(1, 5), pick.integer(1, 4)
        sa = pick.choice(([k], [m, k], [pick.integer(1, 3), m, k]))
        sb = pick.choice(([k], [k, n], [pick.choice((1, sa[0] if len(sa) == 3 else 2)), k, n]))
        if pick.integer(0, 6) == 0:
            sb[-2 if len(sb) > 1 else 0] += 1
        case.update(op="matmul", operands=[_operand(pick, sa, ("float32",)), _operand(pick, sb, ("float32",))])
    return case


def sample(n: int = 100, seed: int = 12) -> list[dict]:
    """The fixed sample: n cases drawn with RandomPick(seed + i)."""
    return [build(RandomPick(seed + i)) for i in range(n)]


# ---- values -----------------------------------------------------------------------------------------
def _base_shape(spec) -> list[int]:
    s = list(spec["shape"])
    if spec["view"] == "transposed":
        s[-1], s[-2] = s[-2], s[-1]
    elif spec["view"] == "sliced":
        s[-1] *= 2
    elif spec["view"] == "expanded":
        s[0] = 1
    return s


def base_values(spec) -> np.ndarray:
    rng = np.random.default_rng(spec["seed"])
    shape, dt = _base_shape(spec), spec["dtype"]
    if dt == "bool":
        return rng.random(shape) < 0.5
    if dt != "float32":
        return rng.integers(spec["ints"][0], spec["ints"][1] + 1, shape).astype(dt)
    v = np.where(rng.random(shape) < 0.3, rng.integers(-3, 4, shape), np.round(rng.uniform(-3, 3, shape), 3))
    if spec["special"]:
        v = np.where(rng.random(shape) < 0.3, rng.choice([0.0, -0.0, np.inf, -np.inf, np.nan], shape), v)
    return v.astype(np.float32)


def _view(x, spec, is_np: bool):
    v = spec["view"]
    if v == "transposed":
        return x.swapaxes(-1, -2) if is_np else x.transpose(-1, -2)
    if v == "sliced":
        return x[..., ::2]
    if v == "expanded":
        return np.broadcast_to(x, spec["shape"]) if is_np else x.expand(*spec["shape"])
    return x


def np_operand(spec):
    return spec["scalar"] if "scalar" in spec else _view(base_values(spec), spec, True)


def lib_operand(spec, lib, device):
    if "scalar" in spec:
        return spec["scalar"]
    return _view(lib.tensor(base_values(spec), device=device), spec, False)


# ---- the reference --------------------------------------------------------------------------------
def _dt(spec) -> str:
    s = spec["scalar"] if "scalar" in spec else None
    if s is None:
        return spec["dtype"]
    return "bool" if isinstance(s, bool) else "int64" if isinstance(s, int) else "float32"


def result_type(specs) -> str:
    """PyTorch's type promotion: tensors with dims, then 0-d tensors, then Python numbers, a lower group
    taking over only with a higher category (a number: that category's default dtype)."""
    tensors = [s for s in specs if "scalar" not in s]
    groups = [[s for s in tensors if s["shape"]], [s for s in tensors if not s["shape"]],
              [s for s in specs if "scalar" in s]]
    res = None
    for gi, g in enumerate(groups):
        if not g:
            continue
        names = [_dt(s) for s in g]
        c = max(CAT[x] for x in names)
        d = {0: "bool", 2: "float32"}.get(c) or ("int64" if "int64" in names else "int32")
        if res is None:
            res = d
        elif c > CAT[res]:
            res = d if gi < 2 else {1: "int64", 2: "float32"}[c]
    return res


def _shape_of(spec) -> tuple:
    return () if "scalar" in spec else tuple(spec["shape"])


def _broadcast(shapes):
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        return None


def _dim(d, r):
    """d normalised for rank r (a 0-d tensor takes dims 0 and -1), or None when out of range."""
    r1 = max(r, 1)
    return d % r1 if -r1 <= d < r1 else None


def _as(x, dt):
    return np.asarray(x).astype({"float32": np.float64, "bool": np.bool_}.get(dt, np.int64))


def reference(case):
    """("value", numpy array, dtype name) or ("raises", exception type name): what PyTorch gives."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # numpy's "Mean of empty slice"
        return _reference(case)


def _reference(case):
    fam, op, ops = case["family"], case["op"], case["operands"]
    xs = [np_operand(s) for s in ops]
    if fam == "binary":
        shape = _broadcast([_shape_of(s) for s in ops])
        if shape is None:
            return "raises", "RuntimeError"
        rt = result_type(ops)
        if op == "sub" and "bool" in (_dt(s) for s in ops):
            return "raises", "RuntimeError"
        if op in ("floor_divide", "remainder", "fmod"):
            if rt == "bool":
                return "raises", "NotImplementedError"
            if CAT[rt] == 1 and np.prod(shape) > 0 and (np.asarray(xs[1]) == 0).any():
                return "raises", "RuntimeError"
        out = ("float32" if CAT[rt] < 2 else rt) if op in ("div", "atan2") else \
            "bool" if op in ("eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or") else rt
        comp = out if op in ("div", "atan2") else rt
        return "value", _NP_BINARY[op](_as(xs[0], comp), _as(xs[1], comp)), out
    if fam == "unary":
        dt = ops[0]["dtype"]
        out = "float32" if op in FLOAT_OUT else dt
        return "value", _NP_UNARY[op](_as(xs[0], "float32" if op in FLOAT_OUT else dt)), out
    if fam == "reduce":
        return _reduce_ref(case, xs[0], ops[0])
    if fam == "index":
        return _index_ref(case, xs, ops)
    if fam == "shape":
        return _shape_ref(case, xs, ops)
    a, b = xs
    if a.shape[-1] != b.shape[0 if b.ndim == 1 else -2] or _broadcast([a.shape[:-2], b.shape[:-2]]) is None:
        return "raises", "RuntimeError"
    return "value", np.matmul(_as(a, "float32"), _as(b, "float32")), "float32"


def _reduce_ref(case, x, spec):
    op, dim, keep, dt = case["op"], case["dim"], case["keepdim"], spec["dtype"]
    r = x.ndim
    if op == "mean" and dt != "float32":
        return "raises", "RuntimeError"
    axis = None
    if dim is not None:
        d = _dim(dim, r)
        if d is None:
            return "raises", "IndexError"
        axis = d if r else None
    n = x.size if axis is None else x.shape[axis]
    if op in ("amax", "amin", "argmax") and n == 0:
        return "raises", "RuntimeError" if axis is None and op != "argmax" else "IndexError"
    out = {"sum": "int64", "prod": "int64"}.get(op, dt) if dt != "float32" else dt
    if op == "argmax":
        out = "int64"
    xc = _as(x, "float32" if dt == "float32" else "int64")
    fn = {"sum": np.sum, "mean": np.mean, "amax": np.max, "amin": np.min, "prod": np.prod}.get(op)
    if op == "argmax":
        v = np.argmax(xc, axis=axis)
        if keep and axis is not None:
            v = np.expand_dims(v, axis)
    else:
        v = fn(xc, axis=axis, keepdims=keep and axis is not None)
    return "value", v, out


def _index_ref(case, xs, ops):
    op, x = case["op"], xs[0]
    dt = ops[0]["dtype"]
    if op == "int":
        i = case["index"]
        return ("value", x[i], dt) if -x.shape[0] <= i < x.shape[0] else ("raises", "IndexError")
    if op == "slice":
        return "value", x[slice(*case["index"])], dt
    if op in ("tensor", "index_select"):
        d, idx = case["dim"], np.array(case["index"], dtype=np.intp)  # intp: wasm32 numpy takes no int64
        size = x.shape[d]
        lo = -size if op == "tensor" else 0
        if op == "index_select" and size == 0 and idx.size:
            return "raises", "RuntimeError"
        if ((idx < lo) | (idx >= size)).any():
            return "raises", "IndexError"
        return "value", np.take(x, idx, axis=d), dt
    if op == "gather":
        d, idx = case["dim"], np.array(case["index"], dtype=np.intp).reshape(case["ishape"])
        if (idx >= x.shape[d]).any():
            return "raises", "RuntimeError"
        if idx.size == 0:
            return "value", np.zeros(idx.shape, x.dtype), dt
        return "value", np.take_along_axis(x[tuple(slice(0, s) if i != d % x.ndim else slice(None)
                                                    for i, s in enumerate(idx.shape))], idx, axis=d), dt
    shape = _broadcast([_shape_of(s) for s in ops])
    if shape is None:
        return "raises", "RuntimeError"
    rt = result_type(ops[1:])
    return "value", np.where(xs[0], _as(xs[1], rt), _as(xs[2], rt)), rt


def _shape_ref(case, xs, ops):
    op, x, dims = case["op"], xs[0], case.get("dims")
    dt, r = ops[0]["dtype"], xs[0].ndim
    if op == "reshape":
        return "value", x.reshape(-1), dt
    if op == "unsqueeze":
        d = dims[0] + (r + 1 if dims[0] < 0 else 0)
        return ("value", np.expand_dims(x, d), dt) if 0 <= d <= r else ("raises", "IndexError")
    ds = [_dim(d, r) for d in dims]
    if None in ds:
        return "raises", "IndexError"
    if op == "transpose":
        return "value", (np.swapaxes(x, *ds) if r else x), dt
    if op == "permute":
        return ("value", np.transpose(x, ds), dt) if len(set(ds)) == len(ds) else ("raises", "RuntimeError")
    if op == "flip":
        return "value", (np.flip(x, ds[0]) if r else x), dt
    y = xs[1]  # cat
    if r == 0:
        return "raises", "RuntimeError"
    if [s for i, s in enumerate(x.shape) if i != ds[0]] != [s for i, s in enumerate(y.shape) if i != ds[0]]:
        return "raises", "RuntimeError"
    return "value", np.concatenate([x, y], axis=ds[0]), dt


# ---- running a case -------------------------------------------------------------------------------
def call(case, lib, device):
    fam, op = case["family"], case["op"]
    xs = [lib_operand(s, lib, device) for s in case["operands"]]
    if fam in ("binary", "unary"):
        return getattr(lib, op)(*xs)
    if fam == "reduce":
        fn = getattr(lib, op)
        return fn(xs[0]) if case["dim"] is None else fn(xs[0], dim=case["dim"], keepdim=case["keepdim"])
    if fam == "index":
        x = xs[0]
        if op == "where":
            return lib.where(*xs)
        if op == "int":
            return x[case["index"]]
        if op == "slice":
            return x[slice(*case["index"])]
        idx = lib.tensor(case["index"], dtype=lib.int64, device=device)
        if op == "tensor":
            return x[idx]
        if op == "index_select":
            return x.index_select(case["dim"], idx)
        if op == "gather":
            return x.gather(case["dim"], idx.reshape(case["ishape"]))
    if fam == "shape":
        x, dims = xs[0], case.get("dims")
        if op == "reshape":
            return x.reshape(-1)
        if op == "transpose":
            return x.transpose(*dims)
        if op == "permute":
            return x.permute(dims)
        if op == "unsqueeze":
            return x.unsqueeze(dims[0])
        if op == "flip":
            return x.flip(dims)
        return lib.cat(xs, dims[0])
    return lib.matmul(*xs)


def check(case, lib, device="cpu") -> str | None:
    """None when lib gives PyTorch's outcome (numpy's value within float32's tolerance, or the exception
    type), else what differs."""
    want = reference(case)
    try:
        got = call(case, lib, device)
        shape, dtype, values = tuple(got.shape), str(got.dtype).removeprefix("torch."), np.array(got.tolist())
    except Exception as e:  # noqa: BLE001 - the outcome is compared
        if want[0] == "raises" and type(e).__name__ == want[1]:
            return None
        return f"raised {type(e).__name__}: {str(e)[:300]}; PyTorch: {want[1] if want[0] == 'raises' else 'a value'}"
    if want[0] == "raises":
        return f"gave a value of shape {list(shape)}; PyTorch raises {want[1]}"
    ref, rdt = np.asarray(want[1]), want[2]
    if shape != ref.shape or dtype != rdt:
        return f"gave {dtype} {list(shape)}, PyTorch {rdt} {list(ref.shape)}"
    values = values.reshape(ref.shape)
    if rdt == "float32":
        ref32 = ref.astype(np.float32)
        ok = np.allclose(values.astype(np.float64), ref32, rtol=2e-5, atol=1e-5, equal_nan=True)
    else:
        ok = np.array_equal(values.astype(ref.dtype), ref)
    return None if ok else f"values differ: got {values.tolist()}, want {ref.tolist()}"


if __name__ == "__main__":  # the rules of reference(), checked on real PyTorch
    import sys

    import torch

    bad = [(i, c, err) for i, c in enumerate(sample(int(sys.argv[1]) if len(sys.argv) > 1 else 2000))
           if (err := check(c, torch)) is not None]
    for i, c, err in bad[:20]:
        print(f"case {i}: {c}\n  {err}")
    print(f"torch {torch.__version__}: {len(bad)} cases disagree with reference()")
    sys.exit(1 if bad else 0)
