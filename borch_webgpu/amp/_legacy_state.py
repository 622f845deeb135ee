"""PyTorch's deprecated per-device autocast state functions (``torch.is_autocast_cpu_enabled()``, ...): each
warns as PyTorch does (``DeprecationWarning``) and calls its replacement."""
from __future__ import annotations

import warnings

from . import autocast_mode as _m

__all__ = ["is_autocast_cpu_enabled", "set_autocast_cpu_enabled", "get_autocast_cpu_dtype", "set_autocast_cpu_dtype",
           "get_autocast_gpu_dtype", "set_autocast_gpu_dtype"]


def _warn(old: str, new: str) -> None:
    warnings.warn(f"torch.{old} is deprecated. Please use torch.{new} instead.", DeprecationWarning, stacklevel=3)


def is_autocast_cpu_enabled() -> bool:
    """Whether autocast is on for the cpu (deprecated: ``torch.is_autocast_enabled('cpu')``).

    Example::

        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter('ignore')
        ...     torch.is_autocast_cpu_enabled()
        False
    """
    _warn("is_autocast_cpu_enabled()", "is_autocast_enabled('cpu')")
    return _m.is_autocast_enabled('cpu')


def set_autocast_cpu_enabled(enabled: bool) -> None:
    """Turn cpu autocast on or off (deprecated: ``torch.set_autocast_enabled('cpu', enabled)``).

    Example::

        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter('ignore')
        ...     torch.set_autocast_cpu_enabled(False)
    """
    _warn("set_autocast_cpu_enabled(enabled)", "set_autocast_enabled('cpu', enabled)")
    return _m.set_autocast_enabled('cpu', enabled)


def get_autocast_cpu_dtype() -> object:
    """The cpu autocast dtype (deprecated: ``torch.get_autocast_dtype('cpu')``).

    Example::

        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter('ignore')
        ...     torch.get_autocast_cpu_dtype()
        torch.bfloat16
    """
    _warn("get_autocast_cpu_dtype()", "get_autocast_dtype('cpu')")
    return _m.get_autocast_dtype('cpu')


def set_autocast_cpu_dtype(dtype) -> None:
    """Set the cpu autocast dtype (deprecated: ``torch.set_autocast_dtype('cpu', dtype)``).

    Example::

        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter('ignore')
        ...     torch.set_autocast_cpu_dtype(torch.bfloat16)
    """
    _warn("set_autocast_cpu_dtype(dtype)", "set_autocast_dtype('cpu', dtype)")
    return _m.set_autocast_dtype('cpu', dtype)


def get_autocast_gpu_dtype() -> object:
    """The GPU (WebGPU) autocast dtype (deprecated: ``torch.get_autocast_dtype('cuda')``).

    Example::

        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter('ignore')
        ...     torch.get_autocast_gpu_dtype()
        torch.float16
    """
    _warn("get_autocast_gpu_dtype()", "get_autocast_dtype('cuda')")
    return _m.get_autocast_dtype('cuda')


def set_autocast_gpu_dtype(dtype) -> None:
    """Set the GPU (WebGPU) autocast dtype (deprecated: ``torch.set_autocast_dtype('cuda', dtype)``).

    Example::

        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter('ignore')
        ...     torch.set_autocast_gpu_dtype(torch.float16)
    """
    _warn("set_autocast_gpu_dtype(dtype)", "set_autocast_dtype('cuda', dtype)")
    return _m.set_autocast_dtype('cuda', dtype)
