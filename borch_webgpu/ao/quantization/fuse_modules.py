"""``fuse_modules`` / ``fuse_modules_qat``: replace runs of named layers (``["conv1", "bn1", "relu1"]``) by
one fused module, the rest of each run by ``nn.Identity()``, as PyTorch does."""
from __future__ import annotations

import copy

from ...nn.modules.linear import Identity
from .fuser_method_mappings import fuse_conv_bn, fuse_conv_bn_relu, get_fuser_method  # noqa: F401

__all__ = ["fuse_known_modules", "fuse_modules", "fuse_modules_qat"]


def _get_module(model, submodule_key: str):
    cur_mod = model
    for s in submodule_key.split("."):
        cur_mod = getattr(cur_mod, s)
    return cur_mod


def _set_module(model, submodule_key: str, module) -> None:
    tokens = submodule_key.split(".")
    cur_mod = model
    for s in tokens[:-1]:
        cur_mod = getattr(cur_mod, s)
    setattr(cur_mod, tokens[-1], module)


def fuse_known_modules(mod_list, is_qat, additional_fuser_method_mapping=None):
    """The modules of ``mod_list`` fused: ``[fused, Identity(), ...]``, the same length.

    The first module's forward pre-hooks and the last module's forward hooks move to the fused module
    (other hooks are lost, as in PyTorch). Each ``Identity`` takes the first module's training flag.
    """
    types = tuple(type(m) for m in mod_list)
    fuser_method = get_fuser_method(types, additional_fuser_method_mapping)
    if fuser_method is None:
        raise NotImplementedError(f"Cannot fuse modules: {types}")
    new_mod: list = [None] * len(mod_list)
    fused = fuser_method(is_qat, *mod_list)
    for pre_hook_fn in mod_list[0]._forward_pre_hooks.values():
        fused.register_forward_pre_hook(pre_hook_fn)
    mod_list[0]._forward_pre_hooks.clear()
    for hook_fn in mod_list[-1]._forward_hooks.values():
        fused.register_forward_hook(hook_fn)
    mod_list[-1]._forward_hooks.clear()
    new_mod[0] = fused
    for i in range(1, len(mod_list)):
        identity = Identity()
        identity.training = mod_list[0].training
        new_mod[i] = identity
    return new_mod


def _fuse_modules_helper(model, modules_to_fuse, is_qat, fuser_func=fuse_known_modules,
                         fuse_custom_config_dict=None) -> None:
    if fuse_custom_config_dict is None:
        fuse_custom_config_dict = {}
    additional_fuser_method_mapping = fuse_custom_config_dict.get("additional_fuser_method_mapping", {})
    mod_list = [_get_module(model, item) for item in modules_to_fuse]
    new_mod_list = fuser_func(mod_list, is_qat, additional_fuser_method_mapping)
    for i, item in enumerate(modules_to_fuse):
        _set_module(model, item, new_mod_list[i])


def _fuse_modules(model, modules_to_fuse, is_qat, inplace=False, fuser_func=fuse_known_modules,
                  fuse_custom_config_dict=None):
    if not inplace:
        model = copy.deepcopy(model)
    if all(isinstance(module_element, str) for module_element in modules_to_fuse):
        _fuse_modules_helper(model, modules_to_fuse, is_qat, fuser_func, fuse_custom_config_dict)
    else:
        for module_list in modules_to_fuse:
            _fuse_modules_helper(model, module_list, is_qat, fuser_func, fuse_custom_config_dict)
    return model


def fuse_modules(model, modules_to_fuse, inplace=False, fuser_func=fuse_known_modules,
                 fuse_custom_config_dict=None):
    """Fuse runs of modules, named by their dotted paths, into single modules (for inference).

    Fuses these runs (in eval mode where a BatchNorm is folded): conv, bn / conv, bn, relu /
    conv, relu / linear, bn / linear, relu / bn, relu / convtranspose, bn. The first name of each run
    becomes the fused module, the others ``nn.Identity()``.

    Args:
        model: the module holding the layers.
        modules_to_fuse: a list of runs (lists of names, nested names such as ``"layer1.0.conv1"``
            allowed), or one run as a list of strings.
        inplace (bool): fuse in ``model`` itself; by default a deep copy is fused and returned.
        fuser_func: ``fuser_func(mod_list, is_qat, additional_fuser_method_mapping)`` returns the new
            modules, the same length. Default: ``fuse_known_modules``.
        fuse_custom_config_dict: ``{"additional_fuser_method_mapping": {(type, type): method}}``.

    Example::

        >>> import borch_webgpu as torch
        >>> from borch_webgpu import nn
        >>> m = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU()).eval()
        >>> torch.ao.quantization.fuse_modules(m, ["0", "1", "2"])
        Sequential(
          (0): ConvReLU2d(
            (0): Conv2d(3, 4, kernel_size=(3, 3), stride=(1, 1))
            (1): ReLU()
          )
          (1): Identity()
          (2): Identity()
        )
    """
    return _fuse_modules(model, modules_to_fuse, is_qat=False, inplace=inplace, fuser_func=fuser_func,
                         fuse_custom_config_dict=fuse_custom_config_dict)


def fuse_modules_qat(model, modules_to_fuse, inplace=False, fuser_func=fuse_known_modules,
                     fuse_custom_config_dict=None):
    """``fuse_modules`` for quantization-aware training: BatchNorms are kept, not folded (conv, bn becomes
    ``ConvBn2d``; conv, bn, relu ``ConvBnReLU2d``; linear, bn ``LinearBn1d``), in train or eval mode.

    Example::

        >>> from borch_webgpu import nn
        >>> from borch_webgpu.ao.quantization import fuse_modules_qat
        >>> m = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
        >>> fuse_modules_qat(m, ["0", "1"])[0].__class__.__name__
        'LinearBn1d'
    """
    return _fuse_modules(model, modules_to_fuse, is_qat=True, inplace=inplace, fuser_func=fuser_func,
                         fuse_custom_config_dict=fuse_custom_config_dict)
