"""Grad modes: ``no_grad``, ``enable_grad``, ``set_grad_enabled``, ``inference_mode``."""
from __future__ import annotations

import functools

from ..tensor import _GRAD_MODE as STATE  # the switches live below autograd (Tensor._make reads one)

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "is_grad_enabled",
           "is_inference_mode_enabled"]


def is_grad_enabled() -> bool:
    """True unless inside ``no_grad()`` / ``inference_mode()`` / ``set_grad_enabled(False)``.

    Example::

        >>> with torch.no_grad():
        ...     torch.is_grad_enabled()
        False
    """
    return STATE.grad_enabled


def is_inference_mode_enabled() -> bool:
    """True inside ``inference_mode()``."""
    return STATE.inference


class _Mode:
    """A context manager that is also a decorator (PyTorch's _DecoratorContextManager)."""

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.clone():
                return fn(*args, **kwargs)
        return wrapper

    def clone(self):
        return type(self)()


class no_grad(_Mode):
    """Disable gradient recording inside the block (or the decorated function)."""

    def __enter__(self):
        self.prev = STATE.grad_enabled
        STATE.grad_enabled = False

    def __exit__(self, *exc):
        STATE.grad_enabled = self.prev
        return False


class enable_grad(_Mode):
    """Enable gradient recording inside the block, even within ``no_grad``."""

    def __enter__(self):
        self.prev = STATE.grad_enabled
        STATE.grad_enabled = True

    def __exit__(self, *exc):
        STATE.grad_enabled = self.prev
        return False


class set_grad_enabled(_Mode):
    """Set gradient recording on or off; works as a function, a context manager or a decorator."""

    def __init__(self, mode: bool):
        self.prev = STATE.grad_enabled
        self.mode = bool(mode)
        STATE.grad_enabled = self.mode

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        STATE.grad_enabled = self.prev
        return False

    def clone(self):
        return type(self)(self.mode)


class inference_mode(_Mode):
    """Like ``no_grad``, and tensors made inside are inference tensors (``Tensor.is_inference()``);
    ``inference_mode(False)`` turns both off again inside (grad recording on), as PyTorch's does.

    Example::

        >>> x = torch.ones(2, requires_grad=True)
        >>> with torch.inference_mode():
        ...     y = x * 2
        >>> y.requires_grad, y.is_inference()
        (False, True)
    """

    def __init__(self, mode: bool = True):
        self.mode = bool(mode)

    def __enter__(self):
        self.prev = (STATE.grad_enabled, STATE.inference)
        STATE.grad_enabled, STATE.inference = not self.mode, self.mode

    def __exit__(self, *exc):
        STATE.grad_enabled, STATE.inference = self.prev
        return False

    def clone(self):
        return type(self)(self.mode)
