"""``torch.nn``: Module and the layers, containers and losses, ``Parameter``, ``functional``, ``init``,
``utils`` and ``intrinsic`` (the fused-module containers), with PyTorch's names, signatures, defaults and ``repr``."""
from . import functional, init
from .parameter import Buffer, Parameter
from .modules import *  # noqa: F401,F403 - every layer class
from .modules import __all__ as _modules_all
from . import utils
from . import intrinsic
from . import parallel
from .parallel import DataParallel
# lazy modules' placeholders (issue 11)
from . import parameter
from .parameter import UninitializedBuffer, UninitializedParameter

__all__ = ["functional", "init", "utils", "intrinsic", "parallel", "DataParallel", "Parameter", "Buffer", *_modules_all,
           "parameter", "UninitializedParameter", "UninitializedBuffer"]
