"""Replay rnn.json (PyTorch's answers, tests/golden/generate_rnn.py) on borch_webgpu:
``python replay_rnn.py [--device cpu|webgpu] [numeric case id ...]`` (all numeric cases when none are
named; the errors, warnings, reprs, names and attributes always); in the browser through the runner with
``--mount tests/golden``. Each NUMERIC case loads PyTorch's weights with ``load_state_dict(strict=True)``,
runs the same code on the same inputs and compares the outputs and the gradients of inputs and
parameters; then the errors, warnings, reprs, registered names and attributes. Prints one line per
mismatch and ``rnn: N passed, N failed``.
"""
from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

import borch_webgpu as bw  # noqa: E402

from generate_rnn import _raises, _structure, _warns, differentiable, flatten, is_tensor, namespace  # noqa: E402

# float32, different summation order than PyTorch's BLAS: outputs pass through a few GEMMs per step,
# gradients through T steps of them (measured on cpu: ~1e-6 worst; 10x margin)
RTOL, ATOL = 1e-5, 2e-5


def load() -> dict:
    return json.loads((HERE / "rnn.json").read_text())


def _close(name: str, got, want: dict | None, tol: tuple[float, float] = (RTOL, ATOL)) -> str | None:
    if want is None:
        if got is None or (is_tensor(got) and not bool((got == 0).all())):
            return None if got is None else f"{name}: PyTorch has no gradient here, ours is non-zero"
        return None
    if "value" in want or "repr" in want:
        mine = {"value": got} if not is_tensor(got) else {"repr": repr(got)}
        return None if mine == want else f"{name}: got {mine}, PyTorch {want}"
    if not is_tensor(got):
        return f"{name}: got {type(got).__name__}, PyTorch a tensor {want['shape']}"
    if str(got.dtype) != want["dtype"] or list(got.shape) != want["shape"]:
        return f"{name}: got {got.dtype} {list(got.shape)}, PyTorch {want['dtype']} {want['shape']}"
    a = np.asarray(got.detach().tolist(), dtype=np.float64).reshape(want["shape"])
    b = np.asarray(want["values"], dtype=np.float64).reshape(want["shape"])
    if want["dtype"].startswith("torch.float"):
        bad = ~np.isclose(a, b, rtol=tol[0], atol=tol[1])
        if bad.any():
            i = tuple(int(j) for j in np.argwhere(bad)[0])
            return (f"{name}: {int(bad.sum())} of {a.size} differ; at {list(i)} got {float(a[i])!r}, "
                    f"PyTorch {float(b[i])!r}")
        return None
    return None if np.array_equal(a, b) else f"{name}: got {a.tolist()}, PyTorch {b.tolist()}"


def _inputs(case: dict, shapes: dict, device: str) -> dict:
    out = {}
    grad = set(k[len("input:"):] for k in case["grads"] if k.startswith("input:"))
    for name, v in case["inputs"].items():
        if isinstance(shapes[name][0], list):  # a list of sequences
            out[name] = [bw.tensor(t, device=device, requires_grad=name in grad) for t in v]
        else:
            out[name] = bw.tensor(v, device=device, requires_grad=name in grad)
    return out


def check_numeric(case: dict, spec: tuple, device: str, tol: tuple[float, float] = (RTOL, ATOL)) -> list[str]:
    """The differences between borch_webgpu and PyTorch on one NUMERIC case ([] when none)."""
    cid, module, shapes, code, opts = spec
    ns = namespace(bw)
    m = None
    if module:
        bw.manual_seed(0)
        m = eval(module, dict(ns)).to(device)  # noqa: S307 - our own list
        m.load_state_dict({k: bw.tensor(v, device=device) for k, v in case["state"].items()}, strict=True)
        if not opts.get("train", True):
            m.eval()
    inputs = _inputs(case, shapes, device)
    env = {**ns, "m": m, **inputs}
    exec(code, env)  # noqa: S102 - our own list
    sig, leaves = flatten(env["out"])
    errs = [] if sig == case["signature"] else [f"signature {sig}, PyTorch {case['signature']}"]
    if errs:
        return errs
    for i, (got, want) in enumerate(zip(leaves, case["outputs"])):
        e = _close(f"output {i}", got, want, tol)
        if e:
            errs.append(e)
    idx = differentiable(leaves)
    if idx != case["loss_leaves"]:
        return errs + [f"outputs with a graph: {idx}, PyTorch {case['loss_leaves']}"]
    if idx:
        gs = [bw.tensor(g, device=device) for g in case["grad_outputs"]]
        sum((leaves[i] * g).sum() for i, g in zip(idx, gs)).backward()
    for key, want in case["grads"].items():
        kind, name = key.split(":", 1)
        if kind == "input":
            got = inputs[name]
            pairs = zip(got, want) if isinstance(got, list) else [(got, want)]
            for j, (t, w) in enumerate(pairs):
                e = _close(f"grad of {name}[{j}]", t.grad, w, tol)
                if e:
                    errs.append(e)
        else:
            e = _close(f"grad of {name}", m.get_parameter(name).grad, want, tol)
            if e:
                errs.append(e)
    return errs


def _ours(message: str) -> str:
    return message.replace("borch_webgpu.", "torch.")


def check_error(entry: list) -> str | None:
    name, code, match, typ, msg = entry
    got = _raises(namespace(bw), code)
    if got is None:
        return f"did not raise; PyTorch raises {typ}: {msg}"
    if got[0] != typ:
        return f"raised {got[0]}: {got[1]!r}; PyTorch raises {typ}: {msg!r}"
    if match == "exact" and _ours(got[1]) != msg:
        return f"message differs:\n  ours:    {got[1]!r}\n  PyTorch: {msg!r}"
    return None


def check_warning(entry: list) -> str | None:
    name, code, want = entry
    got = _warns(namespace(bw), code)
    return None if got == want else f"warned {got}; PyTorch {want}"


def check_meta(kind: str, entry: list) -> str | None:
    ns = namespace(bw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if kind == "reprs":  # with PyTorch's default device: a tensor's repr names any other device
            default = bw.get_default_device()
            bw.set_default_device("cpu")
            try:
                got = repr(eval(entry[0], dict(ns)))  # noqa: S307
            finally:
                bw.set_default_device(default)
            want = entry[1]
        elif kind == "structure":
            got, want = json.loads(json.dumps(_structure(eval(entry[0], dict(ns))))), entry[1]  # noqa: S307
        else:
            m = eval(entry[0], dict(ns))  # noqa: S307
            got, want = json.loads(json.dumps(eval(entry[1], {**ns, "m": m}))), entry[2]  # noqa: S307
    return None if got == want else f"got {got!r}, PyTorch {want!r}"


KINDS = ("errors", "warnings", "reprs", "structure", "attributes")


def other_entries(gold: dict) -> list[tuple[str, list]]:
    """(kind, entry) for every error, warning, repr, structure and attribute entry of a golden file."""
    return [(kind, entry) for kind in KINDS for entry in gold[kind]]


def check_other(kind: str, entry: list) -> str | None:
    if kind == "errors":
        return check_error(entry)
    if kind == "warnings":
        return check_warning(entry)
    return check_meta(kind, entry)


def replay(label: str, gold: dict, numeric: list, argv=None, tol: tuple[float, float] = (RTOL, ATOL)) -> int:
    """Replay every numeric case of ``gold`` named in argv (all when none), then its errors, warnings, reprs,
    names and attributes; print the mismatches and ``{label}: N passed, N failed``."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default=None)
    ap.add_argument("ids", nargs="*")
    ns = ap.parse_args(argv)
    device = ns.device or bw.get_default_device().type
    specs = {c[0]: c for c in numeric}
    passed = failed = 0

    def report(name: str, errs) -> None:
        nonlocal passed, failed
        errs = [e for e in ([errs] if isinstance(errs, str) else errs or []) if e]
        if errs:
            failed += 1
            print(f"FAIL {name}: " + "; ".join(errs))
        else:
            passed += 1

    for case in gold["numeric"]:
        if not ns.ids or case["id"] in ns.ids:
            try:
                report(case["id"], check_numeric(case, specs[case["id"]], device, tol))
            except Exception as e:  # noqa: BLE001 - one broken case must not hide the others
                report(case["id"], f"raised {type(e).__name__}: {e}")
    for kind, entry in other_entries(gold):
        report(f"{kind} {entry[0]}", check_other(kind, entry))
    print(f"{label}: {passed} passed, {failed} failed [device {device}]")
    return 1 if failed else 0


def main(argv=None) -> int:
    from rnn_cases import NUMERIC
    return replay("rnn", load(), NUMERIC, argv)


if __name__ == "__main__":
    sys.exit(main())
