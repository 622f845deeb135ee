"""``OneHotCategorical``: a categorical distribution whose samples are one-hot vectors."""
from __future__ import annotations

from ._ops import torch

from . import constraints
from .categorical import Categorical
from .distribution import Distribution
from .utils import _size

__all__ = ["OneHotCategorical", "OneHotCategoricalStraightThrough"]


class OneHotCategorical(Distribution):
    r"""A one-hot categorical distribution: samples are one-hot vectors of size ``K`` (the last
    dimension of ``probs`` or ``logits``).

    Args:
        probs (Tensor): event probabilities.
        logits (Tensor): event log probabilities (unnormalized).
        validate_args (bool, optional): whether to check the arguments.

    Example::

        >>> from borch_webgpu.distributions import OneHotCategorical
        >>> m = OneHotCategorical(torch.tensor([0.25, 0.75]))
        >>> m.log_prob(torch.tensor([0.0, 1.0])), m.sample().shape
        (tensor(-0.2877), torch.Size([2]))
    """

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.one_hot
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        self._categorical = Categorical(probs, logits)
        batch_shape = self._categorical.batch_shape
        event_shape = self._categorical.param_shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(OneHotCategorical, _instance)
        batch_shape = _size(batch_shape)
        new._categorical = self._categorical.expand(batch_shape)
        super(OneHotCategorical, new).__init__(batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def _param(self):
        return self._categorical._param

    @property
    def probs(self):
        return self._categorical.probs

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def mean(self):
        return self._categorical.probs

    @property
    def mode(self):
        probs = self._categorical.probs
        mode = probs.argmax(dim=-1)
        return torch.nn.functional.one_hot(mode, num_classes=probs.shape[-1]).to(probs)

    @property
    def variance(self):
        return self._categorical.probs * (1 - self._categorical.probs)

    @property
    def param_shape(self):
        return self._categorical.param_shape

    def sample(self, sample_shape=torch.Size()):
        sample_shape = _size(sample_shape)
        probs = self._categorical.probs
        indices = self._categorical.sample(sample_shape)
        return torch.nn.functional.one_hot(indices, self._categorical._num_events).to(probs)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        indices = value.max(-1)[1]
        return self._categorical.log_prob(indices)

    def entropy(self):
        return self._categorical.entropy()

    def enumerate_support(self, expand=True):
        n = self.event_shape[0]
        values = torch.eye(n, dtype=self._param.dtype, device=self._param.device)
        values = values.view((n,) + (1,) * len(self.batch_shape) + (n,))
        if expand:
            values = values.expand((n,) + tuple(self.batch_shape) + (n,))
        return values


class OneHotCategoricalStraightThrough(OneHotCategorical):
    r"""A :class:`OneHotCategorical` whose ``rsample`` passes gradients straight through to ``probs``
    (Bengio et al. 2013): the sample's value, the probabilities' gradient.

    Example::

        >>> from borch_webgpu.distributions import OneHotCategoricalStraightThrough
        >>> p = torch.tensor([0.2, 0.8], requires_grad=True)
        >>> OneHotCategoricalStraightThrough(p).rsample().requires_grad
        True
    """

    has_rsample = True

    def rsample(self, sample_shape=torch.Size()):
        samples = self.sample(sample_shape)
        probs = self._categorical.probs  # cached via @lazy_property
        return samples + (probs - probs.detach())
