"""The torch-shaped namespace the distributions compute with: the op records (``_bind.FUNCTIONS``:
``torch.erf``, ``torch.where``, ...), dtypes, ``Size``, grad modes, ``autograd``, ``linalg`` and ``nn``,
taken from the layers below. (The package root imports this package, so the root itself cannot be
imported here.)"""
from __future__ import annotations

from types import SimpleNamespace

from .. import _dtype, autograd, linalg, nn
from .._bind import FUNCTIONS
from ..tensor import Size, Tensor

torch = SimpleNamespace(**FUNCTIONS)
for _name in ("bool", "float16", "float32", "float64", "int32", "int64", "long", "finfo", "get_default_dtype"):
    setattr(torch, _name, getattr(_dtype, _name))
torch.Size, torch.Tensor = Size, Tensor
torch.no_grad, torch.enable_grad, torch.autograd = autograd.no_grad, autograd.enable_grad, autograd
torch.linalg, torch.nn = linalg, nn
