"""``torch.amp.custom_fwd`` / ``custom_bwd``: autocast for the ``forward`` / ``backward`` of custom
``torch.autograd.Function`` subclasses, as PyTorch's."""
from __future__ import annotations

import functools

from .autocast_mode import _cast, _kind, autocast, get_autocast_dtype, is_autocast_enabled

__all__ = ["custom_fwd", "custom_bwd"]


def custom_fwd(fwd=None, *, device_type: str, cast_inputs=None):
    """Decorate a custom Function's ``forward``: with ``cast_inputs`` (a dtype), inside an autocast region its
    floating tensor inputs are cast to it and it runs with autocast off; without, it runs in the region's
    state, and :func:`custom_bwd` runs ``backward`` in the same state.

    Example::

        >>> class Double(torch.autograd.Function):
        ...     @staticmethod
        ...     @torch.amp.custom_fwd(device_type="cpu", cast_inputs=torch.float32)
        ...     def forward(ctx, x):
        ...         return x * 2
        ...     @staticmethod
        ...     @torch.amp.custom_bwd(device_type="cpu")
        ...     def backward(ctx, g):
        ...         return g * 2
        >>> with torch.autocast("cpu"):
        ...     Double.apply(torch.ones(2, dtype=torch.bfloat16, device="cpu")).dtype
        torch.float32
    """
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def decorate_fwd(*args, **kwargs):
        args[0]._dtype = get_autocast_dtype(device_type)
        if cast_inputs is None:
            args[0]._fwd_used_autocast = is_autocast_enabled(device_type)
            return fwd(*args, **kwargs)
        inside = is_autocast_enabled(device_type)
        args[0]._fwd_used_autocast = False
        if inside:
            with autocast(device_type=device_type, enabled=False):
                kind = _kind(device_type)
                return fwd(*_cast(args, kind, cast_inputs), **_cast(kwargs, kind, cast_inputs))
        return fwd(*args, **kwargs)
    return decorate_fwd


def custom_bwd(bwd=None, *, device_type: str):
    """Decorate a custom Function's ``backward`` so that it runs in the autocast state its ``forward`` ran in
    (see :func:`custom_fwd`).

    Example::

        >>> torch.amp.custom_bwd(device_type="cpu")(lambda ctx, g: g).__name__
        '<lambda>'
    """
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)

    @functools.wraps(bwd)
    def decorate_bwd(*args, **kwargs):
        with autocast(device_type=device_type, enabled=args[0]._fwd_used_autocast, dtype=args[0]._dtype):
            return bwd(*args, **kwargs)
    return decorate_bwd
