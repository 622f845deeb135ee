"""Freeze real PyTorch's answers to rnn_cases.py into rnn.json: ``python tests/golden/generate_rnn.py``
(needs torch==2.13.0, the CPU build).

For every NUMERIC case: the module's state_dict (PyTorch's own initialisation after
``manual_seed``), the inputs, the outputs, the random output gradients and the gradients of the
inputs and parameters. replay_rnn.py loads the same weights with ``load_state_dict(strict=True)``
and compares. The helpers below (namespace, flatten, encode) are shared with replay_rnn.py; torch is
imported in main() only.
"""
from __future__ import annotations

import json
import math
import sys
import warnings
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from generate_nn_meta import _structure  # noqa: E402

TORCH_VERSION = "2.13.0"


def namespace(torch_module) -> dict:
    return {"torch": torch_module, "nn": torch_module.nn, "F": torch_module.nn.functional,
            "R": torch_module.nn.utils.rnn}


def is_tensor(v) -> bool:
    return all(hasattr(v, a) for a in ("tolist", "dtype", "shape", "requires_grad"))


def flatten(out) -> tuple[str, list]:
    """(a signature of the nesting with type names, the leaves in order)."""
    leaves: list = []

    def walk(v) -> str:
        if isinstance(v, (tuple, list)):
            return f"{type(v).__name__}({', '.join(walk(x) for x in v)})"
        leaves.append(v)
        return "T" if is_tensor(v) else type(v).__name__
    return walk(out), leaves


def short(x):
    """Nested float32 values written with the fewest digits that read back as the same float32."""
    if isinstance(x, list):
        return [short(i) for i in x]
    if isinstance(x, float):
        import numpy as np
        return float(repr(np.float32(x)).removeprefix("np.float32(").removesuffix(")"))
    return x


def encode(v):
    if v is None:
        return None
    if is_tensor(v):
        return {"dtype": str(v.dtype), "shape": list(v.shape), "values": short(v.detach().tolist())}
    if isinstance(v, (bool, int, str)) or isinstance(v, float) and math.isfinite(v):
        return {"value": v}
    return {"repr": repr(v)}


def seed_of(case_id: str) -> int:
    return zlib.crc32(case_id.encode())


def differentiable(leaves: list) -> list[int]:
    """Indices of the float leaves with a graph: the loss is sum((leaf * g).sum()) over them."""
    return [i for i, v in enumerate(leaves) if is_tensor(v) and v.dtype.is_floating_point and v.grad_fn is not None]


def _numeric(torch, case) -> dict:
    cid, module, specs, code, opts = case
    torch.manual_seed(seed_of(cid))
    ns = namespace(torch)
    m = eval(module, dict(ns)) if module else None  # noqa: S307 - our own list
    if m is not None and not opts.get("train", True):
        m.eval()
    grad = set(opts.get("grad", ()))
    inputs = {}
    for name, spec in specs.items():
        if spec and isinstance(spec[0], list):
            inputs[name] = [torch.randn(*s).requires_grad_(name in grad) for s in spec]
        else:
            inputs[name] = torch.randn(*spec).requires_grad_(name in grad)
    env = {**ns, "m": m, **inputs}
    exec(code, env)  # noqa: S102 - our own list
    sig, leaves = flatten(env["out"])
    idx = differentiable(leaves)
    g_out = [torch.randn(*leaves[i].shape) for i in idx]
    if idx:
        sum((leaves[i] * g).sum() for i, g in zip(idx, g_out)).backward()
    grads = {}
    for name, v in inputs.items():
        if name in grad:
            grads[f"input:{name}"] = [encode(t.grad) for t in v] if isinstance(v, list) else encode(v.grad)
    if m is not None:
        for name, p in m.named_parameters():
            grads[f"param:{name}"] = encode(p.grad)
    return {"id": cid, "seed": seed_of(cid),
            "state": {k: short(v.tolist()) for k, v in m.state_dict().items()} if m is not None else None,
            "inputs": {k: short([t.detach().tolist() for t in v] if isinstance(v, list) else v.detach().tolist())
                       for k, v in inputs.items()},
            "signature": sig, "outputs": [encode(v) for v in leaves], "loss_leaves": idx,
            "grad_outputs": [short(g.tolist()) for g in g_out], "grads": grads}


def _raises(ns: dict, code: str) -> tuple[str, str] | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(code, dict(ns))  # noqa: S102 - our own list
    except Exception as e:  # noqa: BLE001 - recording PyTorch's exception
        return type(e).__name__, str(e)
    return None


def _warns(ns: dict, code: str) -> list[list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exec(code, dict(ns))  # noqa: S102 - our own list
    return [[w.category.__name__, str(w.message)] for w in caught]


def freeze(torch, cases) -> dict:
    """Real PyTorch's answers to a cases module (NUMERIC, ERRORS, WARNINGS, REPRS, STRUCTURE, ATTRIBUTES)."""
    ns = namespace(torch)
    out = {"torch": torch.__version__, "numeric": [_numeric(torch, c) for c in cases.NUMERIC], "errors": [],
           "warnings": [], "reprs": [], "structure": [], "attributes": []}
    for name, code, *match in cases.ERRORS:
        got = _raises(ns, code)
        if got is None:
            raise SystemExit(f"{name}: PyTorch did not raise; every error snippet must be bad input")
        out["errors"].append([name, code, match[0] if match else "exact", *got])
    for name, code in cases.WARNINGS:
        out["warnings"].append([name, code, _warns(ns, code)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for expr in cases.REPRS:
            out["reprs"].append([expr, repr(eval(expr, dict(ns)))])  # noqa: S307
        for expr in cases.STRUCTURE:
            out["structure"].append([expr, _structure(eval(expr, dict(ns)))])  # noqa: S307
        for expr, query in cases.ATTRIBUTES:
            m = eval(expr, dict(ns))  # noqa: S307
            out["attributes"].append([expr, query, json.loads(json.dumps(eval(query, {**ns, "m": m})))])  # noqa: S307
    return out


def write(torch, cases, path: Path) -> None:
    if torch.__version__.split("+")[0] != TORCH_VERSION:
        sys.exit(f"{path.name} comes from torch {TORCH_VERSION}; this is {torch.__version__}")
    out = freeze(torch, cases)
    path.write_text(json.dumps(out, separators=(",", ":")) + "\n")
    print(f"{path.name}: {len(out['numeric'])} numeric cases, {len(out['errors'])} errors, {len(out['warnings'])} "
          f"warnings, {len(out['reprs'])} reprs, {len(out['structure'])} structures (torch {torch.__version__})")


def main() -> None:
    import torch
    import rnn_cases
    write(torch, rnn_cases, HERE / "rnn.json")


if __name__ == "__main__":
    main()
