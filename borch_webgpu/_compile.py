"""``torch.compile``: a function's (or a module's) dispatches recorded once and replayed per call.

A compiled callable keeps a small cache of graphs, one per *guard key*: the shapes, dtypes,
devices and ``requires_grad`` of its tensor arguments, its other arguments' values, grad mode, and
the modules and optimizers it uses (found among its arguments, its closure and the globals it names):
their training flags, their parameters' identities and storages. For each key:

1. the first call runs eagerly, watched: lazily made state (momentum buffers) is made, and a call
   that cannot be captured is found early;
2. the second call runs eagerly while its dispatches are recorded over fixed buffers (its tensor
   arguments are first copied into the graph's own input tensors);
3. every later call copies its arguments into those inputs and replays the graph: one JavaScript
   call for the whole step. Returned tensors are fresh copies, as a user would get eagerly.

A read of a value on the host (``.item()``, ``print(t)``), work on the ``cpu`` device or host data
written into an older tensor inside the function is a *graph break*: reported once with the line,
after which that key runs eagerly; with ``fullgraph=True`` it raises at the call instead. On the
``cpu`` device (no WebGPU) a compiled callable simply runs eagerly.
"""
from __future__ import annotations

import functools
import weakref
import warnings
from collections import OrderedDict
from typing import Any, Callable

from .autograd.grad_mode import is_grad_enabled, no_grad
from .device import capture as _capture
from .device import webgpu as _rt
from .device.gpu_backend import GPUStorage
from .tensor import Tensor

__all__ = ["compile", "CompiledFunction", "OptimizedModule", "config", "reset"]


class _Config:
    """``torch._dynamo.config``: ``cache_size_limit`` graphs per compiled callable (PyTorch's default 8)."""

    cache_size_limit = 8
    suppress_errors = False


config = _Config()
_all: "weakref.WeakSet[CompiledFunction]" = weakref.WeakSet()


def reset() -> None:
    """``torch._dynamo.reset()`` / ``torch.compiler.reset()``: forget every captured graph."""
    for cf in list(_all):
        cf._reset()


# ---- guards -------------------------------------------------------------------------------------
def _is_module(x) -> bool:
    from .nn.modules.module import Module
    return isinstance(x, Module)


def _is_optimizer(x) -> bool:
    from .optim.optimizer import Optimizer
    return isinstance(x, Optimizer)


def _module_key(m) -> tuple:
    mods = tuple(s.training for s in m.modules())
    ps = tuple((id(p), id(p._storage), p.requires_grad) for p in m.parameters())
    bs = tuple((id(b), id(b._storage)) for b in m.buffers())
    return ("M", id(m), mods, ps, bs)


def _optimizer_key(o) -> tuple:
    return ("Opt", id(o), tuple(tuple(id(p) for p in g["params"]) for g in o.param_groups))


def _key(x) -> Any:
    if isinstance(x, Tensor):
        return ("T", x._shape, x.dtype.name, x.device.type, x.requires_grad)
    if x is None or isinstance(x, (bool, int, float, str, bytes)):
        return ("V", type(x).__name__, x)
    if isinstance(x, (tuple, list)):
        return (type(x).__name__, tuple(_key(i) for i in x))
    if isinstance(x, dict):
        return ("D", tuple((k, _key(v)) for k, v in x.items()))
    if _is_module(x):
        return _module_key(x)
    if _is_optimizer(x):
        return _optimizer_key(x)
    return ("O", id(x))


def _context(fn) -> tuple[list, list[str], dict]:
    """(objects bound to fn: self and closure cells, global names it reads, its globals)."""
    objs = []
    f = fn
    self = getattr(f, "__self__", None)
    if self is not None:
        objs.append(self)
        f = f.__func__
    f = getattr(f, "__wrapped__", f)
    code = getattr(f, "__code__", None)
    if code is None:
        return objs, [], {}
    for cell in getattr(f, "__closure__", None) or ():
        try:
            v = cell.cell_contents
        except ValueError:
            continue
        if _is_module(v) or _is_optimizer(v):
            objs.append(v)
    g = getattr(f, "__globals__", {})
    names = [n for n in code.co_names if n in g and (_is_module(g[n]) or _is_optimizer(g[n]))]
    return objs, names, g


def _flatten(x, out: list) -> Any:
    """x with each tensor replaced by its index into out (a spec to rebuild it)."""
    if isinstance(x, Tensor):
        out.append(x)
        return ("T", len(out) - 1)
    if isinstance(x, tuple) and not hasattr(x, "_fields"):
        return ("tuple", tuple(_flatten(i, out) for i in x))
    if isinstance(x, list):
        return ("list", [_flatten(i, out) for i in x])
    if isinstance(x, dict):
        return ("dict", {k: _flatten(v, out) for k, v in x.items()})
    return ("V", x)


def _build(spec, leaves: list) -> Any:
    kind, v = spec
    if kind == "T":
        return leaves[v]
    if kind == "tuple":
        return tuple(_build(i, leaves) for i in v)
    if kind == "list":
        return [_build(i, leaves) for i in v]
    if kind == "dict":
        return {k: _build(i, leaves) for k, i in v.items()}
    return v


def _backward_pending(t: Tensor) -> bool:
    """t has an autograd graph that backward has not gone through yet (it will run after the call)."""
    return t.grad_fn is not None and not getattr(t.grad_fn, "_ran", True)


def _tensor_or_tuple(x) -> bool:
    return isinstance(x, Tensor) or (isinstance(x, tuple) and bool(x) and all(isinstance(i, Tensor) for i in x))


def _snapshot(t: Tensor) -> Tensor:
    """A new tensor with t's values and layout, no autograd history."""
    with no_grad():
        return t.detach().clone()


def _on_gpu(t: Tensor) -> bool:
    return t._device.type == "webgpu"


# ---- one cache entry ------------------------------------------------------------------------------
class _Entry:
    __slots__ = ("calls", "graph", "eager", "in_spec", "statics", "out_spec", "outs", "reported", "autograd",
                 "graphed", "graphed_graphs")

    def __init__(self):
        self.calls = 0
        self.graph = None
        self.autograd = False      # a module's forward whose outputs require grad: forward and backward graphs
        self.graphed = None        # then: the callable that replays them (through an autograd Function)
        self.graphed_graphs = ()
        self.eager: str | None = None
        self.statics: list[Tensor] = []
        self.in_spec = None
        self.out_spec = None
        self.outs: list[Tensor] = []
        self.reported = False


class CompiledFunction:
    """What ``torch.compile(fn)`` returns: call it as you would call ``fn``."""

    def __init__(self, fn: Callable, *, fullgraph: bool = False, mode: str | None = None, dynamic=None,
                 label: str | None = None):
        if mode not in (None, "default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs"):
            raise RuntimeError(f"Unrecognized mode={mode}, should be one of: default, reduce-overhead, "
                               "max-autotune, max-autotune-no-cudagraphs")
        self._fn = fn
        self._module = fn if _is_module(fn) else None
        self.fullgraph = fullgraph
        self.mode = mode
        self.dynamic = dynamic
        self.label = label or getattr(fn, "__qualname__", None) or type(fn).__name__
        self._cache: OrderedDict = OrderedDict()
        self._objs, self._names, self._globals = _context(fn)
        self._limit_reported = False
        functools.update_wrapper(self, fn, updated=())
        _all.add(self)

    # introspection used by tests and the benchmark
    @property
    def graphs(self) -> int:
        """How many graphs are captured and ready to replay."""
        return sum((e.graph is not None) + len(e.graphed_graphs) for e in self._cache.values())

    def _reset(self) -> None:
        for e in self._cache.values():
            if e.graph is not None:
                e.graph.destroy()
            for g in e.graphed_graphs:
                g.reset()
        self._cache.clear()

    def _guard(self, args, kwargs) -> tuple:
        ctx = tuple(_key(o) for o in self._objs)
        glob = tuple(_key(self._globals.get(n)) for n in self._names)
        return (_key(args), _key(kwargs), ctx, glob, is_grad_enabled())

    def __call__(self, *args, **kwargs):
        rt = _rt._runtime
        if rt is None or _capture.active() is not None:
            return self._fn(*args, **kwargs)  # no WebGPU (cpu device), or inside a larger capture
        key = self._guard(args, kwargs)
        e = self._cache.get(key)
        if e is None:
            if len(self._cache) >= config.cache_size_limit:
                if not self._limit_reported:
                    self._limit_reported = True
                    warnings.warn(f"torch.compile: '{self.label}' reached torch._dynamo.config.cache_size_limit "
                                  f"({config.cache_size_limit}) graphs; new guard failures run eagerly", stacklevel=2)
                return self._fn(*args, **kwargs)
            e = self._cache[key] = _Entry()
        if e.eager is not None:
            return self._fn(*args, **kwargs)
        if e.graph is not None:
            return self._replay(rt, e, args, kwargs)
        if e.graphed is not None:
            return e.graphed(*args)
        e.calls += 1
        return self._capture(rt, e, args, kwargs, keep=e.calls >= 2)

    def _capture(self, rt, e: _Entry, args, kwargs, keep: bool):
        if keep and e.autograd:
            return self._capture_autograd(e, args)
        leaves: list[Tensor] = []
        spec = _flatten((args, kwargs), leaves)
        grad_args = any(t.requires_grad and is_grad_enabled() for t in leaves)
        if grad_args and not (self._module is not None and not kwargs):
            e.eager = "a tensor argument requires grad (its gradient would stay inside the graph)"
            self._report(e)
            return self._fn(*args, **kwargs)
        statics = [_snapshot(t) if _on_gpu(t) else t for t in leaves] if keep else leaves
        call_args, call_kwargs = _build(spec, statics)
        with rt.capture(execute=True, fullgraph=self.fullgraph, label=self.label) as cap:
            out = self._fn(*call_args, **call_kwargs)
            outs: list[Tensor] = []
            out_spec = _flatten(out, outs)
            if cap.broken is None and any(not _on_gpu(t) for t in outs):
                cap.cannot("returning a cpu tensor")
            if cap.broken is None and is_grad_enabled() and (grad_args or any(_backward_pending(t) for t in outs)):
                # backward runs outside the region: a module gets a forward and a backward graph from
                # its next call on; anything else runs eagerly (the whole training step compiles)
                if self._module is not None and not kwargs and _tensor_or_tuple(out):
                    e.autograd = True
                else:
                    cap.broken = ("returning a tensor that requires grad (backward outside the compiled region; "
                                  "compile the whole training step, or run inference under torch.no_grad())",
                                  _capture.user_frame())
        if cap.broken is not None:
            rt.finish_capture(cap)
            e.eager = f"{cap.broken[0]} at {cap.broken[1]}"
            self._report(e)
            return out
        if not keep or e.autograd:
            rt.finish_capture(cap)  # the first call only watched: its records are dropped
            return out
        g = rt.finish_capture(cap, extra_pins=[t._storage.bid for t in statics + outs if _on_gpu(t)])
        if g is None:  # nothing ran on the GPU: nothing to replay
            e.eager = "the function dispatched no GPU work"
            return out
        e.graph, e.in_spec, e.statics, e.out_spec, e.outs = g, spec, statics, out_spec, outs
        # the caller gets copies: the graph's own outputs are overwritten by the next replay
        return _build(out_spec, [_snapshot(t) for t in outs])

    def _capture_autograd(self, e: _Entry, args):
        """A module's forward and its backward as two graphs (make_graphed_callables' way), replayed
        through an autograd Function: parameter gradients accumulate into ``.grad`` as eagerly."""
        from ._cuda_graphs import graph_forward_backward
        static_in = tuple(a.detach().clone().requires_grad_(a.requires_grad) if isinstance(a, Tensor) else a
                          for a in args)
        params = tuple(p for p in self._module.parameters() if p.requires_grad)
        try:
            e.graphed, e.graphed_graphs = graph_forward_backward(self._fn, static_in, params, True, self.label)
        except (_capture.GraphBreakError, TypeError) as err:
            e.eager = str(err)
            self._report(e)
            return self._fn(*args)
        return e.graphed(*args)

    def _replay(self, rt, e: _Entry, args, kwargs):
        leaves: list[Tensor] = []
        _flatten((args, kwargs), leaves)
        pre: list[int] = []
        for t, s in zip(leaves, e.statics):
            if not _on_gpu(s) or t._storage is s._storage:
                continue
            item = t.dtype.gpu_np.itemsize
            nbytes = t.numel() * item
            if t.is_contiguous() and nbytes % 4 == 0 and (t._offset * item) % 4 == 0:
                pre += (t._storage.bid, t._offset * item, s._storage.bid, 0, nbytes)
            else:
                with no_grad():
                    s.copy_(t)  # a strided argument: an eager copy, submitted with the replay
        post: list[int] = []
        fresh: list[Tensor] = []
        for t in e.outs:
            st = GPUStorage(rt, t._storage.nbytes)
            post += (t._storage.bid, 0, st.bid, 0, (t._storage.nbytes + 3) & ~3)
            fresh.append(Tensor._make(st, t._shape, t.dtype, t._device, t._stride, t._offset))
        e.graph.replay(pre, post)
        return _build(e.out_spec, fresh)

    def _report(self, e: _Entry) -> None:
        if not e.reported:
            e.reported = True
            warnings.warn(f"torch.compile: graph break in '{self.label}': {e.eager}; these inputs run eagerly",
                          stacklevel=4)


class OptimizedModule:
    """What ``torch.compile(module)`` returns: the module's ``forward`` compiled, everything else
    (parameters, ``state_dict``, ``train()``/``eval()``) the original's (``_orig_mod``)."""

    def __init__(self, mod, **opts):
        object.__setattr__(self, "_orig_mod", mod)
        object.__setattr__(self, "_compiled", CompiledFunction(mod, label=type(mod).__name__, **opts))

    def __call__(self, *args, **kwargs):
        return self._compiled(*args, **kwargs)

    def forward(self, *args, **kwargs):
        return self._compiled(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._orig_mod, name)

    def __setattr__(self, name, value):
        setattr(self._orig_mod, name, value)

    def __repr__(self) -> str:
        return f"OptimizedModule(\n  (_orig_mod): {repr(self._orig_mod)}\n)".replace("\n", "\n", 1)


def compile(model: Callable | None = None, *, fullgraph: bool = False, dynamic: bool | None = None,  # noqa: A001
            backend: str | Callable = "inductor", mode: str | None = None, options: dict | None = None,
            disable: bool = False):
    """Record a function's (or a module's) GPU work once and replay it on every later call.

    Args:
        model: the function or ``nn.Module`` to compile (``@torch.compile`` works too).
        fullgraph (bool): raise at a call that cannot be captured (``.item()``, ``print(t)``,
            cpu-device work) instead of running those inputs eagerly.
        dynamic, backend, options: accepted for PyTorch compatibility; one backend runs.
        mode (str): ``None``/``"default"``, ``"reduce-overhead"`` (both replay a captured graph),
            ``"max-autotune"``, ``"max-autotune-no-cudagraphs"``.
        disable (bool): return ``model`` unchanged.

    The first call with new inputs runs eagerly, the second is captured, later ones replay with
    one JavaScript call. Without WebGPU (the ``cpu`` device) the callable runs eagerly.

    Example::

        >>> import borch_webgpu as torch
        >>> model = torch.nn.Linear(4, 2)
        >>> opt = torch.optim.SGD(model.parameters(), lr=0.1)
        >>> @torch.compile
        ... def train_step(x, y):
        ...     opt.zero_grad()
        ...     loss = torch.nn.functional.mse_loss(model(x), y)
        ...     loss.backward()
        ...     opt.step()
        ...     return loss
        >>> x, y = torch.ones(8, 4), torch.zeros(8, 2)
        >>> losses = [train_step(x, y).item() for _ in range(4)]
        >>> losses[0] > losses[-1]
        True
    """
    if model is None:
        return lambda m: compile(m, fullgraph=fullgraph, dynamic=dynamic, backend=backend, mode=mode,
                                 options=options, disable=disable)
    if disable:
        return model
    if _is_module(model):
        return OptimizedModule(model, fullgraph=fullgraph, mode=mode, dynamic=dynamic)
    if not callable(model):
        raise RuntimeError(f"torch.compile: expected a callable or an nn.Module, got {type(model).__name__}")
    return CompiledFunction(model, fullgraph=fullgraph, mode=mode, dynamic=dynamic)
