"""Tracing with real values: ``torch.jit.trace`` runs ``forward`` once and records what it did.

The recording is our fx machinery (``borch_webgpu.fx.Tracer``) with one change: every Proxy also
carries the concrete value the program computed, so Python code that needs a value (``if x.sum() > 0``,
``int(t)``, ``t.item()``, ``len(t)``, ``for row in t``) gets it, and the trace keeps the branch that ran.
As in PyTorch, such a value is frozen into the trace, and a :class:`TracerWarning` with PyTorch's text
says so. Shapes read as ``x.size(0)`` / ``x.shape[0]`` stay in the graph, so a trace generalizes to other
batch sizes as PyTorch's does.
"""
from __future__ import annotations

import copy
import difflib
import inspect
import warnings
from typing import Any, Callable

from ..fx import Tracer
from ..fx.node import Node, map_aggregate, map_arg
from ..fx.proxy import Attribute, Proxy
from ..nn import Module
from ..tensor import Tensor

__all__ = ["TracerWarning", "TracingCheckError", "is_tracing", "ConcreteTracer", "trace_callable", "check_trace"]

_ORIG_CALL = Module.__call__
_TRACING = [0]
_FROZEN = (" might cause the trace to be incorrect. We can't record the data flow of Python values, so this value "
           "will be treated as a constant in the future. This means that the trace might not generalize to other "
           "inputs!")
_METHODS = {"item": "a Python number", "tolist": "a Python list", "numpy": "a NumPy array"}


class TracerWarning(Warning):
    """Warned when a trace freezes a value it cannot record (PyTorch's ``torch.jit.TracerWarning``).

    Example:
        >>> import warnings
        >>> import borch_webgpu as torch
        >>> with warnings.catch_warnings(record=True) as w:
        ...     warnings.simplefilter("always")
        ...     f = torch.jit.trace(lambda x: x * float(x.sum()), torch.ones(2), check_trace=False)
        >>> [type(m.message).__name__ for m in w if issubclass(m.category, torch.jit.TracerWarning)]
        ['TracerWarning']
    """

    @staticmethod
    def ignore_lib_warnings() -> None:
        """Ignore TracerWarnings raised from inside the library itself (as PyTorch does for its own)."""
        warnings.filterwarnings("ignore", category=TracerWarning, module="borch_webgpu(?!.jit)")


class TracingCheckError(Exception):
    """Raised by ``check_trace`` when tracing the same function twice gives two different graphs.

    Example:
        >>> import borch_webgpu as torch
        >>> issubclass(torch.jit.TracingCheckError, Exception)
        True
    """

    def __init__(self, graph_diff_error: str | None, tensor_compare_error: str | None = None,
                 extra_msg: str | None = None) -> None:
        self.message = "Tracing failed sanity checks!\n"
        if extra_msg is not None:
            self.message += extra_msg + "\n"
        if graph_diff_error is not None:
            self.message += "ERROR: Graphs differed across invocations!\n" + graph_diff_error
        if tensor_compare_error is not None:
            self.message += tensor_compare_error
        super().__init__(self.message)


def is_tracing() -> bool:
    """True while ``torch.jit.trace`` runs the traced code, False otherwise (as in PyTorch).

    Example:
        >>> import borch_webgpu as torch
        >>> torch.jit.is_tracing()
        False
    """
    return _TRACING[0] > 0


def _warn(text: str, stacklevel: int = 4) -> None:
    # stacklevel: the frames between here and the user's line that asked for the value
    warnings.warn(text, TracerWarning, stacklevel=stacklevel)


class ConcreteProxy(Proxy):
    """A Proxy that also knows its value: Python conversions get the value and warn."""

    def __getattr__(self, k: str) -> "ConcreteAttribute":
        if k.startswith("__") and k.endswith("__"):
            raise AttributeError(k)
        return ConcreteAttribute(self, k)

    def __len__(self) -> int:
        v = self.tracer.value_of(self)
        if isinstance(v, Tensor):
            _warn("Using len to get tensor shape might cause the trace to be incorrect. Recommended usage would be "
                  "tensor.shape[0]. Passing a tensor of different shape might lead to errors or silently give "
                  "incorrect results.", 3)
        return len(v)

    def __index__(self) -> int:
        return self.tracer.convert(self, "a Python integer", lambda v: v.__index__())

    def __int__(self) -> int:
        return self.tracer.convert(self, "a Python integer", int)

    def __float__(self) -> float:
        return self.tracer.convert(self, "a Python float", float)

    def __complex__(self) -> complex:
        return self.tracer.convert(self, "a Python complex", complex)


class ConcreteAttribute(Attribute, ConcreteProxy):
    """``proxy.attr`` of a ConcreteProxy."""


class ConcreteTracer(Tracer):
    """An fx Tracer whose proxies carry the values of one real run (``torch.jit.trace``'s recorder)."""

    def __init__(self, example_args: tuple, example_kwargs: dict, arg_names: list[str] | None = None,
                 traced_func_name: str = "forward") -> None:
        super().__init__()
        self.example_args = example_args
        self.example_kwargs = example_kwargs
        self.arg_names = arg_names
        self.traced_func_name = traced_func_name
        self.values: dict[Node, Any] = {}
        self.evaluating = 0

    def proxy(self, node: Node) -> ConcreteProxy:
        return ConcreteProxy(node, self)

    # ---- values ---------------------------------------------------------------------------------
    def value_of(self, p: Proxy) -> Any:
        return self._value(p.node)

    def _value(self, n: Node) -> Any:
        if n not in self.values:
            if n.op != "get_attr":
                raise AssertionError(f"jit.trace: no value recorded for node {n.name}")
            self.values[n] = self._fetch(n.target)
        return self.values[n]

    def _fetch(self, target: str) -> Any:
        self.evaluating += 1
        try:
            obj = self.root
            for atom in target.split("."):
                obj = getattr(obj, atom)
            return obj
        finally:
            self.evaluating -= 1

    def _concrete(self, a: Any) -> Any:
        return map_aggregate(a, lambda v: self.value_of(v) if isinstance(v, Proxy) else v)

    def _run(self, node: Node) -> Any:
        args = map_arg(node.args, self._value)
        kwargs = map_arg(node.kwargs, self._value)
        self.evaluating += 1
        try:
            if node.op == "call_function":
                return node.target(*args, **kwargs)
            if node.op == "call_method":
                return getattr(args[0], node.target)(*args[1:], **kwargs)
            if node.op == "call_module":
                return _ORIG_CALL(self.root.get_submodule(node.target), *args, **kwargs)
        finally:
            self.evaluating -= 1
        return self._fetch(node.target)

    def convert(self, p: Proxy, what: str, fn: Callable, stacklevel: int = 4) -> Any:
        v = self.value_of(p)
        if isinstance(v, Tensor):
            _warn(f"Converting a tensor to {what}{_FROZEN}", stacklevel)
        return fn(v)

    # ---- the fx hooks ---------------------------------------------------------------------------
    def create_proxy(self, kind: str, target, args: tuple, kwargs: dict, name: str | None = None,
                     type_expr: Any | None = None, proxy_factory_fn=None):
        if kind == "call_method" and target in _METHODS and args and isinstance(args[0], Proxy):
            v = self.value_of(args[0])
            if isinstance(v, Tensor):
                _warn(f"Converting a tensor to {_METHODS[target]}{_FROZEN}")
            return getattr(v, target)(*self._concrete(args[1:]), **self._concrete(kwargs))
        p = super().create_proxy(kind, target, args, kwargs, name, type_expr, proxy_factory_fn)
        if kind != "placeholder":
            self.values[p.node] = self._run(p.node)
        return p

    def getattr(self, attr: str, attr_val: Any, parameter_proxy_cache: dict) -> Any:
        if self.evaluating:
            return attr_val
        return super().getattr(attr, attr_val, parameter_proxy_cache)

    def call_module(self, m, forward: Callable, args: tuple, kwargs: dict) -> Any:
        if self.evaluating:
            return forward(*args, **kwargs)
        return super().call_module(m, forward, args, kwargs)

    def to_bool(self, obj: Proxy) -> bool:
        return self.convert(obj, "a Python boolean", bool, 5)

    def iter(self, obj: Proxy):
        v = self.value_of(obj)
        if isinstance(v, Tensor):
            _warn("Iterating over a tensor might cause the trace to be incorrect. Passing a tensor of different "
                  "shape won't change the number of iterations executed (and might lead to errors or silently give "
                  "incorrect results).")
        if isinstance(v, (Tensor, tuple, list)):
            return iter([obj[i] for i in range(len(v))])
        return iter(v)

    def create_args_for_root(self, root_fn, is_module: bool, concrete_args=None):
        names = list(self.arg_names or [])
        args: list[Any] = [self.root] if is_module else []
        for i, value in enumerate(self.example_args):
            p = self.create_proxy("placeholder", names[i] if i < len(names) else f"input_{i}", (), {})
            self.values[p.node] = value
            args.append(p)
        kw = {}
        for k, value in self.example_kwargs.items():
            p = self.create_proxy("placeholder", k, (), {})
            self.values[p.node] = value
            kw[k] = p
        npos = len(args)

        def call(*a):
            return root_fn(*a[:npos], **dict(zip(kw, a[npos:])))
        return call, args + list(kw.values())


def _positional_names(fn, skip_self: bool) -> list[str]:
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return []
    if skip_self and params:
        params = params[1:]
    return [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


def _check_arity(fn, skip_self: bool, args: tuple, kwargs: dict, qualname: str) -> None:
    """Python's own TypeError for a missing argument, raised before the trace starts."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return
    if skip_self and params:
        params = params[1:]
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        return
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    missing = [p.name for p in positional[len(args):] if p.default is p.empty and p.name not in kwargs]
    if missing:
        quoted = [repr(n) for n in missing]
        listed = quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]
        s = "" if len(missing) == 1 else "s"
        raise TypeError(f"{qualname}() missing {len(missing)} required positional argument{s}: {listed}")


def _type_name(v: Any, whole: Any) -> str:
    if isinstance(v, Tensor):
        return "Tensor"
    if isinstance(v, tuple):
        return "Tuple[" + ", ".join(_type_name(x, whole) for x in v) + "]"
    if isinstance(v, list):
        kinds = [_type_name(x, whole) for x in v]
        for k in kinds[1:]:
            if k != kinds[0]:
                raise RuntimeError(f"Tracer cannot infer type of {whole}\n:List inputs to traced functions must have "
                                   f"consistent element type. Found {kinds[0]} and {k}")
        return f"List[{kinds[0] if kinds else 'Tensor'}]"
    if isinstance(v, dict):
        vals = {_type_name(x, whole) for x in v.values()}
        return f"Dict[str, {vals.pop() if len(vals) == 1 else 'Tensor'}]"
    return type(v).__name__


def _check_inputs(args: tuple, kwargs: dict) -> None:
    """PyTorch's refusal of example inputs that are not tensors or containers of tensors."""
    leaves: list = []
    map_aggregate((args, kwargs), leaves.append)
    name = _type_name(args, args)   # raises for a list of mixed types, as PyTorch does
    if any(not isinstance(v, Tensor) for v in leaves):
        raise RuntimeError(f"Type '{name}' cannot be traced. Only Tensors and (possibly nested) Lists, Dicts, and "
                           "Tuples of Tensors can be traced")


def trace_callable(root, args: tuple, kwargs: dict, method: str = "forward"):
    """Trace ``root`` (a Module's ``method`` or a function) on real values: (GraphModule, constants)."""
    from ..fx import GraphModule
    is_module = isinstance(root, Module)
    if is_module:
        fn = getattr(type(root), method)
        qualname = getattr(fn, "__qualname__", f"{type(root).__name__}.{method}")
    else:
        fn = root
        qualname = getattr(root, "__qualname__", getattr(root, "__name__", "function"))
    _check_arity(fn, is_module, args, kwargs, qualname)
    _check_inputs(args, kwargs)
    names = _positional_names(fn, is_module)
    tracer = ConcreteTracer(args, kwargs, names, method)
    before = set(root.__dict__) if is_module else set()
    _TRACING[0] += 1
    try:
        if is_module:
            graph = tracer.trace(root)
        else:
            def forward(*a, **k):
                return root(*a, **k)
            graph = tracer.trace(forward)
    finally:
        _TRACING[0] -= 1
    # constants the fx tracer set on the root: they belong to the trace, not to the user's module
    consts = {k: tracer.root.__dict__[k] for k in list(tracer.root.__dict__) if k not in before
              and k.startswith("_tensor_constant")}
    gm = GraphModule(tracer.root, graph, type(root).__name__ if is_module else getattr(root, "__name__", "f"))
    if is_module:
        for k in consts:
            del root.__dict__[k]
    return gm, consts


def _clone(a: Any) -> Any:
    def one(v):
        if isinstance(v, Tensor):
            c = v.detach().clone()
            return c.requires_grad_(v.requires_grad) if v.is_floating_point() else c
        return v
    return map_aggregate(a, one)


def _tensors(out: Any) -> list:
    found: list = []
    map_aggregate(out, lambda v: found.append(v) if isinstance(v, Tensor) else None)
    return found


def _compare(traced: list, ref: list, what: str, tol: float) -> bool:
    from ..testing import assert_close
    ok = True
    for i, (a, b) in enumerate(zip(traced, ref)):
        try:
            if a.is_floating_point():
                assert_close(a.double(), b.double(), rtol=tol, atol=1e-5 if a.dtype.itemsize <= 4 else 1e-7,
                             equal_nan=True)
            else:
                assert_close(a, b, rtol=0, atol=0)
        except AssertionError as e:
            warnings.warn(f"Output nr {i + 1}. of the traced function does not match the corresponding output of the "
                          f"{what}. Detailed error:\n{e}", TracerWarning, stacklevel=4)
            ok = False
    return ok


def check_trace(root, call_traced: Callable, code: str, inputs: list, tol: float, method: str = "forward") -> None:
    """PyTorch's ``check_trace``: trace again, then compare the trace, the Python code and the second trace."""
    for args, kwargs in inputs:
        gm2, consts2 = trace_callable(root, _clone(args), _clone(kwargs), method)
        if gm2.code != code:
            diff = "".join(difflib.unified_diff(code.splitlines(True), gm2.code.splitlines(True),
                                                "first trace", "second trace"))
            raise TracingCheckError("\tGraph diff:\n" + diff)
        traced_outs = _tensors(call_traced(*_clone(args), **_clone(kwargs)))
        fn = getattr(root, method) if isinstance(root, Module) else root
        fn_outs = _tensors(fn(*_clone(args), **_clone(kwargs)))
        if _compare(traced_outs, fn_outs, "Python function", tol):
            if isinstance(root, Module):
                shell = copy.copy(root)
                shell.__dict__.update(consts2)
                again = type(gm2).forward(shell, *_clone(args), **_clone(kwargs))
            else:
                again = gm2(*_clone(args), **_clone(kwargs))
            _compare(traced_outs, _tensors(again), "repeated trace", tol)
