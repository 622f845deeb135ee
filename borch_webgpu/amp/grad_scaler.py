"""``torch.amp.GradScaler``: loss scaling for low-precision training, PyTorch's algorithm and messages.

``scale(loss)`` multiplies by the scale (2**16 at first); ``step(optimizer)`` unscales the gradients
(``unscale_``), skips ``optimizer.step()`` when one of them is inf or NaN, and ``update()`` halves the
scale after a skipped step (``backoff_factor``) or doubles it after ``growth_interval`` good steps in a
row (``growth_factor``). ``device='cuda'`` (the default) means the WebGPU device: without WebGPU (plain
CPython) it warns and disables itself, exactly as PyTorch's CPU-only build does without CUDA.
"""
from __future__ import annotations

import warnings
from collections import abc, defaultdict
from enum import Enum

import numpy as np

from .. import _dtype

__all__ = ["OptState", "GradScaler"]


class OptState(Enum):
    READY = 0
    UNSCALED = 1
    STEPPED = 2


def _fresh() -> dict:
    return {"stage": OptState.READY, "found_inf_per_device": {}}


class GradScaler:
    """Scales the loss so that low-precision gradients do not underflow, and skips steps whose gradients
    overflowed (``torch.amp.GradScaler``).

    Args:
        device: ``'cuda'`` (the WebGPU device; disabled with a warning when there is none), ``'webgpu'`` or
            ``'cpu'``.
        init_scale: the first scale. growth_factor / backoff_factor: what ``update()`` multiplies it by after
            ``growth_interval`` good steps / after a step with inf or NaN gradients. enabled: ``False``
            makes every method a pass-through (``scale`` returns its input, ``step`` just steps).

    Example::

        >>> w = torch.nn.Parameter(torch.ones(2, device="cpu"))
        >>> opt = torch.optim.SGD([w], lr=0.1)
        >>> scaler = torch.amp.GradScaler("cpu", init_scale=4.0)
        >>> scaler.scale((w * 3).sum()).backward()
        >>> w.grad
        tensor([12., 12.])
        >>> scaler.step(opt); scaler.update()
        >>> w.detach(), scaler.get_scale()
        (tensor([0.7000, 0.7000]), 4.0)
    """

    def __init__(self, device: str = "cuda", init_scale: float = 2.0 ** 16, growth_factor: float = 2.0,
                 backoff_factor: float = 0.5, growth_interval: int = 2000, enabled: bool = True) -> None:
        self._device = device
        self._enabled = enabled
        if device in ("cuda", "webgpu") and enabled:
            from .. import webgpu
            if not webgpu.is_available():
                warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling."
                              if device == "cuda" else
                              "torch.amp.GradScaler is enabled, but WebGPU is not available.  Disabling.",
                              stacklevel=2)
                self._enabled = False
        if self._enabled:
            if growth_factor <= 1.0:
                raise AssertionError("The growth factor must be > 1.0.")
            if backoff_factor >= 1.0:
                raise AssertionError("The backoff factor must be < 1.0.")
            self._init_scale = init_scale
            self._scale = None
            self._growth_factor = growth_factor
            self._backoff_factor = backoff_factor
            self._growth_interval = growth_interval
            self._init_growth_tracker = 0
            self._growth_tracker = None
            self._per_optimizer_states = defaultdict(_fresh)

    def _check_scale_growth_tracker(self, funcname: str):
        fix = "This may indicate your script did not use scaler.scale(loss or outputs) earlier in the iteration."
        if self._scale is None:
            raise AssertionError(f"Attempted {funcname} but _scale is None.  " + fix)
        if self._growth_tracker is None:
            raise AssertionError(f"Attempted {funcname} but _growth_tracker is None.  " + fix)
        return self._scale, self._growth_tracker

    def _lazy_init_scale_growth_tracker(self, dev) -> None:
        from ..ops.creation import full
        if self._growth_tracker is not None:
            raise AssertionError("_growth_tracker initialized before _scale")
        self._scale = full((), self._init_scale, dtype=_dtype.float32, device=dev)
        self._growth_tracker = full((), self._init_growth_tracker, dtype=_dtype.int32, device=dev)

    def scale(self, outputs):
        """``outputs`` (a tensor, or an iterable of them) times the current scale; unchanged when disabled."""
        from ..tensor import Tensor
        if not self._enabled:
            return outputs

        def apply(val):
            if isinstance(val, Tensor):
                if self._scale is None:
                    self._lazy_init_scale_growth_tracker(val.device)
                return val * self._scale.to(device=val.device)
            if isinstance(val, abc.Iterable):
                it = map(apply, val)
                return type(val)(it) if isinstance(val, (list, tuple)) else it
            raise ValueError("outputs must be a Tensor or an iterable of Tensors")
        return apply(outputs)

    def _unscale_grads_(self, optimizer, inv_scale, found_inf, allow_fp16: bool) -> dict:
        from .. import autograd
        from ..tensor import Tensor
        per_device: dict = {}
        with autograd.no_grad():
            for group in optimizer.param_groups:
                for param in group["params"]:
                    if not isinstance(param, Tensor):
                        raise AssertionError(f"expected param to be torch.Tensor, got {type(param).__name__}")
                    if param.grad is None:
                        continue
                    if not allow_fp16 and param.grad.dtype is _dtype.float16:
                        raise ValueError("Attempting to unscale FP16 gradients.")
                    g = param.grad
                    dev = g.device
                    if dev not in per_device:
                        per_device[dev] = (found_inf.to(device=dev, copy=True), inv_scale.to(device=dev, copy=True))
                    fi, inv = per_device[dev]
                    # PyTorch's _amp_foreach_non_finite_check_and_unscale_: flag inf/NaN, then multiply
                    fi.copy_(fi.maximum(g.isfinite().logical_not().any().float()))
                    g.mul_(inv)
        return {dev: fi for dev, (fi, _) in per_device.items()}

    def unscale_(self, optimizer) -> None:
        """Divide ``optimizer``'s gradients by the scale in place (once per step: ``step`` calls it when you
        have not), recording whether any is inf or NaN."""
        from ..ops.creation import full
        if not self._enabled:
            return
        self._check_scale_growth_tracker("unscale_")
        state = self._per_optimizer_states[id(optimizer)]
        if state["stage"] is OptState.UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")
        if state["stage"] is OptState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        inv_scale = self._scale.double().reciprocal().float()
        found_inf = full((), 0.0, dtype=_dtype.float32, device=self._scale.device)
        state["found_inf_per_device"] = self._unscale_grads_(optimizer, inv_scale, found_inf, False)
        state["stage"] = OptState.UNSCALED

    def step(self, optimizer, *args, **kwargs):
        """Unscale (unless ``unscale_`` ran) and call ``optimizer.step(*args, **kwargs)`` unless a gradient is
        inf or NaN; returns what it returned (None for a skipped step)."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        self._check_scale_growth_tracker("step")
        state = self._per_optimizer_states[id(optimizer)]
        if state["stage"] is OptState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["stage"] is OptState.READY:
            self.unscale_(optimizer)
        if len(state["found_inf_per_device"]) == 0:
            raise AssertionError("No inf checks were recorded for this optimizer.")
        retval = None
        if not sum(v.item() for v in state["found_inf_per_device"].values()):
            retval = optimizer.step(*args, **kwargs)
        state["stage"] = OptState.STEPPED
        return retval

    def update(self, new_scale=None) -> None:
        """Back the scale off after a skipped step, grow it after ``growth_interval`` good ones, or set it to
        ``new_scale`` (a float or a one-element float32 tensor)."""
        from ..tensor import Tensor
        if not self._enabled:
            return
        _scale, _growth_tracker = self._check_scale_growth_tracker("update")
        if new_scale is not None:
            if isinstance(new_scale, float):
                _scale.fill_(new_scale)
            else:
                reason = ("new_scale should be a float or a 1-element torch.cuda.FloatTensor or "
                          "torch.FloatTensor with requires_grad=False.")
                if not isinstance(new_scale, Tensor) or new_scale.device.type != _scale.device.type or \
                        new_scale.numel() != 1 or new_scale.requires_grad:
                    raise AssertionError(reason)
                _scale.copy_(new_scale)
        else:
            found = [fi.to(device=_scale.device) for st in self._per_optimizer_states.values()
                     for fi in st["found_inf_per_device"].values()]
            if len(found) == 0:
                raise AssertionError("No inf checks were recorded prior to update.")
            # PyTorch's _amp_update_scale_
            if sum(f.item() for f in found):
                _scale.mul_(self._backoff_factor)
                _growth_tracker.fill_(0)
            else:
                successful = int(_growth_tracker.item()) + 1
                if successful == self._growth_interval:
                    with np.errstate(over="ignore"):  # computed as the float32 kernel computes it
                        grown = np.float32(_scale.item()) * np.float32(self._growth_factor)
                    if np.isfinite(grown):
                        _scale.mul_(self._growth_factor)
                    _growth_tracker.fill_(0)
                else:
                    _growth_tracker.fill_(successful)
        self._per_optimizer_states = defaultdict(_fresh)

    def get_scale(self) -> float:
        """The current scale as a Python float (1.0 when disabled)."""
        if self._enabled:
            return self._init_scale if self._scale is None else float(self._scale.item())
        return 1.0

    def get_growth_factor(self) -> float:
        """The scale growth factor."""
        return self._growth_factor

    def set_growth_factor(self, new_factor: float) -> None:
        """Set the scale growth factor."""
        self._growth_factor = new_factor

    def get_backoff_factor(self) -> float:
        """The scale backoff factor."""
        return self._backoff_factor

    def set_backoff_factor(self, new_factor: float) -> None:
        """Set the scale backoff factor."""
        self._backoff_factor = new_factor

    def get_growth_interval(self) -> int:
        """The growth interval."""
        return self._growth_interval

    def set_growth_interval(self, new_interval: int) -> None:
        """Set the growth interval."""
        self._growth_interval = new_interval

    def _get_growth_tracker(self) -> int:
        if self._enabled:
            return self._init_growth_tracker if self._growth_tracker is None else int(self._growth_tracker.item())
        return 0

    def is_enabled(self) -> bool:
        """Whether this instance scales (False after the 'CUDA is not available' warning, or enabled=False)."""
        return self._enabled

    def state_dict(self) -> dict:
        """``scale``, ``growth_factor``, ``backoff_factor``, ``growth_interval`` and ``_growth_tracker``
        (an empty dict when disabled)."""
        if self._enabled:
            return {"scale": self.get_scale(), "growth_factor": self._growth_factor,
                    "backoff_factor": self._backoff_factor, "growth_interval": self._growth_interval,
                    "_growth_tracker": self._get_growth_tracker()}
        return {}

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore what :meth:`state_dict` returned."""
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved "
                               "from a disabled instance of GradScaler.")
        self._init_scale = float(state_dict["scale"])
        if self._scale is not None:
            self._scale.fill_(state_dict["scale"])
        self._growth_factor = float(state_dict["growth_factor"])
        self._backoff_factor = float(state_dict["backoff_factor"])
        self._growth_interval = int(state_dict["growth_interval"])
        self._init_growth_tracker = int(state_dict["_growth_tracker"])
        if self._growth_tracker is not None:
            self._growth_tracker.fill_(state_dict["_growth_tracker"])

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        if self._enabled:
            if len(self._per_optimizer_states) != 0:
                raise AssertionError("A GradScaler instance may only be pickled at the beginning "
                                     "of an iteration, or at the end after scaler.update().")
            state["_init_scale"] = self.get_scale()
            state["_init_growth_tracker"] = self._get_growth_tracker()
            state["_scale"] = None
            state["_growth_tracker"] = None
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
