"""Which fuser method handles which run of layer types (PyTorch's ``_DEFAULT_OP_LIST_TO_FUSER_METHOD``):
conv + bn, conv + bn + relu, conv + relu, linear + bn, linear + relu, bn + relu, convtranspose + bn.

``is_qat=False`` (``fuse_modules``) folds a BatchNorm into the layer before it, which needs eval
mode; ``is_qat=True`` (``fuse_modules_qat``) keeps it and returns an intrinsic container
(``ConvBn2d``, ``ConvBnReLU2d``, ``LinearBn1d``). The 3-d convolution entries are absent: there is
no ``nn.Conv3d`` here.
"""
from __future__ import annotations

from ...nn.modules.activation import ReLU
from ...nn.modules.batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
from ...nn.modules.conv import Conv1d, Conv2d, ConvTranspose1d, ConvTranspose2d
from ...nn.modules.linear import Linear
from ...nn.utils.fusion import fuse_conv_bn_eval, fuse_linear_bn_eval
from ..nn import intrinsic as nni

__all__ = ["fuse_conv_bn", "fuse_conv_bn_relu", "fuse_linear_bn", "fuse_convtranspose_bn", "get_fuser_method"]


def _check_qat_bn(bn, channels: int, message: str, name: str) -> None:
    if bn.num_features != channels:
        raise AssertionError(message)
    if not bn.affine:
        raise AssertionError(f"Only support fusing {name} with affine set to True")
    if not bn.track_running_stats:
        raise AssertionError(f"Only support fusing {name} with tracking_running_stats set to True")


def _container(table: dict, mode: str, conv, *mods):
    """The intrinsic class for ``type(conv)``, or PyTorch's NotImplementedError naming the modules."""
    cls = table.get(type(conv))
    if cls is None:
        raise NotImplementedError(f"Cannot fuse {mode} modules: {(conv, *mods)}")
    return cls


def fuse_conv_bn(is_qat: bool, conv, bn):
    """A conv and the BatchNorm after it as one module: ``fuse_conv_bn_eval``'s folded conv, or (``is_qat``)
    a ``ConvBn1d`` / ``ConvBn2d`` holding both.

    Example::

        >>> import borch_webgpu as torch
        >>> from borch_webgpu.ao.quantization import fuse_conv_bn
        >>> fuse_conv_bn(True, torch.nn.Conv2d(1, 2, 1), torch.nn.BatchNorm2d(2)).__class__.__name__
        'ConvBn2d'
    """
    if conv.training != bn.training:
        raise AssertionError("Conv and BN both must be in the same mode (train or eval).")
    if is_qat:
        _check_qat_bn(bn, conv.out_channels, "Output channel of Conv2d must match num_features of BatchNorm2d.",
                      "BatchNorm2d")
        return _container({Conv1d: nni.ConvBn1d, Conv2d: nni.ConvBn2d}, "train", conv, bn)(conv, bn)
    return fuse_conv_bn_eval(conv, bn)


def fuse_conv_bn_relu(is_qat: bool, conv, bn, relu):
    """A conv, BatchNorm and ReLU as one module: a ``ConvReLU1d`` / ``ConvReLU2d`` around the folded conv,
    or (``is_qat``) a ``ConvBnReLU1d`` / ``ConvBnReLU2d`` holding all three."""
    if not (conv.training == bn.training == relu.training):
        raise AssertionError("Conv and BN both must be in the same mode (train or eval).")
    if is_qat:
        _check_qat_bn(bn, conv.out_channels, "Output channel of Conv2d must match num_features of BatchNorm2d",
                      "BatchNorm2d")
        fused_module = _container({Conv1d: nni.ConvBnReLU1d, Conv2d: nni.ConvBnReLU2d}, "train", conv, bn, relu)
        return fused_module(conv, bn, relu)
    fused_module = _container({Conv1d: nni.ConvReLU1d, Conv2d: nni.ConvReLU2d}, "eval", conv, bn, relu)
    return fused_module(fuse_conv_bn_eval(conv, bn), relu)


def fuse_linear_bn(is_qat: bool, linear, bn):
    """A Linear and the BatchNorm1d after it: ``fuse_linear_bn_eval``'s folded Linear, or (``is_qat``) a
    ``LinearBn1d``."""
    if linear.training != bn.training:
        raise AssertionError("Linear and BN both must be in the same mode (train or eval).")
    if is_qat:
        _check_qat_bn(bn, linear.out_features, "Output features of Linear must match num_features of BatchNorm1d",
                      "BatchNorm1d")
        return nni.LinearBn1d(linear, bn)
    return fuse_linear_bn_eval(linear, bn)


def fuse_convtranspose_bn(is_qat: bool, convt, bn):
    """A transposed conv and the BatchNorm after it: the folded transposed conv (not supported for QAT)."""
    if convt.training != bn.training:
        raise AssertionError("ConvTranspose and BN both must be in the same mode (train or eval).")
    if is_qat:
        raise Exception("Fusing ConvTranspose+BatchNorm not yet supported in QAT.")  # PyTorch's type
    return fuse_conv_bn_eval(convt, bn, transpose=True)


def _sequential_wrapper2(sequential):
    """A fuser method that ignores ``is_qat`` and returns ``sequential(m1, m2)``."""
    def fuser_method(is_qat, m1, m2):
        return sequential(m1, m2)
    return fuser_method


_DEFAULT_OP_LIST_TO_FUSER_METHOD: dict = {
    (Conv1d, BatchNorm1d): fuse_conv_bn,
    (Conv1d, BatchNorm1d, ReLU): fuse_conv_bn_relu,
    (Conv2d, BatchNorm2d): fuse_conv_bn,
    (Conv2d, BatchNorm2d, ReLU): fuse_conv_bn_relu,
    (Conv1d, ReLU): _sequential_wrapper2(nni.ConvReLU1d),
    (Conv2d, ReLU): _sequential_wrapper2(nni.ConvReLU2d),
    (Linear, BatchNorm1d): fuse_linear_bn,
    (Linear, ReLU): _sequential_wrapper2(nni.LinearReLU),
    (BatchNorm2d, ReLU): _sequential_wrapper2(nni.BNReLU2d),
    (BatchNorm3d, ReLU): _sequential_wrapper2(nni.BNReLU3d),
    (ConvTranspose1d, BatchNorm1d): fuse_convtranspose_bn,
    (ConvTranspose2d, BatchNorm2d): fuse_convtranspose_bn,
}


def get_fuser_method(op_list, additional_fuser_method_mapping=None):
    """The fuser method for a tuple of module types (the defaults, then ``additional_fuser_method_mapping``);
    an ``AssertionError`` naming the types when there is none.

    Example::

        >>> import borch_webgpu as torch
        >>> from borch_webgpu.ao.quantization import get_fuser_method
        >>> get_fuser_method((torch.nn.Conv2d, torch.nn.BatchNorm2d)).__name__
        'fuse_conv_bn'
    """
    all_mappings = {**_DEFAULT_OP_LIST_TO_FUSER_METHOD, **(additional_fuser_method_mapping or {})}
    fuser_method = all_mappings.get(op_list, None)
    if fuser_method is None:
        raise AssertionError(f"did not find fuser method for: {op_list} ")
    return fuser_method
