"""``torch.cpu``: the cpu device's module (its deprecated ``amp`` spellings, and the queries code asks)."""
from __future__ import annotations

from . import amp

__all__ = ["amp", "is_available", "device_count", "current_device", "synchronize"]


def is_available() -> bool:
    """Always True: the cpu device (numpy) is always there.

    Example::

        >>> torch.cpu.is_available()
        True
    """
    return True


def device_count() -> int:
    """Always 1.

    Example::

        >>> torch.cpu.device_count()
        1
    """
    return 1


def current_device() -> str:
    """Always ``'cpu'``.

    Example::

        >>> torch.cpu.current_device()
        'cpu'
    """
    return "cpu"


def synchronize(device=None) -> None:
    """Nothing to wait for: cpu ops finish before they return.

    Example::

        >>> torch.cpu.synchronize()
    """
