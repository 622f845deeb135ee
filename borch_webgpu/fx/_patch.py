"""What a trace patches, and how it restores it.

``torch.X(...)`` and ``torch.nn.functional.X(...)`` that receive a Proxy become ``call_function`` nodes
spelled as called; a Tensor method that receives a Proxy as an argument becomes a ``call_method`` (the
binary operators record the method they stand for: ``t + proxy`` is ``t.add(proxy)``, as in PyTorch).
The ``nn.functional`` functions that PyTorch defines in Python pass their optional arguments on as keywords (``F.relu(x)`` is recorded as ``relu(x, inplace=False)``):
:data:`FUNCTIONAL_CALLS`, read from torch 2.13's ``torch/nn/functional.py``, says which.
"""
from __future__ import annotations

import functools
import inspect
import sys

from ._functional_calls import FUNCTIONAL_CALLS
from .proxy import Proxy, _contains_proxy

__all__ = ["Patcher", "patch_public_functions", "FUNCTIONAL_CALLS"]

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


def _normalize(name: str, fn, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    spec = FUNCTIONAL_CALLS.get(name)
    if spec is None:
        return args, kwargs
    positional, keywords = spec
    try:
        bound = inspect.signature(fn).bind(*args, **kwargs)
    except TypeError:
        return args, kwargs
    bound.apply_defaults()
    values = bound.arguments
    if any(p not in values for p in positional + keywords):
        return args, kwargs  # a signature that differs from torch's: keep the call as written
    return tuple(values[p] for p in positional if p in values), {k: values[k] for k in keywords if k in values}


def _function_wrapper(tracer, fn, name: str, qualname: str, functional: bool):
    @functools.wraps(fn)
    def traced(*args, **kwargs):
        if not _contains_proxy((args, kwargs)):
            return fn(*args, **kwargs)
        if functional:
            args, kwargs = _normalize(name, fn, args, kwargs)
        proxy = tracer.create_proxy("call_function", fn, args, kwargs, name=tracer.graph._target_to_str(name))
        proxy.node._qualname = qualname
        return proxy
    return traced


def _method_wrapper(tracer, fn, name: str):
    @functools.wraps(fn)
    def traced(self, *args, **kwargs):
        if not _contains_proxy((args, kwargs)):
            return fn(self, *args, **kwargs)
        return tracer.create_proxy("call_method", _DUNDER_METHOD.get(name, name), (self,) + args, kwargs)
    return traced


def patch_public_functions(patcher: Patcher, tracer) -> None:
    pkg = sys.modules["borch_webgpu"]
    from .._bind import _BOUND
    from ..nn import functional as F
    from ..tensor import Tensor
    for name in sorted(pkg._FUNCTIONS):
        fn = getattr(pkg, name, None)
        if callable(fn) and not isinstance(fn, type):
            patcher.patch(pkg, name, _function_wrapper(tracer, fn, name, f"torch.{name}", False))
    patcher.patch(pkg, "_assert", pkg._assert)
    for name in [n for n in vars(F) if not n.startswith("_")]:
        fn = vars(F)[name]
        if inspect.isfunction(fn) and fn.__module__.startswith("borch_webgpu"):
            patcher.patch(F, name, _function_wrapper(tracer, fn, name, f"torch.nn.functional.{name}", True))
    for name in sorted(_BOUND):
        value = vars(Tensor).get(name)
        if inspect.isfunction(value):
            patcher.patch(Tensor, name, _method_wrapper(tracer, value, name))
