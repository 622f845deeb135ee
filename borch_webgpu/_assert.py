"""``torch._assert``: ``assert`` as a function, so that a traced program can record it
(``torch.fx`` inserts it to guard a specialised ``concrete_args`` value)."""
from __future__ import annotations

__all__ = ["_assert", "_assert_is_none"]


def _assert(condition, message: str) -> None:
    """Raise ``AssertionError(message)`` unless ``condition`` holds; traced as a graph node.

    Example:
        >>> import borch_webgpu as torch
        >>> torch._assert(1 + 1 == 2, "arithmetic")
    """
    if getattr(type(condition), "_is_fx_proxy", False):  # a torch.fx Proxy (fx builds on this module)
        node = condition.tracer.create_proxy("call_function", _assert, (condition, message), {}).node
        node._qualname = "torch._assert"
        return None
    assert condition, message


def _assert_is_none(value, msg: str) -> None:
    assert value is None, msg
