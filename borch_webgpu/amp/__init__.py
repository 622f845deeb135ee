"""``torch.amp``: automatic mixed precision (``autocast`` regions, ``GradScaler``); see autocast_mode.py
and grad_scaler.py."""
from __future__ import annotations

from ._custom import custom_bwd, custom_fwd
from .autocast_mode import autocast, is_autocast_available
from .grad_scaler import GradScaler

__all__ = ["autocast", "is_autocast_available", "GradScaler", "custom_fwd", "custom_bwd"]
