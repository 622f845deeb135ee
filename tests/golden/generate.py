"""Write the frozen golden cases from real PyTorch (CPU): ``python tests/golden/generate.py [op ...]``.

Needs ``pip install torch==2.13.0`` (the CPU build on this machine's disk). Writes
tests/golden/cases/<op>.json and tests/golden/reprs.json; commit them. CI does not need torch:
it replays these files.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import torch  # noqa: E402

from cases import GENERATORS, REPR_EXPRS, Big, V  # noqa: E402
from golden_io import encode, encode_output, formula  # noqa: E402

DTYPES = {"float32": torch.float32, "int64": torch.int64, "int32": torch.int32, "bool": torch.bool,
          "float16": torch.float16}
TORCH_VERSION = "2.13.0"
_grad_rng = np.random.default_rng(7)


def base_tensor(x, grad: bool):
    t = torch.from_numpy(formula(x.shape, x.dtype, x.seed)) if isinstance(x, Big) else torch.from_numpy(x.copy())
    if grad and t.dtype.is_floating_point:
        t.requires_grad_(True)
    return t


def apply_steps(t, steps):
    for step in steps:
        name, *a = step
        t = getattr(t, name)(*[to_torch(i, False)[0] for i in a])
    return t


def to_torch(x, grad: bool):
    """(value passed to the call, leaf tensor whose .grad is recorded or None)."""
    if isinstance(x, V):
        leaf = base_tensor(x.base, grad)
        return apply_steps(leaf, x.steps), (leaf if leaf.requires_grad else None)
    if isinstance(x, (Big, np.ndarray)):
        leaf = base_tensor(x, grad)
        return leaf, (leaf if leaf.requires_grad else None)
    if isinstance(x, str) and x in DTYPES:
        return DTYPES[x], None
    if isinstance(x, (list, tuple)):
        items = [to_torch(i, grad) for i in x]
        return type(x)(v for v, _ in items), None
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
    if isinstance(x, slice):
        return {"slice": [spec_of(x.start), spec_of(x.stop), spec_of(x.step)]}
    if x is Ellipsis:
        return {"ellipsis": True}
    if isinstance(x, (list, tuple)):
        return {"seq": [spec_of(i) for i in x], "tuple": isinstance(x, tuple)}
    return {"value": x}


def resolve(name: str, args):
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
    if isinstance(out, (bool, int, float)):
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


def upstream(t):
    """A fixed upstream gradient for output t (stored; large ones by formula)."""
    if t.numel() > 4096:
        seed = int(_grad_rng.integers(1000, 100000))
        return torch.from_numpy(formula(tuple(t.shape), "float32", seed)), \
            {"tensor": {"shape": list(t.shape), "dtype": "float32", "formula": seed}}
    g = _grad_rng.uniform(-1, 1, size=tuple(t.shape)).astype(np.float32)
    return torch.from_numpy(g), {"tensor": encode(g)}


def run_case(c: dict) -> dict:
    want_grad = c.get("grad", False)
    conv = [to_torch(a, want_grad) for a in c["args"]]
    args = [v for v, _ in conv]
    leaves = [leaf for _, leaf in conv]
    kwargs = {k: to_torch(v, False)[0] for k, v in c["kwargs"].items()}
    fn, call_args = resolve(c["fn"], args)
    if not callable(fn):  # a property such as Tensor.T
        fn, call_args = (lambda v: (lambda: v))(fn), []
    rec = {"id": c["id"], "fn": c["fn"], "args": [spec_of(a) for a in c["args"]],
           "kwargs": {k: spec_of(v) for k, v in c["kwargs"].items()}}
    try:
        out = fn(*call_args, **kwargs)
    except Exception as e:  # PyTorch refuses: the replay must refuse with the same type
        rec["raises"] = type(e).__name__
        return rec
    if c.get("random"):
        # random ops cannot match PyTorch's stream: keep shape and dtype only
        rec["out"] = {"meta": [[list(t.shape), str(t.dtype).replace("torch.", "")] for t in flat_outputs(out)]}
        return rec
    rec["out"] = output_spec(out)
    if want_grad:
        outs = [o for o in flat_outputs(out) if o.requires_grad]
        if not outs or not any(leaf is not None for leaf in leaves):
            raise ValueError(f"{c['fn']} [{c['id']}]: grad=True but nothing to differentiate")
        ups = [upstream(o) for o in outs]
        torch.autograd.backward(outs, [u for u, _ in ups])
        rec["grad_out"] = [s for _, s in ups]
        rec["grads"] = [None if leaf is None else (output_spec(leaf.grad) if leaf.grad is not None else {"value": None})
                        for leaf in leaves]
    return rec


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
        cases = [run_case(c) for c in gen()]
        ids = [c["id"] for c in cases]
        if len(set(ids)) != len(ids):
            raise ValueError(f"{op}: duplicate case ids {sorted(i for i in ids if ids.count(i) > 1)[:5]}")
        doc = {"op": op, "torch": torch.__version__, "cases": cases}
        (outdir / f"{op}.json").write_text(json.dumps(doc, separators=(",", ":")) + "\n")
        total += len(cases)
        print(f"{op}: {len(cases)} cases")
    print(f"{total} cases written to {outdir}")
    if not ns.ops:
        reprs = [[e, repr(eval(e, {"torch": torch}))] for e in REPR_EXPRS]  # noqa: S307 - our own list
        (HERE / "reprs.json").write_text(json.dumps({"torch": torch.__version__, "reprs": reprs}, indent=1) + "\n")
        print(f"{len(reprs)} reprs written")


if __name__ == "__main__":
    main()
