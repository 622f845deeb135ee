"""What a trace patches for its length, and how it restores it: ``Module.__call__`` /
``__getattr__``, the names given to ``wrap`` and the Tensor methods. A Tensor method that receives a
Proxy as an argument becomes a ``call_method`` (the binary operators record the method they stand
for: ``t + proxy`` is ``t.add(proxy)``, as in PyTorch). The public functions are not patched here:
_dispatch.py wraps them once, for good.
"""
from __future__ import annotations

import functools
import inspect

from ._dispatch import has_proxy

__all__ = ["Patcher", "patch_public_functions"]

# ``tensor <op> proxy``: PyTorch records the Tensor method that the operator dispatches to
# (``t + x`` -> ``t.add(x)``); the operators without a named method keep their dunder name
_DUNDER_METHOD = {"__add__": "add", "__sub__": "sub", "__mul__": "mul", "__truediv__": "div", "__matmul__": "matmul",
                  "__pow__": "pow", "__mod__": "remainder", "__eq__": "eq", "__ne__": "ne", "__lt__": "lt",
                  "__le__": "le", "__gt__": "gt", "__ge__": "ge"}


class Patcher:
    """Set attributes / dict entries for the duration of a ``with`` block, then put them back."""

    def __init__(self) -> None:
        self.saved: list = []

    def patch(self, owner, name: str, value) -> None:
        had = name in vars(owner) if isinstance(owner, type) else hasattr(owner, name)
        old = vars(owner).get(name) if isinstance(owner, type) else getattr(owner, name, None)
        self.saved.append(("attr", owner, name, had, old))
        setattr(owner, name, value)

    def patch_dict(self, d: dict, name: str, value) -> None:
        self.saved.append(("dict", d, name, name in d, d.get(name)))
        d[name] = value

    def __enter__(self) -> "Patcher":
        return self

    def __exit__(self, *exc) -> None:
        for kind, owner, name, had, old in reversed(self.saved):
            if kind == "dict":
                if had:
                    owner[name] = old
                else:
                    owner.pop(name, None)
            elif had:
                setattr(owner, name, old)
            else:
                delattr(owner, name)
        self.saved.clear()


def _method_wrapper(tracer, fn, name: str):
    @functools.wraps(fn)
    def traced(self, *args, **kwargs):
        if not has_proxy(args, kwargs):
            return fn(self, *args, **kwargs)
        return tracer.create_proxy("call_method", _DUNDER_METHOD.get(name, name), (self,) + args, kwargs)
    return traced


def patch_public_functions(patcher: Patcher, tracer) -> None:
    """The Tensor methods, for the length of a trace (the functions are wrapped for good: _dispatch.py)."""
    from .._bind import _BOUND
    from ..tensor import Tensor
    for name in sorted(_BOUND):
        value = vars(Tensor).get(name)
        if inspect.isfunction(value):
            patcher.patch(Tensor, name, _method_wrapper(tracer, value, name))
