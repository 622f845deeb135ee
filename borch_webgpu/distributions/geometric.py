"""``Geometric``: the number of failures before the first success, parameterized by ``probs`` or ``logits``."""
from __future__ import annotations

from numbers import Number

from ._ops import torch

from . import constraints
from .distribution import Distribution
from .utils import _size, broadcast_all, lazy_property, logits_to_probs, probs_to_logits

__all__ = ["Geometric"]


class Geometric(Distribution):
    r"""A geometric distribution: the number of failures before the first success in Bernoulli trials
    with success probability ``probs`` (in ``(0, 1]``) or log-odds ``logits``.

    Args:
        probs (Number, Tensor): the probability of sampling `1`. Must be in range (0, 1].
        logits (Number, Tensor): the log-odds of sampling `1`.
        validate_args (bool, optional): whether to check the arguments.

    Example::

        >>> from borch_webgpu.distributions import Geometric
        >>> m = Geometric(torch.tensor([0.3]))
        >>> m.log_prob(torch.tensor([2.0])), m.mean
        (tensor([-1.9173]), tensor([2.3333]))
    """

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            (self.probs,) = broadcast_all(probs)
        else:
            (self.logits,) = broadcast_all(logits)
        probs_or_logits = probs if probs is not None else logits
        batch_shape = torch.Size() if isinstance(probs_or_logits, Number) else probs_or_logits.size()
        super().__init__(batch_shape, validate_args=validate_args)
        if self._validate_args and probs is not None:
            # Add an extra check beyond unit_interval
            value = self.probs
            valid = value > 0
            if not bool(valid.all()):
                invalid_value = value.detach()[~valid]
                raise ValueError(f"Expected parameter probs ({type(value).__name__} of shape {tuple(value.shape)}) "
                                 f"of distribution {self!r} to be positive but found invalid values:\n{invalid_value}")

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Geometric, _instance)
        batch_shape = _size(batch_shape)
        if "probs" in self.__dict__:
            new.probs = self.probs.expand(batch_shape)
        if "logits" in self.__dict__:
            new.logits = self.logits.expand(batch_shape)
        super(Geometric, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self):
        return 1.0 / self.probs - 1.0

    @property
    def mode(self):
        return torch.zeros_like(self.probs)

    @property
    def variance(self):
        return (1.0 / self.probs - 1.0) / self.probs

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits, is_binary=True)

    def sample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        tiny = torch.finfo(self.probs.dtype).tiny
        with torch.no_grad():
            u = torch.empty(shape, dtype=self.probs.dtype, device=self.probs.device).uniform_(tiny, 1)
            return (u.log() / (-self.probs).log1p()).floor()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value, probs = broadcast_all(value, self.probs)
        probs = torch.where((probs == 1) & (value == 0), torch.zeros_like(probs), probs)
        return value * (-probs).log1p() + self.probs.log()

    def entropy(self):
        return torch.nn.functional.binary_cross_entropy_with_logits(self.logits, self.probs,
                                                                   reduction="none") / self.probs
