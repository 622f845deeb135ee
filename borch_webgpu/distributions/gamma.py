"""``Gamma``: the gamma distribution, parameterized by ``concentration`` and ``rate``."""
from __future__ import annotations

from numbers import Number

from ._ops import torch

from . import constraints
from ._gamma_impl import gammainc, standard_gamma
from .exp_family import ExponentialFamily
from .utils import _size, broadcast_all

__all__ = ["Gamma"]


class Gamma(ExponentialFamily):
    r"""A gamma distribution with shape ``concentration`` and inverse scale ``rate``.

    ``rsample`` draws on the host (numpy, seeded from this library's random stream) and is
    differentiable with respect to both parameters: the rate by the scaling, the concentration by
    implicit reparameterization (the gradient PyTorch's ``_standard_gamma`` has).

    Args:
        concentration (float or Tensor): shape parameter of the distribution (often referred to as alpha).
        rate (float or Tensor): rate parameter of the distribution (often referred to as beta), rate = 1 / scale.
        validate_args (bool, optional): whether to check the arguments.

    Example::

        >>> from borch_webgpu.distributions import Gamma
        >>> m = Gamma(torch.tensor([2.0]), torch.tensor([1.0]))
        >>> m.log_prob(torch.tensor([1.0])), m.mean
        (tensor([-1.]), tensor([2.]))
    """

    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0

    @property
    def mean(self):
        return self.concentration / self.rate

    @property
    def mode(self):
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self):
        return self.concentration / self.rate.pow(2)

    def __init__(self, concentration, rate, validate_args=None) -> None:
        self.concentration, self.rate = broadcast_all(concentration, rate)
        if isinstance(concentration, Number) and isinstance(rate, Number):
            batch_shape = torch.Size()
        else:
            batch_shape = self.concentration.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Gamma, _instance)
        batch_shape = _size(batch_shape)
        new.concentration = self.concentration.expand(batch_shape)
        new.rate = self.rate.expand(batch_shape)
        super(Gamma, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        return standard_gamma(self.concentration.expand(shape)) / self.rate.expand(shape)

    def log_prob(self, value):
        value = torch.as_tensor(value, dtype=self.rate.dtype, device=self.rate.device)
        if self._validate_args:
            self._validate_sample(value)
        return (torch.xlogy(self.concentration, self.rate) + torch.xlogy(self.concentration - 1, value)
                - self.rate * value - torch.lgamma(self.concentration))

    def entropy(self):
        return (self.concentration - torch.log(self.rate) + torch.lgamma(self.concentration)
                + (1.0 - self.concentration) * torch.digamma(self.concentration))

    @property
    def _natural_params(self):
        return (self.concentration - 1, -self.rate)

    def _log_normalizer(self, x, y):
        return torch.lgamma(x + 1) + (x + 1) * torch.log(-y.reciprocal())

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return gammainc(self.concentration, self.rate * value)
