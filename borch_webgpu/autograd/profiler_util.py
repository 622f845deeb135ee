"""The events a profile records and their summaries: ``FunctionEvent``, ``FunctionEventAvg``, ``EventList``.

PyTorch's ``torch.autograd.profiler_util``: the same attributes (``name key count input_shapes cpu_parent
cpu_children cpu_time_total self_cpu_time_total cpu_time``, times in microseconds), the same table layout
(``EventList.table``) and a Chrome trace (``export_chrome_trace``: JSON trace events, loadable by
chrome://tracing and Perfetto). Beyond PyTorch, each event carries the WebGPU work it recorded:
``device_dispatches`` (compute dispatches recorded while it ran, its children's included) and
``self_device_dispatches`` (its own).

Example::

    >>> import borch_webgpu as torch
    >>> with torch.autograd.profiler.profile() as prof:
    ...     y = torch.mm(torch.ones(2, 2), torch.ones(2, 2))
    >>> events = prof.function_events            # an EventList of FunctionEvent
    >>> [e.key for e in events.key_averages() if e.cpu_parent is None]
    ['aten::ones', 'aten::mm']
"""
from __future__ import annotations

import json
import os
from collections import OrderedDict

__all__ = ["FunctionEvent", "FunctionEventAvg", "EventList"]


def _format_time(time_us: float) -> str:
    if time_us >= 1e6:
        return f"{time_us / 1e6:.3f}s"
    if time_us >= 1e3:
        return f"{time_us / 1e3:.3f}ms"
    return f"{time_us:.3f}us"


def _format_time_share(time_us: float, total_us: float) -> str:
    if total_us == 0:
        return "NaN"
    return f"{time_us * 100.0 / total_us:.2f}%"


class _Times:
    """The ``*_str`` forms and averages both event kinds share."""
    count: int
    cpu_time_total: float
    self_cpu_time_total: float
    device_time_total = 0.0        # no per-op GPU time: WebGPU times whole compute passes (see profiler)
    self_device_time_total = 0.0
    # memory is not recorded (profile_memory is accepted and ignored): 0, so sort_by="self_cpu_memory_usage" runs
    cpu_memory_usage = self_cpu_memory_usage = device_memory_usage = self_device_memory_usage = 0
    flops = 0
    is_async = False
    node_id = -1
    overload_name = ""
    stack: list = []

    @property
    def cpu_time(self) -> float:
        """Average CPU time per call, in microseconds."""
        return self.cpu_time_total / max(self.count, 1)

    @property
    def device_time(self) -> float:
        return 0.0

    @property
    def self_cpu_time_total_str(self) -> str:
        return _format_time(self.self_cpu_time_total)

    @property
    def cpu_time_total_str(self) -> str:
        return _format_time(self.cpu_time_total)

    @property
    def cpu_time_str(self) -> str:
        return _format_time(self.cpu_time)


class FunctionEvent(_Times):
    """One recorded call: an op (``aten::mm``), a ``record_function`` range, or a ``ProfilerStep#N``.

    Times are microseconds of CPU wall time (``time.perf_counter_ns``). ``device_dispatches`` counts the
    WebGPU compute dispatches recorded between its start and end (0 on the ``cpu`` device).

    Example::

        >>> import borch_webgpu as torch
        >>> with torch.autograd.profiler.profile() as prof:
        ...     with torch.autograd.profiler.record_function("outer"):
        ...         y = torch.ones(3).relu()
        >>> outer = prof.function_events[0]
        >>> outer.name, [c.name for c in outer.cpu_children]
        ('outer', ['aten::ones', 'aten::relu'])
    """

    def __init__(self, id: int, name: str, thread: int, start_us: float, end_us: float = 0.0,  # noqa: A002
                 input_shapes=None, is_user_annotation: bool = False):
        self.id = id
        self.trace_name = name
        # as PyTorch: the step ranges of torch.profiler.profile are one key, "ProfilerStep*" (the trace keeps #N)
        self.name = self.key = "ProfilerStep*" if name.startswith("ProfilerStep#") else name
        self.thread = thread
        self.start_us, self.end_us = start_us, end_us
        self.input_shapes = input_shapes if input_shapes is not None else []
        self.cpu_children: list[FunctionEvent] = []
        self.cpu_parent: FunctionEvent | None = None
        self.count = 1
        self.is_user_annotation = is_user_annotation
        self.device_dispatches = 0
        self.device_type = "CPU"

    @property
    def cpu_time_total(self) -> float:
        return self.end_us - self.start_us

    @property
    def self_cpu_time_total(self) -> float:
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    @property
    def self_device_dispatches(self) -> int:
        return self.device_dispatches - sum(c.device_dispatches for c in self.cpu_children)

    @property
    def time_range(self) -> tuple[float, float]:
        return (self.start_us, self.end_us)

    def __repr__(self) -> str:
        return (f"<FunctionEvent id={self.id} name={self.name} cpu_time={self.cpu_time_str} "
                f"start_us={self.start_us:.3f} end_us={self.end_us:.3f} "
                f"cpu_children={[c.id for c in self.cpu_children]} input_shapes={self.input_shapes} "
                f"device_dispatches={self.device_dispatches}>")


class FunctionEventAvg(_Times):
    """The events of one key (and one input shape list with ``group_by_input_shape=True``), added up.

    Example::

        >>> import borch_webgpu as torch
        >>> x = torch.ones(2, 2)
        >>> with torch.autograd.profiler.profile() as prof:
        ...     y = x + x
        ...     y = y + x
        >>> avg = prof.key_averages()[0]
        >>> avg.key, avg.count
        ('aten::add', 2)
    """

    def __init__(self):
        self.key = None
        self.count = 0
        self.cpu_time_total = 0.0
        self.self_cpu_time_total = 0.0
        self.input_shapes = None
        self.device_dispatches = 0
        self.self_device_dispatches = 0
        self.cpu_parent = None
        self.is_user_annotation = False
        self.use_device = None

    def add(self, other) -> "FunctionEventAvg":
        if self.key is None:
            self.key, self.input_shapes = other.key, other.input_shapes
            self.is_user_annotation = other.is_user_annotation
            self.cpu_parent = other.cpu_parent
        elif other.key != self.key:
            raise AssertionError(f"Expected keys to match, got {self.key} vs {other.key}")
        self.count += other.count
        self.cpu_time_total += other.cpu_time_total
        self.self_cpu_time_total += other.self_cpu_time_total
        self.device_dispatches += other.device_dispatches
        self.self_device_dispatches += other.self_device_dispatches
        return self

    __iadd__ = add

    def __repr__(self) -> str:
        return (f"<FunctionEventAvg key={self.key} self_cpu_time={self.self_cpu_time_total_str} "
                f"cpu_time={self.cpu_time_str} count={self.count} input_shapes={self.input_shapes} "
                f"device_dispatches={self.device_dispatches}>")


class EventList(list):
    """A list of events with PyTorch's summaries: ``key_averages``, ``table``, ``export_chrome_trace``.

    Example::

        >>> import borch_webgpu as torch
        >>> with torch.autograd.profiler.profile() as prof:
        ...     y = torch.ones(4).sum()
        >>> print(prof.function_events.table(sort_by="cpu_time_total", row_limit=5))  # doctest: +SKIP
    """

    def __init__(self, *args, use_device=None, profile_memory=False, with_flops=False):
        super().__init__(*args)
        self._use_device = use_device

    @property
    def self_cpu_time_total(self) -> float:
        return sum(e.self_cpu_time_total for e in self)

    def key_averages(self, group_by_input_shapes: bool = False, group_by_stack_n: int = 0,
                     group_by_overload_name: bool = False) -> "EventList":
        """One ``FunctionEventAvg`` per name (and per input shapes when asked), in first-seen order."""
        stats: OrderedDict = OrderedDict()
        for evt in self:
            key = (evt.key, str(evt.input_shapes)) if group_by_input_shapes else evt.key
            if key not in stats:
                stats[key] = FunctionEventAvg()
                stats[key].use_device = self._use_device
            stats[key].add(evt)
        return EventList(stats.values(), use_device=self._use_device)

    def total_average(self) -> FunctionEventAvg:
        total = FunctionEventAvg()
        for evt in self:
            total.count += evt.count
            total.cpu_time_total += evt.cpu_time_total
            total.self_cpu_time_total += evt.self_cpu_time_total
            total.device_dispatches += evt.device_dispatches
        total.key = "Total"
        return total

    def table(self, sort_by: str | None = None, row_limit: int = 100, max_src_column_width: int = 75,
              max_name_column_width: int = 55, max_shapes_column_width: int = 80, header: str | None = None,
              top_level_events_only: bool = False, time_unit: str | None = None) -> str:
        """PyTorch's table: Name, Self CPU %, Self CPU, CPU total %, CPU total, CPU time avg, # of Calls
        (and Input Shapes when recorded), sorted by ``sort_by`` (an attribute: ``cpu_time_total``,
        ``self_cpu_time_total``, ``count`` ...), at most ``row_limit`` rows, then the CPU total."""
        return _build_table(self, sort_by=sort_by, header=header, row_limit=row_limit,
                            max_name_column_width=max_name_column_width,
                            max_shapes_column_width=max_shapes_column_width,
                            top_level_events_only=top_level_events_only, time_unit=time_unit)

    def export_chrome_trace(self, path: str) -> None:
        """Write the events as a Chrome trace (JSON, ``{"traceEvents": [...]}``, complete "X" events with
        microsecond ``ts``/``dur``); open it in chrome://tracing or https://ui.perfetto.dev."""
        with open(path, "w") as f:
            json.dump(chrome_trace(self, path), f)


def chrome_trace(events, name: str = "") -> dict:
    pid = os.getpid()
    out = [{"ph": "M", "name": "process_name", "ts": 0, "pid": pid, "tid": 0, "args": {"name": "python"}}]
    for e in events:
        args = {"WebGPU dispatches": e.device_dispatches}
        if e.input_shapes:
            args["Input Dims"] = e.input_shapes
        out.append({"ph": "X", "cat": "user_annotation" if e.is_user_annotation else "cpu_op", "name": e.trace_name,
                    "pid": pid, "tid": e.thread, "ts": e.start_us, "dur": e.cpu_time_total, "args": args})
    return {"schemaVersion": 1, "deviceProperties": [], "displayTimeUnit": "ms", "traceEvents": out,
            "traceName": name}


def _override(time_us: float, default: str, unit: str | None) -> str:
    if unit == "s":
        return f"{time_us / 1e6:.3f}s"
    if unit == "ms":
        return f"{time_us / 1e3:.3f}ms"
    if unit == "us":
        return f"{time_us:.3f}us"
    return default


def _build_table(events, sort_by=None, header=None, row_limit=100, max_name_column_width=55,
                 max_shapes_column_width=80, top_level_events_only=False, time_unit=None) -> str:
    """PyTorch 2.13's ``_build_table`` for CPU events (its widths, spacing, percentages and footer)."""
    if len(events) == 0:
        return ""
    has_input_shapes = any(e.input_shapes is not None and len(e.input_shapes) > 0 for e in events)
    if sort_by is not None:
        key = sort_by.replace("cuda", "device").replace("xpu", "device").replace("privateuse1", "device")
        events = sorted(events, key=lambda e: getattr(e, key), reverse=True)
    name_w = max(len(e.key) for e in events) + 4
    if max_name_column_width is not None:
        name_w = min(name_w, max_name_column_width)
    shapes_w = max(len(str(e.input_shapes)) for e in events) + 4
    if max_shapes_column_width is not None:
        shapes_w = min(shapes_w, max_shapes_column_width)
    headers = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg", "# of Calls"]
    widths = [name_w] + [12] * (len(headers) - 1)
    if has_input_shapes:
        headers.append("Input Shapes")
        widths.append(shapes_w)
    row_format = "".join("{: >" + str(w) + "}  " for w in widths)
    header_sep = "".join("-" * w + "  " for w in widths)
    line_length = sum(w + 2 for w in widths) - 2
    total = sum(e.self_cpu_time_total for e in events)
    result = []

    def append(s):
        result.append(s)
        result.append("\n")

    if header is not None:
        append("=" * line_length)
        append(header)
    if top_level_events_only:
        append("=" * line_length)
        append("This report only display top-level ops statistics")
    append(header_sep)
    append(row_format.format(*headers))
    append(header_sep)
    shown = 0
    for e in events:
        if shown == row_limit:
            break
        if top_level_events_only and e.cpu_parent is not None:
            continue
        shown += 1
        name = e.key
        if max_name_column_width is not None and len(name) >= max_name_column_width - 3:
            name = name[:max_name_column_width - 3] + "..."
        row = [name, _format_time_share(e.self_cpu_time_total, total),
               _override(e.self_cpu_time_total, e.self_cpu_time_total_str, time_unit),
               _format_time_share(e.cpu_time_total, total),
               _override(e.cpu_time_total, e.cpu_time_total_str, time_unit),
               _override(e.cpu_time, e.cpu_time_str, time_unit), e.count]
        if has_input_shapes:
            row.append(str(e.input_shapes)[:shapes_w])
        append(row_format.format(*row))
    append(header_sep)
    append(f"Self CPU time total: {_override(total, _format_time(total), time_unit)}")
    return "".join(result)
