"""Turns the ``Api`` records of ``ops/_registry.py`` into Tensor methods and ``torch.*`` functions.

This is the one place that adds attributes to ``Tensor``: each op module declares its public names
as records next to the code (``api("add", add, inplace=True, ...)``) and this module, imported by
the package, binds them. A name bound twice, or one that would hide a method ``tensor.py``
defines, raises here at import, so two modules cannot silently fight over ``Tensor.sum``.
``scripts/gen_stubs.py`` writes ``tensor.pyi`` and ``__init__.pyi`` from the same records.

``tracing(report)`` is the one hook into those bindings (``borch_webgpu.onnx.export`` uses it): while it
is active every bound name reports each outermost call; outside it nothing is wrapped.
"""
from __future__ import annotations

import contextlib
import functools
import importlib
import inspect
import sys

from .autograd.profiler import register_instrument
from .ops._registry import APIS, Api
from .tensor import Tensor

__all__ = ["FUNCTIONS", "OP_MODULES", "tracing", "patch_names"]

# the modules whose records make up torch.* and Tensor's methods, bottom to top
OP_MODULES = ("autograd.graph", "autograd.engine", "ops.creation", "ops.memory", "ops.views", "ops.elementwise",
              "ops.unary", "ops.special", "ops.binary_extra", "ops._inplace", "ops.reduce", "ops.shape", "ops.indexing", "ops.subscript", "ops.linalg", "ops.fused_extra", "ops._einsum",
              "ops.scan_sort", "ops.diag", "ops.combine", "ops.search", "ops.unique", "ops.index_extra",
              "ops.scatter_reduce", "ops.reduce_extra", "ops.extremes", "ops._linalg_solve", "ops._linalg_legacy", "ops._linalg_householder",
              "ops.random", "ops.compare", "ops.type_queries", "ops._nn_distance",
              "ops._torch_nn", "ops._torch_nn_loss",  # torch.conv2d, torch.batch_norm, torch.kl_div, ... (nn ops)
              "ops.shape_more", "ops.splits", "ops.scatter_more", "ops.tensor_meta", "ops.complex", "ops.copies", "ops.creation_more", "ops.stats", "ops.numgrad",
              "ops.random_more", "ops.sparse_api", "ops._sparse_dispatch", "ops._nn_bag_aten",
              "_tensor_str")

_CORE = frozenset(vars(Tensor))  # what tensor.py itself defines


def _records() -> list[Api]:
    seen, out = set(), []
    for rec in APIS.values():
        if id(rec) not in seen:
            seen.add(id(rec))
            out.append(rec)
    return out


def _without_out(fn) -> inspect.Signature | None:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    return sig.replace(parameters=[p for p in sig.parameters.values() if p.name != "out"])


def _inplace(name: str, fn, base: str):
    from .ops.memory import inplace

    def method(self, *args, **kwargs):
        return inplace(name, fn, self, *args, **kwargs)
    method.__name__ = name
    method.__qualname__ = f"Tensor.{name}"
    method.__doc__ = f"In-place ``{base}``: the result is written into this tensor, which is returned."
    sig = _without_out(fn)
    if sig is not None:
        method.__signature__ = sig
    return method


def _named(obj, name: str):
    """A private helper bound under a public name reports that name (help(), the API reference)."""
    f = getattr(obj, "fget", obj)
    if inspect.isfunction(f) and (f.__name__.startswith("_") or f.__name__ == "<lambda>"):
        f.__name__, f.__qualname__ = name, f"Tensor.{name}"
    return obj


def _set(name: str, value) -> None:
    if name in _CORE:
        raise RuntimeError(f"api {name}: Tensor already defines it in tensor.py")
    if name in _BOUND:
        raise RuntimeError(f"api {name}: bound twice")
    _BOUND.add(name)
    setattr(Tensor, name, value)


_BOUND: set[str] = set()

# PyTorch's argument parser also takes numpy's spellings of these keywords (python_arg_parser.cpp's
# numpy_compatibility_arg_names): x.sum(axis=1, keepdims=True) is x.sum(dim=1, keepdim=True)
NUMPY_KEYWORDS = {"axis": "dim", "keepdims": "keepdim"}
# ... except for the ops PyTorch writes in Python (torch/functional.py, torch/_tensor.py), which take no alias
PYTHON_LEVEL = frozenset({"split", "norm", "unique", "unique_consecutive", "unflatten"})


def _numpy_keywords(fn, name: str):
    """``fn`` taking ``axis=`` / ``keepdims=`` for its ``dim`` / ``keepdim`` as PyTorch's bound ops do (``fn``
    itself when it has neither). Given together with the name itself (or with it positionally), the
    alias is refused with PyTorch's TypeError."""
    if not inspect.isfunction(fn) or name in PYTHON_LEVEL:
        return fn
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return fn
    names = [p.name for p in params]
    aliases = {}
    for alias, real in NUMPY_KEYWORDS.items():
        if real in names and alias not in names:
            p = params[names.index(real)]
            pos = names.index(real) if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) else None
            aliases[alias] = (real, pos)
    if not aliases or any(p.kind is p.VAR_POSITIONAL for p in params):
        return fn

    @functools.wraps(fn)
    def call(*args, **kwargs):
        if kwargs:
            for alias, (real, pos) in aliases.items():
                if alias in kwargs:
                    if real in kwargs or (pos is not None and len(args) > pos):
                        raise TypeError(f"{name}() got an unexpected keyword argument '{alias}'")
                    kwargs[real] = kwargs.pop(alias)
        return fn(*args, **kwargs)
    # frames name the op by their code's name (the sparse refusals, kernel-error sites): the wrapper's is fn's
    call.__code__ = call.__code__.replace(co_name=fn.__name__, co_qualname=getattr(fn, "__qualname__", fn.__name__))
    call.numpy_keywords = True
    return call


def _bind() -> dict:
    for mod in OP_MODULES:
        importlib.import_module(f".{mod}", __package__)
    functions = {}
    for rec in _records():
        for name in rec.names():
            if rec.tensor:
                if rec.writes_self:
                    _set(name, _numpy_keywords(_inplace(name, rec.fn, rec.fn.__name__), name))
                else:
                    _set(name, _numpy_keywords(_named(rec.method if rec.method is not None else rec.fn, name), name))
                if rec.inplace:
                    _set(name + "_", _numpy_keywords(_inplace(name + "_", rec.fn, name), name + "_"))
            if rec.torch:
                functions[name] = _numpy_keywords(rec.fn, name)
    return functions


FUNCTIONS: dict = _bind()


# tensor.py's own methods that return a tensor computed from self (traced like the bound ones)
TRACED_CORE = ("detach", "detach_", "requires_grad_", "cpu", "cuda", "webgpu", "float", "int", "long", "bool",
               "half", "double", "type")


@contextlib.contextmanager
def tracing(report, namespaces=()):
    """Report every outermost call of a public function or Tensor method while the block runs.

    ``report(name, fn, args, kwargs, result)`` is called after each call that is not nested inside
    another reported call (``F.conv2d`` reports once; the Tensor methods it calls do not). ``namespaces``
    adds ``(module, names)`` pairs whose functions are wrapped too (``nn.functional``). Everything is
    restored when the block exits, also on an error.
    """
    depth = [0]

    def wrap(name, fn):
        @functools.wraps(fn)
        def traced(*args, **kwargs):
            if depth[0]:
                return fn(*args, **kwargs)
            depth[0] += 1
            try:
                result = fn(*args, **kwargs)
                report(name, fn, args, kwargs, result)  # at depth 1: what report itself calls is not traced
                return result
            finally:
                depth[0] -= 1
        return traced

    restore = patch_names(wrap, namespaces)
    try:
        yield
    finally:
        restore()


def patch_names(wrap, namespaces=()):
    """Replace every bound name (Tensor's methods and properties, ``TRACED_CORE``, the ``torch.*`` functions)
    and the functions ``namespaces`` lists by ``wrap(name, fn)``; returns the function that puts the
    originals back. A name for which ``wrap`` returns ``fn`` itself is left alone. Used by ``tracing``
    and by the profiler (``autograd.profiler.register_instrument``)."""
    saved = []

    def patch(owner, name):
        value = vars(owner)[name] if isinstance(owner, type) else getattr(owner, name)
        if isinstance(value, property):
            fget = wrap(name, value.fget)
            if fget is value.fget:
                return
            new = property(fget, value.fset, value.fdel, value.__doc__)
        elif callable(value):
            new = wrap(name, value)
            if new is value:
                return
        else:
            return
        saved.append((owner, name, value))
        setattr(owner, name, new)

    def restore():
        for owner, name, value in reversed(saved):
            setattr(owner, name, value)
        saved.clear()

    try:
        for name in sorted(_BOUND) + list(TRACED_CORE):
            patch(Tensor, name)
        package = sys.modules[__package__]
        for name in FUNCTIONS:
            patch(package, name)
        for module, names in namespaces:
            for name in names:
                patch(module, name)
    except BaseException:
        restore()
        raise
    return restore


# tensor.py's own methods the profiler records besides TRACED_CORE: PyTorch's aten::item (on WebGPU the wait
# for the GPU shows here) and aten::to
PROFILED_CORE = ("item", "to")


def _profiler_install(make):
    restore = patch_names(make)
    saved = [(name, vars(Tensor)[name]) for name in PROFILED_CORE]
    for name, fn in saved:
        setattr(Tensor, name, make(name, fn))

    def undo():
        for name, fn in reversed(saved):
            setattr(Tensor, name, fn)
        restore()
    return undo


register_instrument(_profiler_install)
