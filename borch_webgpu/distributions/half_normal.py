"""``HalfNormal``: ``|X|`` for ``X ~ Normal(0, scale)``, as a :class:`TransformedDistribution`."""
from __future__ import annotations

import math

from ._ops import torch

from . import constraints
from .normal import Normal
from .transformed_distribution import TransformedDistribution
from .transforms import AbsTransform

__all__ = ["HalfNormal"]


class HalfNormal(TransformedDistribution):
    r"""A half-normal distribution: ``X ~ Normal(0, scale)``, ``Y = |X| ~ HalfNormal(scale)``.

    Args:
        scale (float or Tensor): scale of the full Normal distribution.
        validate_args (bool, optional): whether to check the arguments.

    Example::

        >>> from borch_webgpu.distributions import HalfNormal
        >>> m = HalfNormal(torch.tensor([1.0]))
        >>> m.log_prob(torch.tensor([1.0])), m.mean
        (tensor([-0.7258]), tensor([0.7979]))
    """

    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, scale, validate_args=None) -> None:
        base_dist = Normal(0, scale, validate_args=False)
        super().__init__(base_dist, AbsTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(HalfNormal, _instance)
        return super().expand(batch_shape, _instance=new)

    @property
    def scale(self):
        return self.base_dist.scale

    @property
    def mean(self):
        return self.scale * math.sqrt(2 / math.pi)

    @property
    def mode(self):
        return torch.zeros_like(self.scale)

    @property
    def variance(self):
        return self.scale.pow(2) * (1 - 2 / math.pi)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        log_prob = self.base_dist.log_prob(value) + math.log(2)
        return torch.where(value >= 0, log_prob, torch.full_like(log_prob, float("-inf")))

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, prob):
        return self.base_dist.icdf((prob + 1) / 2)

    def entropy(self):
        return self.base_dist.entropy() - math.log(2)
