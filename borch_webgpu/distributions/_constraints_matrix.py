"""The matrix and composite constraints of ``constraints.py`` (lower triangular, Cholesky factors,
symmetric / positive-definite matrices, ``cat`` and ``stack``)."""
from __future__ import annotations

from ._constraint_base import Constraint


def _torch():
    from ._ops import torch
    return torch


class _LowerTriangular(Constraint):
    event_dim = 2

    def check(self, value):
        return (value.tril() == value).reshape(tuple(value.shape[:-2]) + (-1,)).all(-1)


class _LowerCholesky(Constraint):
    event_dim = 2

    def check(self, value):
        lower_triangular = (value.tril() == value).reshape(tuple(value.shape[:-2]) + (-1,)).all(-1)
        positive_diagonal = (value.diagonal(dim1=-2, dim2=-1) > 0).all(-1)
        return lower_triangular & positive_diagonal


class _CorrCholesky(Constraint):
    event_dim = 2

    def check(self, value):
        from .._dtype import finfo
        tol = finfo(value.dtype).eps * value.size(-1) * 10
        row_norm = _torch().linalg.norm(value.detach(), dim=-1)
        unit_row_norm = (row_norm - 1.0).abs().le(tol).all(dim=-1)
        return _LowerCholesky().check(value) & unit_row_norm


class _Square(Constraint):
    event_dim = 2

    def check(self, value):
        return _torch().full(tuple(value.shape[:-2]), value.shape[-2] == value.shape[-1], dtype=_torch().bool,
                             device=value.device)


class _Symmetric(_Square):
    def check(self, value):
        square_check = super().check(value)
        if not bool(square_check.all()):
            return square_check
        return _torch().isclose(value, value.mT, atol=1e-6).all(-2).all(-1)


class _PositiveSemidefinite(_Symmetric):
    def check(self, value):
        sym_check = super().check(value)
        if not bool(sym_check.all()):
            return sym_check
        return _torch().linalg.eigvalsh(value).ge(0).all(-1)


class _PositiveDefinite(_Symmetric):
    def check(self, value):
        sym_check = super().check(value)
        if not bool(sym_check.all()):
            return sym_check
        return _torch().linalg.cholesky_ex(value).info.eq(0)


class _Cat(Constraint):
    """Applies each constraint of ``cseq`` to a slice of ``lengths[i]`` along ``dim``."""

    def __init__(self, cseq, dim=0, lengths=None):
        if not all(isinstance(c, Constraint) for c in cseq):
            raise AssertionError("All elements of cseq must be Constraint instances")
        self.cseq = list(cseq)
        self.lengths = list([1] * len(self.cseq) if lengths is None else lengths)
        if len(self.lengths) != len(self.cseq):
            raise AssertionError(f"lengths ({len(self.lengths)}) must match cseq ({len(self.cseq)})")
        self.dim = dim
        super().__init__()

    @property
    def is_discrete(self) -> bool:
        return any(c.is_discrete for c in self.cseq)

    @property
    def event_dim(self) -> int:
        return max(c.event_dim for c in self.cseq)

    def check(self, value):
        checks, start = [], 0
        for constr, length in zip(self.cseq, self.lengths):
            checks.append(constr.check(value.narrow(self.dim, start, length)))
            start += length
        return _torch().cat(checks, self.dim)


class _Stack(Constraint):
    """Applies each constraint of ``cseq`` to one index along ``dim``."""

    def __init__(self, cseq, dim=0):
        if not all(isinstance(c, Constraint) for c in cseq):
            raise AssertionError("All elements of cseq must be Constraint instances")
        self.cseq = list(cseq)
        self.dim = dim
        super().__init__()

    @property
    def is_discrete(self) -> bool:
        return any(c.is_discrete for c in self.cseq)

    @property
    def event_dim(self) -> int:
        dim = max(c.event_dim for c in self.cseq)
        return dim + 1 if self.dim + dim < 0 else dim

    def check(self, value):
        vs = [value.select(self.dim, i) for i in range(value.size(self.dim))]
        return _torch().stack([constr.check(v) for v, constr in zip(vs, self.cseq)], self.dim)
