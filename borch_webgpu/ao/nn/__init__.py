"""``torch.ao.nn``: the ``intrinsic`` (fused) modules; PyTorch's quantized and QAT modules are not here."""
from . import intrinsic

__all__ = ["intrinsic"]
