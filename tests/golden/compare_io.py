"""The value format of compare.json, shared by generate_compare.py (real PyTorch) and
replay_compare.py (borch_webgpu): plain JSON, with dtypes and tensors recognised by shape, not type."""
from __future__ import annotations

import json
import math

ENV_CONSTANTS = {"nan": math.nan, "inf": math.inf}


def encode(v):
    """A JSON-ready description of a value that an expression returned."""
    if v is None or isinstance(v, (bool, int, str)):
        return {"value": v}
    if isinstance(v, float):
        return {"value": v} if math.isfinite(v) else {"float": repr(v)}
    if type(v).__name__ == "dtype":
        return {"dtype": str(v)}
    if all(hasattr(v, a) for a in ("tolist", "dtype", "shape")):
        return {"tensor": {"dtype": str(v.dtype), "shape": list(v.shape), "values": _floats(v.detach().tolist())}}
    if isinstance(v, (list, tuple)):
        return {"seq": [encode(x) for x in v]}
    return {"repr": repr(v)}


def _floats(x):
    if isinstance(x, list):
        return [_floats(i) for i in x]
    return repr(x) if isinstance(x, float) and not math.isfinite(x) else x


def evaluate(expr: str, env: dict) -> dict:
    """{"out": encoded value} or {"raises": type name, "message": text}."""
    try:
        return {"out": encode(eval(expr, dict(env)))}  # noqa: S307 - our own list of expressions
    except Exception as e:  # noqa: BLE001 - the exception is the result
        return {"raises": type(e).__name__, "message": str(e)}


def same(a: dict, b: dict) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
