"""``torch.nn.intrinsic``: the fused-module containers, the same classes as ``torch.ao.nn.intrinsic``
(PyTorch keeps this older name as an alias)."""
from ...ao.nn.intrinsic import (BNReLU2d, BNReLU3d, ConvBn1d, ConvBn2d, ConvBnReLU1d, ConvBnReLU2d, ConvReLU1d,
                                ConvReLU2d, LinearBn1d, LinearReLU)
from ...ao.nn.intrinsic import modules  # noqa: F401
from ...ao.nn.intrinsic.modules.fused import _FusedModule  # noqa: F401

__all__ = ["ConvBn1d", "ConvBn2d", "ConvBnReLU1d", "ConvBnReLU2d", "ConvReLU1d", "ConvReLU2d", "LinearReLU",
           "BNReLU2d", "BNReLU3d", "LinearBn1d"]
