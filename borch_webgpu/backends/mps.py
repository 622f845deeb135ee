"""``torch.backends.mps``: Apple's Metal backend of PyTorch does not exist here (a Mac's GPU is reached through
WebGPU instead)."""
from __future__ import annotations

__all__ = ["is_available", "is_built"]


def is_available() -> bool:
    """False: there is no MPS device (use ``torch.accelerator`` to find the WebGPU device).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.backends.mps.is_available()
        False
    """
    return False


def is_built() -> bool:
    """False: borch_webgpu is not built with MPS.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.backends.mps.is_built()
        False
    """
    return False
