"""The playground's side of the Python worker: run once per worker (a cell in the namespace
"playground"), before any user code.

Every ``borch_webgpu.log(name, value)`` goes to the page (which plots it). A *step* is the interval
between two consecutive log() calls of the first series a run logs; at each of those calls the page
also gets a snapshot of the device's counters (under the reserved name ``STATS``), from which the
instruments panel computes dispatches, GPU time and wall time per step.
"""
import json

import js

import borch_webgpu
from borch_webgpu import _log, webgpu

STATS = "\x00stats"   # reserved series name: its values are JSON snapshots, never plotted


class _Run:
    first = None       # the name of the first series logged in this run


def snapshot() -> dict:
    if not webgpu.is_available():
        return {"gpu": False}
    s = webgpu.stats()
    # dispatches the GPU was given (eager and replayed from a torch.compile'd graph), not only those
    # Python recorded one by one
    return {"gpu": True, "dispatches": s["dispatches"], "flushes": s["flushes"],
            "pipelines": s["pipelines"], "memory": webgpu.memory_allocated(),
            "peak": webgpu.max_memory_allocated(), "gpu_ms": webgpu.gpu_time_ms()}


def begin_run() -> None:
    """Called before each run: steps count from 0 again, the peak memory restarts, GPU timing is on."""
    _log.clear()
    _Run.first = None
    if webgpu.is_available():
        webgpu.enable_gpu_timing(True)
        webgpu.reset_peak_memory_stats()
    js.borchLogSink(STATS, -1, json.dumps(snapshot()))


def _sink(name: str, step: int, value: float) -> None:
    js.borchLogSink(name, step, value)
    if _Run.first is None:
        _Run.first = name
    if name == _Run.first:
        js.borchLogSink(STATS, step, json.dumps(snapshot()))


borch_webgpu.set_log_sink(_sink)
