"""``torch.relu(proxy)``: our stand-in for PyTorch's ``Proxy.__torch_function__``.

PyTorch's functions notice a Proxy argument through ``__torch_function__`` wherever they are called:
inside ``symbolic_trace``, and also when a Transformer or a script calls them on Proxies it made
itself (``Proxy(node)``; pytorch/examples' fx scripts do). Our functions have no such hook. So while
any Proxy is alive, each public function of ``torch.*`` and ``torch.nn.functional.*`` and each bound
Tensor method is replaced by a thin wrapper that records a node when an argument is a Proxy and
otherwise calls the function; when the last Proxy is gone, the package's own objects are put back
(``torch.add is`` its op record again, and no call pays for the wrapper). Nodes always hold the
package's own function (``node.target is torch.add`` after the trace), with the spelling the call
used (``torch.relu`` or ``torch.nn.functional.relu``, the same object here) kept on the node.
"""
from __future__ import annotations

import functools
import inspect
import sys
import weakref

from ._functional_calls import FUNCTIONAL_CALLS, FUNCTIONAL_NAMES

__all__ = ["proxy_born", "has_proxy", "installed", "functional_spelling"]

_LIVE = [0]        # Proxies alive now
_PATCHER: list = []  # the Patcher holding the wrappers while _LIVE > 0
_PROXY_TYPE: list = []  # Proxy, registered by proxy.py (this module does not import it)
_PUBLIC: dict = {}   # (id(function), spelling) -> its wrapper, while installed


def has_proxy(args: tuple, kwargs: dict) -> bool:
    Proxy = _PROXY_TYPE[0]

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
    Proxy = _PROXY_TYPE[0]
    found = []

    def note(values) -> None:
        for v in values:
            if isinstance(v, Proxy):
                if not any(t is v.tracer for t in found):
                    found.append(v.tracer)
            elif type(v) in (list, tuple):
                note(v)
            elif type(v) is dict:
                note(v.values())
            elif type(v) is slice:
                note((v.start, v.stop, v.step))
    note(args)
    note(kwargs.values())
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
        if has_proxy(args, kwargs):
            tracer = _tracer_of(args, kwargs, fn)
            if normalize:
                args, kwargs = _normalize(name, fn, args, kwargs)
            proxy = tracer.create_proxy("call_function", fn, args, kwargs,
                                        name=tracer.graph._target_to_str(node_name))
            proxy.node._qualname = qualname
            return proxy
        return fn(*args, **kwargs)
    dispatch._fx_original = fn
    dispatch._fx_qualname = qualname
    _PUBLIC[(id(fn), qualname)] = dispatch
    return dispatch


def public(fn, qualname: str | None):
    """What user code sees as this node's function right now: the wrapper while Proxies are alive
    (so ``target is torch.relu`` holds inside a Transformer), else the package's own function."""
    if not _PATCHER:
        return fn
    return _PUBLIC.get((id(fn), qualname), fn)


def unwrap(target):
    """(the package's function, its spelling) for a wrapper; (target, None) for anything else."""
    original = getattr(target, "_fx_original", None)
    return (target, None) if original is None else (original, target._fx_qualname)


def _method_wrapper(fn, name: str):
    method = _DUNDER_METHOD.get(name, name)

    @functools.wraps(fn)
    def dispatch(self, *args, **kwargs):
        if not has_proxy(args, kwargs):
            return fn(self, *args, **kwargs)
        return _tracer_of(args, kwargs, fn).create_proxy("call_method", method, (self,) + args, kwargs)
    dispatch._fx_original = fn
    return dispatch


# ``tensor <op> proxy``: PyTorch records the Tensor method that the operator dispatches to
# (``t + x`` -> ``t.add(x)``); the operators without a named method keep their dunder name
_DUNDER_METHOD = {"__add__": "add", "__sub__": "sub", "__mul__": "mul", "__truediv__": "div", "__matmul__": "matmul",
                  "__pow__": "pow", "__mod__": "remainder", "__eq__": "eq", "__ne__": "ne", "__lt__": "lt",
                  "__le__": "le", "__gt__": "gt", "__ge__": "ge"}


def _install() -> None:
    from .._bind import _BOUND
    from ..nn import functional as F
    from ..tensor import Tensor
    from ._patch import Patcher
    pkg = sys.modules["borch_webgpu"]
    patcher = Patcher()
    for name in sorted(pkg._FUNCTIONS):
        fn = getattr(pkg, name, None)
        if inspect.isfunction(fn):
            patcher.patch(pkg, name, _wrapper(fn, name, f"torch.{name}", False))
    for name in [n for n in vars(F) if not n.startswith("_")]:
        fn = vars(F)[name]
        if inspect.isfunction(fn) and fn.__module__.startswith("borch_webgpu"):
            qualname, node_name = functional_spelling(name, pkg)
            patcher.patch(F, name, _wrapper(fn, name, qualname, True, node_name))
    for name in sorted(_BOUND):
        value = vars(Tensor).get(name)
        if inspect.isfunction(value):
            patcher.patch(Tensor, name, _method_wrapper(value, name))
    _PATCHER.append(patcher)


def _proxy_died() -> None:
    _LIVE[0] -= 1
    if _LIVE[0] == 0 and _PATCHER:
        _PATCHER.pop().__exit__(None, None, None)
        _PUBLIC.clear()


def proxy_born(proxy) -> None:
    """Called by every new Proxy: the wrappers are in place while at least one is alive."""
    _LIVE[0] += 1
    if _LIVE[0] == 1 and not _PATCHER:
        _install()
    weakref.finalize(proxy, _proxy_died)


def installed() -> bool:
    """Whether the wrappers are in place now (some Proxy is alive)."""
    return bool(_PATCHER)
