"""``torch.autograd.profiler``: ``profile`` and ``record_function``, recording every op called through a
public name.

While a profile records, every call of a public op (``torch.*`` functions, Tensor methods and operators,
``torch.nn.functional``) becomes a ``FunctionEvent`` named as PyTorch names it (``aten::mm``,
``aten::add``, ``aten::conv2d``; ``x + y`` is ``aten::add``, ``x @ y`` ``aten::matmul``), with its CPU
wall time (``time.perf_counter_ns``), its input shapes (``record_shapes=True``), its parent and children
(ops an op calls through public names, ``record_function`` ranges) and, on WebGPU, the number of compute
dispatches it recorded (``device_dispatches``, read from the runtime's counter). Outside a profile the
public names are the plain functions: the wrappers are installed when a profile starts and removed when it
stops, so there is no cost at all when nothing is profiled.

How it differs from PyTorch:

- Events come from our Python op layer, not from ATen's dispatcher: an op that another op calls as a
  Python function (not through a public name) is part of its caller's self time, so the children
  differ from PyTorch's (``aten::mm`` has no ``aten::resolve_conj`` children here). Input shapes list the
  arguments given (PyTorch lists every schema argument, defaults included). ``x[i]`` / ``x[i] = v`` are
  ``Tensor.__getitem__`` / ``Tensor.__setitem__`` (PyTorch: ``aten::select``, ``aten::slice``,
  ``aten::index`` ... by index kind). ``backward()`` records PyTorch's ranges: per node
  ``autograd::engine::evaluate_function: MmBackward0`` holding ``MmBackward0`` (``torch::autograd::AccumulateGrad``
  for leaves); inside them only the ops the formulas call through public names appear.
- A ``torch.compile``'d call that replays its captured graph runs no ops, so it records no op events (wrap
  it in ``record_function`` to see its time); the dispatch counter counts recorded dispatches, not replays.
- There are no CUDA events and no per-op GPU time: WebGPU times whole compute passes (one per flush, many
  ops each), so ``use_cuda=True`` / ``use_device="cuda"`` (here: WebGPU) switches on ``timestamp-query``
  timing where the adapter has it and reports the device totals in ``prof.device_totals`` (dispatches,
  GPU milliseconds of the passes read back when the profile stopped, passes timed); ``device_time_total``
  of every event is 0 and the table has no device columns.
- ``profile_memory``, ``with_flops``, ``with_modules`` and ``with_stack`` are accepted and ignored (no
  memory, FLOP, module or stack columns; the memory and FLOP attributes of events are 0, ``group_by_stack_n``
  groups nothing); ``use_kineto`` and ``experimental_config`` are ignored; there is no ``export_stacks`` or
  ``export_memory_timeline``.
- A profile started while another one records raises ``RuntimeError`` (PyTorch warns and records
  nothing useful). One thread: events of other threads are not recorded.

Example::

    >>> import borch_webgpu as torch
    >>> a = torch.ones(4, 4)
    >>> with torch.autograd.profiler.profile(record_shapes=True) as prof:
    ...     with torch.autograd.profiler.record_function("block"):
    ...         c = torch.mm(a, a)
    ...         d = torch.add(c, a)
    >>> [(e.name, e.cpu_parent.name) for e in prof.function_events if e.cpu_parent is not None
    ...  and e.cpu_parent.name == "block"]
    [('aten::mm', 'block'), ('aten::add', 'block')]
    >>> print(prof.key_averages().table(sort_by="cpu_time_total", row_limit=10))  # doctest: +SKIP
"""
from __future__ import annotations

import contextlib
import functools
import threading
import time
import warnings
from typing import Callable

from ..device import webgpu as _webgpu
from ..tensor import Tensor
from ._profiler_names import event_name
from .profiler_util import EventList, FunctionEvent, FunctionEventAvg

__all__ = ["profile", "record_function", "EventList", "FunctionEvent", "FunctionEventAvg", "event_name",
           "register_instrument"]

# ---- the recording state: the one global that the wrappers check ------------------------------------
_active: "_Recorder | None" = None
# install(make) -> restore(): each replaces its public names by make(name, fn) while a profile runs;
# registered by the layers above (``_bind.py``: Tensor and torch.*, ``profiler``: torch.nn.functional)
_INSTALLERS: list[Callable] = []
_installed: list[Callable] | None = None
_owner: object = None    # the profile whose wrappers are installed


def register_instrument(install: Callable) -> None:
    """Register ``install(make) -> restore``: called when a profile starts, it replaces each public function
    ``fn`` named ``name`` by ``make(name, fn)``; ``restore()`` puts the originals back. The layers above ops
    register theirs at import (``_bind.py``: Tensor and ``torch.*``; ``torch.profiler``: ``nn.functional``).

    Example::

        >>> import types
        >>> import borch_webgpu as torch
        >>> from borch_webgpu.autograd import profiler
        >>> ns = types.SimpleNamespace(double=lambda x: x * 2)
        >>> def install(make):
        ...     original = ns.double
        ...     ns.double = make("double", original)
        ...     return lambda: setattr(ns, "double", original)
        >>> profiler.register_instrument(install)
        >>> with profiler.profile() as prof:
        ...     y = ns.double(torch.ones(2))
        >>> [e.name for e in prof.function_events]
        ['aten::ones', 'aten::double', 'aten::mul']
        >>> profiler._INSTALLERS.remove(install)
    """
    _INSTALLERS.append(install)


def _dispatches() -> int:
    rt = _webgpu._runtime
    return rt.dispatches if rt is not None else 0


def _shapes(args, kwargs) -> list:
    out = []
    for a in (*args, *kwargs.values()):
        out.append(list(a.shape) if isinstance(a, Tensor) else [])
    return out


class _Recorder:
    def __init__(self, record_shapes: bool):
        self.record_shapes = record_shapes
        self.events: list[FunctionEvent] = []
        self.stack: list[tuple[FunctionEvent, int]] = []
        self.thread = threading.get_ident()

    def begin(self, name: str, args=(), kwargs=None, user: bool = False) -> FunctionEvent | None:
        if threading.get_ident() != self.thread:
            return None
        shapes = _shapes(args, kwargs or {}) if self.record_shapes else []
        evt = FunctionEvent(len(self.events), name, self.thread, 0.0, input_shapes=shapes, is_user_annotation=user)
        if self.stack:
            evt.cpu_parent = self.stack[-1][0]
            evt.cpu_parent.cpu_children.append(evt)
        self.events.append(evt)
        self.stack.append((evt, _dispatches()))
        evt.start_us = time.perf_counter_ns() / 1000.0
        return evt

    def begin_node(self, name: str) -> FunctionEvent | None:
        """A backward node's two ranges, as PyTorch names them: ``autograd::engine::evaluate_function: <name>``
        and inside it ``<name>`` (its formula's ops are children of the inner one); returns the outer."""
        outer = self.begin(f"autograd::engine::evaluate_function: {name}")
        if outer is not None:
            self.begin(name)
        return outer

    def end(self, evt: FunctionEvent | None) -> None:
        if evt is None or not any(top is evt for top, _ in self.stack):
            return   # not begun on this thread, or already ended with a range it was inside
        now = time.perf_counter_ns() / 1000.0
        while self.stack:   # ranges left open inside evt (an exception skipped their exit) end with it
            top, d0 = self.stack.pop()
            top.end_us = now
            top.device_dispatches = _dispatches() - d0
            if top is evt:
                break

    def close(self) -> None:
        while self.stack:
            self.end(self.stack[-1][0])


_WRAPPERS: dict = {}   # (name, fn) -> its wrapper, made once: installing a profile is then only setattr


def _recorded(name: str, fn: Callable) -> Callable:
    """``fn`` wrapped to record an event while a profile records (``fn`` itself for names that are not ops)."""
    key = (name, fn)
    try:
        w = _WRAPPERS.get(key)
    except TypeError:            # an unhashable callable: wrapped afresh each time
        return _make_recorded(name, fn)
    if w is None:
        w = _WRAPPERS[key] = _make_recorded(name, fn)
    return w


def _make_recorded(name: str, fn: Callable) -> Callable:
    evt_name = event_name(name)
    if evt_name is None:
        return fn

    @functools.wraps(fn)
    def recorded(*args, **kwargs):
        rec = _active
        if rec is None:
            return fn(*args, **kwargs)
        evt = rec.begin(evt_name, args, kwargs)
        try:
            return fn(*args, **kwargs)
        finally:
            rec.end(evt)
    recorded.__wrapped_by_profiler__ = True
    return recorded


def _install() -> None:
    global _installed
    if _installed is None:
        restores = []
        try:
            for install in _INSTALLERS:
                restores.append(install(_recorded))
        except BaseException:
            for r in reversed(restores):
                r()
            raise
        _installed = restores


def _uninstall() -> None:
    global _installed
    if _installed is not None:
        for restore in reversed(_installed):
            restore()
        _installed = None


class _DeviceTiming:
    """The WebGPU totals over one recording: dispatches, and GPU time where the adapter has timestamp-query."""

    def __init__(self, timed: bool):
        rt = _webgpu._runtime
        self.rt = rt
        self.d0 = _dispatches()
        self.timed = bool(timed and rt is not None and "timestamp-query" in rt.features)
        self.was_on = False
        if self.timed:
            g = rt.gpu_time()
            self.was_on = bool(g["enabled"])
            self.ms0, self.passes0 = float(g["ms"]), int(g["passes"])
            rt.enable_timing(True)

    def totals(self) -> dict:
        rt = self.rt
        out = {"device": "webgpu" if rt is not None else None, "dispatches": _dispatches() - self.d0,
               "gpu_time_ms": None, "timed_passes": None}
        if self.timed:
            rt.flush()
            with contextlib.suppress(Exception):   # a page that cannot block still gets the counts
                rt.check_kernel_errors("profiler stop", sync=False)
            g = rt.gpu_time()
            out["gpu_time_ms"], out["timed_passes"] = float(g["ms"]) - self.ms0, int(g["passes"]) - self.passes0
            if not self.was_on:
                rt.enable_timing(False)
        return out


class profile:
    """Record the ops run inside the block (PyTorch's ``torch.autograd.profiler.profile``).

    Args:
        enabled: False makes it a no-op.
        use_cuda: also time the device (here WebGPU, where the adapter has ``timestamp-query``): totals in
            ``device_totals``; there is no per-op GPU time.
        record_shapes: record each op's input shapes (``[]`` for non-tensor arguments).
        profile_memory, with_flops, with_stack, with_modules: accepted and ignored.
        use_device: ``"cuda"`` or ``"webgpu"``: as ``use_cuda=True``.

    Example::

        >>> import borch_webgpu as torch
        >>> x = torch.ones(8, 8)
        >>> with torch.autograd.profiler.profile() as prof:
        ...     y = (x @ x).relu()
        >>> [e.name for e in prof.function_events if e.cpu_parent is None]   # top level; children inside
        ['aten::matmul', 'aten::relu']
        >>> prof.self_cpu_time_total > 0
        True
    """

    def __init__(self, enabled: bool = True, *, use_cuda: bool = False, use_device: str | None = None,
                 record_shapes: bool = False, with_flops: bool = False, profile_memory: bool = False,
                 with_stack: bool = False, with_modules: bool = False, use_kineto: bool = False,
                 use_cpu: bool = True, experimental_config=None, acc_events: bool = False,
                 custom_trace_id_callback=None):
        if use_cuda:
            warnings.warn("The attribute `use_cuda` will be deprecated soon, please use ``use_device = 'cuda'`` "
                          "instead.", FutureWarning, stacklevel=2)
            use_device = "cuda"
        if use_device not in (None, "cuda", "webgpu"):
            raise AssertionError(f"{use_device} is not a valid device. Use 'cuda' or 'webgpu' (the same here).")
        if use_device is not None and not _webgpu.available():
            warnings.warn("CUDA is not available, disabling CUDA profiling", stacklevel=2)
            use_device = None
        self.enabled = enabled
        self.use_device = use_device
        self.record_shapes = record_shapes
        self.profile_memory, self.with_flops, self.with_stack, self.with_modules = \
            profile_memory, with_flops, with_stack, with_modules
        self.entered = False
        self.function_events: EventList | None = None
        self.device_totals: dict | None = None
        self._recorder: _Recorder | None = None
        self._timing: _DeviceTiming | None = None

    # prepare / start / stop are the three phases torch.profiler.profile's schedule drives
    def _prepare(self) -> None:
        global _owner
        if _owner is not None and _owner is not self:
            raise RuntimeError("Profiler is already enabled on this thread: one profile records at a time")
        _install()
        _owner = self

    def _start(self) -> None:
        global _active
        self._prepare()
        self._timing = _DeviceTiming(self.use_device is not None)
        self._recorder = _Recorder(self.record_shapes)
        _active = self._recorder

    def _stop(self) -> None:
        global _active
        rec = self._recorder
        if rec is not None:
            rec.close()
            _active = None
            self._recorder = None
            self.function_events = EventList(rec.events, use_device=self.use_device)
            self.device_totals = self._timing.totals()
        self._release()

    def _release(self) -> None:
        global _owner
        if _owner is self:
            _uninstall()
            _owner = None

    def __enter__(self) -> "profile":
        if not self.enabled:
            return self
        if self.entered:
            raise RuntimeError("Profiler context manager is not reentrant")
        self.entered = True
        self._start()
        return self

    def __exit__(self, exc_type, exc_val, exc_tb) -> bool:
        if self.enabled:
            self._stop()
        return False

    def _check_finish(self) -> None:
        if self.function_events is None:
            raise RuntimeError("Profiler didn't finish running")

    def key_averages(self, group_by_input_shape: bool = False, group_by_stack_n: int = 0,
                     group_by_overload_name: bool = False) -> EventList:
        """One ``FunctionEventAvg`` per event name (and per input shapes with ``group_by_input_shape``)."""
        self._check_finish()
        return self.function_events.key_averages(group_by_input_shape, group_by_stack_n)

    def table(self, sort_by: str | None = None, row_limit: int = 100, max_src_column_width: int = 75,
              max_name_column_width: int = 55, max_shapes_column_width: int = 80, header: str | None = None,
              top_level_events_only: bool = False) -> str:
        """The table of every event (not averaged; PyTorch prints ``key_averages().table(...)`` usually)."""
        self._check_finish()
        return self.function_events.table(sort_by=sort_by, row_limit=row_limit,
                                          max_name_column_width=max_name_column_width,
                                          max_shapes_column_width=max_shapes_column_width, header=header,
                                          top_level_events_only=top_level_events_only)

    def export_chrome_trace(self, path: str) -> None:
        """Write a Chrome trace (JSON trace event format) of the events to ``path``."""
        self._check_finish()
        self.function_events.export_chrome_trace(path)

    def total_average(self) -> FunctionEventAvg:
        self._check_finish()
        return self.function_events.total_average()

    @property
    def self_cpu_time_total(self) -> float:
        """Total self CPU time of all events, in microseconds."""
        self._check_finish()
        return self.function_events.self_cpu_time_total

    def __str__(self) -> str:
        self._check_finish()
        return str(self.function_events)


class record_function(contextlib.ContextDecorator):
    """A named range: while a profile records, the block (or each call of a decorated function) is one
    event named ``name`` whose children are the ops inside it. Does nothing when no profile records.

    Example::

        >>> import borch_webgpu as torch
        >>> @torch.profiler.record_function("my_step")
        ... def step(x):
        ...     return x * 2
        >>> with torch.profiler.profile() as prof:
        ...     with torch.profiler.record_function("outer"):
        ...         y = step(torch.ones(2))
        >>> [(e.name, e.cpu_parent.name if e.cpu_parent else None) for e in prof.events()]
        [('outer', None), ('aten::ones', 'outer'), ('my_step', 'outer'), ('aten::mul', 'my_step')]
    """

    def __init__(self, name: str, args: str | None = None):
        self.name = name
        self.args = args
        self._events: list = []

    def __enter__(self) -> "record_function":
        rec = _active
        self._events.append((rec, rec.begin(self.name, user=True) if rec is not None else None))
        return self

    def __exit__(self, exc_type, exc_val, exc_tb) -> bool:
        rec, evt = self._events.pop()
        if rec is not None and rec is _active:
            rec.end(evt)
        return False
