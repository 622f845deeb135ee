"""What every summary builder shares: values to numpy, the Summary and SummaryMetadata wrappers."""
from __future__ import annotations

import numpy as np

from ... import _dtype
from ...tensor import Tensor
from . import _proto


def make_np(x) -> np.ndarray:
    """A numpy array of ``x``: a Tensor (on any device; bfloat16 read as float16, as PyTorch does), a
    numpy array, or a Python / numpy scalar (as a 1-element array).

    Example::

        >>> from borch_webgpu.utils.tensorboard.summary import make_np
        >>> make_np(torch.tensor([1.0, 2.0])), make_np(3)
        (array([1., 2.], dtype=float32), array([3]))
    """
    if isinstance(x, np.ndarray):
        return x
    if np.isscalar(x):
        return np.array([x])
    if isinstance(x, Tensor):
        if x.dtype == _dtype.bfloat16:
            x = x.to(_dtype.float16)
        return x.detach().cpu().numpy()
    raise NotImplementedError(f"Got {type(x)}, but numpy array or torch tensor are expected.")


def summary_of(tag: str, body: bytes = b"", metadata: bytes | None = None) -> bytes:
    """Summary{value (1): Value{tag (1), body (the value's own encoded fields), metadata (9)}}."""
    value = _proto.bytes_field(1, tag) + body
    if metadata is not None:
        value += _proto.message_field(9, metadata)
    return _proto.message_field(1, value)


def plugin_metadata(plugin_name: str, content: bytes = b"") -> bytes:
    """SummaryMetadata{plugin_data (1): PluginData{plugin_name (1), content (2)}}."""
    return _proto.message_field(1, _proto.bytes_field(1, plugin_name) + _proto.bytes_field(2, content))
