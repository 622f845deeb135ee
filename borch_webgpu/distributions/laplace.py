"""``Laplace``: the Laplace (double exponential) distribution, parameterized by ``loc`` and ``scale``."""
from __future__ import annotations

from numbers import Number

from ._ops import torch

from . import constraints
from .distribution import Distribution
from .utils import _size, broadcast_all

__all__ = ["Laplace"]


class Laplace(Distribution):
    r"""A Laplace distribution with location ``loc`` and scale ``scale``.

    Args:
        loc (float or Tensor): mean of the distribution.
        scale (float or Tensor): scale of the distribution.
        validate_args (bool, optional): whether to check the arguments.

    Example::

        >>> from borch_webgpu.distributions import Laplace
        >>> m = Laplace(torch.tensor([0.0]), torch.tensor([1.0]))
        >>> m.log_prob(torch.tensor([1.0])), m.variance
        (tensor([-1.6931]), tensor([2.]))
    """

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return 2 * self.scale.pow(2)

    @property
    def stddev(self):
        return (2 ** 0.5) * self.scale

    def __init__(self, loc, scale, validate_args=None) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        if isinstance(loc, Number) and isinstance(scale, Number):
            batch_shape = torch.Size()
        else:
            batch_shape = self.loc.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Laplace, _instance)
        batch_shape = _size(batch_shape)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        super(Laplace, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        eps = torch.finfo(self.loc.dtype).eps
        u = torch.empty(shape, dtype=self.loc.dtype, device=self.loc.device).uniform_(eps - 1, 1)
        return self.loc - self.scale * u.sign() * torch.log1p(-u.abs())

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return -torch.log(2 * self.scale) - torch.abs(value - self.loc) / self.scale

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 - 0.5 * (value - self.loc).sign() * torch.expm1(-(value - self.loc).abs() / self.scale)

    def icdf(self, value):
        term = value - 0.5
        return self.loc - self.scale * term.sign() * torch.log1p(-2 * term.abs())

    def entropy(self):
        return 1 + torch.log(2 * self.scale)
