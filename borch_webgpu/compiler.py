"""``torch.compiler``: ``reset()`` forgets every captured graph; ``is_compiling()``."""
from __future__ import annotations

from ._compile import reset
from .device import capture as _capture

__all__ = ["reset", "is_compiling"]


def is_compiling() -> bool:
    """True while a compiled function is being captured."""
    return _capture.active() is not None
