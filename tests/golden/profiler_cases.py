"""Programs profiled by both PyTorch (generate_profiler.py) and borch_webgpu (replay_profiler.py).

Each function takes the ``torch`` module (real PyTorch or borch_webgpu) and a device name and returns what
is compared: event names and call counts (never times), table header lines, schedule actions, which
``ProfilerStep#N`` events each trace handed to ``on_trace_ready`` holds.
"""
from __future__ import annotations

import re
import warnings

# (kwargs of torch.profiler.schedule, steps run)
SCHEDULES = [
    (dict(wait=1, warmup=1, active=2), 10),
    (dict(wait=1, warmup=1, active=2, repeat=2), 12),
    (dict(wait=0, warmup=1, active=1, repeat=3), 8),
    (dict(wait=2, warmup=0, active=3, repeat=1), 8),
    (dict(skip_first=2, wait=1, warmup=1, active=1, repeat=2), 10),
    (dict(skip_first=3, skip_first_wait=1, wait=2, warmup=1, active=2, repeat=2), 14),
    (dict(wait=0, warmup=0, active=1), 4),
]
BAD_SCHEDULES = [dict(wait=0, warmup=0, active=0), dict(wait=-1, warmup=1, active=1), dict(wait=0, warmup=1, active=1, repeat=-2)]

# operators whose PyTorch event is one aten op (x[i] is not: select, slice or index by the index's kind)
DUNDERS = {
    "__add__": "f + f", "__radd__": "1 + f", "__iadd__": "g.__iadd__(f)", "__sub__": "f - f",
    "__rsub__": "1 - f", "__isub__": "g.__isub__(f)", "__mul__": "f * f", "__rmul__": "2 * f",
    "__imul__": "g.__imul__(f)", "__truediv__": "f / f", "__itruediv__": "g.__itruediv__(f)",
    "__floordiv__": "f // f", "__rfloordiv__": "1 // f", "__mod__": "f % f", "__rmod__": "1 % f",
    "__pow__": "f ** f", "__rpow__": "2 ** f", "__ipow__": "g.__ipow__(1)", "__matmul__": "m @ m",
    "__rmatmul__": "m.__rmatmul__(m)", "__neg__": "-f", "__abs__": "abs(f)", "__pos__": "+f", "__eq__": "f == f",
    "__ne__": "f != f", "__lt__": "f < f", "__le__": "f <= f", "__gt__": "f > f", "__ge__": "f >= f",
    "__and__": "a & a", "__rand__": "1 & a", "__or__": "a | a", "__ror__": "1 | a", "__xor__": "a ^ a",
    "__rxor__": "1 ^ a", "__invert__": "~a", "__lshift__": "a << a", "__rshift__": "a >> a",
    "__rlshift__": "1 << a", "__rrshift__": "1 >> a",
}


def _top(events) -> list[str]:
    return [e.name for e in events if e.cpu_parent is None]


def _children(events, parent: str) -> list[list]:
    """[name, calls] of the events directly inside the range ``parent``, in first-seen order."""
    counts: dict[str, int] = {}
    for e in events:
        if e.cpu_parent is not None and e.cpu_parent.name == parent:
            counts[e.name] = counts.get(e.name, 0) + 1
    return [[k, v] for k, v in counts.items()]


def block_program(torch, dev: str) -> dict:
    """3 matmuls and 2 adds inside record_function("block"), with and without recorded shapes."""
    a = torch.ones(4, 4, device=dev)
    b = torch.ones(4, 4, device=dev)
    out = {}
    for shapes in (False, True):
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU], record_shapes=shapes) as prof:
            with torch.profiler.record_function("block"):
                c = torch.mm(a, b)
                c = torch.mm(c, b)
                c = torch.mm(c, b)
                d = torch.add(c, a)
                d = torch.add(d, a)
        avg = prof.key_averages(group_by_input_shape=shapes)
        table = avg.table(sort_by="cpu_time_total", row_limit=10)
        lines = table.splitlines()
        out["shapes" if shapes else "plain"] = {
            "header": [h for h in re.split(r"\s{2,}", lines[1]) if h],
            # widths follow the names: the name column is the longest key + 4 (at most 55), the shapes column
            # the longest shape list + 4 (at most 80), the others 12, two spaces after each, names right-aligned
            "header_line": re.sub(r"\s+Input Shapes\s*$", "  Input Shapes  ", lines[1].lstrip()),
            "name_width_rule": len(lines[0].split(" ")[0]) == min(max(len(e.key) for e in avg) + 4, 55),
            "shapes_width_rule": not shapes or len(lines[0].split(" ")[-3]) == min(max(len(str(e.input_shapes)) for e in avg) + 4, 80),
            "dash_lines": [lines[0] == lines[2] == lines[-2], set(lines[0]) == {"-", " "}, len(lines[0]) == len(lines[1])],
            "first_row": [lines[3].startswith(" "), lines[3].split()[0], lines[3].split()[-1 - shapes]],
            "footer_prefix": lines[-1].split(":")[0],
            "top": _top(prof.events()), "block_children": _children(prof.events(), "block"),
            "mm_shapes": [e.input_shapes for e in prof.events() if e.name == "aten::mm"],
        }
    return out


def model_program(torch, dev: str) -> dict:
    """A small nn.Sequential forward inside record_function("model"): the layers' top events."""
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3), torch.nn.ReLU(), torch.nn.Flatten(), torch.nn.Linear(8, 3)).to(dev)
    x = torch.ones(1, 1, 4, 4, device=dev)
    with torch.profiler.profile() as prof:
        with torch.profiler.record_function("model"):
            y = torch.nn.functional.softmax(m(x), dim=1)
    return {"model_children": _children(prof.events(), "model")}


def legacy_program(torch, dev: str) -> dict:
    """torch.autograd.profiler.profile / record_function and the decorator form."""
    x = torch.ones(3, 3, device=dev)

    @torch.autograd.profiler.record_function("decorated")
    def f(t):
        return torch.relu(t) * 2

    with torch.autograd.profiler.profile() as prof:
        with torch.autograd.profiler.record_function("outer"):
            f(x)
            f(x)
    ev = prof.function_events
    return {"legacy_top": _top(ev), "outer_children": _children(ev, "outer"),
            "decorated_children": _children(ev, "decorated"),
            "averages": [[e.key, e.count] for e in prof.key_averages()]}


def backward_program(torch, dev: str) -> dict:
    """backward(): each node is ``autograd::engine::evaluate_function: <Node>`` holding ``<Node>``."""
    a = torch.ones(3, 3, device=dev, requires_grad=True)
    y = (a @ a).relu().sum()
    with torch.profiler.profile() as prof:
        y.backward()
    ranges = [e for e in prof.events() if e.name.startswith("autograd::engine::evaluate_function: ")]
    return {"ranges": [e.name for e in ranges], "parents": [e.cpu_parent is None for e in ranges],
            "first_child": [e.cpu_children[0].name for e in ranges]}


def dunder_program(torch, dev: str) -> dict:
    f = torch.ones(3, device=dev)
    a = torch.ones(3, dtype=torch.int32, device=dev)
    m = torch.ones(3, 3, device=dev)
    out = {}
    for name, expr in DUNDERS.items():
        env = {"f": f, "a": a, "m": m, "g": f.clone()}   # g: a fresh tensor for the in-place operators
        with torch.profiler.profile() as prof:
            eval(expr, {}, env)
        out[name] = _top(prof.events())
    return out


def schedule_program(torch, dev: str) -> dict:
    """Per schedule: the action of each step, and the traces a stepped profile hands to on_trace_ready."""
    x = torch.ones(2, device=dev)
    out = []
    for kwargs, steps in SCHEDULES:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            sched = torch.profiler.schedule(**kwargs)
        actions = [sched(i).name for i in range(steps)]
        traces = []

        def ready(p):
            ev = p.events()
            traces.append({"step_num": p.step_num, "names": [e.name for e in ev],
                           "parents": [e.cpu_parent.name if e.cpu_parent else None for e in ev],
                           "averages": [[e.key, e.count] for e in p.key_averages()]})
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU], schedule=sched,
                                        on_trace_ready=ready) as prof:
                for _ in range(steps):
                    torch.add(x, x)
                    prof.step()
        out.append({"kwargs": kwargs, "actions": actions, "traces": traces,
                    "warnings": [str(w.message) for w in caught]})
    bad = []
    for kwargs in BAD_SCHEDULES:
        try:
            torch.profiler.schedule(**kwargs)
            bad.append({"kwargs": kwargs, "raises": None})
        except Exception as e:  # noqa: BLE001 - the type is what is compared
            bad.append({"kwargs": kwargs, "raises": type(e).__name__, "message": str(e)})
    return {"schedules": out, "bad_schedules": bad,
            "actions_enum": [a.name for a in torch.profiler.ProfilerAction if a.name != "DEVICE_STOPPED"]}


PROGRAMS = {"block": block_program, "model": model_program, "legacy": legacy_program, "backward": backward_program,
            "dunders": dunder_program,
            "schedules": schedule_program}
