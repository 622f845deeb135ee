"""``torch.ao``: ``ao.nn.intrinsic`` (the fused-module containers) and ``ao.quantization``'s module
fusion (``fuse_modules``, ``fuse_modules_qat``); nothing of quantization itself yet. Submodules load on
first use, as in PyTorch."""
from __future__ import annotations

from types import ModuleType

__all__ = ["nn", "quantization"]


def __getattr__(name: str) -> ModuleType:
    if name in __all__:
        import importlib
        return importlib.import_module("." + name, __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
