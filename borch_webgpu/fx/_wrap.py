"""``torch.fx.wrap``: the free functions that a trace records as calls instead of tracing into."""
from __future__ import annotations

import sys
from typing import Callable

__all__ = ["wrap", "WRAPPED"]

WRAPPED: list[tuple[dict, str]] = []  # (globals of the module that called wrap, name)


def wrap(fn_or_name: str | Callable):
    """Record calls to a free function as ``call_function`` nodes instead of tracing through them.

    Call at module scope with the function or its name; calls made from that module are recorded.

    Example:
        >>> import borch_webgpu.fx as fx
        >>> def my_len(x):
        ...     return len(x)
        >>> _ = fx.wrap("my_len")
    """
    if not callable(fn_or_name) and not isinstance(fn_or_name, str):
        raise RuntimeError("Unsupported type for global function! Must be either a callable or string name")
    fn_name = fn_or_name.__name__ if callable(fn_or_name) else fn_or_name
    frame = sys._getframe(1)
    if frame.f_code.co_name != "<module>":
        raise NotImplementedError("wrap must be called at the top level of a module")
    WRAPPED.append((frame.f_globals, fn_name))
    return fn_or_name
