"""One record per op: its WGSL entry, dtype rule, numpy reference, backward and tolerance.

Tests, the golden suite and the API reference iterate over ``REGISTRY``. A check fails when an
op is registered without a golden generator, or a WGSL block exists without an op.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

REGISTRY: dict[str, "OpDef"] = {}


@dataclass(frozen=True)
class OpDef:
    name: str                          # PyTorch's name (torch.add, Tensor.add)
    family: str                        # "binary", "unary", "reduce", ...
    wgsl: tuple[str, str] | None       # (file in wgsl/, //@op block)
    ref: Callable | None               # numpy reference; the cpu device runs it (None: no kernel)
    dtype_rule: str = "promote"        # how compute/result dtypes follow from the inputs
    backward: Callable | None = None   # gradient formula written with other ops
    tol: tuple[float, float] = (1e-6, 1e-6)  # (rtol, atol) against PyTorch, float32
    state_words: int = 1               # reductions: 32-bit words in the running state
    doc: str = ""
    extra: dict = field(default_factory=dict)


def register(op: OpDef) -> OpDef:
    if op.name in REGISTRY:
        raise ValueError(f"op {op.name} registered twice")
    REGISTRY[op.name] = op
    return op
