"""``torch.jit``: trace, script, save and load, without TorchScript.

- :func:`trace` runs the function or module once on the example inputs, with our fx tracer recording
  every operation while the real values are computed (Python control flow on tensor values is frozen
  to the branch taken, with PyTorch's :class:`TracerWarning`), and returns a
  :class:`TopLevelTracedModule` or :class:`ScriptFunction` that runs the recorded graph.
- :func:`script` returns a :class:`RecursiveScriptModule` / :class:`ScriptFunction` that runs the Python
  code as written: no TorchScript compilation happens. That is observable through ``graph`` / ``code``,
  which are our fx graph and its generated Python (not TorchScript IR), and only exist for code fx can
  trace.
- :func:`save` / :func:`load` write and read our own zip (fx code, module tree, tensors); a TorchScript
  file from PyTorch is refused with a message that says what to do instead.

Example:
    >>> import borch_webgpu as torch
    >>> m = torch.jit.trace(torch.nn.Sequential(torch.nn.Linear(4, 2), torch.nn.ReLU()), torch.ones(3, 4))
    >>> m(torch.ones(7, 4)).shape
    torch.Size([7, 2])
"""
from __future__ import annotations

import inspect
import typing
import warnings
from typing import Any, Callable

from ..nn import Module
from ..tensor import Tensor
from ._script import (RecursiveScriptModule, ScriptFunction, ScriptModule, TopLevelTracedModule, TracedModule,
                      code_module_class, scripted_module, traced_module)
from ._serialization import load_module
from ._trace import TracerWarning, TracingCheckError, is_tracing, trace_callable
from ._trace import check_trace as _check

__all__ = ["trace", "trace_module", "script", "save", "load", "freeze", "optimize_for_inference", "fork", "wait",
           "Future", "ignore", "unused", "export", "is_scripting", "is_tracing", "annotate", "Final",
           "script_method", "interface", "ScriptModule", "RecursiveScriptModule", "TracedModule",
           "TopLevelTracedModule", "ScriptFunction", "TracerWarning", "TracingCheckError", "Error"]

Final = typing.Final
Error = RuntimeError


def _deprecated(name: str, instead: str = "`torch.compile` or `torch.export`") -> None:
    warnings.warn(f"`torch.jit.{name}` is deprecated. Please switch to {instead}.", DeprecationWarning, stacklevel=3)


def _as_tuple(example) -> tuple:
    if isinstance(example, (Tensor, dict)):
        return (example,)
    return example if isinstance(example, tuple) else tuple(example)


def trace(func, example_inputs=None, optimize=None, check_trace: bool = True, check_inputs=None,
          check_tolerance: float = 1e-5, strict: bool = True, _force_outplace: bool = False, _module_class=None,
          _compilation_unit=None, example_kwarg_inputs: dict | None = None, _store_inputs: bool = True):
    """Run ``func`` once on ``example_inputs`` and return what runs the recorded graph.

    ``func`` is an ``nn.Module`` (its ``forward``; returns a :class:`TopLevelTracedModule`), a module's
    ``forward`` method (the same), or a function (returns a :class:`ScriptFunction`). The recording is
    our fx graph built while the real values are computed: ``x.size(0)`` and ``x.shape`` stay in the
    graph (so another batch size works), while a tensor turned into a Python value (``bool``, ``int``,
    ``float``, ``.item()``, ``.tolist()``, ``len``, iteration) is frozen with PyTorch's
    :class:`TracerWarning`. ``check_trace`` (default True) traces a second time and compares the graphs
    (:class:`TracingCheckError` if they differ) and the outputs of the trace, the Python code and the
    second trace (a :class:`TracerWarning` for a mismatch beyond ``check_tolerance``), as PyTorch does;
    each of those runs ``forward`` (a BatchNorm in train mode counts five batches, as in PyTorch).

    Args:
        func: a module, a module's ``forward`` or a function.
        example_inputs: a tensor or a tuple (or list) of positional arguments.
        check_trace: check the trace as described above.
        check_inputs: a list of argument tuples to check with instead of ``example_inputs``.
        check_tolerance: the relative tolerance of the output comparison.
        example_kwarg_inputs: keyword arguments, instead of ``example_inputs``.

    Isinstance checks on tensors inside ``forward`` see fx Proxies, as under ``torch.fx.symbolic_trace``.

    Example:
        >>> import borch_webgpu as torch
        >>> def f(x, y):
        ...     return torch.relu(x) * y
        >>> g = torch.jit.trace(f, (torch.ones(2), torch.ones(2)))
        >>> g(torch.tensor([-1.0, 2.0, 3.0]), torch.full((3,), 2.0)).tolist()
        [0.0, 4.0, 6.0]
    """
    _deprecated("trace")
    if optimize is not None:
        warnings.warn("`optimize` is deprecated and has no effect. Use `with torch.jit.optimized_execution()` "
                      "instead", FutureWarning, stacklevel=2)
    if isinstance(func, (ScriptModule, ScriptFunction)):
        warnings.warn("The input to trace is already a ScriptModule, tracing it is a no-op. Returning the object "
                      "as is.", stacklevel=2)
        return func
    if inspect.ismethod(func) and isinstance(func.__self__, Module) and func.__name__ == "forward":
        func = func.__self__
    if isinstance(func, Module):
        if example_inputs is None:
            if not isinstance(example_kwarg_inputs, dict):
                raise RuntimeError("example_kwarg_inputs should be a dict")
            return trace_module(func, {"forward": example_kwarg_inputs}, None, check_trace, check_inputs,
                                check_tolerance, strict, _force_outplace, _module_class,
                                example_inputs_is_kwarg=True)
        return trace_module(func, {"forward": example_inputs}, None, check_trace,
                            [{"forward": c} for c in check_inputs] if check_inputs else None, check_tolerance,
                            strict, _force_outplace, _module_class)
    if not callable(func):
        raise TypeError(f"torch.jit.trace: expected a function or an nn.Module, got {type(func).__name__}")
    if example_kwarg_inputs is not None:
        if not isinstance(example_kwarg_inputs, dict):
            raise RuntimeError("example_kwarg_inputs should be a dict")
        args, kwargs = (), dict(example_kwarg_inputs)
    elif example_inputs is None:
        raise RuntimeError("example_kwarg_inputs should be a dict")
    else:
        args, kwargs = _as_tuple(example_inputs), {}
    gm, _ = trace_callable(func, args, kwargs)
    out = ScriptFunction(func, gm, getattr(func, "__name__", None))
    if check_trace:
        checks = [(_as_tuple(c), {}) for c in check_inputs] if check_inputs else [(args, kwargs)]
        _check(func, out, gm.code, checks, check_tolerance)
    return out


def trace_module(mod: Module, inputs: dict, optimize=None, check_trace: bool = True, check_inputs=None,
                 check_tolerance: float = 1e-5, strict: bool = True, _force_outplace: bool = False,
                 _module_class=None, _compilation_unit=None, example_inputs_is_kwarg: bool = False,
                 _store_inputs: bool = True) -> TopLevelTracedModule:
    """Trace the methods of ``mod`` named in ``inputs`` (``{"forward": example, "other": example}``).

    ``forward`` becomes the module's forward; other methods become attributes that run their graphs.

    Example:
        >>> import borch_webgpu as torch
        >>> m = torch.jit.trace_module(torch.nn.Linear(3, 2), {"forward": torch.ones(1, 3)})
        >>> m(torch.ones(4, 3)).shape
        torch.Size([4, 2])
    """
    if not isinstance(mod, Module):
        raise AttributeError("expected torch.nn.Module as the first argument")
    if not isinstance(inputs, dict):
        raise AttributeError("expected a dictionary of (method_name, input) pairs")
    traced, checks = {}, {}
    for method, example in inputs.items():
        if example_inputs_is_kwarg:
            args, kwargs = (), dict(example)
        else:
            args, kwargs = _as_tuple(example), {}
        traced[method] = trace_callable(mod, args, kwargs, method)
        checks[method] = [(args, kwargs)]
    gm, consts = traced.pop("forward", (None, {}))
    out = traced_module(mod, gm, consts, traced)
    if check_trace:
        if check_inputs:
            checks = {}
            for c in check_inputs:
                for method, example in c.items():
                    checks.setdefault(method, []).append((_as_tuple(example), {}))
        for method, cases in checks.items():
            code = (gm if method == "forward" else traced[method][0]).code
            run = out if method == "forward" else getattr(out, method)
            _check(mod, run, code, cases, check_tolerance, method)
    return out


def script(obj, optimize=None, _frames_up: int = 0, _rcb=None, example_inputs=None):
    """Wrap ``obj`` as PyTorch's ``torch.jit.script`` would, but run its Python code as written.

    No TorchScript compilation happens: an ``nn.Module`` becomes a :class:`RecursiveScriptModule` that
    shares its submodules and parameters and runs its own ``forward``; a function becomes a
    :class:`ScriptFunction` that calls it; a class is returned as it is. Only ``graph`` / ``code`` /
    ``save`` differ from PyTorch: they need fx to record ``forward`` symbolically, so code with Python
    control flow on tensor values has no graph (they raise a ``RuntimeError`` saying to trace instead).

    Example:
        >>> import borch_webgpu as torch
        >>> @torch.jit.script
        ... def f(x):
        ...     if x.sum() > 0:
        ...         return x * 2
        ...     return x - 1
        >>> f(torch.ones(2)).tolist(), f(-torch.ones(2)).tolist()
        ([2.0, 2.0], [-2.0, -2.0])
    """
    _deprecated("script")
    if optimize is not None:
        warnings.warn("`optimize` is deprecated and has no effect. Use `with torch.jit.optimized_execution()` "
                      "instead", FutureWarning, stacklevel=2)
    if isinstance(obj, (ScriptModule, ScriptFunction)):
        return obj
    if isinstance(obj, Module):
        return scripted_module(obj)
    if isinstance(obj, type):
        return obj
    if callable(obj):
        return ScriptFunction(obj)
    raise RuntimeError(f"torch.jit.script: cannot script an object of type {type(obj).__name__}: expected an "
                       "nn.Module, a function or a class")


def script_method(fn: Callable) -> Callable:
    """The old ``@torch.jit.script_method`` decorator: returns ``fn`` (it runs as Python).

    Example:
        >>> import borch_webgpu as torch
        >>> class M(torch.jit.ScriptModule):
        ...     @torch.jit.script_method
        ...     def forward(self, x):
        ...         return x + 1
        >>> M()(torch.zeros(1)).tolist()
        [1.0]
    """
    _deprecated("script_method")
    return fn


def interface(obj):
    """``@torch.jit.interface``: returns the class unchanged (no TorchScript here).

    Example:
        >>> import borch_webgpu as torch
        >>> @torch.jit.interface
        ... class I:
        ...     def forward(self, x): ...
        >>> I.__name__
        'I'
    """
    warnings.warn("`torch.jit.interface` is deprecated. Please use `torch.compile` instead.", DeprecationWarning,
                  stacklevel=2)
    return obj


def save(m, f, _extra_files: dict | None = None) -> None:
    """Save a traced or scripted module (or function) to ``f``: our zip of fx code, module tree and tensors.

    PyTorch's TorchScript archive is not written (nothing here could run its code); ``torch.jit.load``
    reads this one back. An ``nn.Module`` that is not a ScriptModule has no ``save`` (PyTorch's
    ``AttributeError``).

    Example:
        >>> import io
        >>> import borch_webgpu as torch
        >>> m = torch.jit.trace(torch.nn.Linear(2, 2), torch.ones(1, 2))
        >>> buf = io.BytesIO(); torch.jit.save(m, buf); _ = buf.seek(0)
        >>> bool((torch.jit.load(buf)(torch.ones(1, 2)) == m(torch.ones(1, 2))).all())
        True
    """
    _deprecated("save", "`torch.export`")
    m.save(f, _extra_files=_extra_files)


def load(f, map_location=None, _extra_files: dict | None = None, _restore_shapes: bool = False):
    """Load what :func:`save` wrote, as a :class:`RecursiveScriptModule` running the saved graph.

    Tensors go where ``map_location`` says (as in ``torch.load``). A TorchScript file written by
    PyTorch raises a ``RuntimeError`` naming it and saying to save and load the ``state_dict`` instead;
    a ``torch.save`` checkpoint raises one saying to use ``torch.load``. The saved code runs only
    after a check that it has the shape fx generates (no imports, no double-underscore attributes,
    only fx's global names); still, load files you trust.

    Example:
        >>> import io
        >>> import borch_webgpu as torch
        >>> buf = io.BytesIO(); torch.jit.trace(torch.nn.ReLU(), torch.ones(2)).save(buf); _ = buf.seek(0)
        >>> torch.jit.load(buf, map_location="cpu")(torch.tensor([-1.0, 1.0])).tolist()
        [0.0, 1.0]
    """
    _deprecated("load", "`torch.export`")
    return load_module(f, code_module_class, map_location, _extra_files)


def freeze(mod, preserved_attrs: list | None = None, optimize_numerics: bool = True):
    """PyTorch's checks (a ScriptModule, in eval mode), then ``mod`` itself: nothing is folded here.

    Example:
        >>> import borch_webgpu as torch
        >>> m = torch.jit.script(torch.nn.Linear(2, 2).eval())
        >>> torch.jit.freeze(m) is m
        True
    """
    warnings.warn("`torch.jit.freeze` is deprecated. Please use `torch.compile` instead.", DeprecationWarning,
                  stacklevel=2)
    if not isinstance(mod, ScriptModule):
        raise RuntimeError("Freezing expects a ScriptModule as input. Please use torch.jit.script or "
                           "torch.jit.trace to script your 'nn.Module'.")
    if mod.training:
        raise RuntimeError("Freezing is currently only implemented for modules in eval mode. Please call .eval() "
                           "on your module before freezing.")
    return mod


def optimize_for_inference(mod, other_methods: list | None = None):
    """PyTorch's check (a ScriptModule), then ``mod`` in eval mode: no graph rewriting happens here.

    Example:
        >>> import borch_webgpu as torch
        >>> m = torch.jit.optimize_for_inference(torch.jit.script(torch.nn.Linear(2, 2)))
        >>> m.training
        False
    """
    if not isinstance(mod, ScriptModule):
        raise RuntimeError("optimize_for_inference expects a ScriptModule as input. Please use torch.jit.script "
                           "or torch.jit.trace to script your 'nn.Module'.")
    return mod.eval()


class Future:
    """The result of :func:`fork`: the call already ran (synchronously); ``wait()`` returns its value.

    Example:
        >>> import borch_webgpu as torch
        >>> fut = torch.jit.fork(lambda a, b: a + b, 2, 3)
        >>> fut.done(), fut.wait()
        (True, 5)
    """

    def __init__(self, value: Any = None, error: BaseException | None = None) -> None:
        self._value, self._error = value, error

    def done(self) -> bool:
        """Always True: the work ran when it was forked."""
        return True

    def wait(self) -> Any:
        """The value (or the exception the call raised)."""
        if self._error is not None:
            raise self._error
        return self._value

    def value(self) -> Any:
        """The same as :meth:`wait`."""
        return self.wait()

    def then(self, callback: Callable) -> "Future":
        """A Future of ``callback(self)``."""
        return fork(callback, self)


def fork(func: Callable, *args, **kwargs) -> Future:
    """Run ``func(*args, **kwargs)`` now and return a :class:`Future` of the result (PyTorch runs it
    asynchronously only in TorchScript; in eager code it too runs at once).

    Example:
        >>> import borch_webgpu as torch
        >>> torch.jit.wait(torch.jit.fork(torch.neg, torch.ones(2))).tolist()
        [-1.0, -1.0]
    """
    try:
        return Future(func(*args, **kwargs))
    except Exception as err:   # surfaced by wait(), as PyTorch's Future does
        return Future(error=err)


def wait(future: Future) -> Any:
    """``future.wait()``.

    Example:
        >>> import borch_webgpu as torch
        >>> torch.jit.wait(torch.jit.fork(abs, -3))
        3
    """
    return future.wait()


def ignore(drop=False, **kwargs):
    """``@torch.jit.ignore`` / ``@torch.jit.ignore(drop=True)``: marks a method to stay Python; returns it.

    Example:
        >>> import borch_webgpu as torch
        >>> @torch.jit.ignore
        ... def helper(x):
        ...     return x + 1
        >>> helper(1)
        2
    """
    if callable(drop):
        drop._torchscript_modifier = "ignore"
        return drop

    def decorator(fn):
        fn._torchscript_modifier = "unused" if drop else "ignore"
        return fn
    return decorator


def unused(fn):
    """``@torch.jit.unused``: marks a method TorchScript would skip; here it still runs as Python.

    Example:
        >>> import borch_webgpu as torch
        >>> torch.jit.unused(lambda: 7)()
        7
    """
    if isinstance(fn, property):
        return fn
    fn._torchscript_modifier = "unused"
    return fn


def export(fn):
    """``@torch.jit.export``: marks a method TorchScript would compile too; returns it.

    Example:
        >>> import borch_webgpu as torch
        >>> torch.jit.export(lambda: 1)()
        1
    """
    fn._torchscript_modifier = "export"
    return fn


def is_scripting() -> bool:
    """False: code never runs as TorchScript here (PyTorch gives False in eager code too).

    Example:
        >>> import borch_webgpu as torch
        >>> torch.jit.is_scripting()
        False
    """
    return False


def annotate(the_type, the_value):
    """Returns ``the_value`` (a type hint for TorchScript; nothing to do in Python).

    Example:
        >>> import borch_webgpu as torch
        >>> torch.jit.annotate(list, [])
        []
    """
    return the_value
