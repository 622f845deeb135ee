"""How generated code spells a function: ``torch.flatten``, ``torch.nn.functional.relu``,
``operator.add``, ``getattr``. Our functions live in ``borch_webgpu.ops.*``; the names PyTorch prints
are the public ones, found by identity in the package and in ``nn.functional``."""
from __future__ import annotations

import builtins
import sys

__all__ = ["qualified_name", "public_name"]

_CACHE: dict[int, str] = {}
_OBJECTS: dict[int, object] = {}  # keeps the objects named in _CACHE alive (ids stay theirs)


def _build() -> None:
    pkg = sys.modules["borch_webgpu"]
    from ..nn import functional as F
    from ._dispatch import functional_spelling
    for name, obj in vars(F).items():
        obj = getattr(obj, "_fx_original", obj)  # the package's own object, also while wrapped
        if not name.startswith("__") and callable(obj):
            _CACHE.setdefault(id(obj), functional_spelling(name, pkg)[0])
            _OBJECTS[id(obj)] = obj
    names = sorted(getattr(pkg, "_FUNCTIONS", {}))
    for name in names:  # torch.relu wins over F.relu; torch.mul (its own __name__) over torch.multiply
        obj = getattr(pkg, name, None)
        obj = getattr(obj, "_fx_original", obj)
        current = _CACHE.get(id(obj))
        if current is None or current.startswith("torch.nn.") or getattr(obj, "__name__", None) == name:
            _CACHE[id(obj)] = f"torch.{name}"
            _OBJECTS[id(obj)] = obj
    _CACHE[id(pkg._assert)] = "torch._assert"
    from .._log import log_dispatch
    _CACHE.setdefault(id(log_dispatch), "torch.log")
    _CACHE.pop(id(None), None)


def public_name(func) -> str | None:
    """``torch.X`` / ``torch.nn.functional.X`` for a public function of ours, else None."""
    if not _CACHE:
        _build()
    return _CACHE.get(id(func))


def qualified_name(func) -> str:
    """PyTorch's ``_get_qualified_name``, spoken in torch's names."""
    name = getattr(func, "__name__", None)
    if name is not None and getattr(builtins, name, None) is func:
        return name
    public = public_name(func)
    if public is not None:
        return public
    from ..tensor import Tensor
    if name is not None and getattr(Tensor, name, None) is func:
        return f"torch.Tensor.{name}"
    if name == "<lambda>":
        raise RuntimeError("Unable to represent lambda")
    module = getattr(func, "__module__", None) or "builtins"
    if module == "borch_webgpu" or module.startswith("borch_webgpu."):
        module = "torch" + module[len("borch_webgpu"):]  # reachable as torch.<module path> in generated code
    return f"{module}.{name}"
