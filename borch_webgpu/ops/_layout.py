"""``torch.layout``: how a tensor's elements are stored. ``torch.strided`` is every dense tensor's;
``torch.sparse_coo`` is a sparse COO tensor's (``torch.sparse_coo_tensor``, ``Tensor.to_sparse``)."""
from __future__ import annotations

__all__ = ["layout", "strided", "sparse_coo"]


class layout:
    """A tensor layout, printed as PyTorch prints it (``torch.strided``, ``torch.sparse_coo``).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.zeros(2).layout, torch.zeros(2).to_sparse().layout
        (torch.strided, torch.sparse_coo)
    """
    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return "torch." + self.name

    def __reduce__(self):
        return self.name  # the module attribute of that name: pickling keeps the singleton


strided = layout("strided")
sparse_coo = layout("sparse_coo")
