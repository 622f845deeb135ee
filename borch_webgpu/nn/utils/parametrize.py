"""``torch.nn.utils.parametrize``: express a module's parameter or buffer as a function of other tensors.

``register_parametrization(m, "weight", P())`` moves ``m.weight`` to ``m.parametrizations.weight.original``
(or ``original0``, ``original1``, ... when ``P.right_inverse`` returns several tensors) and makes
``m.weight`` a property of a new class ``Parametrized<Class>`` that computes ``P(original)`` on each
access, so autograd differentiates through ``P`` and an optimizer updates ``original``. The names, the
``state_dict`` keys and the error messages are PyTorch's.
"""
from __future__ import annotations

import collections.abc
from contextlib import contextmanager
from typing import Sequence

from ...autograd import no_grad
from ...tensor import Tensor
from ..modules.container import ModuleDict, ModuleList
from ..modules.module import Module
from ..parameter import Parameter

__all__ = ["cached", "ParametrizationList", "register_parametrization", "is_parametrized",
           "remove_parametrizations", "type_before_parametrizations", "transfer_parametrizations_and_params"]

_cache_enabled = 0
_cache: dict = {}


@contextmanager
def cached():
    """Compute each parametrized tensor once inside the block and reuse it (a weight used several
    times in one forward, an RNN's recurrent kernel); the values are dropped on leaving.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.utils.parametrize as P
        >>> m = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(2, 2))
        >>> with P.cached():
        ...     m.weight is m.weight
        True
    """
    global _cache, _cache_enabled
    _cache_enabled += 1
    try:
        yield
    finally:
        _cache_enabled -= 1
        if not _cache_enabled:
            _cache = {}


def _register_parameter_or_buffer(module: Module, name: str, x: Tensor) -> None:
    if isinstance(x, Parameter):
        module.register_parameter(name, x)
    else:
        module.register_buffer(name, x)


def _maybe_set(dest: Tensor, src: Tensor) -> None:
    """``dest.set_(src)``: dest (the same Parameter object, so optimizers keep it) now holds src's values."""
    dest.data = src
    dest._bump_version()


class ParametrizationList(ModuleList):
    """The parametrizations of one tensor and its original(s): ``module.parametrizations[name]``.

    Holds the unparametrized tensor as ``original``, or as ``original0``, ``original1``, ... when the
    first parametrization's ``right_inverse`` returns several tensors. Made by
    :func:`register_parametrization`; not meant to be built directly.

    Example::

        >>> import borch_webgpu as torch
        >>> m = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(3, 2))
        >>> type(m.parametrizations.weight).__name__, [n for n, _ in m.parametrizations.weight.named_parameters()]
        ('ParametrizationList', ['original0', 'original1'])
    """

    original: Tensor
    unsafe: bool

    def __init__(self, modules: Sequence[Module], original: Tensor, unsafe: bool = False) -> None:
        if len(modules) == 0:
            raise ValueError("ParametrizationList requires one or more modules.")
        super().__init__(modules)
        self.unsafe = unsafe
        original_shape, original_dtype = original.shape, original.dtype
        with no_grad():
            new = original
            for module in reversed(self):
                if hasattr(module, "right_inverse"):
                    try:
                        new = module.right_inverse(new)
                    except NotImplementedError:
                        pass
        if not isinstance(new, Tensor) and not isinstance(new, collections.abc.Sequence):
            raise ValueError("'right_inverse' must return a Tensor or a Sequence of tensors (list, tuple...). "
                             f"Got {type(new).__name__}")
        self.is_tensor = isinstance(new, Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)
        if self.is_tensor:
            if original.dtype != new.dtype:
                raise ValueError("When `right_inverse` outputs one tensor, it may not change the dtype.\n"
                                 f"original.dtype: {original.dtype}\nright_inverse(original).dtype: {new.dtype}")
            if original.device != new.device:
                raise ValueError("When `right_inverse` outputs one tensor, it may not change the device.\n"
                                 f"original.device: {original.device}\n"
                                 f"right_inverse(original).device: {new.device}")
            with no_grad():
                if new is not original:
                    _maybe_set(original, new)
            _register_parameter_or_buffer(self, "original", original)
        else:
            for i, originali in enumerate(new):
                if not isinstance(originali, Tensor):
                    raise ValueError("'right_inverse' must return a Tensor or a Sequence of tensors "
                                     "(list, tuple...). "
                                     f"Got element {i} of the sequence with type {type(originali).__name__}.")
                if isinstance(original, Parameter):
                    originali = Parameter(originali, original.requires_grad)
                originali.requires_grad_(original.requires_grad)
                _register_parameter_or_buffer(self, f"original{i}", originali)
        if not self.unsafe:
            z = self()
            if not isinstance(z, Tensor):
                raise ValueError(f"A parametrization must return a tensor. Got {type(z).__name__}.")
            if z.dtype != original_dtype:
                raise ValueError("Registering a parametrization may not change the dtype of the tensor, unless "
                                 f"`unsafe` flag is enabled.\nunparametrized dtype: {original_dtype}\n"
                                 f"parametrized dtype: {z.dtype}")
            if z.shape != original_shape:
                raise ValueError("Registering a parametrization may not change the shape of the tensor, unless "
                                 f"`unsafe` flag is enabled.\nunparametrized shape: {original_shape}\n"
                                 f"parametrized shape: {z.shape}")

    def right_inverse(self, value: Tensor) -> None:
        """Set the original(s) so that the parametrized tensor is ``value`` (what ``module.weight = value``
        calls): each parametrization's ``right_inverse``, last registered first."""
        with no_grad():
            for module in reversed(self):
                if hasattr(module, "right_inverse"):
                    value = module.right_inverse(value)
                else:
                    raise RuntimeError(f"parametrization {type(module).__name__} does not implement "
                                       "right_inverse.")
            if self.is_tensor:
                if not isinstance(value, Tensor):
                    raise ValueError(f"`right_inverse` should return a tensor. Got {type(value).__name__}")
                if value.dtype != self.original.dtype:
                    raise ValueError(f"The tensor returned by `right_inverse` has dtype {value.dtype} while "
                                     f"`original` has dtype {self.original.dtype}")
                _maybe_set(self.original, value)
            else:
                if not isinstance(value, collections.abc.Sequence):
                    raise ValueError(f"'right_inverse' must return a sequence of tensors. Got {type(value).__name__}.")
                if len(value) != self.ntensors:
                    raise ValueError("'right_inverse' must return a sequence of tensors of length "
                                     f"{self.ntensors}. Got a sequence of length {len(value)}.")
                for i, tensor in enumerate(value):
                    original_i = getattr(self, f"original{i}")
                    if not isinstance(tensor, Tensor):
                        raise ValueError("'right_inverse' must return a sequence of tensors or reference-type "
                                         f"opaques. Got element {i} of type {type(tensor).__name__}.")
                    if original_i.dtype != tensor.dtype:
                        raise ValueError(f"Tensor {i} returned by `right_inverse` has dtype {tensor.dtype} while "
                                         f"`original{i}` has dtype {original_i.dtype}")
                    _maybe_set(original_i, tensor)

    def forward(self) -> Tensor:
        if self.is_tensor:
            x = self[0](self.original)
        else:
            x = self[0](*(getattr(self, f"original{i}") for i in range(self.ntensors)))
        i = 1
        while hasattr(self, str(i)):
            x = self[i](x)
            i += 1
        return x


def _inject_new_class(module: Module) -> None:
    cls = module.__class__

    def getstate(self):
        raise RuntimeError("Serialization of parametrized modules is only supported through state_dict(). See:\n"
                           "https://pytorch.org/tutorials/beginner/saving_loading_models.html"
                           "#saving-loading-a-general-checkpoint-for-inference-and-or-resuming-training")

    module.__class__ = type(f"Parametrized{cls.__name__}", (cls,), {"__getstate__": getstate})


def _inject_property(module: Module, tensor_name: str) -> None:
    if hasattr(module, tensor_name):
        raise AssertionError(f"Module already has an attribute named '{tensor_name}'")

    def get_parametrized(self) -> Tensor:
        parametrization = self.parametrizations[tensor_name]
        if _cache_enabled:
            key = (id(module), tensor_name)
            tensor = _cache.get(key)
            if tensor is None:
                tensor = _cache[key] = parametrization()
            return tensor
        return parametrization()

    def set_original(self, value: Tensor) -> None:
        self.parametrizations[tensor_name].right_inverse(value)

    setattr(module.__class__, tensor_name, property(get_parametrized, set_original))


def _check_like(x, y, what: str, tensor_name: str) -> None:
    if x.dtype != y.dtype:
        raise ValueError(f"{what} must have the same dtype as module.{tensor_name}, unless the `unsafe` flag is "
                         f"enabled.\nmodule.{tensor_name}.dtype: {y.dtype}\nreturned dtype: {x.dtype}")
    if x.shape != y.shape:
        raise ValueError(f"{what} must have the same shape as module.{tensor_name}, unless the `unsafe` flag is "
                         f"enabled.\nmodule.{tensor_name}.shape: {y.shape}\nreturned shape: {x.shape}")


def register_parametrization(module: Module, tensor_name: str, parametrization: Module, *,
                             unsafe: bool = False) -> Module:
    """Make ``module.<tensor_name>`` return ``parametrization(original)``; the original parameter or buffer
    moves to ``module.parametrizations[tensor_name].original`` (``original0``, ``original1``, ... when
    ``parametrization.right_inverse`` returns several tensors). Registering again on the same name
    chains the parametrizations. Assigning ``module.<tensor_name> = value`` calls ``right_inverse``.

    Args:
        module (nn.Module): the module that holds the tensor.
        tensor_name (str): the parameter or buffer to parametrize.
        parametrization (nn.Module): maps the original(s) to the tensor; may define ``right_inverse``.
        unsafe (bool): allow a parametrization that changes the shape or dtype. Default: ``False``.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.utils.parametrize as P
        >>> class Symmetric(torch.nn.Module):
        ...     def forward(self, X):
        ...         return X.triu() + X.triu(1).T
        >>> m = P.register_parametrization(torch.nn.Linear(3, 3), "weight", Symmetric())
        >>> bool((m.weight == m.weight.T).all()), type(m).__name__, list(m.state_dict())
        (True, 'ParametrizedLinear', ['bias', 'parametrizations.weight.original'])
    """
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        if not unsafe:
            y = getattr(module, tensor_name)
            x = parametrization(y)
            if not isinstance(x, Tensor):
                raise ValueError(f"A parametrization must return a tensor. Got {type(x).__name__}.")
            if x.dtype != y.dtype:
                raise ValueError("Registering a parametrization may not change the dtype of the tensor, unless the "
                                 f"`unsafe` flag is enabled.\nmodule.{tensor_name}.dtype: {y.dtype}\n"
                                 f"parametrization(module.{tensor_name}).dtype: {x.dtype}")
            if x.shape != y.shape:
                raise ValueError("Registering a parametrization may not change the shape of the tensor, unless the "
                                 f"`unsafe` flag is enabled.\nmodule.{tensor_name}.shape: {y.shape}\n"
                                 f"parametrization(module.{tensor_name}).shape: {x.shape}")
            if hasattr(parametrization, "right_inverse"):
                try:
                    z = parametrization.right_inverse(x)
                except NotImplementedError:
                    pass
                else:
                    if not isinstance(z, Tensor):
                        raise ValueError(f"parametrization.right_inverse must return a tensor. Got: "
                                         f"{type(z).__name__}")
                    _check_like(z, y, "The tensor returned by parametrization.right_inverse", tensor_name)
        module.parametrizations[tensor_name].append(parametrization)
        module.parametrizations[tensor_name].unsafe |= unsafe
    elif tensor_name in module._buffers or tensor_name in module._parameters:
        original = getattr(module, tensor_name)
        parametrizations = ParametrizationList([parametrization], original, unsafe=unsafe)
        delattr(module, tensor_name)
        if not is_parametrized(module):
            _inject_new_class(module)
            module.parametrizations = ModuleDict()
        _inject_property(module, tensor_name)
        module.parametrizations[tensor_name] = parametrizations
    else:
        raise ValueError(f"Module '{module}' does not have a parameter, a buffer, or a parametrized element with "
                         f"name '{tensor_name}'")
    return module


def is_parametrized(module: Module, tensor_name: str | None = None) -> bool:
    """Whether ``module`` has a parametrization on ``tensor_name`` (on any tensor when None).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.utils.parametrize as P
        >>> m = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(2, 2))
        >>> P.is_parametrized(m), P.is_parametrized(m, "bias")
        (True, False)
    """
    parametrizations = getattr(module, "parametrizations", None)
    if parametrizations is None or not isinstance(parametrizations, ModuleDict):
        return False
    if tensor_name is None:
        return len(parametrizations) > 0
    return tensor_name in parametrizations


def remove_parametrizations(module: Module, tensor_name: str, leave_parametrized: bool = True) -> Module:
    """Undo :func:`register_parametrization` on ``tensor_name``: the tensor becomes a plain parameter (or
    buffer) again, holding its current parametrized value (``leave_parametrized=True``) or the original.
    The module gets its own class back once nothing is parametrized.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.utils.parametrize as P
        >>> m = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(2, 2))
        >>> m = P.remove_parametrizations(m, "weight")
        >>> type(m).__name__, list(m.state_dict())
        ('Linear', ['bias', 'weight'])
    """
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    parametrizations = module.parametrizations[tensor_name]
    if parametrizations.is_tensor:
        original = parametrizations.original
        if leave_parametrized:
            with no_grad():
                t = getattr(module, tensor_name)
                _maybe_set(original, t)
    else:
        if leave_parametrized:
            t = getattr(module, tensor_name)
            original = Parameter(t.detach()) if t.requires_grad else t
        else:
            raise ValueError("Cannot leave unparametrized (`leave_parametrized=False`) a tensor that is "
                             "parametrized in terms of a sequence of tensors.")
    delattr(module.__class__, tensor_name)
    del module.parametrizations[tensor_name]
    _register_parameter_or_buffer(module, tensor_name, original)
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        module.__class__ = module.__class__.__bases__[0]
    return module


def type_before_parametrizations(module: Module) -> type:
    """The module's class before parametrizations replaced it (its class when it has none).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.utils.parametrize as P
        >>> m = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(2, 2))
        >>> P.type_before_parametrizations(m).__name__
        'Linear'
    """
    if is_parametrized(module):
        return module.__class__.__bases__[0]
    return type(module)


def transfer_parametrizations_and_params(from_module: Module, to_module: Module,
                                         tensor_name: str | None = None) -> Module:
    """Register ``from_module``'s parametrizations (all, or ``tensor_name``'s) on ``to_module`` and share the
    originals; creates the parameter on ``to_module`` when it lacks it.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.utils.parametrize as P
        >>> a = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(2, 2))
        >>> b = P.transfer_parametrizations_and_params(a, torch.nn.Linear(2, 2))
        >>> b.parametrizations.weight.original0 is a.parametrizations.weight.original0
        True
    """
    if is_parametrized(from_module):
        names = list(from_module.parametrizations) if tensor_name is None else [tensor_name]
        for name in names:
            if not hasattr(to_module, name):
                setattr(to_module, name, Parameter(getattr(from_module, name).detach()))
            for param_func in from_module.parametrizations[name]:
                register_parametrization(to_module, name, param_func)
            src = from_module.parametrizations[name]
            if hasattr(src, "original"):
                to_module.parametrizations[name].original = src.original
            else:
                num = 0
                while hasattr(src, f"original{num}"):
                    setattr(to_module.parametrizations[name], f"original{num}", getattr(src, f"original{num}"))
                    num += 1
    return to_module
