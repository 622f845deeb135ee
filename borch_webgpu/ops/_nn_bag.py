"""``F.embedding_bag``: sums, means or maxima of bags of embedding rows, without the (n, dim) rows
being kept per bag: the rows are gathered with ``embedding`` (so max_norm, padding_idx and
scale_grad_by_freq act as there) and reduced into their bags with ``index_add`` / ``scatter_reduce``.

The bag of each index comes from ``offsets``, which are read to the host with the indices (small int
tensors; PyTorch's CPU kernel reads them too, and says which index is out of range): on WebGPU each call
waits for that read. Entries outside every bag, and ``padding_idx`` entries, go to one extra bag that is
dropped."""
from __future__ import annotations

import warnings

import numpy as np

from .. import _dtype
from ..tensor import Tensor
from ._registry import OpDef, register

__all__ = ["embedding_bag"]

# gathered rows summed (or averaged) per bag in float32
register(OpDef("embedding_bag", "nn", None, None, tol=(1e-6, 1e-6), extra={"messages": True},
               doc="per-bag sum, mean or max of embedding rows"))

_RANGE = ("Expected i < index_size to be true, but got false.  (Could this error message be improved?  If so, "
          "please report an enhancement request to PyTorch.)")


def _check_indices(name: str, t: Tensor) -> None:
    if t.dtype not in (_dtype.int64, _dtype.int32):
        raise RuntimeError(f"Expected tensor for argument #1 '{name}' to have one of the following scalar types: "
                           f"Long, Int; but got {t.type()} instead (while checking arguments for embedding_bag)")


def _bags(offsets: np.ndarray, n: int, include_last_offset: bool) -> tuple[np.ndarray, int]:
    """(bag of each of the n indices (-1: in no bag), number of bags) with PyTorch's checks."""
    if offsets.size and offsets[0] != 0:
        raise RuntimeError(f"offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
                           f"position 0. However, got {offsets[0]}\n[ torch.LongTensor{{}} ]")
    if offsets.size and offsets[-1] > n:
        raise RuntimeError(f"offsets[-1] can not be greater than input's length {n} but got offsets[-1] of "
                           f"{offsets[-1]}")
    if (np.diff(offsets) < 0).any():
        raise RuntimeError(_RANGE)
    bags = offsets.size - 1 if include_last_offset else offsets.size
    ends = np.append(offsets[1:bags + 1], n if not include_last_offset else offsets[-1])[:bags]
    bag = np.full(n, -1, np.int64)
    for b in range(bags):
        bag[offsets[b]:ends[b]] = b
    return bag, max(bags, 0)


def embedding_bag(input: Tensor, weight: Tensor, offsets: Tensor | None = None, max_norm: float | None = None,
                  norm_type: float = 2, scale_grad_by_freq: bool = False, mode: str = "mean", sparse: bool = False,
                  per_sample_weights: Tensor | None = None, include_last_offset: bool = False,
                  padding_idx: int | None = None) -> Tensor:
    """The ``mode`` ('sum', 'mean' or 'max') of the embedding rows of each bag: a 2-D ``input`` is one bag
    per row; a 1-D ``input`` is cut into bags at ``offsets``. ``per_sample_weights`` (mode 'sum') weigh
    the rows; ``padding_idx`` entries are left out; an empty bag gives zeros.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> w = torch.arange(8.).reshape(4, 2)
        >>> F.embedding_bag(torch.tensor([0, 1, 3]), w, torch.tensor([0, 2]), mode="sum").tolist()
        [[2.0, 4.0], [6.0, 7.0]]
    """
    from .creation import tensor as make, zeros
    from .nn_ops import embedding
    if weight.dtype is _dtype.int64 and input.dtype.is_floating_point:
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage `embedding_bag(weight, "
                      "input, ...)` is deprecated, and should now be `embedding_bag(input, weight, ...)`.",
                      stacklevel=2)
        weight, input = input, weight
    if per_sample_weights is not None and tuple(input.shape) != tuple(per_sample_weights.shape):
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, then it "
                         f"must have the same shape as the input ({input.shape})")
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}")
    if input.dim() == 2:
        if offsets is not None:
            shown = "<class 'torch.Tensor'>" if isinstance(offsets, Tensor) else str(type(offsets))
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             f"fixed length sequences. However, found offsets of type {shown}")
        offs = np.arange(0, input.numel(), max(input.shape[1], 1), dtype=np.int64)[:input.shape[0]]
        include_last_offset = False
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
        offs = None
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    if mode not in ("sum", "mean", "max"):
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if mode == "max" and sparse:
        raise ValueError("max mode does not support sparse weights")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
                                  "GitHub.")
    _check_indices("indices", input)
    num, dim = tuple(weight.shape)
    if padding_idx is not None:
        if not -num <= padding_idx < num:
            raise RuntimeError(f"padding_idx must be within the number of embeddings, {-num} through {num - 1}, but "
                               f"got {padding_idx}")
        padding_idx = padding_idx + num if padding_idx < 0 else padding_idx
    if offs is None:
        _check_indices("offsets", offsets)
        offs = np.asarray(offsets.tolist(), np.int64).reshape(-1)
    idx = input.reshape(-1).to(_dtype.int64)
    n = idx.shape[0]
    bag, bags = _bags(offs, n, include_last_offset)
    host = np.asarray(idx.tolist(), np.int64)
    bad = np.flatnonzero((host < 0) | (host >= num))
    if bad.size:
        raise RuntimeError(f"Index {bad[0]} of input takes value {host[bad[0]]} which is not in the valid range "
                           f"[0, {num})")
    from .elementwise import where
    rows = embedding(idx, weight, padding_idx, max_norm, norm_type, scale_grad_by_freq, sparse)   # (n, dim)
    into = make(np.where(bag < 0, bags, bag), device=weight.device)
    if padding_idx is not None:
        into = where(idx == padding_idx, bags, into)
    if per_sample_weights is not None:
        rows = rows * per_sample_weights.reshape(-1, 1)
    if mode == "max":
        out = zeros((bags + 1, dim), dtype=weight.dtype, device=weight.device).scatter_reduce(
            0, into.unsqueeze(1).expand(n, dim), rows, "amax", include_self=False)
        return out[:bags]
    out = zeros((bags + 1, dim), dtype=rows.dtype, device=weight.device).index_add(0, into, rows)[:bags]
    if mode == "sum":
        return out
    counts = zeros(bags + 1, dtype=rows.dtype, device=weight.device).index_add(
        0, into, zeros(n, dtype=rows.dtype, device=weight.device) + 1)[:bags]
    return out / counts.clamp_min(1).unsqueeze(1)
