"""``torch.backends.cuda``: borch_webgpu is not built with CUDA (``torch.cuda`` stands for the WebGPU device);
``matmul.allow_tf32`` and its kin can be set (PyTorch's defaults) and change nothing: matmuls are float32."""
from __future__ import annotations

__all__ = ["is_built", "matmul"]


class _Matmul:
    def __init__(self) -> None:
        self.allow_tf32 = False
        self.allow_fp16_reduced_precision_reduction = True
        self.allow_bf16_reduced_precision_reduction = True


matmul = _Matmul()


def is_built() -> bool:
    """False: not built with CUDA.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.backends.cuda.is_built()
        False
    """
    return False
