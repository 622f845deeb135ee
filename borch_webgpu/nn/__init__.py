"""``torch.nn``: for now the functional interface (``nn.functional``); modules come with the nn issue."""
from . import functional

__all__ = ["functional"]
