"""Every public name of borch_webgpu, found from the code: start at the package (and borchvision),
follow each module's ``__all__``; a module found there is a namespace of its own. For each name:
its kind, signature, docstring, the PyTorch name it mirrors (checked against
tests/golden/torch_names.json where that namespace is frozen) and, for ops in the registry, the
tolerance against PyTorch and the number of golden cases.

Names are written as a program uses them after ``import borch_webgpu as torch``: ``torch.nn.Conv2d``,
``torch.Tensor.add``, ``torch.vision.models.resnet18``.
"""
from __future__ import annotations

import functools
import gzip
import importlib
import inspect
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
TORCH_NAMES = ROOT / "tests" / "golden" / "torch_names.json"
GOLDEN_CASES = ROOT / "tests" / "golden" / "cases"
ROOTS = ("borch_webgpu", "borch_webgpu.vision")
OWN_PAGE_CLASSES = ("torch.Tensor",)          # classes whose members get a page of their own
SKIP_MEMBERS = ("forward", "extra_repr")     # documented by the class itself
OP_NAMESPACES = ("torch", "torch.nn.functional", "torch.Tensor", "torch.linalg")
DOCS = "https://pytorch.org/docs/stable/"
VISION_DOCS = {"torch.vision.models": "https://pytorch.org/vision/stable/models.html",
               "torch.vision.transforms": "https://pytorch.org/vision/stable/transforms.html",
               "torch.vision.datasets": "https://pytorch.org/vision/stable/datasets.html"}


@dataclass
class Entry:
    qualname: str                 # torch.nn.Conv2d
    name: str                     # Conv2d
    namespace: str                # torch.nn (for class members: the class, torch.nn.Module)
    kind: str                     # function, class, method, property, attribute
    signature: str = ""
    doc: str | None = None        # its own docstring
    doc_from: str | None = None   # a Tensor member without one: the function whose doc applies
    mirrors: str | None = None    # PyTorch's name, when PyTorch has it
    torch_url: str | None = None
    op: dict | None = None        # registry op: name, family, rtol, atol, wgsl, cases
    page: str = ""                # the HTML page (relative to api/) that documents it
    defined_in: str = ""          # the module that defines it
    member_of: str | None = None  # for class members: the class's qualname

    def as_json(self) -> dict:
        d = {k: v for k, v in asdict(self).items() if v not in (None, "") and k != "doc"}
        d["summary"] = summary_of(self)
        return d


def display(modname: str) -> str:
    """borch_webgpu.nn.functional -> torch.nn.functional (what the code calls it after the alias)."""
    return "torch" + modname[len("borch_webgpu"):]


def page_of(namespace: str) -> str:
    return namespace + ".html"


def public_modules() -> dict[str, ModuleType]:
    """display namespace -> module, following ``__all__`` from the roots."""
    found: dict[str, ModuleType] = {}
    queue = [importlib.import_module(r) for r in ROOTS]
    while queue:
        mod = queue.pop(0)
        ns = display(mod.__name__)
        if ns in found:
            continue
        found[ns] = mod
        for name in getattr(mod, "__all__", ()):
            value = getattr(mod, name, None)
            if isinstance(value, ModuleType) and value.__name__.startswith("borch_webgpu"):
                queue.append(value)
    return found


def _ann(a) -> str:
    if a is inspect.Parameter.empty or a is inspect.Signature.empty:
        return ""
    text = a if isinstance(a, str) else getattr(a, "__name__", None) or repr(a)
    return text.replace("borch_webgpu.", "torch.").replace("'", "").replace("\"", "")


def signature(obj, drop_first: bool = False) -> str:
    """``(in_channels: int, ..., bias: bool = True) -> Tensor``; private (``_x``) parameters dropped."""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return "(...)"
    params = list(sig.parameters.values())
    if drop_first and params and params[0].kind in (inspect.Parameter.POSITIONAL_ONLY,
                                                     inspect.Parameter.POSITIONAL_OR_KEYWORD):
        params = params[1:]
    parts: list[str] = []
    star = False
    last_posonly = max((i for i, p in enumerate(params) if p.kind is inspect.Parameter.POSITIONAL_ONLY), default=-1)
    for i, p in enumerate(params):
        if p.name.startswith("_"):
            continue
        if p.kind is inspect.Parameter.VAR_POSITIONAL:
            text, star = "*" + p.name, True
        elif p.kind is inspect.Parameter.VAR_KEYWORD:
            text = "**" + p.name
        else:
            if p.kind is inspect.Parameter.KEYWORD_ONLY and not star:
                parts.append("*")
                star = True
            text = p.name
        ann = _ann(p.annotation)
        if ann:
            text += ": " + ann
        if p.default is not inspect.Parameter.empty:
            text += (" = " if ann else "=") + repr(p.default).replace("borch_webgpu.", "torch.")
        parts.append(text)
        if i == last_posonly:
            parts.append("/")
    ret = _ann(sig.return_annotation)
    return f"({', '.join(parts)})" + (f" -> {ret}" if ret else "")


def _own_doc(obj) -> str | None:
    doc = getattr(obj, "__doc__", None)
    if isinstance(obj, property):
        doc = obj.__doc__ or (obj.fget.__doc__ if obj.fget else None)
    return doc.strip() if isinstance(doc, str) and doc.strip() else None


@functools.lru_cache(maxsize=None)
def torch_names() -> dict:
    if not TORCH_NAMES.exists():
        raise FileNotFoundError(f"{TORCH_NAMES} is missing: run `python tests/golden/generate_torch_names.py` "
                                "with torch 2.13.0")
    return json.loads(TORCH_NAMES.read_text())


@functools.lru_cache(maxsize=None)
def golden_cases(op: str) -> tuple[int, int]:
    """(cases frozen from PyTorch for this op, how many of them draw random numbers)."""
    path = GOLDEN_CASES / f"{op}.json.gz"  # tests/golden/casefile.py's format
    if not path.exists():
        return 0, 0
    cases = json.loads(gzip.decompress(path.read_bytes())).get("cases", ())
    return len(cases), sum(1 for c in cases if str(c.get("id", "")).startswith("random"))


def torch_url(mirror: str, member_of: str | None = None) -> str:
    if member_of:
        return f"{torch_url(member_of)}#{mirror}"
    for prefix, page in (("torch.nn.init.", "nn.init.html"), ("torch.utils.data.", "data.html")):
        if mirror.startswith(prefix):
            return f"{DOCS}{page}#{mirror}"
    return f"{DOCS}generated/{mirror}.html"


def _mirror(entry: Entry) -> None:
    frozen = torch_names()["namespaces"]
    if entry.member_of:
        owner_ns = entry.member_of.rsplit(".", 1)[0]
        owner = frozen.get(owner_ns, {}).get("names", {})
        if entry.member_of in frozen:  # torch.Tensor: its members are frozen
            if entry.name in frozen[entry.member_of]["names"]:
                entry.mirrors = entry.qualname
                entry.torch_url = torch_url(entry.qualname)
        elif entry.member_of.rsplit(".", 1)[1] in owner:
            entry.mirrors = entry.qualname
            entry.torch_url = torch_url(entry.qualname, entry.member_of)
        return
    if entry.name in frozen.get(entry.namespace, {}).get("names", {}):
        entry.mirrors = entry.qualname
        entry.torch_url = torch_url(entry.qualname)


def _op(entry: Entry) -> None:
    from borch_webgpu.ops._registry import REGISTRY
    if entry.namespace not in OP_NAMESPACES or entry.kind == "class":
        return
    name = entry.name
    # torch.linalg's ops are registered under their qualified names ("linalg.inv"); torch.det and
    # Tensor.det show linalg.det's record
    sub = entry.namespace[len("torch."):] + "." if entry.namespace == "torch.linalg" else ""
    op = REGISTRY.get(sub + name) or REGISTRY.get(name) or REGISTRY.get("linalg." + name) or \
        (REGISTRY.get(name[:-1]) if name.endswith("_") else None)
    if op is None:
        return
    rtol, atol = op.tol
    cases, random_cases = golden_cases(op.name)
    entry.op = {"name": op.name, "family": op.family, "rtol": rtol, "atol": atol,
                "wgsl": f"{op.wgsl[0]} / {op.wgsl[1]}" if op.wgsl else None, "cases": cases,
                "random": op.family == "random" or random_cases > 0}


def _kind(value) -> str:
    if inspect.isclass(value):
        return "class"
    return "function" if callable(value) else "attribute"


def _members(cls, qual: str, namespace: str) -> list[Entry]:
    out = []
    page = page_of(qual) if qual in OWN_PAGE_CLASSES else page_of(namespace)
    for name, raw in sorted(vars(cls).items()):
        if name.startswith("_") or name in SKIP_MEMBERS:
            continue
        if isinstance(raw, (staticmethod, classmethod)):
            raw = raw.__func__
        if callable(raw):
            kind, sig = "method", signature(raw, drop_first=True)
        elif isinstance(raw, property) or type(raw).__name__ in ("member_descriptor", "getset_descriptor"):
            kind, sig = "property", ""
        else:
            continue   # class-level constants
        doc = _own_doc(raw)
        slots = getattr(cls, "__slots__", None)
        if doc is None and isinstance(slots, dict) and isinstance(slots.get(name), str):
            doc = slots[name]   # __slots__ as a dict: its values are the slots' docstrings
        out.append(Entry(f"{qual}.{name}", name, qual, kind, sig, doc, page=page,
                         defined_in=getattr(raw, "__module__", "") or cls.__module__, member_of=qual))
    return out


def collect() -> list[Entry]:
    """Every public name, in page order: namespaces sorted, names sorted within each."""
    entries: list[Entry] = []
    for ns, mod in sorted(public_modules().items()):
        for name in sorted(getattr(mod, "__all__", ())):
            value = getattr(mod, name)
            if isinstance(value, ModuleType):
                continue
            kind = _kind(value)
            sig = signature(value) if kind in ("function", "class") else repr(value)
            if kind == "class" and sig.endswith(" -> None"):
                sig = sig[:-len(" -> None")]   # __init__'s
            e = Entry(f"{ns}.{name}", name, ns, kind, sig, _own_doc(value) if kind != "attribute" else None,
                      page=page_of(ns), defined_in=getattr(value, "__module__", "") or "")
            entries.append(e)
            if kind == "class" and value.__module__.startswith("borch_webgpu"):
                entries.extend(_members(value, e.qualname, ns))
    by_name = {e.qualname: e for e in entries}
    for e in entries:
        _mirror(e)
        _op(e)
        if e.member_of == "torch.Tensor" and e.kind == "method" and not e.doc:
            base = e.name[:-1] if e.name.endswith("_") else e.name
            for cand in (f"torch.{base}", f"torch.nn.functional.{base}", f"torch.Tensor.{base}"):
                src = by_name.get(cand)
                if cand != e.qualname and src is not None and src.doc and src.kind in ("function", "method"):
                    e.doc_from = cand
                    if _generic(e.signature):   # a lambda's (*a, **k): show the function's own
                        e.signature = _drop_first(src.signature) if src.kind == "function" else src.signature
                    break
    return entries


def _generic(sig: str) -> bool:
    return sig.split(" -> ")[0] in ("(*a, **k)", "(*args, **kwargs)", "(...)")


def _drop_first(sig: str) -> str:
    """``(input, other, *, alpha=1)`` -> ``(other, *, alpha=1)`` (the tensor becomes ``self``)."""
    head, _, ret = sig.partition(" -> ")
    inner = head[1:-1]
    depth, cut = 0, len(inner)
    for i, ch in enumerate(inner):
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == "," and depth == 0:
            cut = i
            break
    rest = inner[cut + 1:].strip()
    return f"({rest})" + (f" -> {ret}" if ret else "")


def summary_of(e: Entry) -> str:
    from _api_docstring import summary
    if e.doc:
        return summary(e.doc)
    if e.doc_from:
        inplace = e.name.endswith("_") and not e.doc_from.endswith("_")
        return (f"In-place version of {e.doc_from.rsplit('.', 1)[1]}: see " if inplace else "See ") + e.doc_from
    return ""


def undocumented(entries: list[Entry]) -> list[str]:
    """Public functions and classes without a docstring, and Tensor members with neither a docstring
    nor a documented function of the same name (``Tensor.add`` is documented by ``torch.add``)."""
    bad = []
    for e in entries:
        if e.kind in ("function", "class") and not e.doc:
            bad.append(f"{e.qualname} ({e.defined_in})")
        elif e.member_of in OWN_PAGE_CLASSES and not (e.doc or e.doc_from):
            bad.append(f"{e.qualname} ({e.defined_in})")
    return bad


def namespace_docs() -> dict[str, str]:
    """namespace -> the first paragraph of its module docstring."""
    from _api_docstring import summary
    return {ns: summary(mod.__doc__) for ns, mod in public_modules().items()}


__all__ = ["Entry", "collect", "public_modules", "signature", "undocumented", "namespace_docs", "torch_names",
           "VISION_DOCS"]
