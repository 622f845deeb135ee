"""torch.profiler and torch.autograd.profiler on the cpu device: the golden replay (names, counts, table
layout and schedules against PyTorch 2.13, tests/golden/profiler.json), and what the golden cannot see:
nothing is wrapped outside a profile, times and dispatches add up over the nesting, the table's sorting and
row limit, the Chrome trace, the trace handler, errors."""
from __future__ import annotations

import gzip
import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import borch_webgpu as torch
import borch_webgpu.nn.functional as F
from borch_webgpu.autograd import profiler as ap
from borch_webgpu.device import webgpu as _webgpu
from borch_webgpu.profiler import ProfilerAction, ProfilerActivity, profile, record_function, schedule
from borch_webgpu.tensor import Tensor

ROOT = Path(__file__).resolve().parents[2]


def test_golden_replay_on_cpu():
    r = subprocess.run([sys.executable, str(ROOT / "tests" / "golden" / "replay_profiler.py"), "--device", "cpu"],
                       capture_output=True, text=True, timeout=300)
    last = [line for line in r.stdout.splitlines() if line.startswith("profiler:")]
    assert r.returncode == 0 and last and " 0 failed" in last[-1], r.stdout[-4000:] + r.stderr[-4000:]
    assert int(last[-1].split()[1]) >= 40


def _originals():
    return (vars(Tensor)["__add__"], vars(Tensor)["mm"], vars(Tensor)["item"], vars(Tensor)["T"], torch.mm, torch.add,
            F.relu, F.conv2d, F.linear)


def test_nothing_is_wrapped_outside_a_profile():
    before = _originals()
    assert ap._active is None and ap._installed is None
    with profile():
        during = _originals()
        assert all(getattr(getattr(d, "fget", d), "__wrapped_by_profiler__", False) for d in during)
        assert all(d is not b for d, b in zip(during, before))
    assert _originals() == before and ap._active is None and ap._installed is None
    with pytest.raises(ValueError):
        with profile():
            raise ValueError("inside")
    assert _originals() == before and ap._installed is None


def test_nesting_self_time_and_counts():
    a = torch.ones(8, 8)
    with profile(record_shapes=True) as prof:
        with record_function("outer"):
            with record_function("inner"):
                y = torch.mm(a, a)
            y = F.linear(y, a)           # F.linear calls Tensor methods: ops inside an op are its children
    ev = prof.events()
    outer = next(e for e in ev if e.name == "outer")
    inner = next(e for e in ev if e.name == "inner")
    linear = next(e for e in ev if e.name == "aten::linear")
    assert outer.cpu_parent is None and inner.cpu_parent is outer and linear.cpu_parent is outer
    assert [c.name for c in outer.cpu_children] == ["inner", "aten::linear"]
    assert linear.cpu_children and all(c.cpu_parent is linear for c in linear.cpu_children)
    for e in ev:
        assert e.end_us >= e.start_us
        assert e.self_cpu_time_total == pytest.approx(e.cpu_time_total - sum(c.cpu_time_total for c in e.cpu_children))
        for c in e.cpu_children:
            assert e.start_us <= c.start_us and c.end_us <= e.end_us
    assert prof.key_averages().self_cpu_time_total == pytest.approx(outer.cpu_time_total)
    assert [e.input_shapes for e in ev if e.name == "aten::mm"] == [[[8, 8], [8, 8]]]
    assert all(e.device_dispatches == 0 for e in ev)   # the cpu device dispatches nothing


def test_key_averages_group_by_input_shape():
    x2, x3 = torch.ones(2, 2), torch.ones(3, 3)
    with profile(record_shapes=True) as prof:
        for x in (x2, x3, x3):
            torch.mm(x, x)
    plain = {e.key: e.count for e in prof.key_averages()}
    grouped = {(e.key, str(e.input_shapes)): e.count for e in prof.key_averages(group_by_input_shape=True)}
    assert plain["aten::mm"] == 3
    assert grouped[("aten::mm", "[[2, 2], [2, 2]]")] == 1 and grouped[("aten::mm", "[[3, 3], [3, 3]]")] == 2
    avg = next(e for e in prof.key_averages() if e.key == "aten::mm")
    assert avg.cpu_time == pytest.approx(avg.cpu_time_total / 3)


def test_table_sorting_row_limit_and_footer():
    a = torch.ones(16, 16)
    with profile() as prof:
        for _ in range(3):
            torch.mm(a, a)
        torch.relu(a)
    avg = prof.key_averages()
    lines = avg.table(sort_by="cpu_time_total", row_limit=2).splitlines()
    assert len(lines) == 3 + 2 + 2   # dashes, header, dashes, 2 rows, dashes, footer
    totals = sorted((e.cpu_time_total for e in avg), reverse=True)
    shown = [ln.split()[0] for ln in lines[3:5]]
    assert shown == [next(e.key for e in avg if e.cpu_time_total == t) for t in totals[:2]]
    assert lines[-1].startswith("Self CPU time total: ")
    by_count = avg.table(sort_by="count").splitlines()[3]
    assert by_count.split()[-1] == str(max(e.count for e in avg))
    assert "Input Shapes" not in lines[1]
    long = "x" * 70
    with profile() as prof:
        with record_function(long):
            pass
    row = prof.key_averages().table().splitlines()[3]
    assert row.split()[0] == long[:52] + "..."


def test_chrome_trace_is_json_with_trace_events(tmp_path):
    a = torch.ones(4, 4)
    with profile(record_shapes=True) as prof:
        with record_function("block"):
            torch.mm(a, a)
    path = tmp_path / "trace.json"
    prof.export_chrome_trace(str(path))
    doc = json.loads(path.read_text())
    ops = [e for e in doc["traceEvents"] if e["ph"] == "X"]
    assert {e["name"] for e in ops} >= {"block", "aten::mm"}
    for e in ops:
        assert isinstance(e["ts"], float) and e["dur"] >= 0 and "pid" in e and "tid" in e
    mm = next(e for e in ops if e["name"] == "aten::mm")
    assert mm["args"]["Input Dims"] == [[4, 4], [4, 4]] and mm["args"]["WebGPU dispatches"] == 0
    gz = tmp_path / "trace.json.gz"
    prof.export_chrome_trace(str(gz))
    assert json.loads(gzip.decompress(gz.read_bytes()))["traceEvents"]


def test_tensorboard_trace_handler_and_step_names(tmp_path):
    sched = schedule(wait=0, warmup=1, active=2, repeat=1)
    with profile(schedule=sched, on_trace_ready=torch.profiler.tensorboard_trace_handler(str(tmp_path), "w0")) as p:
        for _ in range(4):
            torch.ones(2) + 1
            p.step()
    files = list(tmp_path.iterdir())
    assert len(files) == 1 and files[0].name.startswith("w0.") and files[0].name.endswith(".pt.trace.json")
    names = [e["name"] for e in json.loads(files[0].read_text())["traceEvents"] if e["ph"] == "X"]
    assert "ProfilerStep#1" in names and "ProfilerStep#2" in names and "ProfilerStep#0" not in names
    assert [e.key for e in p.key_averages()][0] == "ProfilerStep*"


def test_record_function_outside_a_profile_and_as_decorator():
    @record_function("deco")
    def f(x):
        return x * 3
    assert f(torch.ones(1)).tolist() == [3.0]     # no profile: nothing recorded, nothing fails
    with record_function("nothing"):
        pass
    with profile() as prof:
        f(torch.ones(1))
        f(torch.ones(1))
    assert [(e.key, e.count) for e in prof.key_averages() if e.key == "deco"] == [("deco", 2)]
    assert all(e.is_user_annotation for e in prof.events() if e.name == "deco")


def test_dispatch_counts_follow_the_runtime_counter(monkeypatch):
    class FakeRuntime:
        dispatches = 0
        features: set = set()

    rt = FakeRuntime()
    monkeypatch.setattr(_webgpu, "_runtime", rt)
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        with record_function("outer"):
            rt.dispatches += 2
            with record_function("inner"):
                rt.dispatches += 3
    outer, inner = prof.events()
    assert (outer.device_dispatches, outer.self_device_dispatches) == (5, 2)
    assert (inner.device_dispatches, inner.self_device_dispatches) == (3, 3)
    assert prof.device_totals["dispatches"] == 5 and prof.device_totals["gpu_time_ms"] is None
    avg = {e.key: e for e in prof.key_averages()}
    assert avg["outer"].self_device_dispatches == 2


def test_errors_and_accepted_options():
    with profile():
        with pytest.raises(RuntimeError, match="already enabled"):
            with ap.profile():
                pass
    assert ap._installed is None
    with pytest.raises(AssertionError, match="Profiler must be initialized"):
        profile().events()
    with pytest.raises(AssertionError, match="No valid profiler activities found"):
        profile(activities=[])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with ap.profile(use_cuda=True, with_stack=True, profile_memory=True) as prof:
            torch.ones(1)
    msgs = [str(w.message) for w in caught]
    assert any("use_cuda" in m for m in msgs) and "CUDA is not available, disabling CUDA profiling" in msgs
    assert [e.name for e in prof.function_events] == ["aten::ones"]
    assert schedule(wait=1, warmup=1, active=1)(2) is ProfilerAction.RECORD_AND_SAVE
    assert ProfilerActivity.CPU in torch.profiler.supported_activities()
    assert torch.autograd.profiler.record_function is torch.profiler.record_function


def test_an_exception_inside_ranges_leaves_consistent_events():
    a = torch.ones(2, 2, requires_grad=True)
    with profile() as prof:
        with record_function("outer"):
            with pytest.raises(RuntimeError):
                torch.mm(a, torch.ones(3, 3))     # shapes do not match: the op raises inside its event
            torch.add(a, a)
    ev = prof.events()
    outer = ev[0]
    assert outer.name == "outer" and [c.name for c in outer.cpu_children] == ["aten::ones", "aten::mm", "aten::add"]
    assert all(e.end_us >= e.start_us > 0 for e in ev)


def test_sorting_by_memory_and_device_keys_runs_with_zeros():
    """profile_memory is accepted and ignored: the tutorials' sort keys run, every value is 0."""
    with profile(profile_memory=True) as prof:
        torch.ones(3).sum()
    avg = prof.key_averages()
    for key in ("self_cpu_memory_usage", "cpu_memory_usage", "self_cuda_time_total", "cuda_time_total"):
        assert avg.table(sort_by=key, row_limit=2).splitlines()[1].split()[0] == "Name"
    assert all(e.self_cpu_memory_usage == 0 and e.self_device_time_total == 0 for e in avg)
