"""Searching and counting: searchsorted, bucketize, histc, bincount.

searchsorted and bucketize are a binary search per value (wgsl/search.wgsl on WebGPU, the same steps
vectorised in numpy on cpu), exactly PyTorch's: a NaN on either side of a comparison moves the search
right. histc and bincount count with the indexing kernel's accumulating put (index_add). Their output
sizes depend on the data where PyTorch's do (histc without a range, bincount), so they read a value
back from the GPU there, as PyTorch does on CUDA.
"""
from __future__ import annotations

import builtins
import math
import numbers
import warnings

import numpy as np

from .. import _dtype, autograd
from ..tensor import Tensor
from ._checks import host_values
from ._registry import OpDef, methods, register

__all__ = ["searchsorted", "bucketize", "histc", "bincount"]


def _np_searchsorted(seq: np.ndarray, vals: np.ndarray, right: bool) -> np.ndarray:
    """PyTorch's binary search for rows: seq (R, m) sorted, vals (R, k); int64 positions (R, k)."""
    m = seq.shape[1]
    lo = np.zeros(vals.shape, np.int64)
    hi = np.full(vals.shape, m, np.int64)
    rows = np.arange(seq.shape[0])[:, None]
    with np.errstate(invalid="ignore"):
        while True:
            active = lo < hi
            if not active.any():
                return lo
            mid = lo + (hi - lo) // 2
            b = seq[rows, np.minimum(mid, m - 1)]
            go = ~(b > vals) if right else ~(b >= vals)
            lo = np.where(active & go, mid + 1, lo)
            hi = np.where(active & ~go, mid, hi)


# positions are found, not computed: exact
SEARCHSORTED = register(OpDef("searchsorted", "search", ("search.wgsl", "searchsorted"), _np_searchsorted,
                              tol=(0, 0), doc="binary search of each value in its row", extra={"messages": True}))
BUCKETIZE = register(OpDef("bucketize", "search", ("search.wgsl", "searchsorted"), _np_searchsorted, tol=(0, 0),
                           doc="searchsorted with 1-D boundaries, the arguments swapped", extra={"messages": True}))
# counts of whole elements: exact
HISTC = register(OpDef("histc", "search", ("index.wgsl", "put"), None, tol=(0, 0),
                       doc="bins by PyTorch's linear formula, counted by an accumulating put",
                       extra={"messages": True}))
BINCOUNT = register(OpDef("bincount", "search", ("index.wgsl", "put"), None, tol=(1e-6, 1e-6),
                          doc="an accumulating put of ones (or of the weights)", extra={"messages": True}))

_NAMES = _dtype.SCALAR_NAMES  # PyTorch's ScalarType names (Float, Byte, ...)


def _search(seq: Tensor, vals: Tensor, per_row: int, right: bool, out_dtype) -> Tensor:
    """The kernel on contiguous seq (rows of its last dim) and vals (rows of per_row values)."""
    shape = vals._shape
    if vals._device.type == "cpu":
        b = seq._backend()
        rows = math.prod(seq._shape[:-1])
        s = b.view(seq).reshape(rows, seq._shape[-1])
        r = _np_searchsorted(s, b.view(vals).reshape(rows, vals.numel() // rows), right).reshape(shape)
        return Tensor._make(b.from_numpy(r.astype(out_dtype.storage_np), out_dtype), shape, out_dtype, vals.device)
    from ..device import gpu_search
    return Tensor._make(gpu_search.searchsorted(seq, vals, per_row, right), shape, out_dtype, vals.device)


def searchsorted(sorted_sequence: Tensor, input, *, out_int32: bool = False, right: bool = False,
                 side: str | None = None, sorter: Tensor | None = None, out=None) -> Tensor:
    """Where each value of ``input`` would be inserted in ``sorted_sequence`` to keep it sorted: the first
    position whose element is ``>=`` the value (``right=True`` or ``side='right'``: ``>``). A 1-D sequence
    serves every value; an N-D one has a row per leading index, matched with ``input``'s leading dims.
    ``sorter`` gives the indices that sort an unsorted sequence. int64 results (``out_int32``: int32).

    Example::

        >>> torch.searchsorted(torch.tensor([1, 3, 5, 7]), torch.tensor([3, 6, 9]))
        tensor([1, 3, 4])
    """
    op = "torch.searchsorted()"
    seq = sorted_sequence
    if not isinstance(seq, Tensor):
        raise TypeError(f"searchsorted(): argument 'sorted_sequence' (position 1) must be Tensor, not "
                        f"{type(seq).__name__}")
    if side is not None and side not in ("left", "right"):
        raise RuntimeError(f"{op}: side can only be 'left' or 'right' but got {side}")
    if side is not None and right and side == "left":
        raise RuntimeError(f"{op}: side and right can't be set to opposites, got side of left while right was True")
    right = builtins.bool(right) or side == "right"
    scalar = not isinstance(input, Tensor)
    if scalar:
        if not isinstance(input, numbers.Number):
            raise TypeError(f"searchsorted(): argument 'input' must be Tensor or Number, not {type(input).__name__}")
        if seq.dim() != 1:
            raise RuntimeError(f"{op}: input value can be a scalar only when boundaries tensor dimension is 1, but we "
                               f"got boundaries tensor dim({seq.dim()}) and input value's dim(0) numel(1)")
        from .creation import tensor
        input = tensor(input, device=seq.device)
    if seq.dim() == 0:
        raise RuntimeError(f"{op}: boundaries tensor should have positive dimension, but got 0 dimension")
    if seq.dim() != 1 and (input.dim() != seq.dim() or tuple(input._shape[:-1]) != tuple(seq._shape[:-1])):
        raise RuntimeError(f"{op}: boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries "
                           f"tensor and input value tensor must match, but we got boundaries tensor "
                           f"{list(seq._shape)} and input value tensor {list(input._shape)}")
    for what, t in (("boundary", seq), ("input value", input), ("sorter", sorter)):
        if t is not None and not t.is_contiguous():
            _warn_copy(what)
    if sorter is not None:
        seq = _apply_sorter(op, seq, sorter)
    for t in (seq, input):
        if t.dtype.name == "bool":
            raise NotImplementedError("\"searchsorted_out_cpu\" not implemented for 'Bool'")
        if t.dtype.name == "float16" and t._device.type == "webgpu":
            raise TypeError(f"{op}: float16 is not supported by the WebGPU search kernel; use .float()")
    common = _dtype.result_type_of([seq.dtype, input.dtype])
    seq = seq.detach().to(common).contiguous()
    vals = input.detach().to(common).contiguous()
    per_row = vals._shape[-1] if seq.dim() > 1 else builtins.max(vals.numel(), 1)
    r = _search(seq, vals, per_row, right, _dtype.int32 if out_int32 else _dtype.int64)
    if out is not None:
        from .elementwise import _out
        return _out(r, out)
    return r


def _warn_copy(what: str) -> None:
    # PyTorch's TORCH_WARN_ONCE; Python's default warning filter shows it once per call site
    warnings.warn(f"torch.searchsorted(): {what} tensor is non-contiguous, this will lower the performance due to "
                  f"extra data copy when converting non-contiguous tensor to contiguous, please use contiguous {what} "
                  "tensor if possible. This message will only appear once per program.", UserWarning, stacklevel=3)


def _apply_sorter(op: str, seq: Tensor, sorter) -> Tensor:
    if not isinstance(sorter, Tensor):
        raise TypeError(f"searchsorted(): argument 'sorter' must be Tensor, not {type(sorter).__name__}")
    if sorter.dtype.name != "int64":
        raise RuntimeError(f"{op}: sorter must be a tensor of long dtype but got dtype {_NAMES[sorter.dtype.name]}")
    if tuple(sorter._shape) != tuple(seq._shape):
        raise RuntimeError(f"{op}: boundary and sorter must have the same size, but got boundary tensor "
                           f"{list(seq._shape)}and got sorter tensor {list(sorter._shape)}")
    from .indexing import _take
    d = seq.dim() - 1
    with autograd.no_grad():
        return _take(seq, d, sorter, sorter._stride, sorter._shape, RuntimeError, f"{op}: sorter index out of range")


def bucketize(input, boundaries: Tensor, *, out_int32: bool = False, right: bool = False, out=None) -> Tensor:
    """The bucket of each value of ``input``: the index of the first boundary ``>=`` it (``right=True``:
    ``>``), for increasing 1-D ``boundaries``; ``searchsorted`` with the arguments swapped.

    Example::

        >>> torch.bucketize(torch.tensor([0., 3., 6.]), torch.tensor([1., 3., 5.]))
        tensor([0, 1, 3])
    """
    if not isinstance(boundaries, Tensor):
        raise TypeError(f"bucketize(): argument 'boundaries' must be Tensor, not {type(boundaries).__name__}")
    if boundaries.dim() != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.dim()})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right, out=out)


# ---- histograms -------------------------------------------------------------------------------------------
def _cpp(x: float) -> str:
    """A double as C++'s ostream prints it (PyTorch's messages): 6 significant digits."""
    return "nan" if x != x else ("inf" if x == np.inf else ("-inf" if x == -np.inf else f"{x:g}"))


def histc(input: Tensor, bins: int = 100, min=0, max=0, *, out=None) -> Tensor:  # noqa: A002 - torch's names
    """A histogram of ``bins`` equal bins between ``min`` and ``max`` (the data's own range when both are
    equal; elements outside are not counted), as float counts of ``input``'s dtype.

    An element goes to bin ``int((x - min) * bins / (max - min))`` computed in float32, PyTorch's formula
    (the last bin includes ``max``). Without a range the data's min and max are read back from the GPU.
    A value that lands exactly on a bin edge is binned by that float32 division: GPUs whose division is
    not correctly rounded (WGSL allows 2.5 ulp) may put it in the neighbouring bin.

    Example::

        >>> torch.histc(torch.tensor([1., 2., 1.]), bins=4, min=0, max=3)
        tensor([0., 2., 1., 0.])
    """
    x = input
    if not x.dtype.is_floating_point:
        raise NotImplementedError(f"\"histogram_cpu\" not implemented for '{_NAMES[x.dtype.name]}'")
    bins = builtins.int(bins)
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    lo, hi = builtins.float(min), builtins.float(max)
    if lo == hi and x.numel() > 0:
        with autograd.no_grad():
            from .shape import stack
            ext = x.detach().reshape(-1)
            lo, hi = (builtins.float(v) for v in host_values(stack([ext.amin(), ext.amax()]),
                                                               "torch.histc() without a range"))
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if not all(np.isfinite([lo, hi])):
        raise RuntimeError(f"torch.histc: range of [{_cpp(lo)}, {_cpp(hi)}] is not finite")
    if not lo < hi:
        raise RuntimeError("torch.histc: max must be larger than min")
    from .creation import ones, zeros
    from .elementwise import where
    with autograd.no_grad():
        f = x.detach().reshape(-1).float()
        lo32, hi32 = builtins.float(np.float32(lo)), builtins.float(np.float32(hi))
        width = builtins.float(np.float32(hi32) - np.float32(lo32))
        pos = (((f - lo32) * builtins.float(bins)) / width).trunc().long()
        pos = where(pos >= bins, bins - 1, pos)
        inside = (f >= lo32) & (f <= hi32)
        pos = where(inside, pos, bins)  # outside and NaN: an extra bin, dropped
        counts = zeros(bins + 1, device=x.device).index_add(0, pos, ones(pos.numel(), device=x.device))
        r = counts[:bins].to(x.dtype)
    if out is not None:
        from .elementwise import _out
        return _out(r, out)
    return r


def bincount(input: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    """How often each value ``0, 1, ..., max(input)`` occurs in the 1-D non-negative integer ``input``
    (at least ``minlength`` bins); with ``weights``, their sums instead of counts. The number of bins
    depends on the data: on WebGPU ``max(input)`` is read back (as PyTorch does on CUDA).

    Example::

        >>> torch.bincount(torch.tensor([1, 1, 3]))
        tensor([0, 2, 0, 1])
    """
    x = input
    if x.dtype.category != 1:
        raise NotImplementedError(f"\"bincount_cpu\" not implemented for '{_NAMES[x.dtype.name]}'")
    if x.dim() != 1:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if x.dtype.host:  # int8, uint8, int16 count through an int64 index
        x = x.long()
    minlength = builtins.int(minlength)
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if weights is not None and (weights.dim() != 1 or weights._shape[0] != x._shape[0]):
        raise RuntimeError("weights should be 1-d and have the same length as input")
    from .creation import ones, zeros
    out_dt = _dtype.int64 if weights is None else weights.dtype
    if weights is not None and not weights.dtype.is_floating_point:
        _dtype.check_supported(_dtype.float64, "bincount (integer weights count in float64)")
    size = minlength
    if x.numel():
        from .shape import stack
        lo, hi = (builtins.int(v) for v in host_values(stack([x.amin(), x.amax()]), "torch.bincount()"))
        if lo < 0:
            raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
        size = builtins.max(size, hi + 1)
    with autograd.no_grad():
        src = ones(x.numel(), dtype=out_dt, device=x.device) if weights is None else weights.detach()
        return zeros(size, dtype=out_dt, device=x.device).index_add(0, x, src)


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
methods(("searchsorted", searchsorted), ("bucketize", bucketize), tensor=False)
methods(("histc", histc), ("bincount", bincount))
