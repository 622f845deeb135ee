"""``torch.backends``: the switches that code written for CUDA, cuDNN or Apple's MPS sets or asks about
(``torch.backends.cudnn.benchmark = True``, ``torch.backends.mps.is_available()``). None of those libraries exist
here, so the availability questions answer False, truthfully; the switches are kept and change nothing (the
WebGPU kernels are chosen by shape, and float32 matmuls never use TF32)."""
from . import cuda, cudnn, mps

__all__ = ["cuda", "cudnn", "mps"]
