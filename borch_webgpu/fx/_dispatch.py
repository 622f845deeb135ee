"""``torch.relu(proxy)`` outside a trace: our stand-in for PyTorch's ``Proxy.__torch_function__``.

PyTorch's functions notice a Proxy argument through ``__torch_function__`` wherever they are called:
inside ``symbolic_trace``, but also when a Transformer or a script calls them on Proxies it made
itself (``Proxy(node)``; pytorch/examples' fx scripts do). Our functions have no such hook, so when
this module is imported (with the package) each public function of ``torch.*`` and
``torch.nn.functional.*`` is replaced, once and for good, by a thin wrapper with the same name,
docstring and signature that records a ``call_function`` node when an argument is a Proxy. Until
the first Proxy exists the wrapper only reads one flag and calls the function. The wrapper *is* the
public function from then on (``torch.add``), so node targets compare equal to what user code holds.
"""
from __future__ import annotations

import functools
import inspect
import sys

from ._functional_calls import FUNCTIONAL_CALLS, FUNCTIONAL_NAMES

__all__ = ["install", "has_proxy", "PROXIES_EXIST"]

PROXIES_EXIST = [False]   # set by the first Proxy; from then on the wrappers look at their arguments
_INSTALLED = [False]


def has_proxy(args: tuple, kwargs: dict) -> bool:
    from .proxy import Proxy

    def any_proxy(values) -> bool:
        for v in values:
            if isinstance(v, Proxy):
                return True
            if type(v) in (list, tuple) and any_proxy(v):
                return True
            if type(v) is dict and any_proxy(v.values()):
                return True
            if type(v) is slice and any_proxy((v.start, v.stop, v.step)):
                return True
        return False
    return any_proxy(args) or any_proxy(kwargs.values())


def _tracer_of(args: tuple, kwargs: dict, fn):
    from .node import map_aggregate
    from .proxy import Proxy
    found = []

    def note(v):
        if isinstance(v, Proxy) and not any(t is v.tracer for t in found):
            found.append(v.tracer)
    map_aggregate((args, kwargs), note)
    if len(found) > 1:
        raise RuntimeError(f"Found multiple different tracers {found} while trying to trace operations {fn}")
    return found[0]


def _normalize(name: str, fn, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """PyTorch's Python nn.functional functions hand themselves to ``handle_torch_function`` with
    their optional arguments as keywords (``F.relu(x)`` -> ``relu(x, inplace=False)``)."""
    positional, keywords = FUNCTIONAL_CALLS[name]
    try:
        bound = inspect.signature(fn).bind(*args, **kwargs)
    except TypeError:
        return args, kwargs
    bound.apply_defaults()
    values = bound.arguments
    if any(p not in values for p in positional + keywords):
        return args, kwargs  # a signature that differs from torch's: keep the call as written
    return tuple(values[p] for p in positional), {k: values[k] for k in keywords}


def functional_spelling(name: str, pkg) -> tuple[str, str]:
    """(how generated code calls ``F.<name>``, the function's ``__name__``) as in PyTorch: F.conv2d is
    ``torch.conv2d``; F.gelu lives in ``torch._C._nn``, which we do not have, so it stays
    ``torch.nn.functional.gelu`` (its node is still named from torch's ``__name__``)."""
    theirs = FUNCTIONAL_NAMES.get(name)
    if theirs is None:
        return f"torch.nn.functional.{name}", name
    short = theirs.rsplit(".", 1)[1]
    if theirs == f"torch.{short}" and hasattr(pkg, short):
        return theirs, short
    return f"torch.nn.functional.{name}", short


def _wrapper(fn, name: str, qualname: str, functional: bool, node_name: str | None = None):
    normalize = functional and name in FUNCTIONAL_CALLS
    node_name = node_name or name

    @functools.wraps(fn)
    def dispatch(*args, **kwargs):
        if PROXIES_EXIST[0] and has_proxy(args, kwargs):
            tracer = _tracer_of(args, kwargs, dispatch)
            if normalize:
                args, kwargs = _normalize(name, fn, args, kwargs)
            proxy = tracer.create_proxy("call_function", dispatch, args, kwargs,
                                        name=tracer.graph._target_to_str(node_name))
            proxy.node._qualname = qualname
            return proxy
        return fn(*args, **kwargs)
    dispatch.__name__ = dispatch.__qualname__ = node_name  # torch.arctan is "arctan" (node names come from it)
    dispatch._fx_original = fn
    dispatch._fx_qualname = qualname
    return dispatch


def install() -> None:
    """Wrap the public functions of the package and of ``nn.functional`` (once)."""
    if _INSTALLED[0]:
        return
    _INSTALLED[0] = True
    pkg = sys.modules["borch_webgpu"]
    from ..nn import functional as F
    for name in sorted(pkg._FUNCTIONS):
        fn = getattr(pkg, name, None)
        if inspect.isfunction(fn):
            setattr(pkg, name, _wrapper(fn, name, f"torch.{name}", False))
    for name in [n for n in vars(F) if not n.startswith("_")]:
        fn = vars(F)[name]
        if inspect.isfunction(fn) and fn.__module__.startswith("borch_webgpu"):
            qualname, node_name = functional_spelling(name, pkg)
            setattr(F, name, _wrapper(fn, name, qualname, True, node_name))
