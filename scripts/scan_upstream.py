"""Which ``torch.*`` names do PyTorch's own examples and beginner tutorials use?

    PYTHONPATH= /tmp/torchenv/bin/python scripts/scan_upstream.py \\
        --source pytorch/examples=/tmp/upstream/examples --source pytorch/tutorials=/tmp/upstream/tutorials \\
        [--commits pytorch/examples=FILE.json ...] [--min-files 2] --out scripts/site/upstream_names.json

Each ``--source REPO=DIR`` is a folder of ``.py`` files laid out as in the repository (the
files themselves are not part of this repository; ``--commits`` JSON files map ``REPO``'s paths to
the commit each file's text was taken from, recorded in the output). A file may be an excerpt that keeps
only its import lines and the attribute chains on the names they bind (all that is counted below): it
counts the same as the whole text. Run it under a real PyTorch: torch itself decides which part of a name
is a module.

What counts as a use, file by file:

* the import lines bind names: ``import torch``, ``import torch.nn as nn``, ``from torch import nn,
  optim``, ``from torch.nn import functional as F``, ``import torch.optim as O`` (any alias);
  ``from torch.utils.data import DataLoader`` is itself a use of ``torch.utils.data.DataLoader``;
* every attribute chain on a bound name (``torch.cuda.is_available``, ``F.relu``,
  ``nn.init.xavier_normal_``, ``cudnn.benchmark``) is resolved to its full dotted name and cut
  after the first attribute past the last module: ``torch.Tensor.view`` counts as
  ``torch.Tensor``, ``torch.autograd.profiler.record_function.__enter__`` as
  ``torch.autograd.profiler.record_function``; a chain that names only a module counts nothing;
* comments and string literals (docstrings, sphinx-gallery text) are dropped first;
* names with a private part (``torch.onnx._export``) are left out;
* ``Tensor`` methods called on values (``x.view(...)``, ``loss.backward()``) are not counted: which
  class a variable holds is not known without running the code, so only names reached through the
  torch module and its aliases are attributed;
* names PyTorch does not resolve (``torch.classes.<a compiled library's class>``) are listed apart.

A name is kept when at least ``--min-files`` files use it. Names of distributed training
(``torch.distributed.*``, ``torch.nn.parallel.DistributedDataParallel``,
``torch.utils.data.distributed.*``) are kept apart, as out of scope.
"""
from __future__ import annotations

import argparse
import datetime
import importlib
import json
import re
import sys
import types
from collections import defaultdict
from pathlib import Path

OUT_OF_SCOPE = ("torch.distributed", "torch.nn.parallel.DistributedDataParallel", "torch.utils.data.distributed")
_TRIPLE = re.compile(r'(?s)[rRbBuUfF]{0,2}("""|\'\'\').*?\1')
_STRING = re.compile(r'[rRbBuUfF]{0,2}("(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\')')
_COMMENT = re.compile(r"#[^\n]*")
_FROM = re.compile(r"^[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n]+)", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([^\n]+)", re.M)


def clean(text: str) -> str:
    """The code without comments and string literals (their lines stay, emptied)."""
    text = _TRIPLE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    text = _STRING.sub('""', text)
    return _COMMENT.sub("", text)


def _lookup(dotted: str):
    """The object a dotted torch name names (submodules imported as needed); raises if none."""
    parts = dotted.split(".")
    obj = importlib.import_module(parts[0])
    for i in range(1, len(parts)):
        nxt = getattr(obj, parts[i], None)
        obj = importlib.import_module(".".join(parts[: i + 1])) if nxt is None else nxt
    return obj


def is_module(dotted: str) -> bool:
    try:
        return isinstance(_lookup(dotted), types.ModuleType)
    except Exception:
        return False


def name_of(chain: str) -> tuple[str | None, bool]:
    """(the counted name, whether torch resolves it) for a full dotted chain; (None, True) when the
    chain names only a module."""
    parts = chain.split(".")
    for i in range(1, len(parts)):
        prefix = ".".join(parts[: i + 1])
        try:
            obj = _lookup(prefix)
        except Exception:
            return prefix, False
        if not isinstance(obj, types.ModuleType):
            return prefix, True
    return None, True


def bindings(code: str) -> tuple[dict[str, str], set[str]]:
    """Names bound to torch things by the import lines, and the names the imports themselves use."""
    bound: dict[str, str] = {}
    used: set[str] = set()
    for m in _IMPORT.finditer(code):
        for item in m.group(1).split(","):
            words = item.split()
            if not words or not (words[0] == "torch" or words[0].startswith("torch.")):
                continue
            if len(words) == 3 and words[1] == "as":
                bound[words[2]] = words[0]
            else:
                bound["torch"] = "torch"
    for m in _FROM.finditer(code):
        module = m.group(1)
        if not (module == "torch" or module.startswith("torch.")):
            continue
        for item in m.group(2).strip("()").replace("\n", " ").split(","):
            words = item.split()
            if not words or words[0] == "*":
                continue
            full = f"{module}.{words[0]}"
            bound[words[2] if len(words) == 3 and words[1] == "as" else words[0]] = full
            if not is_module(full):
                used.add(full)
    return bound, used


def uses(text: str) -> tuple[set[str], set[str]]:
    """(names used, chains torch does not resolve) in one file's text."""
    code = clean(text)
    bound, used = bindings(code)
    body = "\n".join(ln for ln in code.splitlines() if not re.match(r"\s*(from\s+\S+\s+)?import\s", ln))
    unresolved: set[str] = set()
    for alias, target in bound.items():
        for m in re.finditer(rf"(?<![\w.]){re.escape(alias)}((?:\s*\.\s*[A-Za-z_]\w*)+)", body):
            chain = target + re.sub(r"\s+", "", m.group(1))
            name, ok = name_of(chain)
            if name is None:
                continue
            (used if ok else unresolved).add(name)
    private = {n for n in used | unresolved if any(p.startswith("_") for p in n.split("."))}
    return used - private, unresolved - private


def scan(sources: dict[str, Path]) -> tuple[dict[str, list[str]], dict[str, list[str]], dict[str, list[str]]]:
    """name -> sorted ["repo:path", ...] for every name, and the same for unresolved chains."""
    files_of: dict[str, set[str]] = defaultdict(set)
    bad_of: dict[str, set[str]] = defaultdict(set)
    scanned: dict[str, list[str]] = {}
    for repo, root in sources.items():
        paths = sorted(p for p in root.rglob("*.py"))
        scanned[repo] = [p.relative_to(root).as_posix() for p in paths]
        for p in paths:
            where = f"{repo}:{p.relative_to(root).as_posix()}"
            used, bad = uses(p.read_text(encoding="utf-8"))
            for n in used:
                files_of[n].add(where)
            for n in bad:
                bad_of[n].add(where)
    return ({n: sorted(f) for n, f in files_of.items()}, {n: sorted(f) for n, f in bad_of.items()}, scanned)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", action="append", required=True, metavar="REPO=DIR")
    ap.add_argument("--commits", action="append", default=[], metavar="REPO=FILE.json",
                    help='{"path": "commit"}: the commit each file of REPO was taken from')
    ap.add_argument("--selection", action="append", default=[], metavar="REPO=TEXT",
                    help="how REPO's files were chosen (recorded in the output)")
    ap.add_argument("--min-files", type=int, default=2)
    ap.add_argument("--out", required=True)
    ns = ap.parse_args(argv)
    import torch

    sources = {s.split("=", 1)[0]: Path(s.split("=", 1)[1]) for s in ns.source}
    files_of, bad_of, scanned = scan(sources)
    commits: dict[str, dict[str, str]] = defaultdict(dict)
    for item in ns.commits:
        repo, path = item.split("=", 1)
        commits[repo].update(json.loads(Path(path).read_text()))
    selection = dict(item.split("=", 1) for item in ns.selection)
    kept = {n: f for n, f in sorted(files_of.items()) if len(f) >= ns.min_files}
    out = {
        "generated_by": "scripts/scan_upstream.py", "scanned_on": datetime.date.today().isoformat(),
        "torch_version": torch.__version__, "min_files": ns.min_files,
        "counting": "attribute chains on torch and its import aliases, cut after the first attribute past the "
                    "last module; from-imports count; Tensor methods on values are not attributed",
        "out_of_scope_prefixes": list(OUT_OF_SCOPE),
        "sources": {repo: {"selection": selection.get(repo, ""),
                           "files": {p: commits[repo].get(p) for p in scanned[repo]}} for repo in sources},
        "names": {n: f for n, f in kept.items() if not n.startswith(OUT_OF_SCOPE)},
        "out_of_scope": {n: f for n, f in kept.items() if n.startswith(OUT_OF_SCOPE)},
        "unresolved": {n: f for n, f in sorted(bad_of.items())},
    }
    Path(ns.out).write_text(json.dumps(out, indent=1, sort_keys=False) + "\n")
    print(f"{sum(len(v) for v in scanned.values())} files, {len(files_of)} names, {len(out['names'])} used by "
          f">= {ns.min_files} files (+{len(out['out_of_scope'])} out of scope) -> {ns.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
