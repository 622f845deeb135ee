"""``torch.nn.utils.weight_norm`` / ``remove_weight_norm`` (the hook-based form PyTorch deprecates in favour of
``parametrizations.weight_norm``): the parameters ``<name>_g`` and ``<name>_v``, recomputed before each forward."""
from __future__ import annotations

import warnings
from typing import Any, TypeVar

from ..modules.module import Module
from ..parameter import Parameter, UninitializedParameter
from .parametrizations import _norm_except_dim, _weight_norm

__all__ = ["WeightNorm", "weight_norm", "remove_weight_norm"]


class WeightNorm:
    """The forward pre-hook that :func:`weight_norm` registers: sets ``module.<name>`` to
    ``g * v / ||v||`` from the parameters ``<name>_g`` and ``<name>_v``.

    Example::

        >>> import borch_webgpu as torch
        >>> import warnings; warnings.simplefilter("ignore")
        >>> m = torch.nn.utils.weight_norm(torch.nn.Linear(3, 2))
        >>> [type(h).__name__ for h in m._forward_pre_hooks.values()]
        ['WeightNorm']
    """

    name: str
    dim: int

    def __init__(self, name: str, dim: int) -> None:
        if dim is None:
            dim = -1
        self.name = name
        self.dim = dim

    def compute_weight(self, module: Module) -> Any:
        """``g * v / ||v||`` from the module's ``<name>_g`` and ``<name>_v``."""
        return _weight_norm(getattr(module, self.name + "_v"), getattr(module, self.name + "_g"), self.dim)

    @staticmethod
    def apply(module, name: str, dim: int) -> "WeightNorm":
        """Replace ``module.<name>`` by ``<name>_g`` and ``<name>_v`` and register the hook."""
        warnings.warn("`torch.nn.utils.weight_norm` is deprecated in favor of "
                      "`torch.nn.utils.parametrizations.weight_norm`.", FutureWarning, stacklevel=3)
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter {name}")
        if dim is None:
            dim = -1
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        if isinstance(weight, UninitializedParameter):
            raise ValueError("The module passed to `WeightNorm` can't have uninitialized parameters. Make sure to "
                             "run the dummy forward before applying weight normalization")
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(_norm_except_dim(weight, 2, dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module: Module) -> None:
        """Make ``module.<name>`` a parameter again (its current value); drop ``_g`` and ``_v``."""
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self.name, self.compute_weight(module))


T_module = TypeVar("T_module", bound=Module)


def weight_norm(module: T_module, name: str = "weight", dim: int = 0) -> T_module:
    """Weight normalization by a forward pre-hook (deprecated in PyTorch: a FutureWarning): ``weight = g *
    v / ||v||`` with the parameters ``<name>_g`` (magnitude; the norm over every dim but ``dim``, over the
    whole tensor when ``dim=None``) and ``<name>_v`` (direction).

    Example::

        >>> import borch_webgpu as torch
        >>> import warnings; warnings.simplefilter("ignore")
        >>> m = torch.nn.utils.weight_norm(torch.nn.Linear(20, 40), name="weight")
        >>> m.weight_g.shape, m.weight_v.shape, list(m.state_dict())
        (torch.Size([40, 1]), torch.Size([40, 20]), ['bias', 'weight_g', 'weight_v'])
    """
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module: T_module, name: str = "weight") -> T_module:
    """Undo :func:`weight_norm`: ``<name>`` is a parameter again, holding the normalized value.

    Example::

        >>> import borch_webgpu as torch
        >>> import warnings; warnings.simplefilter("ignore")
        >>> m = torch.nn.utils.remove_weight_norm(torch.nn.utils.weight_norm(torch.nn.Linear(3, 2)))
        >>> list(m.state_dict())
        ['bias', 'weight']
    """
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")
