"""``torch.ao.nn.intrinsic.modules``: the fused-module containers (see ``fused``)."""
from .fused import (BNReLU2d, BNReLU3d, ConvAdd2d, ConvAddReLU2d, ConvBn1d, ConvBn2d, ConvBnReLU1d, ConvBnReLU2d,
                    ConvReLU1d, ConvReLU2d, LinearBn1d, LinearLeakyReLU, LinearReLU, LinearTanh, _FusedModule)

__all__ = ["ConvBn1d", "ConvBn2d", "ConvBnReLU1d", "ConvBnReLU2d", "ConvReLU1d", "ConvReLU2d", "LinearReLU",
           "BNReLU2d", "BNReLU3d", "LinearBn1d", "LinearLeakyReLU", "LinearTanh", "ConvAdd2d", "ConvAddReLU2d"]
