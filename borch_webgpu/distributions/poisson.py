"""``Poisson``: the Poisson distribution, parameterized by ``rate``."""
from __future__ import annotations

from numbers import Number

from ._ops import torch

from . import constraints
from .exp_family import ExponentialFamily
from .utils import _size, broadcast_all

__all__ = ["Poisson"]


class Poisson(ExponentialFamily):
    r"""A Poisson distribution with rate ``rate`` (draws on the host, as ``torch.poisson``).

    Args:
        rate (Number, Tensor): the rate parameter.
        validate_args (bool, optional): whether to check the arguments.

    Example::

        >>> from borch_webgpu.distributions import Poisson
        >>> m = Poisson(torch.tensor([4.0]))
        >>> m.log_prob(torch.tensor([2.0]))
        tensor([-1.9206])
    """

    arg_constraints = {"rate": constraints.nonnegative}
    support = constraints.nonnegative_integer

    @property
    def mean(self):
        return self.rate

    @property
    def mode(self):
        return self.rate.floor()

    @property
    def variance(self):
        return self.rate

    def __init__(self, rate, validate_args=None) -> None:
        (self.rate,) = broadcast_all(rate)
        batch_shape = torch.Size() if isinstance(rate, Number) else self.rate.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Poisson, _instance)
        batch_shape = _size(batch_shape)
        new.rate = self.rate.expand(batch_shape)
        super(Poisson, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def sample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            return torch.poisson(self.rate.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        rate, value = broadcast_all(self.rate, value)
        return value.xlogy(rate) - rate - (value + 1).lgamma()

    @property
    def _natural_params(self):
        return (torch.log(self.rate),)

    def _log_normalizer(self, x):
        return torch.exp(x)
