"""The fused-module containers of ``torch.ao.nn.intrinsic``: ``Sequential``s that mark a run of layers
(``ConvReLU2d`` = conv then ReLU, ``ConvBn2d`` = conv then BatchNorm, ...) as one unit.

``torch.ao.quantization.fuse_modules`` builds them. Their forward is the layers one after another
(a composite: each layer still runs its own kernels). The constructors check the layer types and
raise PyTorch's ``AssertionError`` ("Incorrect types for input modules: Linear and ReLU").
"""
from __future__ import annotations

from .....nn.modules.activation import LeakyReLU, ReLU, Tanh
from .....nn.modules.batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
from .....nn.modules.container import Sequential
from .....nn.modules.conv import Conv1d, Conv2d
from .....nn.modules.linear import Linear

__all__ = ["ConvReLU1d", "ConvReLU2d", "LinearReLU", "ConvBn1d", "ConvBn2d", "ConvBnReLU1d", "ConvBnReLU2d",
           "BNReLU2d", "BNReLU3d", "LinearBn1d", "LinearLeakyReLU", "LinearTanh", "ConvAdd2d", "ConvAddReLU2d"]


def _check(mods: tuple, types: tuple) -> None:
    if not all(type(m) is t for m, t in zip(mods, types)):
        names = [type(m).__name__ for m in mods]
        listed = f"{names[0]} and {names[1]}" if len(names) == 2 else f"{', '.join(names[:-1])}, and {names[-1]}"
        raise AssertionError(f"Incorrect types for input modules: {listed}")


class _FusedModule(Sequential):
    """The base of the intrinsic modules (quantization finds them by it)."""

    _types: tuple = ()

    def __init__(self, *mods) -> None:
        _check(mods, self._types)
        super().__init__(*mods)


class ConvReLU1d(_FusedModule):
    """A sequential container which calls the Conv1d and ReLU modules."""

    _types = (Conv1d, ReLU)

    def __init__(self, conv, relu) -> None:
        super().__init__(conv, relu)


class ConvReLU2d(_FusedModule):
    """A sequential container which calls the Conv2d and ReLU modules.

    Example::

        >>> import borch_webgpu as torch
        >>> from borch_webgpu.ao.nn.intrinsic import ConvReLU2d
        >>> m = ConvReLU2d(torch.nn.Conv2d(1, 2, 3), torch.nn.ReLU())
        >>> m
        ConvReLU2d(
          (0): Conv2d(1, 2, kernel_size=(3, 3), stride=(1, 1))
          (1): ReLU()
        )
        >>> bool((m(torch.randn(1, 1, 4, 4)) >= 0).all())
        True
    """

    _types = (Conv2d, ReLU)

    def __init__(self, conv, relu) -> None:
        super().__init__(conv, relu)


class LinearReLU(_FusedModule):
    """A sequential container which calls the Linear and ReLU modules."""

    _types = (Linear, ReLU)

    def __init__(self, linear, relu) -> None:
        super().__init__(linear, relu)


class ConvBn1d(_FusedModule):
    """A sequential container which calls the Conv1d and BatchNorm1d modules."""

    _types = (Conv1d, BatchNorm1d)

    def __init__(self, conv, bn) -> None:
        super().__init__(conv, bn)


class ConvBn2d(_FusedModule):
    """A sequential container which calls the Conv2d and BatchNorm2d modules (what
    ``fuse_modules_qat`` makes of a conv and a BatchNorm: the BatchNorm still trains)."""

    _types = (Conv2d, BatchNorm2d)

    def __init__(self, conv, bn) -> None:
        super().__init__(conv, bn)


class ConvBnReLU1d(_FusedModule):
    """A sequential container which calls the Conv1d, BatchNorm1d and ReLU modules."""

    _types = (Conv1d, BatchNorm1d, ReLU)

    def __init__(self, conv, bn, relu) -> None:
        super().__init__(conv, bn, relu)


class ConvBnReLU2d(_FusedModule):
    """A sequential container which calls the Conv2d, BatchNorm2d and ReLU modules."""

    _types = (Conv2d, BatchNorm2d, ReLU)

    def __init__(self, conv, bn, relu) -> None:
        super().__init__(conv, bn, relu)


class BNReLU2d(_FusedModule):
    """A sequential container which calls the BatchNorm2d and ReLU modules."""

    _types = (BatchNorm2d, ReLU)

    def __init__(self, batch_norm, relu) -> None:
        super().__init__(batch_norm, relu)


class BNReLU3d(_FusedModule):
    """A sequential container which calls the BatchNorm3d and ReLU modules."""

    _types = (BatchNorm3d, ReLU)

    def __init__(self, batch_norm, relu) -> None:
        super().__init__(batch_norm, relu)


class LinearBn1d(_FusedModule):
    """A sequential container which calls the Linear and BatchNorm1d modules."""

    _types = (Linear, BatchNorm1d)

    def __init__(self, linear, bn) -> None:
        super().__init__(linear, bn)


class LinearLeakyReLU(_FusedModule):
    """A sequential container which calls the Linear and LeakyReLU modules."""

    _types = (Linear, LeakyReLU)

    def __init__(self, linear, leaky_relu) -> None:
        super().__init__(linear, leaky_relu)


class LinearTanh(_FusedModule):
    """A sequential container which calls the Linear and Tanh modules."""

    _types = (Linear, Tanh)

    def __init__(self, linear, tanh) -> None:
        super().__init__(linear, tanh)


class ConvAdd2d(_FusedModule):
    """A conv whose output ``add(conv(x1), x2)`` takes a second input (``add`` is a callable such as
    ``torch.add``). No type check, as in PyTorch."""

    def __init__(self, conv, add) -> None:
        super().__init__(conv)
        self.add = add

    def forward(self, x1, x2):
        """Applies the convolution to x1 and adds the result to x2."""
        return self.add(self[0](x1), x2)


class ConvAddReLU2d(_FusedModule):
    """``relu(add(conv(x1), x2))``: a residual join after a conv, as one container (each step still
    its own kernel here).

    Example::

        >>> import borch_webgpu as torch
        >>> from borch_webgpu.ao.nn.intrinsic import ConvAddReLU2d
        >>> m = ConvAddReLU2d(torch.nn.Conv2d(2, 2, 1), torch.add, torch.nn.ReLU())
        >>> m(torch.randn(1, 2, 3, 3), torch.randn(1, 2, 3, 3)).shape
        torch.Size([1, 2, 3, 3])
    """

    def __init__(self, conv, add, relu) -> None:
        super().__init__(conv)
        self.add = add
        self.relu = relu

    def forward(self, x1, x2):
        """Applies the convolution to x1, adds the result to x2 and applies the ReLU."""
        return self.relu(self.add(self[0](x1), x2))
