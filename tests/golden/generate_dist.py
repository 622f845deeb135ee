"""Freeze real PyTorch's answers to dist_cases.py into dist.json: ``python tests/golden/generate_dist.py``
(needs torch==2.13.0, the CPU build). The helpers (namespace, run_numeric, encode, raises) are shared
with replay_dist.py; torch is imported in main() only."""
from __future__ import annotations

import json
import math
import sys
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import dist_cases  # noqa: E402

TORCH_VERSION = "2.13.0"
_PROPS = ("mean", "variance", "stddev", "mode")


def is_tensor(v) -> bool:
    return all(hasattr(v, a) for a in ("tolist", "dtype", "shape", "requires_grad"))


def namespace(torch) -> tuple[dict, list]:
    """The names the cases' code sees, and the list that ``P`` fills with the parameters it makes."""
    params: list = []

    def P(values, dtype="float32", grad=True):
        t = torch.tensor(values, dtype=getattr(torch, dtype))
        if grad:
            t.requires_grad_(True)
            params.append(t)
        return t

    def attempt(fn):
        try:
            return fn()
        except NotImplementedError:
            return "raises NotImplementedError"

    def std(d, v):
        out = {"log_prob": d.log_prob(v), "entropy": attempt(d.entropy), "cdf": attempt(lambda: d.cdf(v)),
               "batch_shape": list(d.batch_shape), "event_shape": list(d.event_shape),
               "has_rsample": d.has_rsample, "support": attempt(lambda: repr(d.support))}
        for p in _PROPS:
            out[p] = attempt(lambda: getattr(d, p))
        if d.has_enumerate_support:
            out["enumerate_support"] = attempt(d.enumerate_support)
            out["enumerate_support_flat"] = attempt(lambda: d.enumerate_support(expand=False))
        return out

    D = torch.distributions
    return {"torch": torch, "D": D, "T": D.transforms, "C": D.constraints, "P": P, "std": std}, params


def run_numeric(torch, code: str) -> tuple[dict, dict]:
    """(outputs, gradients): gradients of each output that requires grad, summed, w.r.t. every parameter."""
    ns, params = namespace(torch)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(code, ns)
    out = ns["out"]
    grads = {}
    for key, v in out.items():
        if is_tensor(v) and v.requires_grad and v.dtype.is_floating_point:
            try:
                grads[key] = list(torch.autograd.grad(v.sum(), params, retain_graph=True, allow_unused=True))
            except NotImplementedError as e:
                grads[key] = f"raises NotImplementedError: {e}"
    return out, grads


def encode(v):
    if v is None:
        return None
    if is_tensor(v):
        vals = v.detach().tolist()
        return {"shape": list(v.shape), "dtype": str(v.dtype), "values": vals}
    if isinstance(v, float) and not math.isfinite(v):
        return {"value": repr(v)}
    return {"value": v}


def raises(code: str, torch) -> dict:
    ns, _ = namespace(torch)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(code, ns)
    except Exception as e:  # noqa: BLE001 - the type is what is recorded
        return {"type": type(e).__name__, "message": str(e)}
    return {"type": None, "message": "no exception"}


def sampling_record(torch, code: str, n: int) -> dict:
    ns, params = namespace(torch)
    exec(code, ns)
    d = ns["d"]
    s = d.sample((n,))
    rec = {"mean": encode(d.mean), "variance": encode(d.variance), "sample_shape": list(s.shape),
           "sample_dtype": str(s.dtype), "has_rsample": d.has_rsample, "support": repr(d.support)}
    if d.has_rsample:
        r = d.rsample((3,))
        rec["rsample_shape"], rec["rsample_dtype"] = list(r.shape), str(r.dtype)
        g = torch.autograd.grad(d.mean.sum(), params, allow_unused=True)
        rec["mean_grads"] = [encode(x) for x in g]
    return rec


def main() -> None:
    import torch
    if not torch.__version__.startswith(TORCH_VERSION):
        raise SystemExit(f"needs torch {TORCH_VERSION}, found {torch.__version__}")
    torch.manual_seed(0)
    numeric = []
    for cid, code in dist_cases.NUMERIC:
        out, grads = run_numeric(torch, code)
        numeric.append({"id": cid, "out": {k: encode(v) if not isinstance(v, list) or not v or not is_tensor(v[0])
                                           else [encode(x) for x in v] for k, v in out.items()},
                        "grads": {k: g if isinstance(g, str) else [encode(x) for x in g] for k, g in grads.items()}})
    sampling = [{"id": cid, **sampling_record(torch, code, n)} for cid, code, n, _ in dist_cases.SAMPLING]
    errors = [{"id": cid, **raises(code, torch)} for cid, code in dist_cases.ERRORS]
    data = {"torch_version": torch.__version__, "numeric": numeric, "sampling": sampling, "errors": errors}
    (HERE / "dist.json").write_text(json.dumps(data, indent=None, separators=(",", ":")) + "\n")
    print(f"dist.json: {len(numeric)} numeric, {len(sampling)} sampling, {len(errors)} error cases")


if __name__ == "__main__":
    main()
