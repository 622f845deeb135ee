"""``torch.return_types``: the named tuples that ``max(dim)``, ``min(dim)``, ``median``, ``mode``, ``sort``,
``topk``, ``kthvalue``, ``aminmax``, ``cummax`` and ``cummin`` return, printed as PyTorch prints them.

Example::

    >>> import borch_webgpu as torch
    >>> r = torch.tensor([[1.0, 5.0, 2.0], [3.0, 0.0, 4.0]], device="cpu").max(1)
    >>> print(r)
    torch.return_types.max(
    values=tensor([5., 4.]),
    indices=tensor([1, 2]))
    >>> values, indices = r
    >>> isinstance(r, torch.return_types.max), r.indices.tolist()
    (True, [1, 2])
"""
from __future__ import annotations

from .ops._return_types import (aminmax, cummax, cummin, frexp, kthvalue, max, median, min,  # noqa: A004
                                mode, sort, topk)
from .ops._return_types import histogram, histogramdd, nanmedian
from .ops._return_types import linalg_eig

__all__ = ["max", "min", "median", "mode", "sort", "topk", "kthvalue", "aminmax", "cummax", "cummin", "frexp", "nanmedian",
           "histogram", "histogramdd", "linalg_eig"]
