"""The ``Constraint`` base class (re-exported by ``constraints.py``, where PyTorch has it)."""
from __future__ import annotations


class Constraint:
    """The base class of constraints: a region over which a variable is valid.

    Example::

        >>> from borch_webgpu.distributions.constraints import Constraint, real
        >>> isinstance(real, Constraint), real.event_dim, real.is_discrete
        (True, 0, False)
    """

    is_discrete = False  # default to continuous
    event_dim = 0        # default to univariate

    def check(self, value):
        """A byte tensor of ``sample_shape + batch_shape``: whether each event in ``value`` satisfies
        the constraint."""
        raise NotImplementedError

    def __repr__(self):
        return self.__class__.__name__[1:] + "()"
