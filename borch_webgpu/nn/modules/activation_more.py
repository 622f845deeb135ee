"""More of PyTorch's layers, thin Modules over ``nn.functional`` with its arguments, parameters and ``repr``:
the remaining activations (torch/nn/modules/activation.py), RMSNorm, the alpha and 3-D dropouts, ChannelShuffle
and the deprecated UpsamplingNearest2d / UpsamplingBilinear2d."""
from __future__ import annotations

import numbers

from ...ops.creation import empty
from ...tensor import Tensor
from .. import functional as F, init
from ..parameter import Parameter
from .dropout import _DropoutNd
from .module import Module
from .upsampling import Upsample

__all__ = ["CELU", "GLU", "Hardshrink", "LogSigmoid", "PReLU", "RReLU", "Softmin", "Softshrink", "Softsign",
           "Tanhshrink", "Threshold", "RMSNorm", "AlphaDropout", "FeatureAlphaDropout", "Dropout3d", "ChannelShuffle",
           "UpsamplingNearest2d", "UpsamplingBilinear2d"]


def _inplace(flag: bool) -> str:
    return ", inplace=True" if flag else ""


class Threshold(Module):
    """``x`` where ``x > threshold``, else ``value``.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.Threshold(0.1, 20)(torch.tensor([0.05, 0.5]))
        tensor([20.0000,  0.5000])
    """

    def __init__(self, threshold: float, value: float, inplace: bool = False) -> None:
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self) -> str:
        return f"threshold={self.threshold}, value={self.value}{_inplace(self.inplace)}"


class RReLU(Module):
    """Randomized leaky ReLU: a random slope in ``[lower, upper]`` per negative element in training, their mean
    in evaluation.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.RReLU(0.1, 0.3).eval()(torch.tensor([-1., 1.]))
        tensor([-0.2000,  1.0000])
    """

    def __init__(self, lower: float = 1.0 / 8, upper: float = 1.0 / 3, inplace: bool = False) -> None:
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"lower={self.lower}, upper={self.upper}{_inplace(self.inplace)}"


class CELU(Module):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.CELU(2.0)(torch.tensor([-2., 1.]))
        tensor([-1.2642,  1.0000])
    """

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.celu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}{_inplace(self.inplace)}"


class GLU(Module):
    """Gated linear unit over ``dim``: ``a * sigmoid(b)`` of the input's two halves.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.GLU()(torch.tensor([[2., 0.]]))
        tensor([[1.]])
    """

    def __init__(self, dim: int = -1) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return F.glu(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Hardshrink(Module):
    """``x`` where ``|x| > lambd``, else 0.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.Hardshrink()(torch.tensor([0.3, -0.8]))
        tensor([ 0.0000, -0.8000])
    """

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = lambd

    def forward(self, input: Tensor) -> Tensor:
        return F.hardshrink(input, self.lambd)

    def extra_repr(self) -> str:
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.Softshrink(1.0)(torch.tensor([3., 0.5]))
        tensor([2., 0.])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.softshrink(input, self.lambd)


class LogSigmoid(Module):
    """``log(sigmoid(x))``.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.LogSigmoid()(torch.tensor([0.]))
        tensor([-0.6931])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.logsigmoid(input)


class Softsign(Module):
    """``x / (1 + |x|)``.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.Softsign()(torch.tensor([1.]))
        tensor([0.5000])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.softsign(input)


class Tanhshrink(Module):
    """``x - tanh(x)``.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.Tanhshrink()(torch.tensor([0.]))
        tensor([0.])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.tanhshrink(input)


class Softmin(Module):
    """``softmax(-x)`` along ``dim``.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.Softmin(dim=1)(torch.tensor([[0., 0.]]))
        tensor([[0.5000, 0.5000]])
    """

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return F.softmin(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class PReLU(Module):
    """``x`` where ``x > 0``, else ``a * x``, with a learnt slope ``a``: one (``num_parameters=1``) or one per
    channel (dim 1), initialised to ``init``.

    Example::

        >>> import borch_webgpu as torch
        >>> m = torch.nn.PReLU(2, init=0.1)
        >>> m
        PReLU(num_parameters=2)
        >>> m(torch.tensor([[-1., -2.]]))
        tensor([[-0.1000, -0.2000]], grad_fn=<WhereBackward0>)
    """

    def __init__(self, num_parameters: int = 1, init: float = 0.25, device=None, dtype=None) -> None:
        self.num_parameters = num_parameters
        super().__init__()
        self.init = init
        self.weight = Parameter(empty(num_parameters, device=device, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.constant_(self.weight, self.init)

    def forward(self, input: Tensor) -> Tensor:
        return F.prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"


class RMSNorm(Module):
    """Root-mean-square normalisation over the trailing ``normalized_shape`` dims, times a learnt ``weight``
    (ones at first) when ``elementwise_affine``; ``eps=None`` takes ``torch.finfo(input.dtype).eps``.

    Example::

        >>> import borch_webgpu as torch
        >>> m = torch.nn.RMSNorm(2)
        >>> m
        RMSNorm((2,), eps=None, elementwise_affine=True)
        >>> m(torch.tensor([[3., 4.]]))
        tensor([[0.8485, 1.1314]], grad_fn=<MulBackward0>)
    """

    def __init__(self, normalized_shape, eps: float | None = None, elementwise_affine: bool = True, device=None,
                 dtype=None) -> None:
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(empty(self.normalized_shape, device=device, dtype=dtype))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, x: Tensor) -> Tensor:
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return "{normalized_shape}, eps={eps}, elementwise_affine={elementwise_affine}".format(**self.__dict__)


class AlphaDropout(_DropoutNd):
    """In training, alpha dropout (:func:`torch.nn.functional.alpha_dropout`): SELU's mean and variance kept.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.AlphaDropout(0.2).eval()(torch.ones(2))
        tensor([1., 1.])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(_DropoutNd):
    """In training, alpha dropout of whole channels (:func:`torch.nn.functional.feature_alpha_dropout`).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.FeatureAlphaDropout(0.2)
        FeatureAlphaDropout(p=0.2, inplace=False)
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.feature_alpha_dropout(input, self.p, self.training)


class Dropout3d(_DropoutNd):
    """In training, zero whole channels of (N, C, D, H, W) or (C, D, H, W) inputs with probability ``p``.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.Dropout3d(0.3)
        Dropout3d(p=0.3, inplace=False)
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout3d(input, self.p, self.training, self.inplace)


class ChannelShuffle(Module):
    """Interleave the channels of ``groups`` groups (:func:`torch.nn.functional.channel_shuffle`).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.ChannelShuffle(2)(torch.arange(4.).reshape(1, 4, 1)).flatten().tolist()
        [0.0, 2.0, 1.0, 3.0]
    """

    def __init__(self, groups: int) -> None:
        super().__init__()
        self.groups = groups

    def forward(self, input: Tensor) -> Tensor:
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        return f"groups={self.groups}"


class UpsamplingNearest2d(Upsample):
    """Deprecated: ``Upsample(size, scale_factor, mode='nearest')`` for (N, C, H, W) inputs.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.UpsamplingNearest2d(scale_factor=2)(torch.ones(1, 1, 1, 2)).shape
        torch.Size([1, 1, 2, 4])
    """

    def __init__(self, size=None, scale_factor=None) -> None:
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """Deprecated: ``Upsample(size, scale_factor, mode='bilinear', align_corners=True)`` for (N, C, H, W) inputs.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.UpsamplingBilinear2d(size=(1, 3))(torch.tensor([[[[0., 1.]]]]))
        tensor([[[[0.0000, 0.5000, 1.0000]]]])
    """

    def __init__(self, size=None, scale_factor=None) -> None:
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)
