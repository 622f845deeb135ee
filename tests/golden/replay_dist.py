"""Replay dist.json (PyTorch's answers, tests/golden/generate_dist.py) on borch_webgpu:
``python replay_dist.py [--device cpu|webgpu] [--samples N] [--all-errors] [case id | sampling:id ...]``
(every case when none is named); in the
browser through the runner with ``--mount tests/golden``. NUMERIC cases: the same code on the same
inputs, outputs and gradients compared; SAMPLING: shapes, dtypes, support, empirical means against
PyTorch's analytic ones and the reparameterization gradients (statistics: our random stream is not
PyTorch's); ERRORS: PyTorch's exception type and message. Prints one line per mismatch and
``distributions: N passed, N failed``."""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

import borch_webgpu as bw  # noqa: E402

import dist_cases  # noqa: E402
from generate_dist import encode, is_tensor, namespace, raises, run_numeric  # noqa: E402

# float32 formulas of a few ops each (lgamma, digamma, erf, log1p, solves of 2x2/3x3 triangles): measured
# worst ~2e-6 relative on cpu; the host-side gammainc is float64. float64: polygamma(1, x) (digamma's
# gradient, ops/special.py) is good to ~4e-10 relative, the rest to ~1e-15
TOL = {"float32": (2e-5, 2e-6), "float64": (1e-9, 1e-12)}


def load() -> dict:
    return json.loads((HERE / "dist.json").read_text())


def _close(name: str, got, want) -> str | None:
    if isinstance(want, list):
        if not isinstance(got, (list, tuple)) or len(got) != len(want):
            return f"{name}: got {got!r}, PyTorch a list of {len(want)}"
        for i, (g, w) in enumerate(zip(got, want)):
            err = _close(f"{name}[{i}]", g, w)
            if err:
                return err
        return None
    if want is None:
        if got is None or (is_tensor(got) and not bool((got == 0).all())):
            return None if got is None else f"{name}: PyTorch has no gradient here, ours is non-zero"
        return None
    if "value" in want:
        mine = encode(got) if not is_tensor(got) else {"tensor": repr(got)}
        return None if mine == want else f"{name}: got {mine}, PyTorch {want}"
    if not is_tensor(got):
        return f"{name}: got {got!r}, PyTorch a tensor {want['shape']}"
    if str(got.dtype) != want["dtype"] or list(got.shape) != want["shape"]:
        return f"{name}: got {got.dtype} {list(got.shape)}, PyTorch {want['dtype']} {want['shape']}"
    a = np.asarray(got.detach().cpu().tolist(), dtype=np.float64).reshape(want["shape"])
    b = np.asarray(want["values"], dtype=np.float64).reshape(want["shape"])
    rtol, atol = TOL.get(want["dtype"].removeprefix("torch."), (0, 0))
    # a value that is a difference of much larger terms (Binomial(10, 0.5)'s entropy gradient is 0 by
    # symmetry, a sum of terms near 1) is good to rtol of the tensor's scale, not of itself: the H200
    # gave 3.8e-6 there, float32 rounding of those terms
    finite = np.abs(b[np.isfinite(b)])
    atol = max(atol, rtol * float(finite.max())) if finite.size else atol
    bad = ~np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=True)
    if bad.any():
        i = np.argwhere(bad)[0]
        return f"{name}: {int(bad.sum())} values differ, first at {tuple(int(j) for j in i)}: {a[tuple(i)]} vs {b[tuple(i)]}"
    return None


def check_numeric(case: dict, code: str) -> list[str]:
    errs = []
    try:
        out, grads = run_numeric(bw, code)
    except Exception as e:  # noqa: BLE001 - reported as a mismatch
        return [f"{case['id']}: raised {type(e).__name__}: {e}"]
    for key, want in case["out"].items():
        if key not in out:
            errs.append(f"{case['id']}: no output {key}")
            continue
        err = _close(f"{case['id']} {key}", out[key], want)
        if err:
            errs.append(err)
    if set(grads) != set(case["grads"]):
        errs.append(f"{case['id']}: gradients of {sorted(grads)}, PyTorch {sorted(case['grads'])}")
    for key, want in case["grads"].items():
        got = grads.get(key)
        if isinstance(want, str) or isinstance(got, str):
            if got != want:
                errs.append(f"{case['id']} grad {key}: got {got!r}, PyTorch {want!r}")
            continue
        for i, (g, w) in enumerate(zip(got or [], want)):
            err = _close(f"{case['id']} grad {key} wrt param {i}", g, w)
            if err:
                errs.append(err)
    return errs


def check_sampling(rec: dict, code: str, n: int, tol: float) -> list[str]:
    cid, errs = rec["id"], []
    ns, params = namespace(bw)
    exec(code, ns)
    d = ns["d"]
    s = d.sample((n,))
    want_shape = [n] + rec["sample_shape"][1:]   # PyTorch drew dist_cases' n; --samples may ask for fewer
    if list(s.shape) != want_shape or str(s.dtype) != rec["sample_dtype"]:
        errs.append(f"{cid}: sample {s.dtype} {list(s.shape)}, PyTorch {rec['sample_dtype']} {want_shape}")
    if s.requires_grad:
        errs.append(f"{cid}: sample() requires grad")
    if repr(d.support) != rec["support"] and not rec["support"].startswith("Interval(lower_bound=tensor"):
        errs.append(f"{cid}: support {d.support!r}, PyTorch {rec['support']}")
    if not bool(d.support.check(s).all()):
        errs.append(f"{cid}: samples outside the support {d.support!r}")
    mean = np.asarray(rec["mean"]["values"], dtype=np.float64)
    var = np.asarray(rec["variance"]["values"], dtype=np.float64)
    emp = np.asarray(s.double().mean(0).tolist(), dtype=np.float64)
    bound = 6 * np.sqrt(var / n) + 1e-6
    if (np.abs(emp - mean) > bound).any():
        errs.append(f"{cid}: sample mean {emp.tolist()} vs PyTorch's mean {mean.tolist()} (bound {bound.tolist()})")
    if d.has_rsample != rec["has_rsample"]:
        errs.append(f"{cid}: has_rsample {d.has_rsample}, PyTorch {rec['has_rsample']}")
    if rec["has_rsample"]:
        r = d.rsample((3,))
        if list(r.shape) != rec["rsample_shape"] or str(r.dtype) != rec["rsample_dtype"] or not r.requires_grad:
            errs.append(f"{cid}: rsample {r.dtype} {list(r.shape)} requires_grad={r.requires_grad}")
        r = d.rsample((n,))
        grads = bw.autograd.grad(r.sum() / n, params, allow_unused=True)
        for i, (g, w) in enumerate(zip(grads, rec["mean_grads"])):
            if w is None:
                continue
            if g is None:
                errs.append(f"{cid}: rsample has no gradient for parameter {i}")
                continue
            got = np.asarray(g.tolist(), dtype=np.float64)
            want = np.asarray(w["values"], dtype=np.float64)
            if not np.all(np.isfinite(got)) or (np.abs(got - want) > tol * (1 + np.abs(want))).any():
                errs.append(f"{cid}: average rsample gradient {got.tolist()} for parameter {i}, "
                            f"PyTorch's gradient of the mean {want.tolist()}")
    return errs


def check_error(entry: dict, code: str) -> str | None:
    got = raises(code, bw)
    want = {"type": entry["type"], "message": entry["message"]}
    return None if got == want else f"{entry['id']}: got {got}, PyTorch {want}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--samples", type=int, default=0,
                    help="draw this many samples per SAMPLING case instead of its n (tolerances widen as 1/sqrt)")
    ap.add_argument("--all-errors", action="store_true", help="with ids given, still check every error case")
    ap.add_argument("ids", nargs="*")
    args = ap.parse_args(argv)
    bw.set_default_device(args.device)
    gold = load()
    codes = dict(dist_cases.NUMERIC)
    samp = {cid: (code, n, tol) for cid, code, n, tol in dist_cases.SAMPLING}
    if args.samples:
        samp = {cid: (code, args.samples, tol * (n / args.samples) ** 0.5) for cid, (code, n, tol) in samp.items()}
    errs_code = dict(dist_cases.ERRORS)
    want = set(args.ids)
    passed = failed = 0
    seconds = {"numeric": 0.0, "sampling": 0.0, "error": 0.0}
    slowest: list[tuple[float, str]] = []
    bw.manual_seed(0)
    jobs = ([("numeric", c, lambda c=c: check_numeric(c, codes[c["id"]])) for c in gold["numeric"]]
            + [("sampling", r, lambda r=r: check_sampling(r, *samp[r["id"]])) for r in gold["sampling"]]
            + [("error", e, lambda e=e: [x for x in [check_error(e, errs_code[e["id"]])] if x])
               for e in gold["errors"]])
    for kind, entry, job in jobs:
        named = f"{kind}:{entry['id']}" in want or (kind == "numeric" and entry["id"] in want)
        if want and not named and not (kind == "error" and args.all_errors):
            continue
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                problems = job()
            except Exception as e:  # noqa: BLE001 - reported as a mismatch
                problems = [f"{entry['id']}: raised {type(e).__name__}: {e}"]
        seconds[kind] += time.perf_counter() - start
        slowest.append((time.perf_counter() - start, f"{kind}:{entry['id']}"))
        if problems:
            failed += 1
            for p in problems:
                print(f"FAIL {kind} {p}")
        else:
            passed += 1
    if want and passed + failed == 0:
        print(f"no case matched {sorted(want)}")
        failed = 1
    print("seconds: " + ", ".join(f"{k} {v:.1f}" for k, v in seconds.items()) + "; slowest: "
          + ", ".join(f"{name} {t:.1f}" for t, name in sorted(slowest, reverse=True)[:6]))
    print(f"distributions: {passed} passed, {failed} failed ({args.device})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
