"""``torch.testing``: :func:`assert_close`, with PyTorch's tolerances, exception types and messages."""
from ._comparison import assert_close

__all__ = ["assert_close"]
