"""The deprecated spellings ``torch.cuda.amp.autocast`` / ``GradScaler`` and ``torch.cpu.amp.autocast`` /
``GradScaler``: PyTorch's classes with their ``FutureWarning`` ("... is deprecated. Please use
``torch.amp.autocast('cuda', args...)`` instead.")."""
from __future__ import annotations

import warnings

from .. import _dtype
from .autocast_mode import autocast as _autocast
from .grad_scaler import GradScaler as _GradScaler


def _warn(old: str, new: str, device: str) -> None:
    warnings.warn(f"`torch.{device}.amp.{old}(args...)` is deprecated. Please use `torch.amp.{new}('{device}', "
                  "args...)` instead.", FutureWarning, stacklevel=3)


class CudaAutocast(_autocast):
    """``torch.cuda.amp.autocast(enabled=True, dtype=torch.float16, cache_enabled=True)``: deprecated,
    ``torch.autocast('cuda', ...)`` ('cuda' is the WebGPU device).

    Example::

        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     torch.cuda.amp.autocast(enabled=False).device
        'cuda'
    """

    def __init__(self, enabled: bool = True, dtype=_dtype.float16, cache_enabled: bool = True) -> None:
        _warn("autocast", "autocast", "cuda")
        super().__init__("cuda", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)


class CpuAutocast(_autocast):
    """``torch.cpu.amp.autocast(enabled=True, dtype=torch.bfloat16, cache_enabled=True)``: deprecated,
    ``torch.autocast('cpu', ...)``.

    Example::

        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     torch.cpu.amp.autocast().fast_dtype
        torch.bfloat16
    """

    def __init__(self, enabled: bool = True, dtype=_dtype.bfloat16, cache_enabled: bool = True) -> None:
        _warn("autocast", "autocast", "cpu")
        super().__init__("cpu", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)


class CudaGradScaler(_GradScaler):
    """``torch.cuda.amp.GradScaler(init_scale=2.**16, growth_factor=2.0, backoff_factor=0.5,
    growth_interval=2000, enabled=True)``: deprecated, ``torch.amp.GradScaler('cuda', ...)``.

    Example::

        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     torch.cuda.amp.GradScaler(enabled=False).is_enabled()
        False
    """

    def __init__(self, init_scale: float = 2.0 ** 16, growth_factor: float = 2.0, backoff_factor: float = 0.5,
                 growth_interval: int = 2000, enabled: bool = True) -> None:
        _warn("GradScaler", "GradScaler", "cuda")
        super().__init__("cuda", init_scale=init_scale, growth_factor=growth_factor, backoff_factor=backoff_factor,
                         growth_interval=growth_interval, enabled=enabled)


class CpuGradScaler(_GradScaler):
    """``torch.cpu.amp.GradScaler(...)``: deprecated, ``torch.amp.GradScaler('cpu', ...)``.

    Example::

        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     torch.cpu.amp.GradScaler().get_scale()
        65536.0
    """

    def __init__(self, init_scale: float = 2.0 ** 16, growth_factor: float = 2.0, backoff_factor: float = 0.5,
                 growth_interval: int = 2000, enabled: bool = True) -> None:
        _warn("GradScaler", "GradScaler", "cpu")
        super().__init__("cpu", init_scale=init_scale, growth_factor=growth_factor, backoff_factor=backoff_factor,
                         growth_interval=growth_interval, enabled=enabled)


for _c, _n in ((CudaAutocast, "autocast"), (CpuAutocast, "autocast"), (CudaGradScaler, "GradScaler"),
               (CpuGradScaler, "GradScaler")):
    _c.__name__ = _c.__qualname__ = _n
