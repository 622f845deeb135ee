"""``torch.profiler``: ``profile`` with activities, ``schedule`` and ``on_trace_ready``, ``record_function``.

The recording itself is ``torch.autograd.profiler``'s (see there): while a profile records, each op called
through a public name (``torch.*``, Tensor methods and operators, ``torch.nn.functional``) is an event named
as PyTorch names it (``aten::mm``, ``aten::conv2d``, ``aten::relu``), with CPU wall time, input shapes
(``record_shapes=True``), parent/children, call counts, and on WebGPU the compute dispatches it recorded
(``event.device_dispatches``). ``prof.key_averages(group_by_input_shape=...)``, ``.table(sort_by=...,
row_limit=...)`` (PyTorch's layout), ``prof.events()`` and ``prof.export_chrome_trace(path)`` (JSON trace
events for chrome://tracing or Perfetto) work as in PyTorch.

``schedule(wait=, warmup=, active=, repeat=, skip_first=, skip_first_wait=)`` and ``prof.step()`` follow
PyTorch 2.13's state machine: the same ``ProfilerAction`` per step, recording only in the RECORD steps,
``on_trace_ready(prof)`` at the end of each active span (and at exit while recording), a
``ProfilerStep#N`` event per recorded step (checked against torch in tests/golden/profiler.json).

How it differs from PyTorch (beyond what ``torch.autograd.profiler`` lists):

- ``ProfilerActivity`` has ``CPU`` and ``CUDA`` like PyTorch's, and ``WEBGPU``; ``CUDA`` means the
  WebGPU device here (as ``device="cuda"`` does). With a device activity, GPU time is measured with
  ``timestamp-query`` where the adapter has it, for whole compute passes only: ``prof.device_totals``
  gives the dispatches, the GPU milliseconds of the passes read back when recording stopped, and the passes
  timed; there is no per-op GPU time and the table has no device columns. Dispatch counts per event are
  recorded on WebGPU whatever the activities. ``supported_activities()`` is ``{CPU}`` without WebGPU.
- ``tensorboard_trace_handler`` writes the Chrome trace JSON (``<worker>.<ms>.pt.trace.json``, gzip with
  ``use_gzip=True``), which TensorBoard's profiler plugin and Perfetto read; ``use_python_export`` is ignored.
- ``with_stack``, ``with_flops``, ``with_modules``, ``profile_memory`` are accepted and ignored;
  ``execution_trace_observer``, ``experimental_config`` and ``acc_events`` too.

Example::

    >>> import borch_webgpu as torch
    >>> from borch_webgpu.profiler import profile, record_function, ProfilerActivity
    >>> a = torch.ones(4, 4)
    >>> with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
    ...     with record_function("block"):
    ...         c = torch.mm(a, a)
    ...         c = c + a
    >>> [(e.name, e.input_shapes) for e in prof.events() if e.cpu_parent and e.cpu_parent.name == "block"]
    [('aten::mm', [[4, 4], [4, 4]]), ('aten::add', [[4, 4], [4, 4]])]
    >>> print(prof.key_averages().table(sort_by="cpu_time_total", row_limit=10))  # doctest: +SKIP
"""
from __future__ import annotations

import gzip
import json
import os
import socket
import time
import warnings
from enum import Enum
from functools import partial
from typing import Callable, Iterable

from .. import nn as _nn
from ..autograd import profiler as _ap
from ..autograd.profiler import record_function
from ..autograd.profiler_util import EventList, chrome_trace
from ..device import webgpu as _webgpu

__all__ = ["profile", "record_function", "ProfilerActivity", "ProfilerAction", "schedule",
           "tensorboard_trace_handler", "supported_activities"]


def _patch_functional(F, make):
    """The profiler's wrappers on ``torch.nn.functional`` (its own function objects: ``F.relu`` is not
    ``torch.relu``), installed while a profile runs."""
    saved = []
    for name in F.__all__:
        fn = getattr(F, name, None)
        if callable(fn) and not isinstance(fn, type):
            new = make(name, fn)
            if new is not fn:
                saved.append((name, fn))
                setattr(F, name, new)

    def restore():
        for name, fn in reversed(saved):
            setattr(F, name, fn)
        saved.clear()
    return restore


_ap.register_instrument(lambda make: _patch_functional(_nn.functional, make))


class ProfilerActivity(Enum):
    """What a profile records: ``CPU`` (the op events), ``CUDA`` / ``WEBGPU`` (the WebGPU device's totals;
    ``CUDA`` means WebGPU here).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.profiler.ProfilerActivity.CPU in torch.profiler.supported_activities()
        True
    """
    CPU = 0
    CUDA = 2
    WEBGPU = 100


class ProfilerAction(Enum):
    """What the profiler does at a step (PyTorch's values): returned by a ``schedule``.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.profiler.schedule(wait=1, warmup=1, active=1)(0)
        <ProfilerAction.NONE: 0>
    """
    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def supported_activities() -> set:
    """``{CPU}``, plus ``CUDA`` and ``WEBGPU`` when a WebGPU device is available.

    Example::

        >>> import borch_webgpu as torch
        >>> sorted(a.name for a in torch.profiler.supported_activities())[0]
        'CPU'
    """
    acts = {ProfilerActivity.CPU}
    if _webgpu.available():
        acts |= {ProfilerActivity.CUDA, ProfilerActivity.WEBGPU}
    return acts


def schedule(*, wait: int, warmup: int, active: int, repeat: int = 0, skip_first: int = 0,
             skip_first_wait: int = 0) -> Callable:
    """PyTorch's profiler schedule: skip ``skip_first`` steps, then cycles of ``wait`` steps (NONE),
    ``warmup`` (WARMUP) and ``active`` (RECORD, the last one RECORD_AND_SAVE), ``repeat`` cycles (0: forever);
    ``skip_first_wait`` skips the first cycle's wait.

    Example::

        >>> import borch_webgpu as torch
        >>> s = torch.profiler.schedule(wait=1, warmup=1, active=2, repeat=1)
        >>> [s(i).name for i in range(5)]
        ['NONE', 'WARMUP', 'RECORD', 'RECORD_AND_SAVE', 'NONE']
    """
    def schedule_fn(step: int) -> ProfilerAction:
        if step < 0:
            raise AssertionError(f"Step must be non-negative. Got {step}.")
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        if skip_first_wait != 0:
            step += wait
        num_steps = wait + warmup + active
        if repeat > 0 and step / num_steps >= repeat:
            return ProfilerAction.NONE
        mod_step = step % num_steps
        if mod_step < wait:
            return ProfilerAction.NONE
        if mod_step < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if mod_step < num_steps - 1 else ProfilerAction.RECORD_AND_SAVE

    if wait < 0 or warmup < 0 or active <= 0 or repeat < 0 or skip_first < 0:
        raise AssertionError(
            f"Invalid profiler schedule arguments. Got wait={wait} (need >= 0), warmup={warmup} (need >= 0), "
            f"active={active} (need > 0), repeat={repeat} (need >= 0), skip_first={skip_first} (need >= 0).")
    if warmup == 0:
        warnings.warn("Profiler won't be using warmup, this can skew profiler results", stacklevel=2)
    return schedule_fn


def _default_schedule_fn(_: int) -> ProfilerAction:
    return ProfilerAction.RECORD


def tensorboard_trace_handler(dir_name: str, worker_name: str | None = None, use_gzip: bool = False,
                              use_python_export: bool = False) -> Callable:
    """An ``on_trace_ready`` that writes each trace to ``dir_name`` as
    ``{worker_name}.{time in ms}.pt.trace.json[.gz]`` (Chrome trace JSON).

    Example::

        >>> import borch_webgpu as torch, tempfile, os
        >>> d = tempfile.mkdtemp()
        >>> with torch.profiler.profile(on_trace_ready=torch.profiler.tensorboard_trace_handler(d)) as p:
        ...     y = torch.ones(2) + 1
        >>> [f.endswith(".pt.trace.json") for f in os.listdir(d)]
        [True]
    """
    def handler_fn(prof) -> None:
        os.makedirs(dir_name, exist_ok=True)
        worker = worker_name or f"{socket.gethostname()}_{os.getpid()}"
        name = f"{worker}.{time.time_ns() // 1_000_000}.pt.trace.json" + (".gz" if use_gzip else "")
        path = os.path.join(dir_name, name)
        data = json.dumps(chrome_trace(prof.events(), path)).encode()
        with (gzip.open(path, "wb") if use_gzip else open(path, "wb")) as f:
            f.write(data)
    return handler_fn


class profile:
    """Profile the block, optionally over steps with a ``schedule`` (PyTorch's ``torch.profiler.profile``).

    Args:
        activities: ``ProfilerActivity`` values (default: ``supported_activities()``); ``CUDA``/``WEBGPU``
            add the WebGPU totals (``device_totals``).
        schedule: ``step -> ProfilerAction``; without it every step records.
        on_trace_ready: called with the profiler at the end of each active span.
        record_shapes: record input shapes. ``profile_memory``, ``with_stack``, ``with_flops``,
            ``with_modules``: accepted and ignored.

    Example::

        >>> import borch_webgpu as torch
        >>> seen = []
        >>> sched = torch.profiler.schedule(wait=1, warmup=1, active=2, repeat=1)
        >>> with torch.profiler.profile(schedule=sched, on_trace_ready=lambda p: seen.append(p.step_num)) as p:
        ...     for _ in range(6):
        ...         y = torch.ones(2) * 2
        ...         p.step()
        >>> seen
        [4]
    """

    def __init__(self, *, activities: Iterable[ProfilerActivity] | None = None, schedule: Callable | None = None,
                 on_trace_ready: Callable | None = None, record_shapes: bool = False, profile_memory: bool = False,
                 with_stack: bool = False, with_flops: bool = False, with_modules: bool = False,
                 experimental_config=None, execution_trace_observer=None, acc_events: bool = False,
                 use_cuda: bool | None = None, custom_trace_id_callback=None, post_processing_timeout_s=None):
        acts = set(activities) if activities is not None else supported_activities()
        if use_cuda is not None:
            warnings.warn("`use_cuda` is deprecated, use `activities` argument instead", FutureWarning,
                          stacklevel=2)
            if use_cuda:
                acts.add(ProfilerActivity.CUDA)
            else:
                acts.discard(ProfilerActivity.CUDA)
        if len(acts) == 0:
            raise AssertionError("No valid profiler activities found")
        self.activities = acts
        self.record_shapes, self.profile_memory = record_shapes, profile_memory
        self.with_stack, self.with_flops, self.with_modules = with_stack, with_flops, with_modules
        self.on_trace_ready = on_trace_ready
        self.schedule = schedule if schedule else _default_schedule_fn
        self.record_steps = bool(schedule)
        self.step_num = 0
        self.current_action = self.schedule(self.step_num)
        self.profiler: _ap.profile | None = None
        self.step_rec_fn: record_function | None = None
        self._last: _ap.profile | None = None
        device = ProfilerActivity.CUDA in acts or ProfilerActivity.WEBGPU in acts
        self.use_device = "webgpu" if device and _webgpu.available() else None
        A = ProfilerAction
        warn_none = partial(warnings.warn, "Incorrect schedule: WARMUP followed by NONE")
        self.action_map = {
            (A.NONE, A.NONE): [],
            (A.NONE, A.WARMUP): [self.prepare_trace],
            (A.NONE, A.RECORD): [self.prepare_trace, self.start_trace],
            (A.NONE, A.RECORD_AND_SAVE): [self.prepare_trace, self.start_trace],
            (A.WARMUP, A.NONE): [warn_none, self.start_trace, self.stop_trace],
            (A.WARMUP, A.WARMUP): [],
            (A.WARMUP, A.RECORD): [self.start_trace],
            (A.WARMUP, A.RECORD_AND_SAVE): [self.start_trace],
            (A.RECORD, A.NONE): [partial(warnings.warn, "Incorrect schedule: RECORD followed by NONE"),
                                 self.stop_trace],
            (A.RECORD, A.WARMUP): [partial(warnings.warn, "Incorrect schedule: RECORD followed by WARMUP"),
                                   self.stop_trace],
            (A.RECORD, A.RECORD): [],
            (A.RECORD, A.RECORD_AND_SAVE): [],
            (A.RECORD_AND_SAVE, A.NONE): [self.stop_trace, self._trace_ready],
            (A.RECORD_AND_SAVE, A.WARMUP): [self.stop_trace, self._trace_ready, self.prepare_trace],
            (A.RECORD_AND_SAVE, A.RECORD): [self.stop_trace, self._trace_ready, self.prepare_trace,
                                            self.start_trace],
            (A.RECORD_AND_SAVE, A.RECORD_AND_SAVE): [self.stop_trace, self._trace_ready, self.prepare_trace,
                                                     self.start_trace],
            (A.WARMUP, None): [self.start_trace, self.stop_trace],
            (A.RECORD, None): [self.stop_trace, self._trace_ready],
            (A.RECORD_AND_SAVE, None): [self.stop_trace, self._trace_ready],
        }

    # ---- the phases -------------------------------------------------------------------------------
    def prepare_trace(self) -> None:
        if self.profiler is None:
            self.profiler = _ap.profile(use_device=self.use_device, record_shapes=self.record_shapes)
        self.profiler._prepare()

    def start_trace(self) -> None:
        if self.profiler is None:
            self.prepare_trace()
        self.profiler._start()

    def stop_trace(self) -> None:
        if self.profiler is not None:
            self.profiler._stop()
            self._last = self.profiler
            self.profiler = None

    def _trace_ready(self) -> None:
        if self.on_trace_ready:
            self.on_trace_ready(self)

    def _transit_action(self, prev_action, current_action) -> None:
        for action in self.action_map.get((prev_action, current_action), []):
            action()

    # ---- the public interface -----------------------------------------------------------------------
    def __enter__(self) -> "profile":
        self.start()
        return self

    def __exit__(self, exc_type, exc_val, exc_tb) -> bool:
        self.stop()
        return False

    def start(self) -> None:
        """Begin profiling (the ``with`` block calls it)."""
        self._transit_action(ProfilerAction.NONE, self.current_action)
        if self.record_steps:
            self.step_rec_fn = record_function("ProfilerStep#" + str(self.step_num))
            self.step_rec_fn.__enter__()

    def stop(self) -> None:
        """End profiling (the ``with`` block calls it)."""
        if self.record_steps and self.step_rec_fn:
            self.step_rec_fn.__exit__(None, None, None)
            self.step_rec_fn = None
        self._transit_action(self.current_action, None)

    def step(self) -> None:
        """Signal that the next step starts: the schedule decides what the profiler does now."""
        if self.record_steps and self.step_rec_fn:
            self.step_rec_fn.__exit__(None, None, None)
            self.step_rec_fn = None
        prev_action = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        self._transit_action(prev_action, self.current_action)
        if self.record_steps:
            self.step_rec_fn = record_function("ProfilerStep#" + str(self.step_num))
            self.step_rec_fn.__enter__()

    def _result(self) -> _ap.profile:
        prof = self._last
        if prof is None or prof.function_events is None:
            raise AssertionError("Profiler must be initialized before accessing events")
        return prof

    def events(self) -> EventList:
        """The events of the last finished recording (``FunctionEvent`` in start order)."""
        return self._result().function_events

    def key_averages(self, group_by_input_shape: bool = False, group_by_stack_n: int = 0,
                     group_by_overload_name: bool = False) -> EventList:
        """Events averaged by name (and by input shapes with ``group_by_input_shape=True``)."""
        return self._result().key_averages(group_by_input_shape, group_by_stack_n)

    def export_chrome_trace(self, path: str) -> None:
        """Write the last recording as a Chrome trace (``.json``, or gzip when ``path`` ends in ``.gz``)."""
        data = json.dumps(chrome_trace(self.events(), path)).encode()
        with (gzip.open(path, "wb") if path.endswith(".gz") else open(path, "wb")) as f:
            f.write(data)

    @property
    def device_totals(self) -> dict | None:
        """WebGPU totals of the last recording: ``device``, ``dispatches``, ``gpu_time_ms`` and ``timed_passes``
        (None without a device activity or without ``timestamp-query``)."""
        return self._result().device_totals
