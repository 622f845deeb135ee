"""Constraints on parameters and values (PyTorch's ``torch.distributions.constraints``): objects with
``check(value)`` (a bool tensor over the batch), ``is_discrete`` and ``event_dim``.

Example::

    >>> from borch_webgpu.distributions import constraints
    >>> constraints.positive.check(torch.tensor([1.0, -1.0]))
    tensor([ True, False])
    >>> constraints.interval(0.0, 1.0)
    Interval(lower_bound=0.0, upper_bound=1.0)
"""
from __future__ import annotations

from ._constraint_base import Constraint

__all__ = ["Constraint", "boolean", "cat", "corr_cholesky", "dependent", "dependent_property", "greater_than",
           "greater_than_eq", "independent", "integer_interval", "interval", "half_open_interval", "is_dependent",
           "less_than", "lower_cholesky", "lower_triangular", "MixtureSameFamilyConstraint", "multinomial",
           "nonnegative", "nonnegative_integer", "one_hot", "positive", "positive_semidefinite",
           "positive_definite", "positive_integer", "real", "real_vector", "simplex", "square", "stack",
           "symmetric", "unit_interval"]


def _torch():
    from ._ops import torch
    return torch


class _Dependent(Constraint):
    """A placeholder for variables whose support depends on other variables; it cannot be checked."""

    def __init__(self, *, is_discrete=NotImplemented, event_dim=NotImplemented):
        self._is_discrete = is_discrete
        self._event_dim = event_dim
        super().__init__()

    @property
    def is_discrete(self) -> bool:
        if self._is_discrete is NotImplemented:
            raise NotImplementedError(".is_discrete cannot be determined statically")
        return self._is_discrete

    @property
    def event_dim(self) -> int:
        if self._event_dim is NotImplemented:
            raise NotImplementedError(".event_dim cannot be determined statically")
        return self._event_dim

    def __call__(self, *, is_discrete=NotImplemented, event_dim=NotImplemented):
        if is_discrete is NotImplemented:
            is_discrete = self._is_discrete
        if event_dim is NotImplemented:
            event_dim = self._event_dim
        return _Dependent(is_discrete=is_discrete, event_dim=event_dim)

    def check(self, x):
        raise ValueError("Cannot determine validity of dependent constraint")


def is_dependent(constraint) -> bool:
    """Whether ``constraint`` is a ``_Dependent`` object (one that cannot be checked statically).

    Example::

        >>> from borch_webgpu.distributions import constraints
        >>> constraints.is_dependent(constraints.dependent), constraints.is_dependent(constraints.real)
        (True, False)
    """
    return isinstance(constraint, _Dependent)


class _DependentProperty(property, _Dependent):
    """A property of a distribution whose value is a constraint depending on the instance
    (``Uniform.support``); the class attribute stays a dependent constraint."""

    def __init__(self, fn=None, *, is_discrete=NotImplemented, event_dim=NotImplemented):
        super().__init__(fn)
        self._is_discrete = is_discrete
        self._event_dim = event_dim

    def __call__(self, fn):
        return _DependentProperty(fn, is_discrete=self._is_discrete, event_dim=self._event_dim)


class _IndependentConstraint(Constraint):
    """Reinterprets ``reinterpreted_batch_ndims`` batch dimensions of a constraint as event dimensions."""

    def __init__(self, base_constraint, reinterpreted_batch_ndims):
        if not isinstance(base_constraint, Constraint):
            raise AssertionError(f"base_constraint must be a Constraint, got {type(base_constraint).__name__}")
        if not isinstance(reinterpreted_batch_ndims, int):
            raise AssertionError("reinterpreted_batch_ndims must be an int, got "
                                 f"{type(reinterpreted_batch_ndims).__name__}")
        if reinterpreted_batch_ndims < 0:
            raise AssertionError(f"reinterpreted_batch_ndims must be >= 0, got {reinterpreted_batch_ndims}")
        self.base_constraint = base_constraint
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims
        super().__init__()

    @property
    def is_discrete(self) -> bool:
        return self.base_constraint.is_discrete

    @property
    def event_dim(self) -> int:
        return self.base_constraint.event_dim + self.reinterpreted_batch_ndims

    def check(self, value):
        result = self.base_constraint.check(value)
        if result.dim() < self.reinterpreted_batch_ndims:
            expected = self.base_constraint.event_dim + self.reinterpreted_batch_ndims
            raise ValueError(f"Expected value.dim() >= {expected} but got {value.dim()}")
        result = result.reshape(tuple(result.shape[:result.dim() - self.reinterpreted_batch_ndims]) + (-1,))
        return result.all(-1)

    def __repr__(self):
        return f"{self.__class__.__name__[1:]}({self.base_constraint!r}, {self.reinterpreted_batch_ndims})"


class MixtureSameFamilyConstraint(Constraint):
    """The constraint of a mixture's components applied through the mixture dimension."""

    def __init__(self, base_constraint):
        if not isinstance(base_constraint, Constraint):
            raise AssertionError(f"base_constraint must be a Constraint, got {type(base_constraint).__name__}")
        self.base_constraint = base_constraint
        super().__init__()

    @property
    def is_discrete(self) -> bool:
        return self.base_constraint.is_discrete

    @property
    def event_dim(self) -> int:
        return self.base_constraint.event_dim

    def check(self, value):
        result = self.base_constraint.check(value.unsqueeze(-1 - self.event_dim))
        if value.dim() < self.event_dim:
            raise ValueError(f"Expected value.dim() >= {self.event_dim} but got {value.dim()}")
        keep = value.dim() - self.event_dim
        return result.reshape(tuple(result.shape[:keep]) + (-1,)).all(-1)

    def __repr__(self):
        return f"{self.__class__.__name__}({self.base_constraint!r})"


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value):
        return (value == 0) | (value == 1)


class _OneHot(Constraint):
    is_discrete = True
    event_dim = 1

    def check(self, value):
        is_boolean = (value == 0) | (value == 1)
        is_normalized = value.sum(-1).eq(1)
        return is_boolean.all(-1) & is_normalized


class _Bounded(Constraint):
    """Shared by the bounded constraints: stores the bounds and prints them as PyTorch does."""
    _bounds: tuple = ()

    def __init__(self, *bounds):
        for name, bound in zip(self._bounds, bounds):
            setattr(self, name, bound)
        super().__init__()

    def __repr__(self):
        args = ", ".join(f"{name}={getattr(self, name)}" for name in self._bounds)
        return f"{self.__class__.__name__[1:]}({args})"


class _IntegerInterval(_Bounded):
    """Integers in ``[lower_bound, upper_bound]`` (``constraints.integer_interval``).

    Example::

        >>> from borch_webgpu.distributions import constraints
        >>> constraints.integer_interval(0, 2).check(torch.tensor([0.0, 1.5, 2.0, 3.0]))
        tensor([ True, False,  True, False])
    """
    is_discrete = True
    _bounds = ("lower_bound", "upper_bound")

    def check(self, value):
        return (value % 1 == 0) & (self.lower_bound <= value) & (value <= self.upper_bound)


class _IntegerLessThan(_Bounded):
    is_discrete = True
    _bounds = ("upper_bound",)

    def check(self, value):
        return (value % 1 == 0) & (value <= self.upper_bound)


class _IntegerGreaterThan(_Bounded):
    is_discrete = True
    _bounds = ("lower_bound",)

    def check(self, value):
        return (value % 1 == 0) & (value >= self.lower_bound)


class _Real(Constraint):
    def check(self, value):
        return value == value  # False for NaN


class _GreaterThan(_Bounded):
    """Reals strictly above ``lower_bound`` (``constraints.greater_than``; ``positive`` is ``greater_than(0.0)``).

    Example::

        >>> from borch_webgpu.distributions import constraints
        >>> constraints.greater_than(1.0).check(torch.tensor([1.0, 2.0]))
        tensor([False,  True])
    """
    _bounds = ("lower_bound",)

    def check(self, value):
        return self.lower_bound < value


class _GreaterThanEq(_Bounded):
    """Reals at or above ``lower_bound`` (``constraints.greater_than_eq``; ``nonnegative`` is ``greater_than_eq(0.0)``).

    Example::

        >>> from borch_webgpu.distributions import constraints
        >>> constraints.greater_than_eq(1.0).check(torch.tensor([1.0, 0.0]))
        tensor([ True, False])
    """
    _bounds = ("lower_bound",)

    def check(self, value):
        return self.lower_bound <= value


class _LessThan(_Bounded):
    """Reals strictly below ``upper_bound`` (``constraints.less_than``).

    Example::

        >>> from borch_webgpu.distributions import constraints
        >>> constraints.less_than(1.0).check(torch.tensor([0.5, 1.0]))
        tensor([ True, False])
    """
    _bounds = ("upper_bound",)

    def check(self, value):
        return value < self.upper_bound


class _Interval(_Bounded):
    """Reals in the closed interval ``[lower_bound, upper_bound]`` (``constraints.interval``;
    ``unit_interval`` is ``interval(0.0, 1.0)``).

    Example::

        >>> from borch_webgpu.distributions import constraints
        >>> constraints.interval(0.0, 1.0).check(torch.tensor([0.0, 1.0, 1.5]))
        tensor([ True,  True, False])
    """
    _bounds = ("lower_bound", "upper_bound")

    def check(self, value):
        return (self.lower_bound <= value) & (value <= self.upper_bound)


class _HalfOpenInterval(_Bounded):
    """Reals in ``[lower_bound, upper_bound)`` (``constraints.half_open_interval``).

    Example::

        >>> from borch_webgpu.distributions import constraints
        >>> constraints.half_open_interval(0.0, 1.0).check(torch.tensor([0.0, 1.0]))
        tensor([ True, False])
    """
    _bounds = ("lower_bound", "upper_bound")

    def check(self, value):
        return (self.lower_bound <= value) & (value < self.upper_bound)


class _Simplex(Constraint):
    event_dim = 1

    def check(self, value):
        return (value >= 0).all(dim=-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class _Multinomial(Constraint):
    """Nonnegative count vectors summing to at most ``upper_bound`` (``constraints.multinomial``).

    Example::

        >>> from borch_webgpu.distributions import constraints
        >>> constraints.multinomial(3).check(torch.tensor([[1.0, 2.0], [2.0, 2.0]]))
        tensor([ True, False])
    """
    is_discrete = True
    event_dim = 1

    def __init__(self, upper_bound):
        self.upper_bound = upper_bound

    def check(self, x):
        return (x >= 0).all(dim=-1) & (x.sum(dim=-1) <= self.upper_bound)


from ._constraints_matrix import (_Cat, _CorrCholesky, _LowerCholesky, _LowerTriangular,  # noqa: E402
                                  _PositiveDefinite, _PositiveSemidefinite, _Square, _Stack, _Symmetric)

dependent = _Dependent()
dependent_property = _DependentProperty
independent = _IndependentConstraint
boolean = _Boolean()
one_hot = _OneHot()
nonnegative_integer = _IntegerGreaterThan(0)
positive_integer = _IntegerGreaterThan(1)
integer_interval = _IntegerInterval
real = _Real()
real_vector = independent(real, 1)
positive = _GreaterThan(0.0)
nonnegative = _GreaterThanEq(0.0)
greater_than = _GreaterThan
greater_than_eq = _GreaterThanEq
less_than = _LessThan
multinomial = _Multinomial
unit_interval = _Interval(0.0, 1.0)
interval = _Interval
half_open_interval = _HalfOpenInterval
simplex = _Simplex()
lower_triangular = _LowerTriangular()
lower_cholesky = _LowerCholesky()
corr_cholesky = _CorrCholesky()
square = _Square()
symmetric = _Symmetric()
positive_semidefinite = _PositiveSemidefinite()
positive_definite = _PositiveDefinite()
cat = _Cat
stack = _Stack
