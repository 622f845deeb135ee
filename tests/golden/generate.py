"""Write the frozen golden cases from real PyTorch (CPU): ``python tests/golden/generate.py``.

Needs ``pip install torch==2.13.0`` (the CPU build on this machine's disk). Writes
tests/golden/cases/<op>.json; commit them. CI does not need torch: it replays these files.
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

from cases import GENERATORS, REPR_EXPRS, Big  # noqa: E402
from golden_io import encode, encode_output, formula  # noqa: E402

DTYPES = {"float32": torch.float32, "int64": torch.int64, "int32": torch.int32, "bool": torch.bool,
          "float16": torch.float16}
TORCH_VERSION = "2.13.0"


def to_torch(x):
    if isinstance(x, Big):
        return torch.from_numpy(formula(x.shape, x.dtype, x.seed))
    if isinstance(x, np.ndarray):
        return torch.from_numpy(x.copy())
    if isinstance(x, str) and x in DTYPES:
        return DTYPES[x]
    if isinstance(x, (list, tuple)):
        return type(x)(to_torch(i) for i in x)
    return x


def spec_of(x):
    if isinstance(x, Big):
        return {"tensor": {"shape": list(x.shape), "dtype": x.dtype, "formula": x.seed}}
    if isinstance(x, np.ndarray):
        return {"tensor": encode(x)}
    if isinstance(x, float) and not np.isfinite(x):
        return {"float": repr(x)}
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
    raise TypeError(f"unsupported output {type(out)}")


def run_case(c: dict) -> dict:
    args = [to_torch(a) for a in c["args"]]
    kwargs = {k: to_torch(v) for k, v in c["kwargs"].items()}
    fn, call_args = resolve(c["fn"], args)
    rec = {"id": c["id"], "fn": c["fn"], "args": [spec_of(a) for a in c["args"]],
           "kwargs": {k: spec_of(v) for k, v in c["kwargs"].items()}}
    try:
        out = fn(*call_args, **kwargs)
    except Exception as e:  # PyTorch refuses: the replay must refuse with the same type
        rec["raises"] = type(e).__name__
        return rec
    rec["out"] = output_spec(out)
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
            raise ValueError(f"{op}: duplicate case ids")
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
