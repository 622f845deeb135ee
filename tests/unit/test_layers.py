"""The package reads bottom to top and only imports downward; Tensor's methods come from the records.

device -> tensor -> autograd -> ops -> nn / ao / optim / utils / serialization / onnx -> vision. Only the
package's ``__init__`` imports ``onnx``. Imports inside
functions count too (a lazy import is still a dependency). A backward formula or a rarely used
path that needs an op from a module above calls it through a Tensor method instead (the methods
are bound from the records by ``_bind.py`` once everything is imported).
"""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import borch_webgpu as torch
from borch_webgpu.ops._registry import APIS
from borch_webgpu.tensor import Tensor

ROOT = Path(__file__).resolve().parents[2]
PKG = ROOT / "borch_webgpu"


def _modules() -> dict[str, Path]:
    mods = {}
    for p in PKG.rglob("*.py"):
        rel = p.relative_to(ROOT).with_suffix("")
        name = ".".join(rel.parts)
        mods[name[:-len(".__init__")] if name.endswith(".__init__") else name] = p
    return mods


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The package modules ``name`` imports anywhere in its file (top level or inside functions)."""
    pkg = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")[: len(pkg.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                out.add(sub if sub in MODULES else target)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m for m in out if m in MODULES and m != name}


EDGES = {m: _imports(m, p) for m, p in MODULES.items()}


def _cycles() -> list[list[str]]:
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in EDGES[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
    for v in sorted(EDGES):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycles():
    assert _cycles() == []


def _in(m: str, *prefixes: str) -> bool:
    return any(m == f"borch_webgpu.{p}" or m.startswith(f"borch_webgpu.{p}.") for p in prefixes)


# what each layer may import besides itself
ALLOWED = {
    "device": ("device",),
    "tensor": ("_dtype", "device"),
    "autograd": ("autograd", "tensor", "_dtype", "device", "ops._registry"),
    "ops": ("ops", "autograd", "tensor", "_dtype", "device"),
}


def test_imports_go_downward():
    bad = []
    for layer, allowed in ALLOWED.items():
        for m, deps in EDGES.items():
            if _in(m, layer):
                bad += [f"{m} imports {d}" for d in sorted(deps) if not _in(d, layer, *allowed)]
    for m, deps in EDGES.items():
        if _in(m, "nn", "ao", "optim", "utils", "serialization"):
            bad += [f"{m} imports {d}" for d in sorted(deps) if _in(d, "vision", "_compile", "_bench_resnet")]
        if _in(m, "onnx"):   # the exporter sits at the nn level: it traces what nn and ops compute
            bad += [f"{m} imports {d}" for d in sorted(deps) if _in(d, "vision", "models", "_compile", "_bench_resnet")]
        elif m != "borch_webgpu":   # nothing but the package's __init__ builds on the exporter
            bad += [f"{m} imports {d}" for d in sorted(deps) if _in(d, "onnx")]
        if not _in(m, "models"):   # the catalog sits above vision: only the hub may build on it
            bad += [f"{m} imports {d}" for d in sorted(deps) if _in(d, "models") and not _in(m, "hub")]
        if not _in(m, "hub"):      # the hub is the top: nothing in the package builds on it
            bad += [f"{m} imports {d}" for d in sorted(deps) if _in(d, "hub")]
    assert not bad, "\n".join(bad)


def _all_imports(path: Path) -> set[str]:
    """Every dotted name a file imports, inside the package or not (absolute names for relative imports)."""
    name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    pkg = name[:-len(".__init__")] if name.endswith(".__init__") else name.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = pkg.split(".")[: len(pkg.split(".")) - (node.level - 1)] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            out.update(f"{target}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_the_catalog_never_imports_a_hub():
    """borch_webgpu.models knows architectures, not where weights come from: neither it nor anything it
    imports (transitively, imports inside functions included) names a hub module: ours,
    torch.hub, huggingface_hub."""
    seen, queue = set(), [m for m in MODULES if _in(m, "models")]
    assert queue, "borch_webgpu.models has no modules"
    while queue:
        m = queue.pop()
        if m not in seen:
            seen.add(m)
            queue += EDGES[m]
    bad = sorted(f"{m} imports {name}" for m in seen for name in _all_imports(MODULES[m])
                 if any("hub" in part for part in name.split(".")))
    assert not bad, "\n".join(bad)
    assert not any("hub" in part for m in seen for part in m.split("."))


def _assigns_on_tensor(tree: ast.AST) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "setattr" and node.args and \
                getattr(node.args[0], "id", None) == "Tensor":
            lines.append(node.lineno)
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            lines += [node.lineno for t in targets
                      if isinstance(t, ast.Attribute) and getattr(t.value, "id", None) == "Tensor"]
    return lines


def test_only_bind_adds_tensor_methods():
    bad = [f"{p.relative_to(ROOT)}:{n}" for m, p in MODULES.items() if m != "borch_webgpu._bind"
           for n in _assigns_on_tensor(ast.parse(p.read_text()))]
    assert not bad, f"Tensor members are declared as api(...) records, bound by _bind.py: {bad}"


def test_every_record_is_bound():
    for name, rec in APIS.items():
        if rec.tensor:
            assert name in vars(Tensor), f"Tensor.{name}"
            if rec.inplace:
                assert name + "_" in vars(Tensor), f"Tensor.{name}_"
        if rec.torch and name != "log":  # torch.log is _log.log_dispatch: math on tensors, a logged value else
            fn = getattr(torch, name)   # or the numpy-keyword wrapper over it (_bind._numpy_keywords)
            assert (fn.__wrapped__ if getattr(fn, "numpy_keywords", False) else fn) is rec.fn, f"torch.{name}"


def test_inplace_variant_writes_self_and_names_itself():
    x = torch.tensor([1.0, -2.0])
    assert x.abs_() is x and x.tolist() == [1.0, 2.0]
    assert Tensor.clip_.__name__ == "clip_" and Tensor.add_.__qualname__ == "Tensor.add_"
    leaf = torch.ones(2, requires_grad=True)
    try:
        leaf.mul_(2)
    except RuntimeError as e:
        assert "mul_" in str(e) or "leaf Variable" in str(e)
    else:
        raise AssertionError("an in-place op on a leaf that requires grad must raise")


def test_stubs_are_up_to_date():
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_stubs.py"), "--check"], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    stub = (PKG / "tensor.pyi").read_text()
    for name in ("def add(", "def add_(", "def sum(", "def view(", "def backward(", "def __repr__(", "def to("):
        assert name in stub
