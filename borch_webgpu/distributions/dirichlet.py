"""``Dirichlet``: the Dirichlet distribution over the simplex, parameterized by ``concentration``."""
from __future__ import annotations

from ._ops import torch

from . import constraints
from ._gamma_impl import standard_gamma
from .exp_family import ExponentialFamily
from .utils import _size

__all__ = ["Dirichlet"]


class Dirichlet(ExponentialFamily):
    r"""A Dirichlet distribution with concentration ``concentration`` (its last dimension is the event).

    ``rsample`` normalizes gamma draws (``Gamma(concentration, 1)``, drawn on the host), so its
    gradient is the implicit reparameterization gradient of the gammas carried through the
    normalization: an unbiased pathwise gradient, not PyTorch's ``_dirichlet_grad`` values (the draws
    differ anyway).

    Args:
        concentration (Tensor): concentration parameter of the distribution (often referred to as alpha).
        validate_args (bool, optional): whether to check the arguments.

    Example::

        >>> from borch_webgpu.distributions import Dirichlet
        >>> m = Dirichlet(torch.tensor([1.0, 2.0, 3.0]))
        >>> m.mean
        tensor([0.1667, 0.3333, 0.5000])
        >>> m.log_prob(torch.tensor([0.2, 0.3, 0.5]))
        tensor(1.5041)
    """

    arg_constraints = {"concentration": constraints.independent(constraints.positive, 1)}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration, validate_args=None) -> None:
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        batch_shape, event_shape = concentration.shape[:-1], concentration.shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Dirichlet, _instance)
        batch_shape = _size(batch_shape)
        new.concentration = self.concentration.expand(batch_shape + self.event_shape)
        super(Dirichlet, new).__init__(batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        gammas = standard_gamma(self.concentration.expand(shape))
        x = gammas / gammas.sum(-1, True)
        return x.clamp(min=torch.finfo(x.dtype).tiny)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return (torch.xlogy(self.concentration - 1.0, value).sum(-1) + torch.lgamma(self.concentration.sum(-1))
                - torch.lgamma(self.concentration).sum(-1))

    @property
    def mean(self):
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self):
        concentrationm1 = (self.concentration - 1).clamp(min=0.0)
        mode = concentrationm1 / concentrationm1.sum(-1, True)
        mask = (self.concentration < 1).all(dim=-1)
        one_hot = torch.nn.functional.one_hot(mode.argmax(dim=-1), concentrationm1.shape[-1]).to(mode)
        return torch.where(mask.unsqueeze(-1), one_hot, mode)

    @property
    def variance(self):
        con0 = self.concentration.sum(-1, True)
        return self.concentration * (con0 - self.concentration) / (con0.pow(2) * (con0 + 1))

    def entropy(self):
        k = self.concentration.size(-1)
        a0 = self.concentration.sum(-1)
        return (torch.lgamma(self.concentration).sum(-1) - torch.lgamma(a0) - (k - a0) * torch.digamma(a0)
                - ((self.concentration - 1.0) * torch.digamma(self.concentration)).sum(-1))

    @property
    def _natural_params(self):
        return (self.concentration,)

    def _log_normalizer(self, x):
        return x.lgamma().sum(-1) - torch.lgamma(x.sum(-1))
