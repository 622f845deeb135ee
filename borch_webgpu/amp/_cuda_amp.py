"""``torch.cuda.amp``: the deprecated ``autocast`` and ``GradScaler`` ('cuda' is the WebGPU device)."""
from __future__ import annotations

from ._deprecated import CudaAutocast as autocast
from ._deprecated import CudaGradScaler as GradScaler

__all__ = ["autocast", "GradScaler"]
