"""``StudentT``: Student's t-distribution, parameterized by degrees of freedom ``df``, ``loc`` and ``scale``."""
from __future__ import annotations

import math

from ._ops import torch

from . import constraints
from .chi2 import Chi2
from .distribution import Distribution
from .utils import _size, _standard_normal, broadcast_all

__all__ = ["StudentT"]


class StudentT(Distribution):
    r"""A Student's t-distribution with ``df`` degrees of freedom, location ``loc`` and scale ``scale``.
    ``rsample`` divides a normal draw by the square root of a chi-squared draw (reparameterized through
    the gamma's implicit gradient).

    Args:
        df (float or Tensor): degrees of freedom.
        loc (float or Tensor): mean of the distribution.
        scale (float or Tensor): scale of the distribution.
        validate_args (bool, optional): whether to check the arguments.

    Example::

        >>> from borch_webgpu.distributions import StudentT
        >>> m = StudentT(torch.tensor([3.0]))
        >>> m.log_prob(torch.tensor([1.0])), m.variance
        (tensor([-1.5763]), tensor([3.]))
    """

    arg_constraints = {"df": constraints.positive, "loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    @property
    def mean(self):
        return torch.where(self.df <= 1, torch.full_like(self.loc, float("nan")), self.loc)

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        big = self.df > 2
        safe_df = torch.where(big, self.df, torch.full_like(self.df, 3.0))
        m = torch.where(big, self.scale.pow(2) * safe_df / (safe_df - 2), self.df)
        m = torch.where((self.df <= 2) & (self.df > 1), torch.full_like(m, float("inf")), m)
        return torch.where(self.df <= 1, torch.full_like(m, float("nan")), m)

    def __init__(self, df, loc=0.0, scale=1.0, validate_args=None) -> None:
        self.df, self.loc, self.scale = broadcast_all(df, loc, scale)
        self._chi2 = Chi2(self.df)
        super().__init__(self.df.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(StudentT, _instance)
        batch_shape = _size(batch_shape)
        new.df = self.df.expand(batch_shape)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        new._chi2 = self._chi2.expand(batch_shape)
        super(StudentT, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def rsample(self, sample_shape=torch.Size()):
        # X ~ Normal(0, 1), Z ~ Chi2(df), Y = X / sqrt(Z / df) ~ StudentT(df)
        shape = self._extended_shape(sample_shape)
        X = _standard_normal(shape, dtype=self.df.dtype, device=self.df.device)
        Z = self._chi2.rsample(sample_shape)
        Y = X * torch.rsqrt(Z / self.df)
        return self.loc + self.scale * Y

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        y = (value - self.loc) / self.scale
        Z = (self.scale.log() + 0.5 * self.df.log() + 0.5 * math.log(math.pi) + torch.lgamma(0.5 * self.df)
             - torch.lgamma(0.5 * (self.df + 1.0)))
        return -0.5 * (self.df + 1.0) * torch.log1p(y ** 2.0 / self.df) - Z

    def entropy(self):
        lbeta = torch.lgamma(0.5 * self.df) + math.lgamma(0.5) - torch.lgamma(0.5 * (self.df + 1))
        return (self.scale.log() + 0.5 * (self.df + 1) * (torch.digamma(0.5 * (self.df + 1))
                                                          - torch.digamma(0.5 * self.df))
                + 0.5 * self.df.log() + lbeta)
