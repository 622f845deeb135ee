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


# ---- the public names -------------------------------------------------------------------------
# One ``Api`` record per name a user calls: ``torch.<name>``, ``Tensor.<name>`` and the in-place
# ``Tensor.<name>_``. ``borch_webgpu/_bind.py`` is the one place that turns the records into the
# Tensor class's methods and the package's functions; ``scripts/gen_stubs.py`` writes the ``.pyi``
# files editors read from the same records.
APIS: dict[str, "Api"] = {}


@dataclass(frozen=True)
class Api:
    name: str
    fn: Callable | None = None           # torch.<name>; its first argument is the input tensor
    method: object = None                # Tensor.<name> when it is not fn itself (a function or a property)
    inplace: bool = False                # Tensor.<name>_: fn's result written into self (ops.memory.inplace)
    writes_self: bool = False            # Tensor.<name> itself is that in-place form of fn (``__iadd__``)
    aliases: tuple[str, ...] = ()        # the same function and method under other names
    torch: bool = True                   # export torch.<name>
    tensor: bool = True                  # bind Tensor.<name>

    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


def api(name: str, fn: Callable | None = None, **kw) -> Api:
    """Register one public name (see ``Api``); a name registered twice raises."""
    rec = Api(name, fn, **kw)
    if rec.fn is None and rec.method is None:
        raise ValueError(f"api {name}: give the function or the method")
    if rec.fn is None or rec.writes_self:
        object.__setattr__(rec, "torch", False)
    for n in rec.names():
        if n in APIS:
            raise ValueError(f"api {n} registered twice")
    for n in rec.names():
        APIS[n] = rec
    return rec


def methods(*names_and_fns, **kw) -> None:
    """``api`` for several (name, function) pairs that share the same options."""
    for name, fn in names_and_fns:
        api(name, fn, **kw)
