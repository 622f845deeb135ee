"""Replay fx.json (PyTorch 2.13's torch.fx answers, tests/golden/generate_fx.py) on borch_webgpu:
``python replay_fx.py [--device cpu|webgpu] [case ...]`` (every case when none are named); in the
browser through the runner with ``--mount tests/golden``. For each case the root gets PyTorch's
weights (load_state_dict, strict), is traced, and the generated code, str(graph), print_readable(),
print_tabular(), the nodes, ShapeProp's shapes and the outputs of the GraphModule, of fx.Interpreter
and of the root are compared with PyTorch's; then the transformations of the fx tutorials, the
errors and concrete_args. Prints one line per mismatch and ``fx: N passed, N failed``.

One spelling differs on purpose: some of PyTorch's nn.functional functions are C functions that live
in ``torch._C._nn`` (``F.gelu``, ``F.linear``, ...), so PyTorch's generated code calls
``torch._C._nn.gelu``; we have no ``torch._C``, ours are Python functions of ``torch.nn.functional``
and the code says so (:data:`SPELLING`, from the table generate_fx_functional.py read from torch).
The values are compared as they are.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

import borch_webgpu as torch  # noqa: E402
import borch_webgpu.fx as fx  # noqa: E402
from borch_webgpu.fx.node import _format_arg  # noqa: E402
from borch_webgpu.fx.passes.shape_prop import ShapeProp  # noqa: E402

import fx_cases  # noqa: E402
import fx_examples  # noqa: E402
from golden_io import decode  # noqa: E402

RTOL, ATOL = 1e-5, 1e-5  # float32 through a few GEMMs / convs in another summation order
def _spelling() -> dict[str, str]:
    from borch_webgpu.fx._dispatch import functional_spelling
    from borch_webgpu.fx._functional_calls import FUNCTIONAL_NAMES
    out = {}
    for name, theirs in FUNCTIONAL_NAMES.items():
        mine = functional_spelling(name, torch)[0]
        if theirs.startswith("torch._C.") and mine != theirs:
            out[theirs] = mine
    return out


SPELLING = _spelling()


def load() -> dict:
    return json.loads((HERE / "fx.json").read_text())


def ours(text: str) -> str:
    return re.sub(r"torch\._C\._nn\.\w+", lambda m: SPELLING.get(m.group(0), m.group(0)), text)


def _flatten(out):
    if isinstance(out, (tuple, list)):
        return [v for o in out for v in _flatten(o)]
    return [out]


def compare_outputs(label: str, got, want: list) -> list[str]:
    got = _flatten(got)
    if len(got) != len(want):
        return [f"{label}: {len(got)} outputs, PyTorch {len(want)}"]
    errs = []
    for i, (g, w) in enumerate(zip(got, want)):
        if "str" in w:
            if str(g) != w["str"]:
                errs.append(f"{label}[{i}]: got {str(g)!r}, PyTorch {w['str']!r}")
            continue
        if "value" in w:
            if g != w["value"]:
                errs.append(f"{label}[{i}]: got {g!r}, PyTorch {w['value']!r}")
            continue
        ref = decode(w)
        a = np.asarray(g.detach().cpu().tolist(), dtype=np.float64).reshape(ref.shape) if ref.ndim else \
            np.asarray(g.item(), dtype=np.float64)
        if list(g.shape) != list(ref.shape):
            errs.append(f"{label}[{i}]: shape {list(g.shape)}, PyTorch {list(ref.shape)}")
        elif not np.allclose(a, ref.astype(np.float64), rtol=RTOL, atol=ATOL):
            errs.append(f"{label}[{i}]: max |diff| {np.abs(a - ref).max():.3g}")
    return errs


def build(name: str, device: str, entry: dict):
    torch.manual_seed(0)
    root, _ = fx_cases.CASES[name](torch)
    if isinstance(root, torch.nn.Module):
        root.load_state_dict({k: torch.from_numpy(decode(v)) for k, v in entry["state"].items()}, strict=True)
        root.to(device)
    xs = [torch.from_numpy(decode(x)).to(device) for x in entry["inputs"]]
    return root, xs


def captured(fn) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        fn()
    return buf.getvalue()


def check_text(label: str, got: str, want: str) -> list[str]:
    if got == ours(want):
        return []
    g, w = got.splitlines(), ours(want).splitlines()
    line = next((i for i, (a, b) in enumerate(zip(g, w)) if a != b), min(len(g), len(w)))
    return [f"{label}: differs at line {line}: got {g[line] if line < len(g) else '<end>'!r}, "
            f"PyTorch {w[line] if line < len(w) else '<end>'!r}"]


def check_described(label: str, gm, root, xs, want: dict) -> list[str]:
    errs = []
    errs += check_text(f"{label} code", gm.code, want["code"])
    errs += check_text(f"{label} str(graph)", str(gm.graph), want["graph"])
    errs += check_text(f"{label} print_readable", gm.print_readable(print_output=False), want["readable"])
    s = str(gm)
    errs += check_text(f"{label} str(gm)", s.split("\n\n\n", 1)[1] if "\n\n\n" in s else s, want["str"])
    nodes = [[n.op, n.name, n._qualname or n._pretty_print_target(n.target), _format_arg(n.args),
              _format_arg(n.kwargs), sorted(u.name for u in n.users)] for n in gm.graph.nodes]
    want_nodes = [[ours(v) if isinstance(v, str) else v for v in n] for n in want["nodes"]]
    if nodes != want_nodes:
        bad = next(i for i, (a, b) in enumerate(zip(nodes + [None] * 99, want_nodes + [None] * 99)) if a != b)
        errs.append(f"{label} nodes: #{bad} got {nodes[bad] if bad < len(nodes) else None}, "
                    f"PyTorch {want_nodes[bad] if bad < len(want_nodes) else None}")
    if "tabular" in want:
        errs += check_text(f"{label} print_tabular", captured(gm.graph.print_tabular), want["tabular"])
    with torch.no_grad():
        errs += compare_outputs(f"{label} GraphModule", gm(*xs), want["outputs"])
        errs += compare_outputs(f"{label} Interpreter", fx.Interpreter(gm).run(*xs), want["interpreter"])
        if root is not None:
            errs += compare_outputs(f"{label} root", root(*xs), want["root_outputs"])
    return errs


def check_case(name: str, gold: dict, device: str) -> list[str]:
    entry = gold["cases"][name]
    root, xs = build(name, device, entry)
    errs = check_described(name, fx.symbolic_trace(root), root, xs, entry)
    gm = fx.symbolic_trace(root)
    ShapeProp(gm).propagate(*xs)
    got = [[n.name, list(n.meta["tensor_meta"].shape), str(n.meta["tensor_meta"].dtype)]
           if "tensor_meta" in n.meta and hasattr(n.meta["tensor_meta"], "shape")
           else [n.name, None, n.meta["type"].__name__ if n.meta.get("type") else None] for n in gm.graph.nodes]
    if got != gold["shape_prop"][name]:
        errs.append(f"{name} ShapeProp: got {got}, PyTorch {gold['shape_prop'][name]}")
    return errs


def check_transform(key: str, gold: dict, device: str) -> list[str]:
    case, tname = key.split(":")
    want = gold["transforms"][key]
    root, xs = build(case, device, gold["cases"][case])
    gm = fx_cases.TRANSFORM_FNS[tname](torch, fx, fx.symbolic_trace(root))
    errs = check_described(key, gm, None, xs, want)
    modules = [n for n, _ in gm.named_modules()]
    if modules != want["modules"]:
        errs.append(f"{key} modules: got {modules}, PyTorch {want['modules']}")
    return errs


def check_error(name: str, gold: dict) -> list[str]:
    want = gold["errors"][name]
    try:
        if name == "erase_used":
            g = fx.symbolic_trace(fx_cases.function(torch)[0])
            g.graph.erase_node(next(n for n in g.graph.nodes if n.op == "placeholder"))
        elif name in fx_cases.RUN_ERRORS:
            fx_cases.RUN_ERRORS[name](torch, fx)
        else:
            fx.symbolic_trace(fx_cases.ERRORS[name](torch))
    except Exception as e:  # noqa: BLE001
        got = [(type(e).__module__ + "." + type(e).__qualname__).replace("borch_webgpu.", "torch."), str(e)]
        return [] if got == want else [f"error {name}: got {got}, PyTorch {want}"]
    return [f"error {name}: nothing raised, PyTorch {want}"]


def check_concrete(gold: dict, device: str) -> list[str]:
    want = gold["concrete"]
    gm = fx.symbolic_trace(fx_cases.concrete_flag(torch), concrete_args={"flag": False})
    errs = check_text("concrete code", gm.code, want["code"]) + check_text("concrete graph", str(gm.graph), want["graph"])
    return errs + compare_outputs("concrete", gm(torch.ones(2, device=device), False), want["outputs"])


def check_rewrite(gold: dict, device: str) -> list[str]:
    want = gold["rewrite"]
    f, pattern, replacement, _ = fx_cases.rewrite(torch)
    gm = fx.symbolic_trace(f)
    matches = fx.replace_pattern(gm, pattern, replacement)
    got = [[m.anchor.name, [[str(k), str(v)] for k, v in m.nodes_map.items()]] for m in matches]
    errs = [] if got == want["matches"] else [f"replace_pattern matches: got {got}, PyTorch {want['matches']}"]
    errs += check_text("replace_pattern code", gm.code, want["code"])
    errs += check_text("replace_pattern graph", str(gm.graph), want["graph"])
    xs = [torch.from_numpy(decode(x)).to(device) for x in want["inputs"]]
    return errs + compare_outputs("replace_pattern", gm(*xs), want["outputs"])


def check_example(name: str, gold: dict, device: str) -> list[str]:
    """pytorch/examples' fx scripts (fx_examples.py): printed text and computed values."""
    want = gold["examples"][name]
    with torch.no_grad():
        got = fx_examples.EXAMPLES[name](torch, fx)
    if len(got) != len(want):
        return [f"example {name}: {len(got)} results, PyTorch {len(want)}"]
    errs = []
    for i, (g, w) in enumerate(zip(got, want)):
        if "text" in w:
            errs += check_text(f"example {name}[{i}]", g, w["text"]) if isinstance(g, str) else \
                [f"example {name}[{i}]: got {type(g).__name__}, PyTorch text"]
        else:
            errs += compare_outputs(f"example {name}[{i}]", g, [w])
    return errs


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--device", default="cpu")
    p.add_argument("cases", nargs="*")
    a = p.parse_args(argv)
    gold = load()
    names = a.cases or list(gold["cases"])
    checks = [(f"case {n}", lambda n=n: check_case(n, gold, a.device)) for n in names]
    checks += [(f"transform {k}", lambda k=k: check_transform(k, gold, a.device))
               for k in gold["transforms"] if k.split(":")[0] in names]
    checks += [(f"error {n}", lambda n=n: check_error(n, gold)) for n in gold["errors"]]
    checks.append(("concrete_args", lambda: check_concrete(gold, a.device)))
    checks.append(("replace_pattern", lambda: check_rewrite(gold, a.device)))
    if a.device == "cpu":  # the examples build their tensors on the default device
        checks += [(f"example {n}", lambda n=n: check_example(n, gold, a.device)) for n in gold["examples"]]
    passed = failed = 0
    for label, check in checks:
        try:
            errs = check()
        except Exception as e:  # noqa: BLE001
            errs = [f"{label}: raised {type(e).__name__}: {e}"]
        for e in errs:
            print("FAIL", e)
        passed, failed = passed + (not errs), failed + bool(errs)
    print(f"fx: {passed} passed, {failed} failed ({a.device})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
