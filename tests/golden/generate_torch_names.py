"""Freeze PyTorch's public names per namespace into tests/golden/torch_names.json.

Run with real PyTorch (the system ``python``, torch 2.13.0 CPU), never by hand::

    python tests/golden/generate_torch_names.py

The site's "what exists and what doesn't" page (scripts/site/10_api.py) compares these names with
borch_webgpu's, using the same :func:`public_names` filter on both sides, and tests/unit/
test_api_docs.py checks the page's numbers and that every namespace in :data:`NAMESPACES` is here.

What counts as a public name of a namespace (a module, or ``torch.Tensor``):

1. not starting with ``_``;
2. not a module (``torch.nn.functional`` is its own namespace, ``torch.cuda`` is not compared);
3. callable: functions, builtins and classes. Constants, dtypes (``torch.float32``), layouts and
   memory formats are left out (on our side too);
4. defined inside the package (``__module__`` under ``torch``/``borch_webgpu``): drops what a module
   imports from ``typing``, ``functools``, ``collections``, ``math``, ...;
5. a class counts only in the namespace that defines it (or when it lives in a private module such
   as ``torch._C`` and is exposed here): ``F.Tensor`` or ``lr_scheduler.Optimizer`` are imports;
6. left out as noise, each rule counted under ``excluded`` in the JSON:
   - ``jit``: classes bound from C++ (pybind11) into ``torch``/``torch.jit``/``torch._C``: the
     TorchScript IR and JIT internals (``Graph``, ``Node``, ``AliasDb``, ``FileCheck``, ...);
   - ``legacy``: the legacy typed tensor/storage classes (``FloatTensor``, ``ByteStorage``, ...);
   - ``backend``: backend-specific kernels (``cudnn_*``, ``miopen_*``, ``mkldnn_*``, ``fbgemm_*``);
   - ``helper``: functions from PyTorch's helper modules (``torch._jit_internal``, ``torch.overrides``,
     ``torch._utils``, ``torch._utils_internal``, ``torch._linalg_utils``: the last holds removed
     functions that only raise) and ``torch._C``'s ``has_torch_function*`` dispatch helpers.

``torch.Tensor`` is a class: its public attributes are methods (callable) or properties (``shape``,
``grad``, ``T``, ...), all counted; rules 3-6 do not apply to it.

On borch_webgpu's side a module's ``__all__`` (its declared API) also limits the names, so a helper
that a module merely imports (``linalg.amax``) is not counted. PyTorch's modules mostly have no
``__all__`` (``torch.__all__`` even lacks ``set_grad_enabled`` and ``unique``), so theirs is not used.
"""
from __future__ import annotations

import importlib
import inspect
import json
import sys
import warnings
from pathlib import Path
from types import ModuleType

OUT = Path(__file__).resolve().parent / "torch_names.json"

# the namespaces compared, PyTorch's name -> what it is (a module, or the Tensor class)
NAMESPACES = {
    "torch": "module",
    "torch.nn": "module",
    "torch.nn.functional": "module",
    "torch.nn.init": "module",
    "torch.nn.utils": "module",
    "torch.optim": "module",
    "torch.optim.lr_scheduler": "module",
    "torch.optim.swa_utils": "module",
    "torch.linalg": "module",
    "torch.sparse": "module",
    "torch.testing": "module",
    "torch.autograd": "module",
    "torch.cuda": "module",
    "torch.utils.data": "module",
    "torch.distributions": "module",
    "torch.Tensor": "class",
}

BACKEND_PREFIXES = ("cudnn_", "miopen_", "mkldnn_", "fbgemm_")
HELPER_MODULES = ("torch._jit_internal", "torch.overrides", "torch._utils", "torch._utils_internal",
                  "torch._linalg_utils")
HELPER_NAMES = ("has_torch_function", "has_torch_function_unary", "has_torch_function_variadic")
LEGACY_METACLASSES = ("_LegacyStorageMeta", "tensortype")


def resolve(root: ModuleType, namespace: str):
    """The object behind ``namespace`` (PyTorch's spelling) in package ``root`` (torch or borch_webgpu)."""
    parts = namespace.split(".")[1:]
    obj = root
    for i, part in enumerate(parts):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            obj = importlib.import_module(".".join([root.__name__, *parts[:i + 1]]))
    return obj


def _under(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def _private(module: str) -> bool:
    return any(p.startswith("_") for p in module.split("."))


def public_names(obj, namespace: str, root: str, use_all: bool = False
                 ) -> tuple[dict[str, str], dict[str, list[str]]]:
    """(name -> kind, rule -> excluded names) for ``obj`` (a module, or a class such as Tensor),
    which stands for PyTorch's ``namespace`` inside package ``root`` ("torch" or "borch_webgpu");
    ``use_all``: only names in the module's ``__all__`` when it has one (borch_webgpu's side)."""
    names: dict[str, str] = {}
    excluded: dict[str, list[str]] = {}
    if inspect.isclass(obj):
        for name in dir(obj):
            if name.startswith("_"):
                continue
            raw = inspect.getattr_static(obj, name)
            method = callable(raw) or isinstance(raw, (staticmethod, classmethod))
            names[name] = "method" if method else "property"
        return names, excluded
    here = root + namespace[len("torch"):]   # torch.nn -> borch_webgpu.nn
    declared = set(getattr(obj, "__all__", None) or dir(obj)) if use_all else None
    for name in dir(obj):
        if name.startswith("_") or (declared is not None and name not in declared):
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                value = getattr(obj, name)
        except Exception:  # a lazy attribute that fails to load is not usable API
            continue
        if isinstance(value, ModuleType) or not callable(value):
            continue
        owner = getattr(value, "__module__", None) or ""
        if not _under(owner, root):
            continue
        rule = None
        if inspect.isclass(value):
            meta = type(value).__name__
            if not (_under(owner, here) or _private(owner)):
                continue   # an import from another namespace
            if meta == "pybind11_type" and owner in (root, root + ".jit", root + "._C"):
                rule = "jit"
            elif meta in LEGACY_METACLASSES:
                rule = "legacy"
            kind = "class"
        else:
            if name.startswith(BACKEND_PREFIXES):
                rule = "backend"
            elif owner in HELPER_MODULES or name in HELPER_NAMES:
                rule = "helper"
            kind = "function"
        if rule:
            excluded.setdefault(rule, []).append(name)
        else:
            names[name] = kind
    return names, excluded


def main() -> None:
    try:
        import torch
    except ImportError:
        sys.exit("this needs real PyTorch 2.13.0 (pip install torch==2.13.0): run it with that python")

    if torch.__version__.split("+")[0] != "2.13.0":
        sys.exit(f"expected torch 2.13.0, found {torch.__version__}: run this with the system python")
    data = {"torch_version": torch.__version__,
            "generated_by": "tests/golden/generate_torch_names.py (its module docstring documents the filter)",
            "namespaces": {}}
    for ns in NAMESPACES:
        names, excluded = public_names(resolve(torch, ns), ns, "torch")
        data["namespaces"][ns] = {"names": dict(sorted(names.items())),
                                  "excluded": {k: sorted(v) for k, v in sorted(excluded.items())}}
        print(f"{ns}: {len(names)} names ({sum(len(v) for v in excluded.values())} left out as noise)")
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
