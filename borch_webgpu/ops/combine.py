"""Ops that combine tensors into products and grids: meshgrid, cartesian_prod, kron, tensordot,
cross (and torch.linalg.cross), cdist. Each is a composite of differentiable ops (views, broadcast
products, mm, norms), written in PyTorch's order of operations, so its gradient needs nothing of its own.
"""
from __future__ import annotations

import builtins
import math
import warnings

from .. import _dtype, autograd
from ..tensor import Tensor, _wrap_dim
from ._registry import OpDef, methods, register

__all__ = ["meshgrid", "cartesian_prod", "kron", "tensordot", "cross", "linalg_cross", "cdist"]

for _n, _doc in (("meshgrid", "views: each tensor viewed along its own dim and expanded"),
                 ("cartesian_prod", "meshgrid's grids flattened and stacked")):
    register(OpDef(_n, "view", None, None, tol=(0, 0), doc=_doc, extra={"messages": True}))
KRON = register(OpDef("kron", "composite", None, None, tol=(1e-6, 1e-6), doc="a broadcast product, reshaped",
                      extra={"messages": True}))
# mm adds K products in an order that differs from PyTorch's: the matmul family's tolerance
TENSORDOT = register(OpDef("tensordot", "composite", None, None, tol=(1e-5, 1e-4),
                           doc="permute and reshape to one mm", extra={"messages": True}))
# a1*b2 - a2*b1 cancels: an absolute part of about one ulp of the products
CROSS = register(OpDef("cross", "composite", None, None, tol=(1e-6, 2e-6),
                       doc="three products and differences (also torch.linalg.cross)",
                       extra={"messages": True, "grad_tol": (1.3e-6, 2e-5)}))
# p-norms of differences; for p = 2 and more than 25 rows PyTorch (and this) uses a matrix product
CDIST = register(OpDef("cdist", "composite", None, None, tol=(2e-5, 2e-5), doc="p-norms of row differences",
                       extra={"messages": True, "grad_tol": (1e-4, 1e-4)}))


def _tensor_list(op: str, tensors) -> list[Tensor]:
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    for t in tensors:
        if not isinstance(t, Tensor):
            raise TypeError(f"{op}(): expected Tensor as element, but got {type(t).__name__}")
    return list(tensors)


# ---- grids -------------------------------------------------------------------------------------------
def meshgrid(*tensors, indexing: str | None = None):
    """Coordinate grids: output ``i`` holds ``tensors[i]`` along dim ``i`` and is expanded over the others
    (``indexing='ij'``); ``'xy'`` swaps the first two dims (Cartesian indexing). Without ``indexing``
    PyTorch warns and uses ``'ij'``; so does this. The outputs are views of the inputs.

    Example::

        >>> gx, gy = torch.meshgrid(torch.tensor([1, 2]), torch.tensor([3, 4, 5]), indexing="ij")
        >>> gy
        tensor([[3, 4, 5],
                [3, 4, 5]])
    """
    ts = _tensor_list("meshgrid", tensors)
    if indexing is None:
        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.",
                      UserWarning, stacklevel=2)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    if not ts:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in ts:
        if t.dtype is not ts[0].dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
        if t.device != ts[0].device:
            raise RuntimeError("meshgrid expects all tensors to have the same device")
        if t.dim() > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got a tensor of "
                               f"shape {list(t._shape)}")
    swap = indexing == "xy" and len(ts) >= 2
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    shape = [t.numel() for t in ts]
    grids = []
    for i, t in enumerate(ts):
        view = [1] * len(ts)
        view[i] = -1
        grids.append(t.reshape(view).expand(shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


def cartesian_prod(*tensors) -> Tensor:
    """The Cartesian product of 1-D tensors, one combination per row (``itertools.product``'s order);
    a single tensor comes back as it is.

    Example::

        >>> torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4]))
        tensor([[1, 3],
                [1, 4],
                [2, 3],
                [2, 4]])
    """
    from .shape import stack
    ts = _tensor_list("cartesian_prod", tensors)
    for t in ts:
        if t.dim() != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t._shape)}")
    if len(ts) == 1:
        return ts[0]
    grids = meshgrid(ts, indexing="ij")
    return stack([g.flatten() for g in grids], dim=1)


# ---- products ------------------------------------------------------------------------------------------
def kron(input: Tensor, other: Tensor) -> Tensor:
    """The Kronecker product: blocks ``input[i, j] * other`` (any numbers of dims; the shorter one is padded
    with leading size-1 dims). Unlike PyTorch 2.13, whose kron views its product and so raises for a
    transposed input, any memory layout works here.

    Example::

        >>> torch.kron(torch.tensor([1, 2]), torch.tensor([1, 10]))
        tensor([ 1, 10,  2, 20])
    """
    a, b = input, other
    n = builtins.max(a.dim(), b.dim())
    pa, pb = n - a.dim(), n - b.dim()
    sa, sb, out = [], [], []
    for i in range(n):
        x = a._shape[i - pa] if i >= pa else 1
        y = b._shape[i - pb] if i >= pb else 1
        sa += [x, 1]
        sb += [1, y]
        out.append(x * y)
    return (a.reshape(sa) * b.reshape(sb)).reshape(out)


def _dim_list(op: str, dims, ndim: int) -> list[int]:
    out = []
    for d in dims:
        w = _wrap_dim(builtins.int(d), ndim, op)
        if w in out:
            raise RuntimeError(f"dim {w} appears multiple times in the list of dims")
        out.append(w)
    return out


def tensordot(a: Tensor, b: Tensor, dims=2, out=None) -> Tensor:
    """Sum of products over the last ``dims`` dims of ``a`` and the first ``dims`` of ``b`` (an int), or
    over the listed dims (``([dims of a], [dims of b])``); the free dims of ``a`` then of ``b`` remain.
    Contracted dims of size 1 broadcast (they are summed first), as in PyTorch.

    Example::

        >>> torch.tensordot(torch.ones(2, 3), torch.ones(3, 4), dims=1).shape
        torch.Size([2, 4])
    """
    if not isinstance(dims, (tuple, list, Tensor, builtins.int)):
        raise RuntimeError(f"tensordot expects dims to be int or tuple[list[int], list[int]] or list[list[int]] "
                           f"containing two lists, but got dims={dims}")
    if isinstance(dims, Tensor):
        dims = dims.tolist() if dims.numel() > 1 else builtins.int(dims.item())
    if isinstance(dims, (tuple, list)):
        da, db = dims
        da = [da] if isinstance(da, builtins.int) else list(da)
        db = [db] if isinstance(db, builtins.int) else list(db)
    else:
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > builtins.min(a.dim(), b.dim()):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        da, db = list(range(-dims, 0)), list(range(dims))
    if len(da) != len(db):
        raise RuntimeError("both dimension lists should have same length")
    if a.dtype is not b.dtype:
        raise RuntimeError("both inputs should have same dtype")
    t1, t2 = a, b
    for x, y in zip(da, db):
        s1, s2 = a.size(x), b.size(y)
        if s2 == 1:  # a broadcast dim is summed right away
            t1 = t1.sum(x, keepdim=True, dtype=t1.dtype)
        elif s1 == 1:
            t2 = t2.sum(y, keepdim=True, dtype=t2.dtype)
        elif s1 != s2:
            raise RuntimeError(f"contracted dimensions need to match, but first has size {s1} in dim {x} and second "
                               f"has size {s2} in dim {y}")
    ca, cb = _dim_list("tensordot", da, a.dim()), _dim_list("tensordot", db, b.dim())
    free_a = [i for i in range(a.dim()) if i not in ca]
    free_b = [i for i in range(b.dim()) if i not in cb]
    csize = math.prod(t1._shape[i] for i in ca)
    rshape = [t1._shape[i] for i in free_a] + [t2._shape[i] for i in free_b]
    m1 = t1.permute(free_a + ca).reshape(math.prod(t1._shape[i] for i in free_a), csize)
    m2 = t2.permute(cb + free_b).reshape(csize, math.prod(t2._shape[i] for i in free_b))
    r = (m1 @ m2).reshape(rshape)
    if out is not None:
        from .elementwise import _out
        return _out(r, out)
    return r


# ---- cross products ------------------------------------------------------------------------------------
def linalg_cross(input: Tensor, other: Tensor, *, dim: int = -1) -> Tensor:
    """The cross product of 3-vectors along ``dim`` (``torch.linalg.cross``); other dims broadcast.

    Example::

        >>> torch.linalg.cross(torch.tensor([1., 0., 0.]), torch.tensor([0., 1., 0.]))
        tensor([0., 0., 1.])
    """
    a, b = input, other
    if a.dim() != b.dim():
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    if a.dtype is not b.dtype:
        raise RuntimeError(f"expected scalar type {_tname(a.dtype)} but found {_tname(b.dtype)}")
    d = _wrap_dim(dim, a.dim(), "linalg.cross")
    if a._shape[d] != 3 or b._shape[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got {a._shape[d]} and "
                           f"{b._shape[d]}")
    from .shape import stack
    a0, a1, a2 = (a.select(d, i) for i in range(3))
    b0, b1, b2 = (b.select(d, i) for i in range(3))
    return stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], dim=d)


def _tname(d) -> str:
    return _dtype.SCALAR_NAMES[d.name]


def cross(input: Tensor, other: Tensor, dim: int | None = None, *, out=None) -> Tensor:
    """The cross product along ``dim``; without ``dim``, along the first dim of size 3 (deprecated in
    PyTorch, which warns; so does this). ``torch.linalg.cross`` defaults to the last dim.

    Example::

        >>> torch.cross(torch.tensor([[1, 0, 0]]), torch.tensor([[0, 1, 0]]), dim=1)
        tensor([[0, 0, 1]])
    """
    if dim is None:
        warnings.warn("Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the dim "
                      "explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to agree "
                      "with that of linalg.cross in a future release.", UserWarning, stacklevel=2)
        found = [i for i, s in enumerate(input._shape) if s == 3]
        if not found:
            raise RuntimeError("no dimension of size 3 in input")
        dim = found[0]
    r = linalg_cross(input, other, dim=dim)
    if out is not None:
        from .elementwise import _out
        return _out(r, out)
    return r


# ---- distances -----------------------------------------------------------------------------------------
_MODES = {"use_mm_for_euclid_dist_if_necessary": 0, "use_mm_for_euclid_dist": 1, "donot_use_mm_for_euclid_dist": 2}


def cdist(x1: Tensor, x2: Tensor, p: float = 2.0,
          compute_mode: str = "use_mm_for_euclid_dist_if_necessary") -> Tensor:
    """The ``p``-norm distance between each row of ``x1`` (..., P, M) and each row of ``x2`` (..., R, M):
    a (..., P, R) tensor; batch dims broadcast. For ``p = 2`` with more than 25 rows on either side
    (or ``compute_mode='use_mm_for_euclid_dist'``) it is computed through a matrix product, as PyTorch
    does (faster, less exact for nearby points).

    Example::

        >>> torch.cdist(torch.tensor([[0., 0.]]), torch.tensor([[3., 4.], [1., 0.]]))
        tensor([[5., 1.]])
    """
    if compute_mode not in _MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    if x1.dim() < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X1 got: {x1.dim()}D")
    if x2.dim() < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X2 got: {x2.dim()}D")
    if x1._shape[-1] != x2._shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1._shape[-1]} X2: "
                           f"{x2._shape[-1]}")
    for name, x in (("X1", x1), ("X2", x2)):
        if not x.dtype.is_floating_point:
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: {_tname(x.dtype)}")
    p = builtins.float(p)
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    r1, r2 = x1._shape[-2], x2._shape[-2]
    mode = _MODES[compute_mode]
    if p == 2 and (mode == 1 or (mode == 0 and (r1 > 25 or r2 > 25))):
        return _euclidean_dist(x1, x2)
    with autograd.no_grad():
        out = (x1.unsqueeze(-2) - x2.unsqueeze(-3)).norm(p, dim=-1)
    autograd.record("CdistBackward0", [x1, x2], [out], lambda g: _cdist_back(g, x1, x2, out, p), [x1, x2, out])
    return out


def _cdist_back(g: Tensor, x1: Tensor, x2: Tensor, dist: Tensor, p: float):
    """PyTorch's _cdist_backward, case by case in p (a zero distance, or a zero difference for p < 1,
    gives a zero gradient), written with differentiable ops."""
    from .elementwise import sum_to, where
    d = x1.unsqueeze(-2) - x2.unsqueeze(-3)
    ge, de = g.unsqueeze(-1), dist.unsqueeze(-1)
    if p == 0:
        gd = d * 0
    elif p == 1:
        gd = ge * d.sign()
    elif p < 2:
        zero = (de == 0) | (d == 0) if p < 1 else de == 0
        gd = where(zero, 0.0, d.sign() * d.abs().pow(p - 1) * ge / de.pow(p - 1))
    elif p == 2:
        gd = where(de == 0, 0.0, ge * d / de)
    elif math.isinf(p):
        gd = ge * d.sign() * (d.abs() == de)
    else:
        gd = where(de == 0, 0.0, d * d.abs().pow(p - 2) * ge / de.pow(p - 1))
    return sum_to(gd.sum(-2), x1._shape), sum_to(-gd.sum(-3), x2._shape)


def _euclidean_dist(x1: Tensor, x2: Tensor) -> Tensor:
    """PyTorch's _euclidean_dist: |a|^2 - 2 a.b + |b|^2 through one batched product, clamped at 1e-30."""
    from .creation import ones_like
    from .shape import cat
    n1 = x1.pow(2).sum(-1, keepdim=True)
    n2 = x2.pow(2).sum(-1, keepdim=True)
    a = cat([x1.mul(-2), n1, ones_like(n1)], -1)
    b = cat([x2, ones_like(n2), n2], -1)
    return a.matmul(b.mT).clamp_min(1e-30).sqrt()


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
methods(("meshgrid", meshgrid), ("cartesian_prod", cartesian_prod), ("tensordot", tensordot), ("cdist", cdist),
        tensor=False)
methods(("kron", kron), ("cross", cross))
# torch.linalg.cross is linalg_cross, exported by borch_webgpu/linalg.py
