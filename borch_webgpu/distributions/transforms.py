"""Transforms between spaces (PyTorch's ``torch.distributions.transforms``): the base class and
structural transforms (``_transform_base.py``) and the elementwise ones below."""
from __future__ import annotations

import math
from numbers import Number

from ._ops import torch

from . import constraints
from ._transform_base import ComposeTransform, IndependentTransform, ReshapeTransform, Transform, identity_transform
from ._transforms_simplex import LowerCholeskyTransform, PositiveDefiniteTransform, StickBreakingTransform
from .utils import broadcast_all, lazy_property

__all__ = ["AbsTransform", "AffineTransform", "ComposeTransform", "ExpTransform", "IndependentTransform",
           "LowerCholeskyTransform", "PositiveDefiniteTransform", "PowerTransform", "ReshapeTransform",
           "SigmoidTransform", "SoftplusTransform", "TanhTransform", "SoftmaxTransform", "StickBreakingTransform",
           "Transform", "identity_transform"]


class ExpTransform(Transform):
    r"""``y = exp(x)``.

    Example::

        >>> from borch_webgpu.distributions.transforms import ExpTransform
        >>> ExpTransform().log_abs_det_jacobian(torch.tensor([2.0]), None)
        tensor([2.])
    """

    domain = constraints.real
    codomain = constraints.positive
    bijective = True
    sign = +1

    def __eq__(self, other):
        return isinstance(other, ExpTransform)

    def _call(self, x):
        return x.exp()

    def _inverse(self, y):
        return y.log()

    def log_abs_det_jacobian(self, x, y):
        return x


class PowerTransform(Transform):
    r"""``y = x ** exponent``.

    Example::

        >>> from borch_webgpu.distributions.transforms import PowerTransform
        >>> PowerTransform(torch.tensor(2.0))(torch.tensor([3.0]))
        tensor([9.])
    """

    domain = constraints.positive
    codomain = constraints.positive
    bijective = True

    def __init__(self, exponent, cache_size=0) -> None:
        super().__init__(cache_size=cache_size)
        (self.exponent,) = broadcast_all(exponent)

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return PowerTransform(self.exponent, cache_size=cache_size)

    @lazy_property
    def sign(self):
        return self.exponent.sign()

    def __eq__(self, other):
        if not isinstance(other, PowerTransform):
            return False
        return self.exponent.eq(other.exponent).all().item()

    def _call(self, x):
        return x.pow(self.exponent)

    def _inverse(self, y):
        return y.pow(1 / self.exponent)

    def log_abs_det_jacobian(self, x, y):
        return (self.exponent * y / x).abs().log()

    def forward_shape(self, shape):
        return torch.Size(torch.broadcast_shapes(shape, getattr(self.exponent, "shape", ())))

    def inverse_shape(self, shape):
        return torch.Size(torch.broadcast_shapes(shape, getattr(self.exponent, "shape", ())))


def _clipped_sigmoid(x):
    finfo = torch.finfo(x.dtype)
    return torch.clamp(torch.sigmoid(x), min=finfo.tiny, max=1.0 - finfo.eps)


class SigmoidTransform(Transform):
    r"""``y = 1 / (1 + exp(-x))`` (clipped into ``[tiny, 1 - eps]``), and ``x = logit(y)``.

    Example::

        >>> from borch_webgpu.distributions.transforms import SigmoidTransform
        >>> SigmoidTransform()(torch.tensor([0.0]))
        tensor([0.5000])
    """

    domain = constraints.real
    codomain = constraints.unit_interval
    bijective = True
    sign = +1

    def __eq__(self, other):
        return isinstance(other, SigmoidTransform)

    def _call(self, x):
        return _clipped_sigmoid(x)

    def _inverse(self, y):
        finfo = torch.finfo(y.dtype)
        y = y.clamp(min=finfo.tiny, max=1.0 - finfo.eps)
        return y.log() - (-y).log1p()

    def log_abs_det_jacobian(self, x, y):
        return -torch.nn.functional.softplus(-x) - torch.nn.functional.softplus(x)


class SoftplusTransform(Transform):
    r"""``y = log(1 + exp(x))``.

    Example::

        >>> from borch_webgpu.distributions.transforms import SoftplusTransform
        >>> SoftplusTransform()(torch.tensor([0.0]))
        tensor([0.6931])
    """

    domain = constraints.real
    codomain = constraints.positive
    bijective = True
    sign = +1

    def __eq__(self, other):
        return isinstance(other, SoftplusTransform)

    def _call(self, x):
        return torch.nn.functional.softplus(x)

    def _inverse(self, y):
        return (-y).expm1().neg().log() + y

    def log_abs_det_jacobian(self, x, y):
        return -torch.nn.functional.softplus(-x)


class TanhTransform(Transform):
    r"""``y = tanh(x)``.

    Example::

        >>> from borch_webgpu.distributions.transforms import TanhTransform
        >>> TanhTransform().inv(torch.tensor([0.0]))
        tensor([0.])
    """

    domain = constraints.real
    codomain = constraints.interval(-1.0, 1.0)
    bijective = True
    sign = +1

    def __eq__(self, other):
        return isinstance(other, TanhTransform)

    def _call(self, x):
        return x.tanh()

    def _inverse(self, y):
        return torch.atanh(y)

    def log_abs_det_jacobian(self, x, y):
        # a numerically stable form of log(1 - tanh(x)^2) (see the TensorFlow Probability bijector)
        return 2.0 * (math.log(2.0) - x - torch.nn.functional.softplus(-2.0 * x))


class AbsTransform(Transform):
    r"""``y = |x|`` (not bijective: the inverse returns ``y``).

    Example::

        >>> from borch_webgpu.distributions.transforms import AbsTransform
        >>> AbsTransform()(torch.tensor([-2.0]))
        tensor([2.])
    """

    domain = constraints.real
    codomain = constraints.positive

    def __eq__(self, other):
        return isinstance(other, AbsTransform)

    def _call(self, x):
        return x.abs()

    def _inverse(self, y):
        return y


class AffineTransform(Transform):
    r"""``y = loc + scale * x``, with ``event_dim`` trailing dimensions treated as one event.

    Args:
        loc (Tensor or float): location parameter.
        scale (Tensor or float): scale parameter.
        event_dim (int): optional size of `event_shape`.

    Example::

        >>> from borch_webgpu.distributions.transforms import AffineTransform
        >>> t = AffineTransform(1.0, 2.0)
        >>> t(torch.tensor([3.0])), t.log_abs_det_jacobian(torch.tensor([3.0]), None)
        (tensor([7.]), tensor([0.6931]))
    """

    bijective = True

    def __init__(self, loc, scale, event_dim: int = 0, cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        self.loc = loc
        self.scale = scale
        self._event_dim = event_dim

    @property
    def event_dim(self) -> int:
        return self._event_dim

    @constraints.dependent_property(is_discrete=False)
    def domain(self):
        if self.event_dim == 0:
            return constraints.real
        return constraints.independent(constraints.real, self.event_dim)

    @constraints.dependent_property(is_discrete=False)
    def codomain(self):
        if self.event_dim == 0:
            return constraints.real
        return constraints.independent(constraints.real, self.event_dim)

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return AffineTransform(self.loc, self.scale, self.event_dim, cache_size=cache_size)

    def __eq__(self, other):
        if not isinstance(other, AffineTransform):
            return False
        for a, b in ((self.loc, other.loc), (self.scale, other.scale)):
            if isinstance(a, Number) and isinstance(b, Number):
                if a != b:
                    return False
            elif not (a == b).all().item():
                return False
        return True

    @property
    def sign(self):
        if isinstance(self.scale, Number):
            return 1 if float(self.scale) > 0 else -1 if float(self.scale) < 0 else 0
        return self.scale.sign()

    def _call(self, x):
        return self.loc + self.scale * x

    def _inverse(self, y):
        return (y - self.loc) / self.scale

    def log_abs_det_jacobian(self, x, y):
        shape = x.shape
        scale = self.scale
        if isinstance(scale, Number):
            result = torch.full_like(x, math.log(abs(scale)))
        else:
            result = torch.abs(scale).log()
        if self.event_dim:
            result_size = tuple(result.size()[:-self.event_dim]) + (-1,)
            result = result.view(result_size).sum(-1)
            shape = shape[:-self.event_dim]
        return result.expand(shape)

    def forward_shape(self, shape):
        return torch.Size(torch.broadcast_shapes(shape, getattr(self.loc, "shape", ()),
                                                 getattr(self.scale, "shape", ())))

    def inverse_shape(self, shape):
        return torch.Size(torch.broadcast_shapes(shape, getattr(self.loc, "shape", ()),
                                                 getattr(self.scale, "shape", ())))


class SoftmaxTransform(Transform):
    r"""From unconstrained space to the simplex by ``exp`` and normalization (not bijective; for
    algorithms that need a coordinate-wise map).

    Example::

        >>> from borch_webgpu.distributions.transforms import SoftmaxTransform
        >>> SoftmaxTransform()(torch.tensor([0.0, 0.0]))
        tensor([0.5000, 0.5000])
    """

    domain = constraints.real_vector
    codomain = constraints.simplex

    def __eq__(self, other):
        return isinstance(other, SoftmaxTransform)

    def _call(self, x):
        probs = (x - x.max(-1, True)[0]).exp()
        return probs / probs.sum(-1, True)

    def _inverse(self, y):
        return y.log()

    def forward_shape(self, shape):
        if len(shape) < 1:
            raise ValueError("Too few dimensions on input")
        return shape

    def inverse_shape(self, shape):
        if len(shape) < 1:
            raise ValueError("Too few dimensions on input")
        return shape
