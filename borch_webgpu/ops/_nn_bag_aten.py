"""``torch.embedding_bag``: the ATen form of ``F.embedding_bag`` (weight first, ``mode`` an int) that returns
PyTorch's 4-tuple ``(output, offset2bag, bag_size, max_indices)``. ``output`` is ``F.embedding_bag``'s; the
other three are int64 tensors computed on the host from the indices, as PyTorch's CPU kernel gives them:
mode 0 (sum) an empty offset2bag and zeros; mode 1 (mean) the bag of each index, the bag sizes (padding
entries not counted) and the sizes again; mode 2 (max) also the row index that won each output element."""
from __future__ import annotations

import numpy as np

from .. import _dtype
from ..tensor import Tensor
from ._registry import api

__all__ = ["embedding_bag"]

_MODES = ("sum", "mean", "max")


def embedding_bag(weight: Tensor, indices: Tensor, offsets: Tensor, scale_grad_by_freq: bool = False,
                  mode: int = 0, sparse: bool = False, per_sample_weights: Tensor | None = None,
                  include_last_offset: bool = False, padding_idx: int | None = None):
    """``(output, offset2bag, bag_size, max_indices)``: mode 0 sums, 1 averages, 2 takes the maximum of the
    ``weight`` rows of each bag of the 1-D ``indices`` (bags start at ``offsets``); ``output`` is
    ``F.embedding_bag``'s (and differentiable wrt ``weight``).

    Example::

        >>> import borch_webgpu as torch
        >>> w = torch.arange(8.).reshape(4, 2)
        >>> out, offset2bag, bag_size, max_indices = torch.embedding_bag(w, torch.tensor([0, 1, 3]), torch.tensor([0, 2]), False, 1)
        >>> out.tolist(), offset2bag.tolist(), bag_size.tolist()
        ([[1.0, 2.0], [6.0, 7.0]], [0, 0, 1], [2, 1])
    """
    from .creation import tensor
    from ._nn_bag import _check_indices, embedding_bag as functional
    if not isinstance(offsets, Tensor):
        raise TypeError(f"embedding_bag(): argument 'offsets' (position 3) must be Tensor, not "
                        f"{type(offsets).__name__}")
    if mode not in (0, 1, 2):
        raise RuntimeError("`mode` must be sum, mean, or max.")
    if per_sample_weights is not None and mode != 0:
        raise RuntimeError("embedding_bag: per_sample_weights only supported with mode='sum'")
    _check_indices("indices", indices)
    out = functional(indices, weight, offsets, None, 2, scale_grad_by_freq, _MODES[mode], sparse,
                     per_sample_weights, include_last_offset, padding_idx)
    bags, dim = out.shape[0], weight.shape[1]
    dev = weight.device

    def longs(a) -> Tensor:
        return tensor(np.asarray(a, np.int64), dtype=_dtype.int64, device=dev)

    if mode == 0:
        return out, longs(np.zeros(0)), longs(np.zeros(bags)), longs(np.zeros(bags))
    idx = np.asarray(indices.reshape(-1).tolist(), np.int64)
    offs = np.asarray(offsets.tolist(), np.int64).reshape(-1)
    n = idx.size
    starts = offs[:bags]
    o2b = np.zeros(n + 1, np.int64)
    np.add.at(o2b, starts[starts <= n], 1)
    o2b = (np.cumsum(o2b) - 1)[:n].clip(min=0)
    if padding_idx is not None:
        pad = padding_idx + weight.shape[0] if padding_idx < 0 else padding_idx
        keep = idx != pad
    else:
        keep = np.ones(n, bool)
    ends = np.append(offs[1:bags + 1], n)[:bags] if not include_last_offset else offs[1:bags + 1]
    in_bag = np.zeros(n, bool)
    in_bag[:int(ends[-1]) if bags else 0] = True
    size = np.bincount(o2b[keep & in_bag].astype(np.intp), minlength=bags)[:bags]  # intp: int32 in Pyodide
    if mode == 1:
        return out, longs(o2b), longs(size), longs(size)
    rows = np.asarray(weight.detach()._host("embedding_bag max_indices"), np.float64)[idx]
    best = np.zeros((bags, dim), np.int64)  # an empty bag: 0, as PyTorch
    top = np.full((bags, dim), -np.inf)
    for k in range(n):
        if keep[k] and in_bag[k]:
            b = o2b[k]
            win = rows[k] > top[b]
            best[b][win], top[b][win] = idx[k], rows[k][win]
    return out, longs(o2b), longs(size), longs(best)


api("embedding_bag", embedding_bag, tensor=False)
