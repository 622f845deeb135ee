"""Replay the frozen PyTorch goldens on borch_webgpu: ``python replay.py [--device cpu|webgpu] [op ...]``.

Runs in CPython (cpu device) and inside Pyodide through the runner (webgpu device):
``python -m borch_webgpu.run --mount tests/golden tests/golden/replay.py --device webgpu``.
Prints one line per failing case and ``golden: N passed, N failed`` with the device and adapter.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
import warnings
from pathlib import Path


HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import borch_webgpu as bw  # noqa: E402
from borch_webgpu.ops._registry import REGISTRY  # noqa: E402

import casefile  # noqa: E402
from golden_io import compare, decode  # noqa: E402

DTYPES = {"float32": bw.float32, "int64": bw.int64, "int32": bw.int32, "bool": bw.bool, "float16": bw.float16}


def build(spec, device, grad: bool = False):
    """(value for the call, leaf whose .grad is compared (a list for a list argument) or None)."""
    if "seq" in spec and grad:
        items = [build(s, device, grad) for s in spec["seq"]]
        vals = [v for v, _ in items]
        leaves = [leaf for _, leaf in items]
        return (tuple(vals) if spec.get("tuple") else vals), (leaves if any(x is not None for x in leaves) else None)
    if "tensor" in spec:
        t = bw.tensor(decode(spec["tensor"]), device=device)
        leaf = None
        if grad and t.dtype.is_floating_point:
            t.requires_grad_(True)
            leaf = t
        for name, *args in spec.get("view", ()):
            t = getattr(t, name)(*[build(a, device)[0] for a in args])
        return t, leaf
    return _plain(spec, device), None


def _plain(spec, device):
    if "float" in spec:
        return float(spec["float"])
    if "slice" in spec:
        return slice(*[_plain(s, device) for s in spec["slice"]])
    if "range" in spec:
        return range(*spec["range"])
    if "ellipsis" in spec:
        return Ellipsis
    if "tensor" in spec:
        return build(spec, device)[0]
    if "seq" in spec:
        items = [_plain(s, device) for s in spec["seq"]]
        return tuple(items) if spec.get("tuple") else items
    v = spec["value"]
    if isinstance(v, str) and v in DTYPES:
        return DTYPES[v]
    return v


def _setitem(x, key, value):
    """``x[key] = value`` on a clone of x, returning the clone (``Tensor.__setitem__`` itself returns None)."""
    y = x.clone()
    y.__setitem__(key, value)
    return y


def _bn_train(x, rm, rv, w=None, b=None, momentum=0.1, eps=1e-5):
    """batch_norm in training mode on copies of the running stats: (out, updated running_mean, updated running_var)."""
    rm, rv = rm.detach().clone(), rv.detach().clone()
    out = bw.nn.functional.batch_norm(x, rm, rv, w, b, training=True, momentum=momentum, eps=eps)
    return out, rm, rv


def resolve(name: str, args):
    if name == "_setitem":  # a golden-only name: see _setitem
        return _setitem, args
    if name == "_bn_train":  # a golden-only name: see _bn_train
        return _bn_train, args
    if name == "_module":  # a golden-only name: args[0] builds an nn module (a string), the rest are its inputs
        return eval(args[0], {"nn": bw.nn, "torch": bw}), args[1:]  # noqa: S307 - the case files' own text
    if name == "_frombuffer":  # a golden-only name: frombuffer over bytearray(args[0]) (JSON holds no bytes)
        return (lambda data, **kw: bw.frombuffer(bytearray(data), **kw)), args
    if name == "_strides":  # a golden-only name: the strides of bw.<args[0]>(*args[1:]) (uninitialized values)
        return (lambda fn, *a, **kw: getattr(bw, fn)(*a, **kw).stride()), args
    if name.startswith("Tensor."):
        return getattr(args[0], name.split(".", 1)[1]), args[1:]
    obj = bw
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj, args


def check_output(got, spec, tol, signed_zero) -> str | None:
    if "meta" in spec:
        outs = flat_outputs(got)
        meta = [[list(t.shape), t.dtype.name] for t in outs]
        return None if meta == spec["meta"] else f"shapes/dtypes {meta} != expected {spec['meta']}"
    if "tensor" in spec:
        if not isinstance(got, bw.Tensor):
            return f"expected a tensor, got {type(got).__name__}"
        return compare(got.detach().numpy() if hasattr(got, "detach") else got.numpy(), spec["tensor"], *tol,
                       signed_zero=signed_zero)
    if "seq" in spec:
        if not isinstance(got, (tuple, list)) or len(got) != len(spec["seq"]):
            return f"expected a sequence of {len(spec['seq'])}, got {got!r}"
        for i, (g, s) in enumerate(zip(got, spec["seq"])):
            err = check_output(g, s, tol, signed_zero)
            if err:
                return f"[{i}] {err}"
        return None
    want = spec["value"]
    want = float(want) if isinstance(want, str) and want in ("nan", "inf", "-inf") else want
    if isinstance(want, float) and (math.isnan(want) and isinstance(got, float) and math.isnan(got)):
        return None
    if isinstance(want, float) and isinstance(got, (int, float)) and abs(got - want) <= tol[1] + tol[0] * abs(want):
        return None
    return None if got == want else f"got {got!r}, expected {want!r}"


def flat_outputs(out):
    if isinstance(out, bw.Tensor):
        return [out]
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in flat_outputs(o)]
    return []


def run_case(op: str, c: dict, device) -> str | None:
    want_grad = "grads" in c
    built = [build(a, device, want_grad) for a in c["args"]]
    args = [v for v, _ in built]
    leaves = [leaf for _, leaf in built]
    kwargs = {k: _plain(v, device) for k, v in c["kwargs"].items()}
    try:
        fn, call_args = resolve(c["fn"], args)
    except Exception as e:  # noqa: BLE001 - a missing name, or a property that raises
        if "raises" in c and type(e).__name__ == c["raises"]:
            return None
        return f"{type(e).__name__}: {e}"
    if not callable(fn):  # a property such as Tensor.T
        fn, call_args = (lambda v: (lambda: v))(fn), []
    opdef = REGISTRY[op]
    if "raises" in c:
        try:
            got = fn(*call_args, **kwargs)
            # a GPU kernel finds a bad index only when a value is read: read what the call made
            for t in flat_outputs(got) + [a for a in args if isinstance(a, bw.Tensor)]:
                t.detach().tolist()
        except Exception as e:  # noqa: BLE001 - comparing the type with PyTorch's
            if type(e).__name__ != c["raises"]:
                return f"raised {type(e).__name__}: {e}; PyTorch raises {c['raises']}"
            # ops whose record asks for it also say what PyTorch says (ours may add the op's name before it,
            # or after it that a GPU kernel found the error)
            if opdef.extra.get("messages") and "message" in c and c["message"] not in str(e):
                return f"raised {type(e).__name__}: {str(e)!r}; PyTorch says {c['message']!r}"
            return None
        return f"did not raise; PyTorch raises {c['raises']}"
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = fn(*call_args, **kwargs)
    except Exception as e:  # noqa: BLE001
        return f"raised {type(e).__name__}: {e}"
    if opdef.extra.get("messages"):  # PyTorch's warnings too (meshgrid without indexing, cross without dim)
        ours = [str(w.message) for w in caught]
        for w in c.get("warns", ()):
            if w not in ours:
                return f"did not warn {w!r} as PyTorch does (warned {ours!r})"
    signed_zero = opdef.extra.get("signed_zero", opdef.family in ("unary", "binary"))
    err = check_output(got, c["out"], opdef.tol, signed_zero)
    if err or not want_grad:
        return err
    outs = [o for o in flat_outputs(got) if o.requires_grad]
    if len(outs) != len(c["grad_out"]):
        return f"{len(outs)} outputs require grad, PyTorch has {len(c['grad_out'])}"
    try:
        bw.autograd.backward(outs, [build(g, device)[0] for g in c["grad_out"]])
    except Exception as e:  # noqa: BLE001
        return f"backward raised {type(e).__name__}: {e}"
    # gradients are sums (over broadcast dims, over uses of an input) whose float32 rounding
    # depends on the order of summation: at least torch.testing.assert_close's float32 defaults
    # (rtol 1.3e-6, atol 1e-5), even for exact ops
    gtol = opdef.extra.get("grad_tol", (max(opdef.tol[0], 1.3e-6), max(opdef.tol[1], 1e-5)))
    for i, (leaf, want) in enumerate(zip(leaves, c["grads"])):
        err = check_grad(leaf, want, gtol)
        if err:
            return f"grad of arg {i}: {err}"
    return None


def check_grad(leaf, want, gtol) -> str | None:
    if want is None:
        return None
    if "seq" in want:
        if not isinstance(leaf, list):
            return "missing"
        for j, (lf, w) in enumerate(zip(leaf, want["seq"])):
            err = check_grad(lf, w, gtol)
            if err:
                return f"[{j}] {err}"
        return None
    if want.get("value", 0) is None:
        if leaf is not None and leaf.grad is not None:
            return "got a gradient, PyTorch gives None"
        return None
    if leaf is None or leaf.grad is None:
        return "missing"
    return check_output(leaf.grad, want, gtol, False)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default=None, help="cpu or webgpu (default: the default device)")
    ap.add_argument("--max-report", type=int, default=40)
    ap.add_argument("--poison", action="store_true",
                    help="webgpu: fill every buffer handed out with a pattern first (finds kernels that read "
                         "memory they did not write) and check that no pipeline key names two kernels")
    ap.add_argument("ops", nargs="*")
    ns = ap.parse_args(argv)
    # cases that probe PyTorch's warnings (broadcast targets, 3-D dropout2d) would flood the output
    warnings.simplefilter("ignore", UserWarning)
    device = bw.device(ns.device) if ns.device else bw.get_default_device()
    if device.type == "webgpu" and not bw.webgpu.is_available():
        print("golden: WebGPU is not available here", file=sys.stderr)
        return 2
    if ns.poison:
        from borch_webgpu.device import webgpu as _webgpu
        _webgpu.runtime().poison = True
    files = casefile.files()
    passed = failed = 0
    t0 = time.perf_counter()
    for f in files:
        doc = casefile.read(f)
        op = doc["op"]
        if ns.ops and op not in ns.ops:
            continue
        for c in doc["cases"]:
            err = run_case(op, c, device)
            if err is None:
                passed += 1
            else:
                failed += 1
                if failed <= ns.max_report:
                    print(f"FAIL {op} [{c['id']}] {c['fn']}: {err}")
    dt = time.perf_counter() - t0
    where = f"device {device.type}"
    if device.type == "webgpu":
        info = bw.webgpu.adapter_info()
        kind = "software, CPU" if info["is_software"] else "GPU"
        where += f", adapter {info['vendor']} / {info['architecture'] or info['device']} ({kind})"
        st = bw.webgpu.stats()
        print(f"golden: pipelines created {st['pipelines']}, dispatches {st['dispatches']}, "
              f"flushes {st['flushes']}, bind groups {st['bindGroupsCreated']}")
    print(f"golden: {passed} passed, {failed} failed [{where}] in {dt:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
