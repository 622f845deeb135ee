"""``torch.autocast``: mixed precision regions, with PyTorch's CPU op lists.

Inside ``with torch.autocast(device_type):`` (or a function decorated with it) the ops of
``LOWER_PRECISION`` cast their floating inputs (not float64) of that device type to the region's dtype
(``torch.bfloat16`` by default on ``cpu``, ``torch.float16`` on ``cuda`` / ``webgpu``), and the ops of
``FLOAT32`` cast them to float32; every other op runs in its inputs' dtypes (PyTorch's promotion). The
lists are PyTorch's "CPU Ops that can autocast to bfloat16 / to float32", for both device types here
(``'cuda'`` means the WebGPU device, as everywhere in borch_webgpu). Calls with ``out=`` or ``dtype=`` are
not cast, and ops called by a cast op run without autocast, as in PyTorch. While a region is active the
listed names of ``torch``, ``torch.nn.functional``, ``torch.linalg`` and ``Tensor`` are wrapped (as
``_bind.tracing`` does); outside regions nothing is wrapped and ops cost nothing extra. PyTorch's weight
cache (``cache_enabled``) is accepted and reported but not kept: casts are recomputed, with the same values.
"""
from __future__ import annotations

import collections.abc
import functools
import warnings

from .. import _dtype

__all__ = ["autocast", "is_autocast_available", "is_autocast_enabled", "set_autocast_enabled", "get_autocast_dtype",
           "set_autocast_dtype", "is_autocast_cache_enabled", "set_autocast_cache_enabled", "clear_autocast_cache",
           "LOWER_PRECISION", "FLOAT32"]

# PyTorch's CPU autocast lists, by where the names live here ("Tensor" for methods)
LOWER_PRECISION = {
    "torch": ("conv1d", "conv2d", "conv3d", "bmm", "mm", "matmul", "baddbmm", "addmm", "addbmm", "conv_transpose1d",
              "conv_transpose2d", "conv_transpose3d", "prelu"),
    "functional": ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
                   "prelu", "scaled_dot_product_attention"),
    "linalg": ("vecdot",),
    "Tensor": ("mm", "bmm", "matmul", "__matmul__", "__rmatmul__", "baddbmm", "addmm", "addbmm", "prelu"),
}
FLOAT32 = {
    "torch": ("prod", "quantile", "nanquantile", "cdist", "trace", "cholesky_inverse", "cholesky_solve", "inverse",
              "pinverse", "svd", "geqrf", "poisson_nll_loss", "cosine_embedding_loss", "hinge_embedding_loss",
              "margin_ranking_loss", "triplet_margin_loss", "binary_cross_entropy_with_logits", "kl_div", "ctc_loss"),
    "functional": ("avg_pool3d", "binary_cross_entropy", "grid_sample", "max_pool3d", "max_unpool2d", "max_unpool3d",
                   "adaptive_avg_pool3d", "adaptive_max_pool3d", "fractional_max_pool2d", "fractional_max_pool3d",
                   "mse_loss", "cosine_embedding_loss", "nll_loss", "hinge_embedding_loss", "poisson_nll_loss",
                   "smooth_l1_loss", "cross_entropy", "l1_loss", "huber_loss", "margin_ranking_loss", "soft_margin_loss",
                   "triplet_margin_loss", "multi_margin_loss", "ctc_loss", "kl_div", "multilabel_margin_loss",
                   "binary_cross_entropy_with_logits", "pad"),
    "linalg": ("cond", "matrix_rank", "solve", "cholesky", "svdvals", "eigvalsh", "inv", "householder_product",
               "tensorinv", "tensorsolve", "qr", "cholesky_ex", "svd", "eigh", "lstsq", "inv_ex"),
    "Tensor": ("prod", "trace", "cholesky_inverse", "cholesky_solve", "inverse", "pinverse", "svd", "geqrf"),
}
# F.pad is on the float32 list only as reflection_pad / replication_pad (its other modes are not)
_PAD_MODES = ("reflect", "replicate")

# device type -> [enabled, dtype]; 'cuda' and 'mps' mean the WebGPU device
_STATE = {"cpu": [False, _dtype.bfloat16], "webgpu": [False, _dtype.float16]}
_CACHE = [True]
_NESTING = [0]
_INSIDE = [0]     # > 0 while a cast op runs: the ops it calls are not cast again (PyTorch excludes autocast there)
_SAVED: list = []  # (owner, name, original) while the wrappers are installed


def _kind(device_type: str) -> str | None:
    return {"cpu": "cpu", "cuda": "webgpu", "webgpu": "webgpu", "mps": "webgpu"}.get(device_type)


def is_autocast_available(device_type: str) -> bool:
    """Whether autocast supports ``device_type``: ``'cpu'``, and ``'cuda'`` / ``'webgpu'`` / ``'mps'`` (the
    WebGPU device).

    Example::

        >>> torch.amp.is_autocast_available("cpu")
        True
    """
    return _kind(device_type) is not None


# the device types PyTorch's device strings name (its message for anything else)
_TORCH_TYPES = ("cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, vulkan, mps, "
                "meta, hpu, mtia, privateuseone")


def _state(device_type, fn: str) -> list:
    kind = _kind(device_type) if isinstance(device_type, str) else None
    if kind is None:
        if isinstance(device_type, str) and device_type not in _TORCH_TYPES.split(", "):
            raise RuntimeError(f"Expected one of {_TORCH_TYPES} device type at start of device string: {device_type}")
        raise RuntimeError(f"User specified an unsupported autocast device_type '{device_type}'")
    return _STATE[kind]


def is_autocast_enabled(device_type: str | None = None) -> bool:
    """Whether autocast is on for ``device_type``; without it, for ``'cuda'`` (the WebGPU device), as in PyTorch.

    Example::

        >>> with torch.autocast("cpu"):
        ...     torch.is_autocast_enabled("cpu"), torch.is_autocast_enabled()
        (True, False)
    """
    return _state("cuda" if device_type is None else device_type, "is_autocast_enabled")[0]


def set_autocast_enabled(device_type, enabled=None) -> None:
    """Turn autocast on or off for ``device_type`` (``set_autocast_enabled(True)`` alone means ``'cuda'``).

    Example::

        >>> torch.set_autocast_enabled("cpu", False)
    """
    if enabled is None:
        device_type, enabled = "cuda", device_type
    _state(device_type, "set_autocast_enabled")[0] = bool(enabled)
    _sync()


def get_autocast_dtype(device_type: str) -> _dtype.dtype:
    """The dtype autocast casts to on ``device_type``: ``torch.bfloat16`` for ``'cpu'``, ``torch.float16`` for
    ``'cuda'`` / ``'webgpu'``, unless a region or :func:`set_autocast_dtype` chose another.

    Example::

        >>> torch.get_autocast_dtype("cpu")
        torch.bfloat16
    """
    return _state(device_type, "get_autocast_dtype")[1]


def set_autocast_dtype(device_type: str, dtype: _dtype.dtype) -> None:
    """Set the dtype autocast casts to on ``device_type``.

    Example::

        >>> torch.set_autocast_dtype("cpu", torch.bfloat16)
    """
    _state(device_type, "set_autocast_dtype")[1] = dtype


def is_autocast_cache_enabled() -> bool:
    """The ``cache_enabled`` flag of the innermost autocast region (True outside regions).

    Example::

        >>> torch.is_autocast_cache_enabled()
        True
    """
    return _CACHE[0]


def set_autocast_cache_enabled(enabled: bool) -> None:
    """Set the ``cache_enabled`` flag (no cast is cached here: see the module docs).

    Example::

        >>> torch.set_autocast_cache_enabled(True)
    """
    _CACHE[0] = bool(enabled)


def clear_autocast_cache() -> None:
    """Drop autocast's cached casts (none are kept here; PyTorch's name, for code that calls it).

    Example::

        >>> torch.clear_autocast_cache()
    """


def _webgpu_reason(device_type: str) -> str | None:
    """Why autocast cannot run on the WebGPU device here (None when it can)."""
    from .. import webgpu
    if not webgpu.is_available():
        return ("CUDA is not available or torch_xla is imported. Disabling autocast." if device_type == "cuda" else
                "WebGPU is not available. Disabling autocast.")
    return None


class autocast:
    """A region (or a decorated function) whose ops run in mixed precision, as ``torch.autocast``.

    Args:
        device_type: ``'cpu'``, or ``'cuda'`` / ``'webgpu'`` (the WebGPU device): the ops on tensors of this
            device type are cast.
        dtype: what the lower-precision ops run in (``torch.bfloat16`` or ``torch.float16``); default
            :func:`get_autocast_dtype` (bfloat16 on cpu, float16 on the GPU).
        enabled: ``False`` makes a region that turns autocast off (nested inside an enabled one, say).
        cache_enabled: accepted and reported by :func:`is_autocast_cache_enabled`; nothing is cached.

    Matrix products, ``linear`` and convolutions run in ``dtype``; losses, ``prod``, ``cdist``, 3-d pooling
    and the decompositions run in float32 (PyTorch's CPU lists, ``LOWER_PRECISION`` and ``FLOAT32``);
    other ops take their inputs' dtypes. Without WebGPU, ``'cuda'`` warns and disables itself as PyTorch
    does without CUDA; float16 on a WebGPU adapter without ``shader-f16`` warns and disables itself too.

    Example::

        >>> a, b = torch.ones(2, 3, device="cpu"), torch.ones(3, 2, device="cpu")
        >>> with torch.autocast("cpu"):
        ...     (a @ b).dtype, torch.nn.functional.mse_loss(a.bfloat16(), a.bfloat16()).dtype
        (torch.bfloat16, torch.float32)
    """

    def __init__(self, device_type: str, dtype: _dtype.dtype | None = None, enabled: bool = True,
                 cache_enabled: bool | None = None) -> None:
        if not isinstance(device_type, str):
            t = type(device_type)
            shown = f"<class 'torch.{t.__name__}'>" if t.__module__.startswith("borch_webgpu") else str(t)
            raise ValueError(f"Expected `device_type` of type `str`, got: `{shown}`")
        self.fast_dtype = get_autocast_dtype(device_type) if dtype is None else dtype
        if not is_autocast_available(device_type):
            raise RuntimeError(f"User specified an unsupported autocast device_type '{device_type}'")
        self.device = device_type
        self._cache_enabled = is_autocast_cache_enabled() if cache_enabled is None else cache_enabled
        supported = (_dtype.bfloat16, _dtype.float16)
        name = self.device.upper()
        if enabled:
            reason = _webgpu_reason(device_type) if _kind(device_type) == "webgpu" else None
            if reason is None and self.fast_dtype not in supported:
                reason = (f"In {name} autocast, but the target dtype is not supported. Disabling autocast.\n"
                          f"{name} Autocast only supports dtypes of torch.bfloat16, torch.float16 currently.")
            if reason is None and _kind(device_type) == "webgpu" and self.fast_dtype is _dtype.float16:
                from ..device.webgpu import runtime
                if "shader-f16" not in runtime().features:
                    reason = (f"In {name} autocast, but this WebGPU adapter has no 'shader-f16', so float16 "
                              "cannot run on it. Disabling autocast (use dtype=torch.bfloat16, or float32).")
            if reason is not None:
                warnings.warn(reason, stacklevel=2)
                enabled = False
        self._enabled = enabled

    def __enter__(self) -> "autocast":
        st = _STATE[_kind(self.device)]
        self.prev_cache_enabled, self.prev, self.prev_fastdtype = _CACHE[0], st[0], st[1]
        st[0], st[1] = self._enabled, self.fast_dtype
        _NESTING[0] += 1
        _CACHE[0] = self._cache_enabled
        _sync()
        return self

    def __exit__(self, exc_type, exc_val, exc_tb) -> bool:
        _NESTING[0] -= 1
        st = _STATE[_kind(self.device)]
        st[0], st[1] = self.prev, self.prev_fastdtype
        _CACHE[0] = self.prev_cache_enabled
        _sync()
        return False

    def __call__(self, func):
        if not callable(func):
            raise TypeError(f"autocast()(func) requires a callable, but got {type(func).__name__}. "
                            "Did you mean to use autocast as a context manager? For example:\n"
                            "    with torch.autocast(device_type=...):\n"
                            "        output = model(input)")

        @functools.wraps(func)
        def decorate_autocast(*args, **kwargs):
            with self:
                return func(*args, **kwargs)
        return decorate_autocast


# ---- the casts --------------------------------------------------------------------------------------------
def _cast(value, kind: str, dtype):
    """PyTorch's autocast cast: floating tensors (not float64) of device type ``kind`` become ``dtype``."""
    from ..tensor import Tensor
    if isinstance(value, Tensor):
        ok = value.dtype.is_floating_point and value.dtype is not _dtype.float64 and _kind(value.device.type) == kind
        return value.to(dtype) if ok and value.dtype is not dtype else value
    if isinstance(value, (str, bytes)):
        return value
    if isinstance(value, collections.abc.Mapping):
        return {k: _cast(v, kind, dtype) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_cast(v, kind, dtype) for v in value)
    return value


def _device_kind(args, kwargs) -> str | None:
    from ..tensor import Tensor
    for v in (*args, *kwargs.values()):
        if isinstance(v, Tensor):
            return _kind(v.device.type)
        if isinstance(v, (list, tuple)):
            for x in v:
                if isinstance(x, Tensor):
                    return _kind(x.device.type)
    return None


def _wrap(fn, lower: bool, name: str):
    @functools.wraps(fn)
    def autocast_call(*args, **kwargs):
        if _INSIDE[0] or kwargs.get("out") is not None or kwargs.get("dtype") is not None:
            return fn(*args, **kwargs)
        if name == "pad" and kwargs.get("mode", args[2] if len(args) > 2 else "constant") not in _PAD_MODES:
            return fn(*args, **kwargs)
        kind = _device_kind(args, kwargs)
        st = _STATE.get(kind) if kind else None
        if st is None or not st[0]:
            return fn(*args, **kwargs)
        to = st[1] if lower else _dtype.float32
        args, kwargs = _cast(args, kind, to), _cast(kwargs, kind, to)
        _INSIDE[0] += 1
        try:
            return fn(*args, **kwargs)
        finally:
            _INSIDE[0] -= 1
    autocast_call.__wrapped_by_autocast__ = True
    return autocast_call


def _owners() -> dict:
    import sys

    from .. import linalg
    from ..nn import functional
    from ..tensor import Tensor
    return {"torch": sys.modules["borch_webgpu"], "functional": functional, "linalg": linalg, "Tensor": Tensor}


def _sync() -> None:
    """Install the wrappers while autocast is on for some device type; remove them when it is off everywhere."""
    on = any(st[0] for st in _STATE.values())
    if on and not _SAVED:
        import sys
        owners = _owners()
        wrapped: dict = {}   # id(original function) -> (original, its wrapper)
        for lists, lower in ((LOWER_PRECISION, True), (FLOAT32, False)):
            for where, names in lists.items():
                owner = owners[where]
                for name in names:
                    orig = vars(owner).get(name) if isinstance(owner, type) else getattr(owner, name, None)
                    if orig is None:
                        continue
                    new = wrapped.setdefault(id(orig), (orig, _wrap(orig, lower, name)))[1]
                    _SAVED.append((owner, name, orig))
                    setattr(owner, name, new)
        # the same functions where borch_webgpu's own modules call them (nn.MultiheadAttention's linear, ...):
        # ops inside an op that is not on a list autocast too, as PyTorch's composite ops do
        for mod_name, mod in list(sys.modules.items()):
            if not mod_name.startswith("borch_webgpu.") or mod in owners.values() or mod is None:
                continue
            for key, value in list(vars(mod).items()):
                hit = wrapped.get(id(value))
                if hit is not None and hit[0] is value:
                    _SAVED.append((mod, key, value))
                    setattr(mod, key, hit[1])
    elif not on and _SAVED:
        while _SAVED:
            owner, name, orig = _SAVED.pop()
            setattr(owner, name, orig)
