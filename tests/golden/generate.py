"""Write the frozen golden cases from real PyTorch (CPU): ``python tests/golden/generate.py [op ...]``.

Needs ``pip install torch==2.13.0`` (the CPU build on this machine's disk). Writes
tests/golden/cases/<op>.json.gz and tests/golden/reprs.json; commit them. CI does not need torch:
it replays these files.

Each case also runs in float64; where PyTorch's float32 result is measurably off the float64 one
(long sums, accumulated gradients), the difference is stored as ``dev`` and the replay accepts a
result that is no further from the exact value than PyTorch's own (see golden_io.compare).
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import warnings
import zlib
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import torch  # noqa: E402

from cases import GENERATORS, REPR_EXPRS, Big, V  # noqa: E402
import casefile  # noqa: E402
from golden_io import encode, encode_output, formula  # noqa: E402

DTYPES = {"float32": torch.float32, "int64": torch.int64, "int32": torch.int32, "bool": torch.bool,
          "float16": torch.float16}
TORCH_VERSION = "2.13.0"
TYPE_ONLY = "[type only]"  # a case id ending so records no message (PyTorch's text is not reproducible)
_grad_rng = np.random.default_rng(7)


def base_tensor(x, grad: bool, f64: bool = False):
    if isinstance(x, AbsBig):  # |Big| for the scale run
        t = torch.from_numpy(np.abs(formula(x.big.shape, x.big.dtype, x.big.seed)))
    else:
        t = torch.from_numpy(formula(x.shape, x.dtype, x.seed)) if isinstance(x, Big) else torch.from_numpy(x.copy())
    if f64 and t.dtype == torch.float32:
        t = t.double()
    if grad and t.dtype.is_floating_point:
        t.requires_grad_(True)
    return t


def apply_steps(t, steps):
    for step in steps:
        name, *a = step
        t = getattr(t, name)(*[to_torch(i, False)[0] for i in a])
    return t


def to_torch(x, grad: bool, f64: bool = False):
    """(value passed to the call, leaf tensor whose .grad is recorded (a list for a list argument) or None)."""
    if isinstance(x, V):
        leaf = base_tensor(x.base, grad, f64)
        return apply_steps(leaf, x.steps), (leaf if leaf.requires_grad else None)
    if isinstance(x, (Big, np.ndarray, AbsBig)):
        leaf = base_tensor(x, grad, f64)
        return leaf, (leaf if leaf.requires_grad else None)
    if isinstance(x, str) and x in DTYPES:
        return DTYPES[x], None
    if isinstance(x, (list, tuple)):
        items = [to_torch(i, grad, f64) for i in x]
        leaves = [leaf for _, leaf in items]
        return type(x)(v for v, _ in items), (leaves if any(leaf is not None for leaf in leaves) else None)
    return x, None


def spec_of(x):
    if isinstance(x, V):
        return {**spec_of(x.base), "view": [[s[0], *[spec_of(a) for a in s[1:]]] for s in x.steps]}
    if isinstance(x, Big):
        return {"tensor": {"shape": list(x.shape), "dtype": x.dtype, "formula": x.seed}}
    if isinstance(x, np.ndarray):
        return {"tensor": encode(x)}
    if isinstance(x, float) and not np.isfinite(x):
        return {"float": repr(x)}
    if isinstance(x, range):
        return {"range": [x.start, x.stop, x.step]}
    if isinstance(x, slice):
        return {"slice": [spec_of(x.start), spec_of(x.stop), spec_of(x.step)]}
    if x is Ellipsis:
        return {"ellipsis": True}
    if isinstance(x, (list, tuple)):
        return {"seq": [spec_of(i) for i in x], "tuple": isinstance(x, tuple)}
    return {"value": x}


def _setitem(x, key, value):
    """``x[key] = value`` on a clone of x, returning the clone (``Tensor.__setitem__`` itself returns None)."""
    y = x.clone()
    y.__setitem__(key, value)
    return y


def _bn_train(x, rm, rv, w=None, b=None, momentum=0.1, eps=1e-5):
    """batch_norm in training mode on copies of the running stats: (out, updated running_mean, updated running_var)."""
    rm, rv = rm.detach().clone(), rv.detach().clone()
    out = torch.nn.functional.batch_norm(x, rm, rv, w, b, training=True, momentum=momentum, eps=eps)
    return out, rm, rv


def resolve(name: str, args):
    if name == "_setitem":  # a golden-only name: see _setitem
        return _setitem, args
    if name == "_bn_train":  # a golden-only name: see _bn_train
        return _bn_train, args
    if name == "_module":  # a golden-only name: args[0] builds an nn module (a string), the rest are its inputs
        return eval(args[0], {"nn": torch.nn, "torch": torch}), args[1:]  # noqa: S307 - the case files' own text
    if name == "_frombuffer":  # a golden-only name: frombuffer over bytearray(args[0]) (JSON holds no bytes)
        return (lambda data, **kw: torch.frombuffer(bytearray(data), **kw)), args
    if name == "_strides":  # a golden-only name: the strides of torch.<args[0]>(*args[1:]) (uninitialized values)
        return (lambda fn, *a, **kw: getattr(torch, fn)(*a, **kw).stride()), args
    if name.startswith("Tensor."):
        return getattr(args[0], name.split(".", 1)[1]), args[1:]
    obj = torch
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj, args


def output_spec(out):
    if isinstance(out, torch.Tensor):
        return {"tensor": encode_output(out.detach().numpy())}
    if isinstance(out, (tuple, list)):
        return {"seq": [output_spec(o) for o in out]}
    if isinstance(out, (bool, int, float, str)):
        return {"value": out if not isinstance(out, float) or np.isfinite(out) else repr(out)}
    if out is None:
        return {"value": None}
    raise TypeError(f"unsupported output {type(out)}")


def flat_outputs(out):
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in flat_outputs(o)]
    return []


def upstream(t, rng):
    """A fixed upstream gradient for output t (stored; large ones by formula)."""
    if t.numel() > 4096:
        seed = int(rng.integers(1000, 100000))
        return torch.from_numpy(formula(tuple(t.shape), "float32", seed)), \
            {"tensor": {"shape": list(t.shape), "dtype": "float32", "formula": seed}}
    g = rng.uniform(-1, 1, size=tuple(t.shape)).astype(np.float32)
    return torch.from_numpy(g), {"tensor": encode(g)}


def grad_spec(leaf):
    if leaf is None:
        return None
    if isinstance(leaf, list):
        return {"seq": [grad_spec(x) or {"value": None} for x in leaf]}
    return output_spec(leaf.grad) if leaf.grad is not None else {"value": None}


def call(c: dict, want_grad: bool, f64: bool):
    """Run the case once: (output, leaves, [(outputs that need grad, upstream grads)])."""
    conv = [to_torch(a, want_grad, f64) for a in c["args"]]
    args = [v for v, _ in conv]
    leaves = [leaf for _, leaf in conv]
    kwargs = {k: to_torch(v, False)[0] for k, v in c["kwargs"].items()}
    fn, call_args = resolve(c["fn"], args)
    if not callable(fn):  # a property such as Tensor.T
        fn, call_args = (lambda v: (lambda: v))(fn), []
    return fn(*call_args, **kwargs), leaves


def _dev(a32, a64):
    """|float32 result - float64 result| where PyTorch's float32 result is measurably inexact."""
    if not isinstance(a32, torch.Tensor) or not a32.dtype.is_floating_point or a64 is None:
        return None
    x = a32.detach().double().numpy()
    y = a64.detach().double().numpy()
    if x.shape != y.shape:
        return None
    with np.errstate(invalid="ignore"):
        d = np.abs(x - y)
    d = np.where(np.isfinite(d), d, 0.0)
    if not (d > 1e-7 * np.abs(np.where(np.isfinite(y), y, 0.0)) + 1e-30).any():
        return None
    return d.astype(np.float32)


def attach_dev(spec, d):
    """Store d next to an output spec (sampled like the output when the output is sampled)."""
    if d is None or "tensor" not in spec:
        return
    t = spec["tensor"]
    if "sample_pos" in t:
        t["sample_dev"] = encode(d.reshape(-1)[np.asarray(t["sample_pos"], dtype=np.int64)])
        t["sum_dev"] = float(np.abs(d).sum())
    else:
        t["dev"] = encode(d)


def _warning_text(message) -> str:
    """A warning's text without the C++ location PyTorch appends to warnings raised in ATen."""
    return re.sub(r" \(Triggered internally at .*\)$", "", str(message), flags=re.S)


def run_case(c: dict, op: str) -> dict:
    want_grad = c.get("grad", False)
    rng = np.random.default_rng(zlib.crc32(f"{op}/{c['id']}".encode()))
    rec = {"id": c["id"], "fn": c["fn"], "args": [spec_of(a) for a in c["args"]],
           "kwargs": {k: spec_of(v) for k, v in c["kwargs"].items()}}
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out, leaves = call(c, want_grad, False)
    except Exception as e:  # PyTorch refuses: the replay must refuse with the same type
        rec["raises"] = type(e).__name__
        if not c["id"].endswith(TYPE_ONLY):
            rec["message"] = str(e)  # checked for ops whose record asks (extra["messages"], see replay.py)
        return rec
    warns = [_warning_text(w.message) for w in caught if issubclass(w.category, UserWarning)]
    if warns:
        rec["warns"] = warns  # checked like messages (extra["messages"])
    if c.get("random"):
        # random ops cannot match PyTorch's stream: keep shape and dtype only
        rec["out"] = {"meta": [[list(t.shape), str(t.dtype).replace("torch.", "")] for t in flat_outputs(out)]}
        return rec
    rec["out"] = output_spec(out)
    ups = []
    if want_grad:
        outs = [o for o in flat_outputs(out) if o.requires_grad]
        if not outs or not any(leaf is not None for leaf in leaves):
            raise ValueError(f"{c['fn']} [{c['id']}]: grad=True but nothing to differentiate")
        ups = [upstream(o, rng) for o in outs]
        torch.autograd.backward(outs, [u for u, _ in ups])
        rec["grad_out"] = [s for _, s in ups]
        rec["grads"] = [grad_spec(leaf) for leaf in leaves]
    _add_devs(c, rec, out, leaves, ups, want_grad)
    _add_scale(c, rec, op)
    _add_grad_scale(c, rec, op, ups)
    return rec


# ops whose outputs are sums of many terms: their float32 error is a few ulps of the sum of the
# terms' magnitudes, which can be far above the result (cancellation); the generator stores that
# scale (the op applied to |inputs|) and the replay allows a few ulps of it
SUM_LIKE = {"sum", "mean", "cumsum", "scatter_add", "index_add", "matmul", "mm", "bmm", "mv", "dot", "addmm",
            "baddbmm", "einsum", "conv1d", "conv2d", "conv_transpose2d", "linear", "bilinear", "avg_pool1d",
            "avg_pool2d", "adaptive_avg_pool1d", "adaptive_avg_pool2d", "interpolate", "bincount", "nansum", "trace",
            "tensordot"}


class AbsBig:
    """|values| of a Big input (for the scale run of SUM_LIKE ops)."""

    def __init__(self, big):
        self.big = big


def _abs_arg(a):
    if isinstance(a, V):
        return V(_abs_arg(a.base), *a.steps)
    if isinstance(a, np.ndarray) and a.dtype == np.float32:
        return np.abs(a)
    if isinstance(a, Big) and a.dtype == "float32":
        return AbsBig(a)
    if isinstance(a, (list, tuple)):
        return type(a)(_abs_arg(x) for x in a)
    return a


def _add_scale(c, rec, op) -> None:
    if op not in SUM_LIKE or "out" not in rec or "tensor" not in rec["out"]:
        return
    try:
        ca = dict(c, args=[_abs_arg(a) for a in c["args"]], kwargs={k: (abs(v) if isinstance(v, float) else v)
                                                                      for k, v in c["kwargs"].items()})
        out, _ = call(ca, False, True)
    except Exception:  # noqa: BLE001
        return
    if not isinstance(out, torch.Tensor) or not out.dtype.is_floating_point:
        return
    s = out.detach().abs().numpy().astype(np.float32)
    t = rec["out"]["tensor"]
    if "sample_pos" in t:
        t["sample_scale"] = encode(s.reshape(-1)[np.asarray(t["sample_pos"], dtype=np.int64)])
        t["sum_scale"] = float(s.astype(np.float64).sum())
    else:
        t["scale"] = encode(s)


# elementwise ops: the gradient of a broadcast input is a sum over the broadcast dims of
# g * d(out)/d(input); its scale is the same sum of |g * d(out)/d(input)|
EW_GRAD = {"add", "sub", "mul", "div", "pow", "atan2", "maximum", "minimum", "fmax", "fmin", "lerp", "where", "clamp",
           "remainder", "fmod", "masked_fill"}


def _add_grad_scale(c, rec, op, ups) -> None:
    if op not in EW_GRAD or "grads" not in rec or len(ups) != 1:
        return
    try:
        conv = [to_torch(a, True, True) for a in c["args"]]
        bases = [leaf for _, leaf in conv]
        vals = [v for v, _ in conv]
        shape = torch.broadcast_shapes(*[v.shape for v in vals if isinstance(v, torch.Tensor)])
        full = [v.detach().expand(shape).clone().requires_grad_(True)
                if isinstance(v, torch.Tensor) and v.dtype.is_floating_point else v for v in vals]
        kwargs = {k: to_torch(v, False)[0] for k, v in c["kwargs"].items()}
        fn, call_args = resolve(c["fn"], full)
        out = fn(*call_args, **kwargs)
        g = ups[0][0].double()
        if tuple(out.shape) != tuple(g.shape):
            return
        out.backward(g)
        for spec, base, v, f in zip(rec["grads"], bases, vals, full):
            if spec is None or base is None or not isinstance(f, torch.Tensor) or f.grad is None \
                    or "tensor" not in spec:
                continue
            (s,) = torch.autograd.grad(v.expand(shape), base, f.grad.abs(), retain_graph=True, allow_unused=True)
            if s is None:
                continue
            s = s.detach().abs().numpy().astype(np.float32)
            t = spec["tensor"]
            if "sample_pos" in t:
                t["sample_scale"] = encode(s.reshape(-1)[np.asarray(t["sample_pos"], dtype=np.int64)])
                t["sum_scale"] = float(s.astype(np.float64).sum())
            else:
                t["scale"] = encode(s)
    except Exception:  # noqa: BLE001 - no scale for this case
        return


def _add_devs(c, rec, out, leaves, ups, want_grad) -> None:
    """Run the case again in float64 and record where PyTorch's float32 result is inexact."""
    try:
        out64, leaves64 = call(c, want_grad, True)
        if want_grad:
            outs64 = [o for o in flat_outputs(out64) if o.requires_grad]
            torch.autograd.backward(outs64, [u.double() if u.dtype == torch.float32 else u for u, _ in ups])
    except Exception:  # noqa: BLE001 - no float64 reference for this case
        return
    o32, o64 = flat_outputs(out), flat_outputs(out64)
    specs = [rec["out"]] if isinstance(out, torch.Tensor) else rec["out"].get("seq", [])
    if len(o32) == len(o64) and len(specs) == len(o32):
        for spec, a, b in zip(specs, o32, o64):
            attach_dev(spec, _dev(a, b))
    if want_grad:
        def walk(spec, leaf, leaf64):
            if spec is None or leaf is None or leaf64 is None:
                return
            if isinstance(leaf, list):
                for s, l1, l2 in zip(spec["seq"], leaf, leaf64):
                    walk(s, l1, l2)
                return
            if leaf.grad is not None and leaf64.grad is not None:
                attach_dev(spec, _dev(leaf.grad, leaf64.grad))
        for spec, leaf, leaf64 in zip(rec["grads"], leaves, leaves64):
            walk(spec, leaf, leaf64)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("ops", nargs="*", help="only these ops")
    ns = ap.parse_args()
    if torch.__version__.split("+")[0] != TORCH_VERSION:
        sys.exit(f"goldens come from torch {TORCH_VERSION}; this is {torch.__version__}")
    torch.manual_seed(0)
    outdir = HERE / "cases"
    outdir.mkdir(exist_ok=True)
    total = 0
    for op, gen in sorted(GENERATORS.items()):
        if ns.ops and op not in ns.ops:
            continue
        cases = [run_case(c, op) for c in gen()]
        ids = [c["id"] for c in cases]
        if len(set(ids)) != len(ids):
            raise ValueError(f"{op}: duplicate case ids {sorted(i for i in ids if ids.count(i) > 1)[:5]}")
        doc = {"op": op, "torch": torch.__version__, "cases": cases}
        casefile.write(casefile.path(op, outdir), doc)
        total += len(cases)
        print(f"{op}: {len(cases)} cases")
    print(f"{total} cases written to {outdir}")
    if not ns.ops:
        reprs = [[e, repr(eval(e, {"torch": torch}))] for e in REPR_EXPRS]  # noqa: S307 - our own list
        (HERE / "reprs.json").write_text(json.dumps({"torch": torch.__version__, "reprs": reprs}, indent=1) + "\n")
        print(f"{len(reprs)} reprs written")


if __name__ == "__main__":
    main()
