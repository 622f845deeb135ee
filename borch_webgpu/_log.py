"""``borch_webgpu.log(name, value)``: report a scalar (a loss, an accuracy) to whoever is watching.

``log`` is also PyTorch's natural logarithm: ``torch.log(tensor)`` computes it as usual; only a
string first argument makes it a report (see :func:`log_dispatch`).

In the playground every logged series is plotted live; elsewhere the values are kept in
``borch_webgpu.logged()`` (name -> list of (step, value)). A tensor value is read with ``.item()``.

Example::

    >>> import borch_webgpu as torch
    >>> for step in range(3):
    ...     torch.log("loss", 1.0 / (step + 1))
    >>> [round(v, 3) for _, v in torch.logged()["loss"]]
    [1.0, 0.5, 0.333]
"""
from __future__ import annotations

import numbers

__all__ = ["log", "logged", "set_log_sink"]

_history: dict[str, list[tuple[int, float]]] = {}
_sink = None
MAX_POINTS = 100_000


def log(name: str, value, step: int | None = None) -> None:
    """Record ``value`` (a number or a one-element tensor) under ``name``; ``step`` defaults to the
    number of values logged under that name so far."""
    if not isinstance(name, str):
        raise TypeError(f"log(): name must be a str, got {type(name).__name__}")
    if hasattr(value, "item"):
        value = value.item()
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        raise TypeError(f"log(): value must be a number or a one-element tensor, got {type(value).__name__}")
    series = _history.setdefault(name, [])
    step = len(series) if step is None else int(step)
    if len(series) < MAX_POINTS:
        series.append((step, float(value)))
    if _sink is not None:
        _sink(name, step, float(value))


def log_dispatch(input, value=None, step=None, *, out=None):
    """``torch.log(tensor)``: the natural logarithm, element-wise; ``torch.log("loss", value)``:
    report a scalar (plotted live in the playground, kept in ``torch.logged()``)."""
    if isinstance(input, str):
        return log(input, value, step)
    from .ops.unary import log as _ln
    if value is not None or step is not None:
        raise TypeError("log(): takes one tensor (the natural logarithm) or a name and a value (a report)")
    return _ln(input, out=out)


def logged() -> dict[str, list[tuple[int, float]]]:
    """Everything logged so far: name -> [(step, value), ...]."""
    return {k: list(v) for k, v in _history.items()}


def set_log_sink(fn) -> None:
    """Send every logged value to ``fn(name, step, value)`` as well (the playground plots them)."""
    global _sink
    _sink = fn


def clear() -> None:
    _history.clear()
