"""``nn.Module``: the base class of every layer, with PyTorch's registration rules, iteration,
modes, device moves, hooks and ``repr``. ``state_dict`` / ``load_state_dict`` live in _state_dict.py."""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable, Iterator

from ...tensor import Tensor
from ..parameter import Parameter
from . import _moves, _registration, _state_dict
from ._hooks import RemovableHandle, call_with_hooks
from ._registration import typename
from ._state_dict import _IncompatibleKeys  # noqa: F401 - PyTorch's location for it

__all__ = ["Module", "typename"]


def _addindent(s: str, n: int) -> str:
    lines = s.split("\n")
    if len(lines) == 1:
        return s
    first = lines.pop(0)
    return first + "\n" + "\n".join((n * " ") + ln if ln.strip() else "" for ln in lines)


def _forward_unimplemented(self, *input: Any) -> None:
    raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')


class Module:
    """Base class for all neural network modules; subclass it and define ``forward``.

    Assigning a :class:`Parameter`, a Module or a buffer (``register_buffer``) as an attribute
    registers it, so that ``parameters()``, ``state_dict()``, ``to()`` and ``repr`` see it.

    Example::

        >>> import borch_webgpu as torch
        >>> from borch_webgpu import nn
        >>> class Net(nn.Module):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.fc = nn.Linear(4, 2)
        ...     def forward(self, x):
        ...         return self.fc(x).relu()
        >>> net = Net()
        >>> [name for name, _ in net.named_parameters()]
        ['fc.weight', 'fc.bias']
        >>> net(torch.ones(3, 4)).shape
        torch.Size([3, 2])
    """

    _version: int = 1
    training: bool
    forward: Callable[..., Any] = _forward_unimplemented
    call_super_init: bool = False

    def __init__(self, *args, **kwargs) -> None:
        if self.call_super_init is False and kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() got an unexpected keyword argument "
                            f"'{next(iter(kwargs))}'")
        if self.call_super_init is False and args:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument but {len(args) + 1} "
                            "were given")
        d = self.__dict__
        d["training"] = True
        d["_parameters"] = {}
        d["_buffers"] = {}
        d["_non_persistent_buffers_set"] = set()
        d["_forward_hooks"] = OrderedDict()
        d["_forward_hooks_with_kwargs"] = OrderedDict()
        d["_forward_hooks_always_called"] = OrderedDict()
        d["_forward_pre_hooks"] = OrderedDict()
        d["_forward_pre_hooks_with_kwargs"] = OrderedDict()
        d["_state_dict_hooks"] = OrderedDict()
        d["_state_dict_pre_hooks"] = OrderedDict()
        d["_load_state_dict_pre_hooks"] = OrderedDict()
        d["_load_state_dict_post_hooks"] = OrderedDict()
        d["_modules"] = {}
        if self.call_super_init:
            super().__init__(*args, **kwargs)

    # ---- registration --------------------------------------------------------------------------
    def _check_name(self, kind: str, name, table: dict) -> None:
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {typename(name)}")
        if "." in name:
            raise KeyError(f'{kind} name can\'t contain "."')
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')
        if hasattr(self, name) and name not in table:
            raise KeyError(f"attribute '{name}' already exists")

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Add a buffer (state that is not a parameter, e.g. BatchNorm's ``running_mean``);
        ``persistent=False`` keeps it out of ``state_dict``."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        self._check_name("buffer", name, self._buffers)
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Add a parameter (a :class:`Parameter` or None) under ``name``."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        self._check_name("parameter", name, self._parameters)
        if param is None:
            self._parameters[name] = None
        elif not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{typename(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        elif param.grad_fn is not None:
            raise ValueError(f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be created "
                             f"explicitly. To express '{name}' as a function of another Tensor, compute the value in "
                             "the forward() method.")
        else:
            self._parameters[name] = param

    def add_module(self, name: str, module: "Module | None") -> None:
        """Add a child module under ``name`` (an attribute as well)."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module

    def register_module(self, name: str, module: "Module | None") -> None:
        """Alias for :meth:`add_module`."""
        self.add_module(name, module)

    def get_submodule(self, target: str) -> "Module":
        """The submodule at dotted path ``target`` (``"layer1.0.conv1"``); ``""`` is self."""
        return _registration.get_submodule(self, target, Module)

    def get_parameter(self, target: str) -> Parameter:
        """The parameter at dotted path ``target``."""
        return _registration.get_member(self, target, "parameter", Module)

    def get_buffer(self, target: str) -> Tensor:
        """The buffer at dotted path ``target``."""
        return _registration.get_member(self, target, "buffer", Module)

    # ---- attribute protocol ----------------------------------------------------------------------
    def __getattr__(self, name: str):
        d = self.__dict__
        for table in ("_parameters", "_buffers", "_modules"):
            if table in d and name in d[table]:
                return d[table][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value) -> None:
        _registration.set_attribute(self, name, value, Module)

    def __delattr__(self, name: str) -> None:
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def __dir__(self):
        keys = dir(self.__class__) + list(self.__dict__) + list(self._parameters) + list(self._modules) + \
            list(self._buffers)
        return sorted(k for k in keys if not k[0].isdigit())

    def __setstate__(self, state) -> None:
        self.__dict__.update(state)

    def __deepcopy__(self, memo) -> "Module":
        return _moves.deepcopy_module(self, memo)

    # ---- iteration -----------------------------------------------------------------------------------
    def _named_members(self, get_members, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True):
        memo = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse else [(prefix, self)]
        for module_prefix, module in modules:
            for k, v in get_members(module):
                if v is None or id(v) in memo:
                    continue
                if remove_duplicate:
                    memo.add(id(v))
                yield module_prefix + ("." if module_prefix else "") + k, v

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        """The parameters of this module (and of its submodules when ``recurse``), each once."""
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_parameters(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True):
        """``(name, parameter)`` pairs, names dotted from this module (``"0.weight"``)."""
        yield from self._named_members(lambda m: m._parameters.items(), prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        """The buffers of this module (and of its submodules when ``recurse``)."""
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def named_buffers(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True):
        """``(name, buffer)`` pairs."""
        yield from self._named_members(lambda m: m._buffers.items(), prefix, recurse, remove_duplicate)

    def children(self) -> Iterator["Module"]:
        """The immediate child modules."""
        for _, m in self.named_children():
            yield m

    def named_children(self):
        """``(name, module)`` pairs of the immediate children."""
        memo = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in memo:
                memo.add(id(module))
                yield name, module

    def modules(self, remove_duplicate: bool = True) -> Iterator["Module"]:
        """This module and every module below it, depth first."""
        for _, m in self.named_modules(remove_duplicate=remove_duplicate):
            yield m

    def named_modules(self, memo: set | None = None, prefix: str = "", remove_duplicate: bool = True):
        """``(dotted name, module)`` for this module (name ``prefix``) and every module below it."""
        if memo is None:
            memo = set()
        if id(self) in memo:
            return
        if remove_duplicate:
            memo.add(id(self))
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            yield from module.named_modules(memo, prefix + ("." if prefix else "") + name, remove_duplicate)

    # ---- modes and gradients ----------------------------------------------------------------------
    def train(self, mode: bool = True) -> "Module":
        """Set training mode (Dropout drops, BatchNorm uses batch statistics) here and below."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self) -> "Module":
        """``train(False)``."""
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> "Module":
        """Set ``requires_grad`` on every parameter (e.g. to freeze a part of a model)."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of every parameter: to None (default) or to zeros."""
        for p in self.parameters():
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    if p.grad.grad_fn is not None:
                        p.grad.detach_()
                    else:
                        p.grad.requires_grad_(False)
                    p.grad.zero_()

    def apply(self, fn: Callable[["Module"], None]) -> "Module":
        """Call ``fn`` on every submodule (children first) and then on self; returns self."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # ---- device and dtype -------------------------------------------------------------------------------
    def _apply(self, fn, recurse: bool = True) -> "Module":
        """Replace every parameter's and buffer's tensor by ``fn(tensor)``; Parameter objects stay the same
        (their ``.data`` changes), so optimizers that hold them keep working."""
        return _moves.apply_to_tensors(self, fn, recurse)

    def to(self, *args, **kwargs) -> "Module":
        """Move and/or cast parameters and buffers: ``to(device)``, ``to(dtype)``, ``to(device, dtype)``,
        ``to(tensor)``. Only floating-point tensors change dtype. In place; returns self.

        Example::

            >>> import borch_webgpu as torch
            >>> m = torch.nn.Linear(2, 2)
            >>> w = m.weight
            >>> m.to(torch.float16).weight is w, w.dtype
            (True, torch.float16)
        """
        dev, dt = _moves.parse_to(args, kwargs)
        return self._apply(lambda t: t.to(dev, dt if t.is_floating_point() or t.is_complex() else None))

    def cpu(self) -> "Module":
        """Move every parameter and buffer to the ``cpu`` device."""
        return self._apply(lambda t: t.cpu())

    def cuda(self, device=None) -> "Module":
        """Move every parameter and buffer to the GPU (``webgpu``; ``'cuda'`` means it here)."""
        return self._apply(lambda t: t.cuda(device))

    def webgpu(self) -> "Module":
        """Move every parameter and buffer to the ``webgpu`` device."""
        return self._apply(lambda t: t.webgpu())

    def type(self, dst_type) -> "Module":
        """Cast every parameter and buffer to ``dst_type``."""
        return self._apply(lambda t: t.type(dst_type))

    def float(self) -> "Module":
        """Cast floating-point parameters and buffers to float32."""
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def half(self) -> "Module":
        """Cast floating-point parameters and buffers to float16."""
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self) -> "Module":
        """Cast floating-point parameters and buffers to bfloat16 (on WebGPU they are then held on the host
        and computed by the cpu kernels: see ``torch.dtype``)."""
        return self._apply(lambda t: t.bfloat16() if t.is_floating_point() else t)

    def double(self) -> "Module":
        """Cast floating-point parameters and buffers to float64 (on WebGPU they are then held on the
        host and computed by the cpu kernels: see ``torch.dtype``)."""
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    # ---- hooks and calls ------------------------------------------------------------------------------------
    def register_forward_pre_hook(self, hook, *, prepend: bool = False, with_kwargs: bool = False) -> RemovableHandle:
        """Call ``hook(module, args)`` (or ``hook(module, args, kwargs)``) before each forward; a returned
        value replaces the inputs. Returns a handle whose ``remove()`` takes the hook out."""
        handle = RemovableHandle(self._forward_pre_hooks, extra_dict=self._forward_pre_hooks_with_kwargs)
        self._forward_pre_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle.id] = True
        if prepend:
            self._forward_pre_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_forward_hook(self, hook, *, prepend: bool = False, with_kwargs: bool = False,
                              always_call: bool = False) -> RemovableHandle:
        """Call ``hook(module, args, output)`` (or ``hook(module, args, kwargs, output)``) after each
        forward; a returned value replaces the output."""
        handle = RemovableHandle(self._forward_hooks,
                                 extra_dict=[self._forward_hooks_with_kwargs, self._forward_hooks_always_called])
        self._forward_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle.id] = True
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        if prepend:
            self._forward_hooks.move_to_end(handle.id, last=False)
        return handle

    def _call_impl(self, *args, **kwargs):
        if not (self._forward_hooks or self._forward_pre_hooks):
            return self.forward(*args, **kwargs)
        return call_with_hooks(self, args, kwargs)

    __call__ = _call_impl

    # ---- state dict (see _state_dict.py) ----------------------------------------------------------------
    def state_dict(self, *args, destination=None, prefix: str = "", keep_vars: bool = False):
        """An OrderedDict of every parameter and persistent buffer by dotted name (detached unless
        ``keep_vars``); the tensors share memory with the module's."""
        return _state_dict.state_dict(self, *args, destination=destination, prefix=prefix, keep_vars=keep_vars)

    def _save_to_state_dict(self, destination, prefix: str, keep_vars: bool) -> None:
        _state_dict.save_to_state_dict(self, destination, prefix, keep_vars, Module)

    def load_state_dict(self, state_dict, strict: bool = True, assign: bool = False):
        """Copy parameters and buffers from ``state_dict`` (or, with ``assign=True``, take its tensors).
        With ``strict``, missing or unexpected keys raise; returns ``(missing_keys, unexpected_keys)``."""
        return _state_dict.load_state_dict(self, state_dict, strict, assign)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs) -> None:
        _state_dict.load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                                         unexpected_keys, error_msgs, Module)

    def get_extra_state(self):
        raise RuntimeError("Reached a code path in Module.get_extra_state() that should never be called. Please "
                           "file an issue.")

    def set_extra_state(self, state) -> None:
        raise RuntimeError("Reached a code path in Module.set_extra_state() that should never be called. Please "
                           "file an issue.")

    def register_state_dict_pre_hook(self, hook) -> RemovableHandle:
        """Call ``hook(module, prefix, keep_vars)`` before ``state_dict`` collects this module's state."""
        handle = RemovableHandle(self._state_dict_pre_hooks)
        self._state_dict_pre_hooks[handle.id] = hook
        return handle

    def _register_state_dict_hook(self, hook) -> RemovableHandle:
        """Call ``hook(module, state_dict, prefix, local_metadata)`` after ``state_dict`` collected this
        module's state; a returned dict replaces it (spectral_norm's version entry uses it)."""
        handle = RemovableHandle(self._state_dict_hooks)
        self._state_dict_hooks[handle.id] = hook
        return handle

    def _register_load_state_dict_pre_hook(self, hook, with_module: bool = False) -> RemovableHandle:
        """Call ``hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)``
        (``module`` first with ``with_module``) before this module loads its entries; it may rename keys."""
        handle = RemovableHandle(self._load_state_dict_pre_hooks)
        self._load_state_dict_pre_hooks[handle.id] = (lambda *a: hook(self, *a)) if with_module else hook
        return handle

    def register_load_state_dict_pre_hook(self, hook) -> RemovableHandle:
        """Call ``hook(module, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
        error_msgs)`` before this module loads its entries of a state dict."""
        return self._register_load_state_dict_pre_hook(hook, with_module=True)

    def register_load_state_dict_post_hook(self, hook) -> RemovableHandle:
        """Call ``hook(module, incompatible_keys)`` after ``load_state_dict`` loaded this module."""
        handle = RemovableHandle(self._load_state_dict_post_hooks)
        self._load_state_dict_post_hooks[handle.id] = hook
        return handle

    # ---- repr ------------------------------------------------------------------------------------------------
    def _get_name(self) -> str:
        return self.__class__.__name__

    def extra_repr(self) -> str:
        """The text inside this module's parentheses in ``repr`` (override it in layers)."""
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = ["(" + key + "): " + _addindent(repr(module), 2) for key, module in self._modules.items()]
        lines = extra_lines + child_lines
        main = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main += extra_lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"
