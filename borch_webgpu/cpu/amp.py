"""``torch.cpu.amp``: the deprecated ``autocast`` and ``GradScaler`` (use ``torch.amp``)."""
from __future__ import annotations

from ..amp._deprecated import CpuAutocast as autocast
from ..amp._deprecated import CpuGradScaler as GradScaler

__all__ = ["autocast", "GradScaler"]
