"""``ExponentialFamily``: distributions of the form p(x; θ) = exp(<t(x), θ> - F(θ) + k(x)); entropy and
KL divergence between two members of one family follow from the log normalizer F by autograd."""
from __future__ import annotations

from ._ops import torch

from .distribution import Distribution

__all__ = ["ExponentialFamily"]


class ExponentialFamily(Distribution):
    r"""The base class of exponential-family distributions: ``_natural_params``, ``_log_normalizer``
    and ``_mean_carrier_measure`` give the entropy (and the Bregman KL) by differentiating the log
    normalizer.

    Example::

        >>> from borch_webgpu.distributions import ExponentialFamily, Normal
        >>> isinstance(Normal(0.0, 1.0), ExponentialFamily)
        True
    """

    @property
    def _natural_params(self):
        raise NotImplementedError

    def _log_normalizer(self, *natural_params):
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError

    def entropy(self):
        result = -self._mean_carrier_measure
        nparams = [p.detach().requires_grad_() for p in self._natural_params]
        lg_normal = self._log_normalizer(*nparams)
        gradients = torch.autograd.grad(lg_normal.sum(), nparams, create_graph=True)
        result = result + lg_normal
        for np_, g in zip(nparams, gradients):
            result = result - (np_ * g).reshape(tuple(self._batch_shape) + (-1,)).sum(-1)
        return result
