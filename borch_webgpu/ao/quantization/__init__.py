"""``torch.ao.quantization``: module fusion only (``fuse_modules``, ``fuse_modules_qat``, the fuser
methods and ``get_fuser_method``); observers, qconfigs and quantized kernels are not here."""
from .fuse_modules import fuse_modules, fuse_modules_qat
from .fuser_method_mappings import fuse_conv_bn, fuse_conv_bn_relu, fuse_convtranspose_bn, fuse_linear_bn, \
    get_fuser_method

__all__ = ["fuse_modules", "fuse_modules_qat", "fuse_conv_bn", "fuse_conv_bn_relu", "fuse_convtranspose_bn",
           "fuse_linear_bn", "get_fuser_method"]
