"""``torch.testing``: :func:`assert_close`, with PyTorch's tolerances, exception types and messages;
:func:`make_tensor`; the deprecated :func:`assert_allclose`."""
from ._comparison import assert_close
from ._creation import assert_allclose, make_tensor

__all__ = ["assert_close", "make_tensor", "assert_allclose"]
