"""``torch.backends.cudnn``: there is no cuDNN here; ``benchmark``, ``deterministic``, ``enabled`` and ``allow_tf32``
can be set (PyTorch's defaults) and change nothing."""
from __future__ import annotations

__all__ = ["is_available", "version", "enabled", "benchmark", "deterministic", "allow_tf32"]

enabled = True
benchmark = False
deterministic = False
allow_tf32 = True


def is_available() -> bool:
    """False: borch_webgpu does not use cuDNN (its GPU kernels are its own WGSL).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.backends.cudnn.is_available()
        False
    """
    return False


def version() -> int | None:
    """None, as PyTorch answers without cuDNN.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.backends.cudnn.version() is None
        True
    """
    return None
