"""Statistics written with other ops: cov, corrcoef, trapezoid/trapz, cumulative_trapezoid, histogram,
histogramdd, nanmedian. Each follows PyTorch's own formula (so float32 results round as PyTorch's do) and
differentiates through the ops it is made of."""
from __future__ import annotations

import builtins
import numbers

from .. import _dtype, autograd
from ..tensor import Tensor, _wrap_dim
from . import _return_types as _rt
from ._registry import OpDef, methods, register

__all__ = ["cov", "corrcoef", "trapezoid", "trapz", "cumulative_trapezoid", "histogram", "histogramdd", "nanmedian"]

# mm sums the observations in an order that differs from PyTorch's: the matmul family's tolerance
for _n, _doc, _tol in (("cov", "centred rows, one mm, a normalisation", (1e-5, 1e-5)),
                       ("corrcoef", "cov scaled by its diagonal's square roots", (1e-5, 1e-5)),
                       ("trapezoid", "sums of neighbour averages (also trapz)", (1e-5, 1e-5)),
                       ("cumulative_trapezoid", "cumsum of neighbour averages", (1e-5, 1e-5)),
                       ("histogram", "searchsorted into the bin edges, index_add of the weights", (1e-6, 1e-6)),
                       ("nanmedian", "sort, count the NaNs, take the lower middle", (0, 0))):
    register(OpDef(_n, "composite", None, None, tol=_tol, doc=_doc, extra={"messages": True}))

_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16", "int64": "Long", "int32": "Int",
          "bool": "Bool", "uint8": "Byte", "int16": "Short", "int8": "Char"}


def _float(x: Tensor) -> Tensor:
    return x if x.dtype.is_floating_point or x.dtype.is_complex else x.to(_dtype.get_default_dtype())


def _check_weights(name: str, w: Tensor, n_obs: int, kind: str, kind_ok: bool) -> None:
    if w.dim() > 1:
        raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions but got {name} with {w.dim()} "
                           "dimensions")
    if not kind_ok:
        raise RuntimeError(f"cov(): expected {name} to have {kind} dtype but got {name} with "
                           f"{_NAMES.get(w.dtype.name, w.dtype.name)} dtype")
    if w.numel() != n_obs:
        raise RuntimeError(f"cov(): expected {name} to have the same numel as there are observations in the input "
                           f"but got {w.numel()} != {n_obs}")
    if builtins.bool((w < 0).any()):
        raise RuntimeError(f"cov(): {name} cannot be negative")


def cov(input: Tensor, *, correction: int = 1, fweights: Tensor | None = None,
        aweights: Tensor | None = None) -> Tensor:
    """The covariance matrix of the variables in ``input``'s rows (observations in its columns; a 1-D
    input is one variable): ``correction=1`` is Bessel's, ``fweights`` (integers) and ``aweights``
    weight the observations.

    Example::

        >>> torch.cov(torch.tensor([[0., 1., 2.], [2., 1., 0.]]))
        tensor([[ 1., -1.],
                [-1.,  1.]])
    """
    import warnings
    if input.dim() > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an input with "
                           f"{input.dim()} dimensions")
    if not isinstance(correction, numbers.Integral) or isinstance(correction, builtins.bool):
        raise TypeError(f"cov(): argument 'correction' must be int, not {type(correction).__name__}")
    x = input if input.dim() == 2 else input.reshape(1, -1)
    n_obs = x._shape[1]
    w = None
    if fweights is not None:
        _check_weights("fweights", fweights, n_obs, "integral", fweights.dtype.category == 1)
        w = fweights
    if aweights is not None:
        _check_weights("aweights", aweights, n_obs, "floating point", aweights.dtype.is_floating_point)
        w = aweights if w is None else w * aweights
    x = _float(x)
    if w is None:
        avg = x.mean(1)
        norm = float(n_obs - correction)
        w_sum = None
    else:
        w = w.to(x.dtype)
        w_sum = w.sum()
        avg = (x * w).sum(1) / w_sum
        if correction == 0:
            norm = w_sum
        elif aweights is None:
            norm = w_sum - correction
        else:
            norm = w_sum - correction * (w * aweights).sum() / w_sum
    if (norm if isinstance(norm, float) else norm.item()) <= 0:
        warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of "
                      "observations.", UserWarning, stacklevel=2)
        norm = 0.0 if isinstance(norm, float) else norm.clamp_min(0)
    xc = x - avg.unsqueeze(1)
    c = xc.mm((xc * w if w is not None else xc).t())
    c = c / norm
    return c.squeeze() if c._shape == (1, 1) else c


def corrcoef(input: Tensor) -> Tensor:
    """The Pearson correlation coefficients of the variables in ``input``'s rows (``cov`` normalised by
    the standard deviations, clipped to [-1, 1]).

    Example::

        >>> torch.corrcoef(torch.tensor([[0., 1., 2.], [2., 1., 0.]]))
        tensor([[ 1., -1.],
                [-1.,  1.]])
    """
    if input.dim() > 2:
        raise RuntimeError(f"corrcoef(): expected input to have two or fewer dimensions but got an input with "
                           f"{input.dim()} dimensions")
    c = cov(input)
    if c.dim() == 0:
        return c / c
    d = c.diagonal()
    sd = d.sqrt()
    c = c / sd.unsqueeze(1)
    c = c / sd.unsqueeze(0)
    return c.clamp(-1, 1)


def _dx_along(x: Tensor, y: Tensor, d: int) -> Tensor:
    from .shape_more import diff
    if x.dim() == 1:
        dx = diff(x)
        view = [1] * y.dim()
        view[d] = dx._shape[0]
        return dx.reshape(view)
    return diff(x, dim=d)


def trapezoid(y: Tensor, x=None, *, dx=None, dim: int = -1) -> Tensor:
    """The integral of ``y`` along ``dim`` by the trapezoidal rule, the samples ``x`` apart (a tensor of
    coordinates, or a spacing ``dx``; 1 by default).

    Example::

        >>> torch.trapezoid(torch.tensor([1., 2., 3.]))
        tensor(4.)
        >>> torch.trapezoid(torch.tensor([1., 2., 3.]), torch.tensor([0., 1., 3.]))
        tensor(6.5000)
    """
    if isinstance(x, Tensor) and dx is not None:
        raise TypeError("trapezoid() received an invalid combination of arguments - got both x and dx")
    if y.dim() == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    d = _wrap_dim(dim, y.dim(), "trapezoid")
    yf = _float(y) if not isinstance(x, Tensor) or not x.dtype.is_floating_point else y
    n = y._shape[d]
    if isinstance(x, Tensor):
        if x.dim() != 1 and x.dim() != y.dim():
            raise RuntimeError("trapezoid: There must be one `x` value for each sample point")
        if x.dim() == 1 and x._shape[0] != n:
            raise RuntimeError("trapezoid: There must be one `x` value for each sample point")
        if n == 0:
            return yf.sum(d) * 0
        dxs = _dx_along(x, y, d)
        return (dxs * (yf.narrow(d, 1, n - 1) + yf.narrow(d, 0, n - 1))).sum(d) / 2.0
    spacing = 1 if x is None and dx is None else (dx if dx is not None else x)
    if n == 0:
        return yf.sum(d) * 0
    return (yf.sum(d) - (yf.select(d, 0) + yf.select(d, -1)) * 0.5) * spacing


def trapz(y: Tensor, x=None, *, dx=None, dim: int = -1) -> Tensor:
    """``trapezoid`` under its older name (``trapz(y, x, dim=-1)`` or ``trapz(y, dx=1, dim=-1)``).

    Example::

        >>> torch.trapz(torch.tensor([1., 2., 3.]), dx=2.)
        tensor(8.)
    """
    return trapezoid(y, x, dx=dx, dim=dim)


def cumulative_trapezoid(y: Tensor, x=None, *, dx=None, dim: int = -1) -> Tensor:
    """The running trapezoidal integrals of ``y`` along ``dim`` (one fewer than the samples).

    Example::

        >>> torch.cumulative_trapezoid(torch.tensor([1., 2., 3.]))
        tensor([1.5000, 4.0000])
    """
    if y.dim() == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    d = _wrap_dim(dim, y.dim(), "cumulative_trapezoid")
    yf = _float(y) if not isinstance(x, Tensor) or not x.dtype.is_floating_point else y
    n = y._shape[d]
    if n == 0:
        return yf.narrow(d, 0, 0)
    pair = yf.narrow(d, 1, n - 1) + yf.narrow(d, 0, n - 1)
    if isinstance(x, Tensor):
        if x.dim() == 1 and x._shape[0] != n:
            raise RuntimeError("cumulative_trapezoid: There must be one `x` value for each sample point")
        return (_dx_along(x, y, d) / 2.0 * pair).cumsum(d)
    spacing = 1 if x is None and dx is None else (dx if dx is not None else x)
    return (spacing / 2.0 * pair).cumsum(d)


def histogram(input: Tensor, bins=100, *, range=None, weight: Tensor | None = None,  # noqa: A002
              density: bool = False):
    """A histogram of ``input``'s values: ``bins`` equal bins over ``range`` (the data's min and max by
    default) or the bin edges given as a 1-D tensor; ``weight`` gives each element's weight, and
    ``density=True`` normalises to a probability density. Returns ``(hist, bin_edges)``.

    Example::

        >>> torch.histogram(torch.tensor([1., 2., 1.]), bins=4, range=(0., 3.))
        torch.return_types.histogram(
        hist=tensor([0., 2., 1., 0.]),
        bin_edges=tensor([0.0000, 0.7500, 1.5000, 2.2500, 3.0000]))
    """
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"histogramdd\" not implemented for '{_NAMES.get(input.dtype.name)}'")
    if not isinstance(bins, Tensor) and bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    if weight is not None and weight._shape != input._shape:
        raise RuntimeError("torch.histogramdd: if weight tensor is provided it should have the same shape as the "
                           f"input tensor excluding its innermost dimension, but got input with shape "
                           f"{list(input._shape) + [1]} and weight with shape {list(weight._shape)}")
    hist, edges = _histdd(input.reshape(-1, 1), [bins], range, weight, density)
    return _rt.histogram((hist, edges[0]))


def histogramdd(input: Tensor, bins, *, range=None, weight: Tensor | None = None,  # noqa: A002
                density: bool = False):
    """A D-dimensional histogram of the points in ``input``'s rows (its last dim is D): ``bins`` is one
    int, D ints, or D 1-D tensors of edges; ``range`` is ``[min_0, max_0, ..., min_D-1, max_D-1]``.
    Returns ``(hist, bin_edges)`` with one edges tensor per dim.

    Example::

        >>> torch.histogramdd(torch.tensor([[0., 1.], [1., 2.], [2., 0.5]]), bins=[2, 1]).hist
        tensor([[1.],
                [2.]])
    """
    if input.dim() < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"histogramdd\" not implemented for '{_NAMES.get(input.dtype.name)}'")
    D = input._shape[-1]
    per_dim = [bins] * D if isinstance(bins, builtins.int) else list(bins)
    if len(per_dim) != D:
        raise RuntimeError("histogramdd: The size of bins must be equal to the innermost dimension of the input.")
    if range is not None and len(range) != 2 * D:
        raise RuntimeError(f"torch.histogramdd: for a {D}-dimensional histogram range should have {2 * D} elements, "
                           f"but got {len(range)}")
    hist, edges = _histdd(input.reshape(-1, D), per_dim, range, weight, density)
    return _rt.histogramdd((hist, tuple(edges)))


def _edges(col: Tensor, bins, rng, d: int) -> Tensor:
    from .creation import linspace
    if isinstance(bins, Tensor):
        if bins.dim() != 1:
            raise RuntimeError(f"torch.histogramdd: bins tensor should have one dimension, but got {bins.dim()} "
                               f"dimensions in the bins tensor for dimension {d}")
        if bins.numel() == 0:
            raise RuntimeError("torch.histogramdd: bins tensor should have at least 1 element, but got 0 elements in"
                               f" the bins tensor for dimension {d}")
        return bins.to(col.dtype).detach()
    if bins <= 0:
        raise RuntimeError(f"torch.histogramdd: bins must be > 0, but got {bins} for dimension {d}")
    if rng is not None:
        lo, hi = builtins.float(rng[2 * d]), builtins.float(rng[2 * d + 1])
    elif col.numel():
        lo, hi = col.min().item(), col.max().item()
    else:
        lo = hi = 0.0
    if lo > hi:
        raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {lo:g} max {hi:g} "
                           f"for dimension {d}")
    if lo == hi:  # an empty range widened as numpy does
        lo, hi = lo - 0.5, hi + 0.5
    return linspace(lo, hi, bins + 1, dtype=col.dtype, device=col.device)


def _histdd(x: Tensor, bins: list, rng, weight, density: bool):
    """(hist of shape (nb_0, ..., nb_D-1), [edges per dim]) of the rows of x (N, D): each coordinate's bin by
    searchsorted (the last edge closes the last bin), the flat bin index, index_add of the weights."""
    from .creation import zeros
    from .elementwise import where
    from .search import searchsorted
    x = x.detach()
    D = x._shape[1]
    edges = [_edges(x[:, d], bins[d], rng, d) for d in builtins.range(D)]
    nbs = [e.numel() - 1 for e in edges]
    total = 1
    for nb in nbs:
        total *= builtins.max(nb, 0)
    hist = zeros(total, dtype=x.dtype, device=x.device)
    if total and x._shape[0]:
        with autograd.no_grad():
            flat = inside = None
            for d, (e, nb) in enumerate(zip(edges, nbs)):
                col = x[:, d].contiguous()
                pos = where(col == e[-1], nb - 1, searchsorted(e, col, right=True) - 1)
                ok = (col >= e[0]) & (col <= e[-1])
                flat = pos if flat is None else flat * nb + pos
                inside = ok if inside is None else inside & ok
            flat = where(inside, flat, 0)
            w = weight.detach().reshape(-1).to(x.dtype) if weight is not None else None
            add = inside.to(x.dtype) if w is None else where(inside, w, 0.0)
            hist = hist.index_add(0, flat, add)
    hist = hist.reshape([builtins.max(nb, 0) for nb in nbs])
    if density and total:
        width = None
        for d, e in enumerate(edges):
            view = [1] * D
            view[d] = nbs[d]
            wd = (e[1:] - e[:-1]).reshape(view)
            width = wd if width is None else width * wd
        hist = hist / (hist.sum() * width)
    return hist, edges


def nanmedian(input: Tensor, dim=None, keepdim: bool = False):
    """The median ignoring NaNs (the lower of the two middle values for an even count; NaN where all
    are NaN): of all elements, or ``(values, indices)`` along ``dim``.

    Example::

        >>> torch.nanmedian(torch.tensor([3., float('nan'), 1., 2.]))
        tensor(2.)
    """
    from ._complex_core import refuse_complex
    refuse_complex(input, NotImplementedError, '"nanmedian_cpu" not implemented for \'{}\'')   # an ordering: no meaning for complex values
    from .creation import full, zeros
    from .elementwise import where
    x = input
    if x.dtype.name == "bool":
        raise NotImplementedError("\"nanmedian_cpu\" not implemented for 'Bool'")
    if not x.dtype.is_floating_point:
        return x.median() if dim is None else _rt.nanmedian(tuple(x.median(dim, keepdim)))
    if dim is None:
        if x.numel() == 0:
            return full((), float("nan"), dtype=x.dtype, device=x.device)
        flat = x.reshape(-1)
        v, i = nanmedian(flat, 0)
        return v
    d = _wrap_dim(dim, builtins.max(x.dim(), 1), "nanmedian")
    if x.dim() == 0:
        return _rt.nanmedian((x.clone(), zeros((), dtype=_dtype.int64, device=x.device)))
    if x._shape[d] == 0:
        raise IndexError(f"nanmedian(): Expected reduction dim {d} to have non-zero size.")
    with autograd.no_grad():
        xd = x.detach()
        _, perm = xd.sort(d, stable=True)
        real = xd.isnan().logical_not().sum(d, keepdim=True)
        # all NaN: PyTorch takes the middle of the whole (NaN) row
        at = where(real > 0, (real - 1).div(2, rounding_mode="floor"), (x._shape[d] - 1) // 2)
        idx = perm.gather(d, at)
    values = x.gather(d, idx)
    if not keepdim:
        values, idx = values.squeeze(d), idx.squeeze(d)
    return _rt.nanmedian((values, idx))


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
methods(("cov", cov), ("corrcoef", corrcoef), ("histogram", histogram), ("nanmedian", nanmedian))
methods(("histogramdd", histogramdd), tensor=False)
methods(("trapezoid", trapezoid), ("trapz", trapz), ("cumulative_trapezoid", cumulative_trapezoid), tensor=False)
