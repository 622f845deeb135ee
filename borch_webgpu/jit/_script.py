"""The objects ``torch.jit.trace`` / ``script`` / ``load`` return: nn.Modules and callables with
``graph``, ``code`` and ``save``.

No TorchScript compilation happens here. A traced module or function runs the fx graph recorded by
the trace (``_trace.py``); a scripted one runs its Python code as written. ``graph`` is our fx Graph and
``code`` its generated Python (PyTorch 2.13's fx text), not TorchScript IR.
"""
from __future__ import annotations

import inspect
from collections import OrderedDict
from typing import Any, Callable

from ..nn import Module

__all__ = ["ScriptModule", "RecursiveScriptModule", "TracedModule", "TopLevelTracedModule", "ScriptFunction",
           "shell_of", "fx_of"]

_BOOKKEEPING = ("_parameters", "_buffers", "_modules")


def shell_of(orig: Module, cls: type) -> Module:
    """A new ``cls`` instance sharing ``orig``'s parameters, buffers and attributes; its submodules are
    shells of theirs (so ``train()`` / ``eval()`` on one leaves the other's flags alone, as in PyTorch)."""
    obj = cls.__new__(cls)
    d = dict(orig.__dict__)
    for k in _BOOKKEEPING:
        if k in d:
            d[k] = OrderedDict(d[k]) if isinstance(d[k], OrderedDict) else dict(d[k])
    if "_modules" in d:
        for name, child in d["_modules"].items():
            if child is not None:
                d["_modules"][name] = shell_of(child, type(child))
    if "_non_persistent_buffers_set" in d:
        d["_non_persistent_buffers_set"] = set(d["_non_persistent_buffers_set"])
    for k in [k for k in d if k.startswith("_jit_")]:
        del d[k]
    obj.__dict__.update(d)
    if isinstance(obj, ScriptModule):
        object.__setattr__(obj, "_jit_original_name", getattr(orig, "_jit_original_name", type(orig).__name__))
    return obj


def fx_of(obj, what: str):
    """(GraphModule, constants) of a scripted module or function, by fx's symbolic tracing."""
    from ..fx import symbolic_trace
    from ..fx.proxy import TraceError
    before = set(obj.__dict__) if isinstance(obj, Module) else set()
    try:
        gm = symbolic_trace(obj)
    except (TraceError, RuntimeError, NotImplementedError) as err:
        raise RuntimeError(f"{what}: borch_webgpu runs this scripted {type(obj).__name__}'s Python code as written "
                           f"(no TorchScript compilation), and fx could not record it as a graph ({err}). Use "
                           "torch.jit.trace(obj, example_inputs) to get a graph, or save its state_dict()") from err
    consts = {}
    if isinstance(obj, Module):
        for k in [k for k in obj.__dict__ if k not in before and k.startswith("_tensor_constant")]:
            consts[k] = obj.__dict__.pop(k)
    return gm, consts


class _FxViews:
    """``graph`` / ``inlined_graph`` / ``code`` of a scripted or traced object, from its ``_jit_fx()``: our fx
    Graph and the Python source fx generates for it, not TorchScript IR or code."""

    @property
    def graph(self):
        """The fx Graph of ``forward`` (or of the function): text via ``str``; not TorchScript IR."""
        return self._jit_fx()[0].graph

    @property
    def inlined_graph(self):
        """The same fx Graph as ``graph`` (fx already inlines non-leaf submodules)."""
        return self.graph

    @property
    def code(self) -> str:
        """The Python source fx generates (not TorchScript code)."""
        return self._jit_fx()[0].code


class ScriptModule(_FxViews, Module):
    """``torch.jit.ScriptModule``: an ``nn.Module`` with ``graph``, ``code`` and ``save``.

    What ``torch.jit.trace`` (``TopLevelTracedModule``), ``torch.jit.script`` and ``torch.jit.load``
    (``RecursiveScriptModule``) return are its subclasses. It can also be subclassed directly, as old
    code did with ``@torch.jit.script_method``; ``forward`` then runs as written. ``graph`` and ``code``
    are our fx graph and its generated Python, not TorchScript IR.

    Example:
        >>> import borch_webgpu as torch
        >>> net = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU())
        >>> m = torch.jit.trace(net, torch.ones(1, 3))
        >>> isinstance(m, torch.jit.ScriptModule), isinstance(m, torch.nn.Module)
        (True, True)
        >>> print(m.code.strip())
        def forward(self, input):
            input_1 = input
            _0 = getattr(self, "0")(input_1);  input_1 = None
            _1 = getattr(self, "1")(_0);  _0 = None
            return _1
    """

    def _jit_fx(self):
        gm = self.__dict__.get("_jit_gm")
        if gm is not None:
            return gm, {}
        return fx_of(self, f"{self._get_name()}.code")

    @property
    def original_name(self) -> str:
        """The class name of the module this one was made from."""
        return self.__dict__.get("_jit_original_name", type(self).__name__)

    def _get_name(self) -> str:
        return self.original_name

    def save(self, f, _extra_files: dict | None = None) -> None:
        """Write this module to ``f`` (a path or a binary file) as a borch_webgpu jit archive.

        Example:
            >>> import io
            >>> import borch_webgpu as torch
            >>> m = torch.jit.trace(torch.nn.Linear(3, 2), torch.ones(1, 3))
            >>> buf = io.BytesIO(); m.save(buf); _ = buf.seek(0)
            >>> type(torch.jit.load(buf)).__name__
            'RecursiveScriptModule'
        """
        from ._serialization import save_module
        gm, consts = self._jit_fx()
        save_module(self, gm, consts, f, _extra_files)


class RecursiveScriptModule(ScriptModule):
    """``torch.jit.RecursiveScriptModule``: what ``torch.jit.script(module)`` and ``torch.jit.load`` return.

    A scripted module runs its class's Python ``forward`` as written (no TorchScript compilation);
    a loaded one runs the saved fx code.

    Example:
        >>> import borch_webgpu as torch
        >>> s = torch.jit.script(torch.nn.Linear(3, 2))
        >>> type(s).__name__, s(torch.ones(1, 3)).shape
        ('RecursiveScriptModule', torch.Size([1, 2]))
    """


def scripted_module(orig: Module) -> RecursiveScriptModule:
    cls = type("RecursiveScriptModule", (RecursiveScriptModule, type(orig)), {"__module__": __name__})
    return shell_of(orig, cls)


def run_frozen(module: Module, fn: Callable, args: tuple, kwargs: dict) -> Any:
    """``fn(module, ...)`` with each submodule's ``training`` flag as it was when traced (as PyTorch's trace
    freezes it), put back afterwards; a module that was not traced runs as it is."""
    frozen = module.__dict__.get("_jit_frozen_paths")
    if not frozen:
        return fn(module, *args, **kwargs)
    mods = dict(module.named_modules())
    saved = []
    for path, flag in frozen.items():
        m = mods.get(path)
        if m is not None:
            saved.append((m, m.__dict__.get("training")))
            m.__dict__["training"] = flag
    try:
        return fn(module, *args, **kwargs)
    finally:
        for m, flag in saved:
            m.__dict__["training"] = flag


def code_module_class(forward: Callable) -> type:
    """The class of a loaded module: ``forward`` is the saved fx code (a class of its own, as fx does)."""
    def run(self, *args, **kwargs):
        return run_frozen(self, forward, args, kwargs)
    run.__signature__ = inspect.signature(forward)
    run.__wrapped__ = forward
    return type("RecursiveScriptModule", (RecursiveScriptModule,), {"forward": run, "__module__": __name__,
                                                                   "_jit_code_forward": staticmethod(forward)})


class TracedModule(ScriptModule):
    """``torch.jit.TracedModule``: a module whose ``forward`` is the graph a trace recorded.

    Its parameters and buffers are the traced module's own (shared, as PyTorch shares them), its
    submodules copies of the traced ones; ``state_dict``, ``named_parameters``, ``train``/``eval`` and ``to``
    work as on any module. As in PyTorch, the graph keeps the training mode each layer had when it was
    traced: ``train()`` / ``eval()`` afterwards change the flags, not what ``BatchNorm`` or ``Dropout`` do
    (trace again in the mode you want).

    Example:
        >>> import borch_webgpu as torch
        >>> m = torch.jit.trace(torch.nn.Linear(3, 2), torch.ones(1, 3))
        >>> isinstance(m, torch.jit.TracedModule), m(torch.ones(5, 3)).shape
        (True, torch.Size([5, 2]))
    """

    def forward(self, *args, **kwargs):
        fn = self.__dict__.get("_jit_fn")
        if fn is None:
            raise RuntimeError(f"{self.original_name}: forward was not traced (trace_module was given other methods)")
        return run_frozen(self, fn, args, kwargs)


class TopLevelTracedModule(TracedModule):
    """``torch.jit.trace(module, ...)``'s result (PyTorch's class name).

    Example:
        >>> import borch_webgpu as torch
        >>> type(torch.jit.trace(torch.nn.ReLU(), torch.ones(2))).__name__
        'TopLevelTracedModule'
    """


def _method(obj: Module, fn: Callable) -> Callable:
    def method(*args, **kwargs):
        return run_frozen(obj, fn, args, kwargs)
    return method


def traced_module(orig: Module, gm, consts: dict, methods: dict | None = None) -> TopLevelTracedModule:
    obj = shell_of(orig, TopLevelTracedModule)
    obj.__dict__.update(consts)
    object.__setattr__(obj, "_jit_frozen_paths", {name: m.training for name, m in orig.named_modules()})
    if gm is not None:
        object.__setattr__(obj, "_jit_gm", gm)
        object.__setattr__(obj, "_jit_fn", type(gm).forward)
    for name, (mgm, mconsts) in (methods or {}).items():
        obj.__dict__.update(mconsts)
        object.__setattr__(obj, name, _method(obj, type(mgm).forward))
    return obj


class ScriptFunction(_FxViews):
    """``torch.jit.ScriptFunction``: a traced or scripted function.

    A traced one runs the recorded fx graph; a scripted one calls the Python function as written.
    ``graph`` / ``code`` are our fx graph and its generated Python (not TorchScript).

    Example:
        >>> import borch_webgpu as torch
        >>> f = torch.jit.trace(lambda x, y: x * y + 1, (torch.ones(2), torch.ones(2)))
        >>> type(f).__name__, f(torch.ones(3), torch.full((3,), 2.0)).tolist()
        ('ScriptFunction', [3.0, 3.0, 3.0])
    """

    def __init__(self, fn: Callable, gm=None, name: str | None = None) -> None:
        self._fn = fn
        self._gm = gm
        self.name = name or getattr(fn, "__name__", "function")
        self.__name__ = self.name
        self.__qualname__ = getattr(fn, "__qualname__", self.name)
        self.__doc__ = getattr(fn, "__doc__", None)

    @property
    def qualified_name(self) -> str:
        """``__torch__.<name>`` as PyTorch spells it."""
        return f"__torch__.{self.name}"

    def __call__(self, *args, **kwargs) -> Any:
        if self._gm is not None:
            return self._gm(*args, **kwargs)
        return self._fn(*args, **kwargs)

    def _jit_fx(self):
        if self._gm is not None:
            return self._gm, {}
        return fx_of(self._fn, f"{self.name}.code")

    def save(self, f, _extra_files: dict | None = None) -> None:
        """Write the function's graph and constants to ``f``; ``torch.jit.load`` gives back a module.

        Example:
            >>> import io
            >>> import borch_webgpu as torch
            >>> f = torch.jit.trace(lambda x: x + 1, torch.ones(2))
            >>> buf = io.BytesIO(); f.save(buf); _ = buf.seek(0)
            >>> torch.jit.load(buf)(torch.zeros(2)).tolist()
            [1.0, 1.0]
        """
        from ._serialization import save_module
        gm, consts = self._jit_fx()
        save_module(gm, gm, consts, f, _extra_files)

    def __repr__(self) -> str:
        return f"<borch_webgpu.jit.ScriptFunction object at {hex(id(self))}>"
