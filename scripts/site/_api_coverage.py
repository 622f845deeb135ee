"""borch_webgpu's public names against PyTorch 2.13's, per namespace.

PyTorch's side is frozen in tests/golden/torch_names.json by tests/golden/generate_torch_names.py
(real torch); ours is computed here, now, with that file's own filter (``public_names``), so the
two sides are counted the same way and nothing is copied by hand.
"""
from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GENERATOR = ROOT / "tests" / "golden" / "generate_torch_names.py"


@functools.lru_cache(maxsize=None)
def generator():
    """tests/golden/generate_torch_names.py as a module (NAMESPACES, public_names, resolve); it imports
    torch only in main(), so it loads in any CPython."""
    spec = importlib.util.spec_from_file_location("generate_torch_names", GENERATOR)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def compare(frozen: dict | None = None) -> list[dict]:
    """One row per namespace: have (ours and PyTorch's), missing (PyTorch's only), extra (ours only)."""
    import borch_webgpu
    from _api_collect import torch_names

    gen = generator()
    frozen = frozen or torch_names()
    absent = [ns for ns in gen.NAMESPACES if ns not in frozen.get("namespaces", {})]
    if absent:
        raise RuntimeError(f"tests/golden/torch_names.json lacks namespaces {absent}: rerun "
                           "`python tests/golden/generate_torch_names.py` with torch 2.13.0")
    rows = []
    for ns in gen.NAMESPACES:
        ours, _ = gen.public_names(gen.resolve(borch_webgpu, ns), ns, "borch_webgpu", use_all=True)
        theirs = frozen["namespaces"][ns]["names"]
        rows.append({"namespace": ns,
                     "have": sorted(set(ours) & set(theirs)),
                     "missing": sorted(set(theirs) - set(ours)),
                     "extra": sorted(set(ours) - set(theirs)),
                     "torch_total": len(theirs),
                     "excluded": {k: len(v) for k, v in frozen["namespaces"][ns].get("excluded", {}).items()}})
    return rows
