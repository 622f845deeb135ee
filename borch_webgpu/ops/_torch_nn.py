"""The ``torch.*`` names PyTorch gives its nn ops (``torch.conv2d``, ``torch.batch_norm``, ``torch.dropout``, ...).

Where torch's signature is F's, the name is F's function; where it differs (ATen's argument order, positional
``train`` flags) a wrapper here takes torch's arguments and calls F. The losses, constant_pad_nd and grid_sampler
are in _torch_nn_loss.py.
"""
from __future__ import annotations

from ..tensor import Tensor
from . import _nn_3d, _nn_act, _nn_extra, conv, nn_ops, pooling, upsample
from ._registry import OpDef, methods, register

__all__: list[str] = []

# its golden group holds the cases of every torch.* name here; each calls F's ops (their own kernels)
register(OpDef("convolution", "nn", None, None, tol=(1e-5, 1e-5), extra={"messages": True},
               doc="conv1d/2d/3d or conv_transpose1d/2d/3d by the weight's rank (ATen's arguments)"))

def convolution(input: Tensor, weight: Tensor, bias: Tensor | None, stride, padding, dilation, transposed: bool,
                output_padding, groups: int) -> Tensor:
    """ATen's convolution: ``conv1d/2d/3d`` or, with ``transposed``, ``conv_transpose1d/2d/3d``, by the weight's rank.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.convolution(torch.ones(1, 1, 3), torch.ones(1, 1, 2), None, [1], [0], [1], True, [0], 1)
        tensor([[[1., 2., 2., 1.]]])
    """
    d = weight.dim() - 2
    if d not in (1, 2, 3):
        raise RuntimeError(f"convolution: expected a 3-D, 4-D or 5-D weight, got {list(weight._shape)}")
    if transposed:
        fn = {1: _nn_extra.conv_transpose1d, 2: conv.conv_transpose2d, 3: _nn_3d.conv_transpose3d}[d]
        return fn(input, weight, bias, stride, padding, output_padding, groups, dilation)
    fn = {1: conv.conv1d, 2: conv.conv2d, 3: _nn_3d.conv3d}[d]
    return fn(input, weight, bias, stride, padding, dilation, groups)


def _stride(stride):
    return None if stride is None or (isinstance(stride, (list, tuple)) and len(stride) == 0) else stride


def max_pool1d(input: Tensor, kernel_size, stride=(), padding=0, dilation=1, ceil_mode: bool = False) -> Tensor:
    """``F.max_pool1d`` with ATen's arguments (an empty ``stride`` means ``kernel_size``).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.max_pool1d(torch.tensor([[[1., 3., 2., 0.]]]), 2)
        tensor([[[3., 2.]]])
    """
    return pooling.max_pool1d(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


def max_pool2d(input: Tensor, kernel_size, stride=(), padding=0, dilation=1, ceil_mode: bool = False) -> Tensor:
    """``F.max_pool2d`` with ATen's arguments (an empty ``stride`` means ``kernel_size``).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.max_pool2d(torch.tensor([[[[1., 3.], [4., 2.]]]]), 2)
        tensor([[[[4.]]]])
    """
    return pooling.max_pool2d(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


def max_pool3d(input: Tensor, kernel_size, stride=(), padding=0, dilation=1, ceil_mode: bool = False) -> Tensor:
    """``F.max_pool3d`` with ATen's arguments (an empty ``stride`` means ``kernel_size``).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.max_pool3d(torch.arange(8.).reshape(1, 1, 2, 2, 2), 2)
        tensor([[[[[7.]]]]])
    """
    return _nn_3d.max_pool3d(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


def max_pool1d_with_indices(input: Tensor, kernel_size, stride=(), padding=0, dilation=1, ceil_mode: bool = False):
    """(values, int64 argmax positions) of a 1-D max pool, with ATen's arguments.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.max_pool1d_with_indices(torch.tensor([[[1., 3., 2., 0.]]]), 2)[1]
        tensor([[[1, 2]]])
    """
    return pooling.max_pool1d(input, kernel_size, _stride(stride), padding, dilation, ceil_mode, True)


def adaptive_max_pool1d(input: Tensor, output_size):
    """(values, int64 argmax positions) of ``F.adaptive_max_pool1d``: ATen's form always returns both.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.adaptive_max_pool1d(torch.tensor([[[1., 3., 2., 5.]]]), 2)[0]
        tensor([[[3., 5.]]])
    """
    return _nn_extra.adaptive_max_pool1d(input, output_size, True)


def dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """``F.dropout(input, p, training=train)`` (ATen's positional form).

    Example::

        >>> import borch_webgpu as torch
        >>> x = torch.ones(3)
        >>> torch.dropout(x, 0.5, False) is x
        True
    """
    return nn_ops.dropout(input, p, train)


def dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place :func:`dropout`.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.dropout_(torch.ones(3), 0.5, False)
        tensor([1., 1., 1.])
    """
    return nn_ops.dropout(input, p, train, True)


def feature_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """Dropout of whole channels of an (N, C, ...) input (what ``F.dropout2d`` and ``F.dropout3d`` call).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.feature_dropout(torch.ones(2, 3), 0.5, False)
        tensor([[1., 1., 1.],
                [1., 1., 1.]])
    """
    from .nn_ops import _check_p, _feature_dropout
    _check_p(p)
    return _feature_dropout(input, p, train, False)


def feature_dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place :func:`feature_dropout`.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.feature_dropout_(torch.ones(1, 2), 0.5, False)
        tensor([[1., 1.]])
    """
    from .nn_ops import _check_p, _feature_dropout
    _check_p(p)
    return _feature_dropout(input, p, train, True)


def alpha_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """``F.alpha_dropout(input, p, training=train)``.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.alpha_dropout(torch.ones(2), 0.5, False)
        tensor([1., 1.])
    """
    return _nn_extra.alpha_dropout(input, p, train)


def alpha_dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place :func:`alpha_dropout`.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.alpha_dropout_(torch.ones(2), 0.5, False)
        tensor([1., 1.])
    """
    return _nn_extra.alpha_dropout(input, p, train, True)


def feature_alpha_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """``F.feature_alpha_dropout(input, p, training=train)``.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.feature_alpha_dropout(torch.ones(1, 2), 0.5, False)
        tensor([[1., 1.]])
    """
    return _nn_extra.feature_alpha_dropout(input, p, train)


def feature_alpha_dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place :func:`feature_alpha_dropout`.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.feature_alpha_dropout_(torch.ones(1, 2), 0.5, False)
        tensor([[1., 1.]])
    """
    return _nn_extra.feature_alpha_dropout(input, p, train, True)


def batch_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None, running_mean: Tensor | None,
               running_var: Tensor | None, training: bool, momentum: float, eps: float, cudnn_enabled: bool) -> Tensor:
    """``F.batch_norm`` with ATen's argument order (weight and bias before the running statistics).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.batch_norm(torch.tensor([[1.], [3.]]), None, None, None, None, True, 0.1, 1e-5, False)
        tensor([[-1.0000],
                [ 1.0000]])
    """
    from ._nn_norm import batch_norm as bn
    return bn(input, running_mean, running_var, weight, bias, training, momentum, eps)


def instance_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None, running_mean: Tensor | None,
                  running_var: Tensor | None, use_input_stats: bool, momentum: float, eps: float,
                  cudnn_enabled: bool) -> Tensor:
    """``F.instance_norm`` with ATen's argument order.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.instance_norm(torch.tensor([[[1., 3.]]]), None, None, None, None, True, 0.1, 1e-5, False)
        tensor([[[-1.0000,  1.0000]]])
    """
    from ._nn_norm import instance_norm as inorm
    return inorm(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps)


def layer_norm(input: Tensor, normalized_shape, weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-5, cudnn_enable: bool = True) -> Tensor:
    """``F.layer_norm`` (``cudnn_enable`` is accepted and ignored).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.layer_norm(torch.tensor([[1., 3.]]), [2])
        tensor([[-1.0000,  1.0000]])
    """
    from ._nn_norm import layer_norm as ln
    return ln(input, normalized_shape, weight, bias, eps)


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-5, cudnn_enabled: bool = True) -> Tensor:
    """``F.group_norm`` (``cudnn_enabled`` is accepted and ignored).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.group_norm(torch.tensor([[[1.], [3.]]]), 1)
        tensor([[[-1.0000],
                 [ 1.0000]]])
    """
    from ._nn_norm import group_norm as gn
    return gn(input, num_groups, weight, bias, eps)


def embedding(weight: Tensor, indices: Tensor, padding_idx: int = -1, scale_grad_by_freq: bool = False,
              sparse: bool = False) -> Tensor:
    """ATen's embedding: the rows of ``weight`` at ``indices`` (weight first; ``padding_idx=-1`` means none).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.embedding(torch.tensor([[0., 1.], [2., 3.]]), torch.tensor([1, 1]))
        tensor([[2., 3.],
                [2., 3.]])
    """
    return nn_ops.embedding(indices, weight, None if padding_idx == -1 else padding_idx, None, 2.0,
                            scale_grad_by_freq, sparse)


def celu(input: Tensor, alpha: float = 1.0) -> Tensor:
    """``F.celu`` (torch's form has no ``inplace``).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.celu(torch.tensor([-2., 1.]), 2.0)
        tensor([-1.2642,  1.0000])
    """
    return _nn_act.celu(input, alpha)


def threshold(input: Tensor, threshold: float, value: float) -> Tensor:
    """``F.threshold`` (torch's form has no ``inplace``).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.threshold(torch.tensor([0., 2.]), 1.0, 5.0)
        tensor([5., 2.])
    """
    return _nn_act.threshold(input, threshold, value)


def rrelu(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False,
          generator=None) -> Tensor:
    """``F.rrelu`` (torch's form takes a ``generator`` instead of ``inplace``).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.rrelu(torch.tensor([-3., 2.]), 0.1, 0.3)
        tensor([-0.6000,  2.0000])
    """
    if generator is not None:
        raise NotImplementedError("rrelu: a generator argument is not supported; seed with torch.manual_seed")
    return _nn_act.rrelu(input, lower, upper, training)


def rrelu_(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False,
           generator=None) -> Tensor:
    """In-place :func:`rrelu`.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.rrelu_(torch.tensor([-3., 2.]), 0.1, 0.3)
        tensor([-0.6000,  2.0000])
    """
    if generator is not None:
        raise NotImplementedError("rrelu_: a generator argument is not supported; seed with torch.manual_seed")
    return _nn_act.rrelu(input, lower, upper, training, True)


# ---- the public names (bound by borch_webgpu/_bind.py) --------------------------------------------------------
# the same function as F's
methods(("conv1d", conv.conv1d), ("conv2d", conv.conv2d), ("conv3d", _nn_3d.conv3d),
        ("conv_transpose1d", _nn_extra.conv_transpose1d), ("conv_transpose2d", conv.conv_transpose2d),
        ("conv_transpose3d", _nn_3d.conv_transpose3d), ("avg_pool1d", pooling.avg_pool1d),
        ("adaptive_avg_pool1d", pooling.adaptive_avg_pool1d), ("pixel_shuffle", upsample.pixel_shuffle),
        ("pixel_unshuffle", upsample.pixel_unshuffle), ("bilinear", nn_ops.bilinear), ("pdist", _nn_extra.pdist),
        ("rms_norm", _nn_act.rms_norm), ("channel_shuffle", _nn_extra.channel_shuffle),
        ("native_channel_shuffle", _nn_extra.native_channel_shuffle), ("relu_", _nn_act.relu_), ("selu_", _nn_act.selu_),
        ("celu_", _nn_act.celu_), ("threshold_", _nn_act.threshold_), tensor=False)
# Tensor methods too, as in PyTorch
methods(("prelu", _nn_act.prelu), ("hardshrink", _nn_act.hardshrink))
# torch's own signatures
methods(("convolution", convolution), ("max_pool1d", max_pool1d), ("max_pool2d", max_pool2d),
        ("max_pool3d", max_pool3d), ("max_pool1d_with_indices", max_pool1d_with_indices),
        ("adaptive_max_pool1d", adaptive_max_pool1d), ("dropout", dropout), ("dropout_", dropout_),
        ("feature_dropout", feature_dropout), ("feature_dropout_", feature_dropout_),
        ("alpha_dropout", alpha_dropout), ("alpha_dropout_", alpha_dropout_),
        ("feature_alpha_dropout", feature_alpha_dropout), ("feature_alpha_dropout_", feature_alpha_dropout_),
        ("batch_norm", batch_norm), ("instance_norm", instance_norm), ("layer_norm", layer_norm),
        ("group_norm", group_norm), ("embedding", embedding), ("celu", celu), ("threshold", threshold),
        ("rrelu", rrelu), ("rrelu_", rrelu_), tensor=False)
