"""``Chi2``: the chi-squared distribution, ``Gamma(0.5 * df, 0.5)``."""
from __future__ import annotations

from . import constraints
from .gamma import Gamma

__all__ = ["Chi2"]


class Chi2(Gamma):
    r"""A chi-squared distribution with ``df`` degrees of freedom (``Gamma(alpha=0.5*df, beta=0.5)``).

    Args:
        df (float or Tensor): shape parameter of the distribution.
        validate_args (bool, optional): whether to check the arguments.

    Example::

        >>> from borch_webgpu.distributions import Chi2
        >>> m = Chi2(torch.tensor([3.0]))
        >>> m.log_prob(torch.tensor([2.0])), m.mean
        (tensor([-1.5724]), tensor([3.]))
    """

    arg_constraints = {"df": constraints.positive}

    def __init__(self, df, validate_args=None) -> None:
        super().__init__(0.5 * df, 0.5, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Chi2, _instance)
        return super().expand(batch_shape, new)

    @property
    def df(self):
        return self.concentration * 2
