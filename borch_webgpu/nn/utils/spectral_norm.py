"""``torch.nn.utils.spectral_norm`` / ``remove_spectral_norm`` (the hook-based form): the parameter
``<name>_orig``, the power-iteration buffers ``<name>_u`` and ``<name>_v``, and the state-dict hooks that
record ``spectral_norm``'s version in the metadata, as PyTorch does."""
from __future__ import annotations

from typing import Any, TypeVar

from ... import linalg
from ...autograd import no_grad
from ...ops.creation import empty
from ...tensor import Tensor
from .. import functional as F
from ..modules.conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from ..modules.module import Module
from ..parameter import Parameter, UninitializedParameter

__all__ = ["SpectralNorm", "SpectralNormLoadStateDictPreHook", "SpectralNormStateDictHook", "spectral_norm",
           "remove_spectral_norm"]


class SpectralNorm:
    """The forward pre-hook that :func:`spectral_norm` registers: sets ``module.<name>`` to
    ``<name>_orig / sigma``, running the power iteration on ``<name>_u`` / ``<name>_v`` in training mode.

    Example::

        >>> import borch_webgpu as torch
        >>> m = torch.nn.utils.spectral_norm(torch.nn.Linear(3, 2))
        >>> [type(h).__name__ for h in m._forward_pre_hooks.values()]
        ['SpectralNorm']
    """

    _version: int = 1
    name: str
    dim: int
    n_power_iterations: int
    eps: float

    def __init__(self, name: str = "weight", n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12) -> None:
        self.name = name
        self.dim = dim
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight: Tensor) -> Tensor:
        """The weight as a matrix whose rows run over ``dim``."""
        weight_mat = weight
        if self.dim != 0:
            weight_mat = weight_mat.permute(self.dim, *[d for d in range(weight_mat.dim()) if d != self.dim])
        return weight_mat.reshape(weight_mat.size(0), -1)

    def compute_weight(self, module: Module, do_power_iteration: bool) -> Tensor:
        """``<name>_orig / sigma``, ``sigma = u . (W v)`` after ``n_power_iterations`` steps when asked."""
        weight = getattr(module, self.name + "_orig")
        u = getattr(module, self.name + "_u")
        v = getattr(module, self.name + "_v")
        weight_mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with no_grad():
                for _ in range(self.n_power_iterations):
                    v = F.normalize(weight_mat.t().mv(u), dim=0, eps=self.eps, out=v)
                    u = F.normalize(weight_mat.mv(v), dim=0, eps=self.eps, out=u)
                u, v = u.clone(), v.clone()
        sigma = u.dot(weight_mat.mv(v))
        return weight / sigma

    def remove(self, module: Module) -> None:
        """Make ``module.<name>`` a parameter again (the normalized value); drop ``_orig``, ``_u``, ``_v``."""
        with no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        delattr(module, self.name)
        delattr(module, self.name + "_u")
        delattr(module, self.name + "_v")
        delattr(module, self.name + "_orig")
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self.name, self.compute_weight(module, do_power_iteration=module.training))

    def _solve_v_and_rescale(self, weight_mat, u, target_sigma):
        v = linalg.multi_dot([weight_mat.t().mm(weight_mat).pinverse(), weight_mat.t(), u.unsqueeze(1)]).squeeze(1)
        return v.mul_(target_sigma / u.dot(weight_mat.mv(v)))

    @staticmethod
    def apply(module: Module, name: str, n_power_iterations: int, dim: int, eps: float) -> "SpectralNorm":
        """Move ``module.<name>`` to ``<name>_orig``, add the ``_u`` / ``_v`` buffers and the hooks."""
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two spectral_norm hooks on the same parameter {name}")
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        if weight is None:
            raise ValueError(f"`SpectralNorm` cannot be applied as parameter `{name}` is None")
        if isinstance(weight, UninitializedParameter):
            raise ValueError("The module passed to `SpectralNorm` can't have uninitialized parameters. Make sure to "
                             "run the dummy forward before applying spectral normalization")
        with no_grad():
            weight_mat = fn.reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            u = F.normalize(empty(h, dtype=weight.dtype, device=weight.device).normal_(0, 1), dim=0, eps=fn.eps)
            v = F.normalize(empty(w, dtype=weight.dtype, device=weight.device).normal_(0, 1), dim=0, eps=fn.eps)
        delattr(module, fn.name)
        module.register_parameter(fn.name + "_orig", weight)
        setattr(module, fn.name, weight.data)
        module.register_buffer(fn.name + "_u", u)
        module.register_buffer(fn.name + "_v", v)
        module.register_forward_pre_hook(fn)
        module._register_state_dict_hook(SpectralNormStateDictHook(fn))
        module._register_load_state_dict_pre_hook(SpectralNormLoadStateDictPreHook(fn))
        return fn


class SpectralNormLoadStateDictPreHook:
    """Loads a state dict saved before ``spectral_norm`` had version 1 (it held ``<name>`` and
    ``<name>_u`` but no ``<name>_v``): solves for ``v``.

    Example::

        >>> import borch_webgpu as torch
        >>> m = torch.nn.utils.spectral_norm(torch.nn.Linear(3, 2))
        >>> [type(h).__name__ for h in m._load_state_dict_pre_hooks.values()]
        ['SpectralNormLoadStateDictPreHook']
    """

    def __init__(self, fn) -> None:
        self.fn = fn

    def __call__(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                 error_msgs) -> None:
        fn = self.fn
        version = local_metadata.get("spectral_norm", {}).get(fn.name + ".version", None)
        if version is None or version < 1:
            weight_key = prefix + fn.name
            if version is None and all(weight_key + s in state_dict for s in ("_orig", "_u", "_v")) and \
                    weight_key not in state_dict:
                return
            has_missing_keys = False
            for suffix in ("_orig", "", "_u"):
                key = weight_key + suffix
                if key not in state_dict:
                    has_missing_keys = True
                    if strict:
                        missing_keys.append(key)
            if has_missing_keys:
                return
            with no_grad():
                weight_orig = state_dict[weight_key + "_orig"]
                weight = state_dict.pop(weight_key)
                sigma = (weight_orig / weight).mean()
                weight_mat = fn.reshape_weight_to_matrix(weight_orig)
                u = state_dict[weight_key + "_u"]
                state_dict[weight_key + "_v"] = fn._solve_v_and_rescale(weight_mat, u, sigma)


class SpectralNormStateDictHook:
    """Records ``spectral_norm``'s version in the state dict's metadata (``_metadata[prefix]['spectral_norm']``).

    Example::

        >>> import borch_webgpu as torch
        >>> sd = torch.nn.utils.spectral_norm(torch.nn.Linear(3, 2)).state_dict()
        >>> sd._metadata[""]["spectral_norm"]
        {'weight.version': 1}
    """

    def __init__(self, fn) -> None:
        self.fn = fn

    def __call__(self, module, state_dict, prefix, local_metadata) -> None:
        if "spectral_norm" not in local_metadata:
            local_metadata["spectral_norm"] = {}
        key = self.fn.name + ".version"
        if key in local_metadata["spectral_norm"]:
            raise RuntimeError(f"Unexpected key in metadata['spectral_norm']: {key}")
        local_metadata["spectral_norm"][key] = self.fn._version


T_module = TypeVar("T_module", bound=Module)


def spectral_norm(module: T_module, name: str = "weight", n_power_iterations: int = 1, eps: float = 1e-12,
                  dim: int | None = None) -> T_module:
    """Spectral normalization by a forward pre-hook: ``weight = weight_orig / sigma``, ``sigma`` the largest
    singular value estimated by power iteration on the buffers ``<name>_u`` / ``<name>_v`` (one step per
    forward in training mode). ``dim``: the output dim (default 1 for ConvTranspose, else 0).

    Example::

        >>> import borch_webgpu as torch
        >>> m = torch.nn.utils.spectral_norm(torch.nn.Linear(20, 40))
        >>> list(m.state_dict()), m.weight_u.shape
        (['bias', 'weight_orig', 'weight_u', 'weight_v'], torch.Size([40]))
    """
    if dim is None:
        dim = 1 if isinstance(module, (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)) else 0
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module: T_module, name: str = "weight") -> T_module:
    """Undo :func:`spectral_norm`: ``<name>`` is a parameter again, holding the normalized value.

    Example::

        >>> import borch_webgpu as torch
        >>> m = torch.nn.utils.remove_spectral_norm(torch.nn.utils.spectral_norm(torch.nn.Linear(3, 2)))
        >>> list(m.state_dict())
        ['bias', 'weight']
    """
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            break
    else:
        raise ValueError(f"spectral_norm of '{name}' not found in {module}")
    for k, hook in module._state_dict_hooks.items():
        if isinstance(hook, SpectralNormStateDictHook) and hook.fn.name == name:
            del module._state_dict_hooks[k]
            break
    for k, hook in module._load_state_dict_pre_hooks.items():
        if isinstance(hook, SpectralNormLoadStateDictPreHook) and hook.fn.name == name:
            del module._load_state_dict_pre_hooks[k]
            break
    return module
