"""``torch._dynamo``: the compile cache's settings (``config.cache_size_limit``), ``reset()``, and
``exc.Unsupported``, raised where ``fullgraph=True`` meets a call that cannot be captured."""
import types

from ._compile import config, reset
from .device.capture import GraphBreakError

exc = types.SimpleNamespace(Unsupported=GraphBreakError, TorchDynamoException=RuntimeError)

__all__ = ["config", "reset", "exc"]
