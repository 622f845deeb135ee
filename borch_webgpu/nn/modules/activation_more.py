"""The remaining activation modules of torch/nn/modules/activation.py, thin Modules over ``nn.functional`` with
PyTorch's arguments, parameters and ``repr`` (activation.py re-exports them, where PyTorch has them)."""
from __future__ import annotations

from ...ops.creation import empty
from ...tensor import Tensor
from .. import functional as F, init
from ..parameter import Parameter
from .module import Module

__all__ = ["CELU", "GLU", "Hardshrink", "LogSigmoid", "PReLU", "RReLU", "Softmin", "Softshrink", "Softsign",
           "Tanhshrink", "Threshold"]


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
