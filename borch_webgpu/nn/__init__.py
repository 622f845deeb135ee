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
           "parameter", "UninitializedParameter", "UninitializedBuffer", "factory_kwargs"]


def factory_kwargs(kwargs):
    """PyTorch's helper for modules that take ``device=`` / ``dtype=`` / ``memory_format=``: the canonical dict
    of factory keyword arguments from ``kwargs`` (and its ``factory_kwargs`` entry), refusing anything else.

    Example::

        >>> torch.nn.factory_kwargs({"device": "cpu", "factory_kwargs": {"dtype": torch.float64}})
        {'dtype': torch.float64, 'device': 'cpu'}
    """
    if kwargs is None:
        return {}
    simple_keys = {"device", "dtype", "memory_format"}
    expected_keys = simple_keys | {"factory_kwargs"}
    if not kwargs.keys() <= expected_keys:
        raise TypeError(f"unexpected kwargs {kwargs.keys() - expected_keys}")
    r = dict(kwargs.get("factory_kwargs", {}))
    for k in simple_keys:
        if k in kwargs:
            if k in r:
                raise TypeError(f"{k} specified twice, in **kwargs and in factory_kwargs")
            r[k] = kwargs[k]
    return r
