"""``torch.ao.nn.intrinsic``: containers that mark a run of layers as one fused unit (``ConvReLU2d``,
``ConvBn2d``, ``ConvBnReLU2d``, ``LinearReLU``, ``BNReLU2d``, ...). PyTorch's 3-d convolution
variants (``ConvReLU3d``, ``ConvBn3d``, ``ConvBnReLU3d``) are absent: there is no ``nn.Conv3d`` here."""
from .modules import *  # noqa: F401,F403
from .modules import __all__ as _all
from .modules.fused import _FusedModule  # noqa: F401

__all__ = list(_all)
