"""How a Module takes attributes (PyTorch's ``__setattr__`` rules) and finds members by dotted path."""
from __future__ import annotations

from ...tensor import Tensor
from ..parameter import Buffer, Parameter

__all__ = ["typename", "set_attribute", "get_submodule", "get_member"]


def typename(obj) -> str:
    """``torch.typename``: ``'torch.FloatTensor'`` for tensors, the qualified class name otherwise."""
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    qualname = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None) or type(obj).__qualname__
    if module in ("", "builtins"):
        return qualname
    return f"{module}.{qualname}"


def set_attribute(module, name: str, value, Module) -> None:  # noqa: N803 - the class, passed by module.py
    """A Parameter registers as a parameter, a Module as a child, a Buffer (or a tensor assigned to a
    buffer's name) as a buffer; anything else is a plain attribute."""
    d = module.__dict__

    def remove_from(*tables):
        for t in tables:
            if name in t:
                if isinstance(t, dict):
                    del t[name]
                else:
                    t.discard(name)

    params = d.get("_parameters")
    if isinstance(value, Parameter):
        if params is None:
            raise AttributeError("cannot assign parameters before Module.__init__() call")
        remove_from(d, module._buffers, module._modules, module._non_persistent_buffers_set)
        module.register_parameter(name, value)
    elif params is not None and name in params:
        if value is not None:
            raise TypeError(f"cannot assign '{typename(value)}' as parameter '{name}' "
                            "(torch.nn.Parameter or None expected)")
        module.register_parameter(name, value)
    else:
        modules = d.get("_modules")
        if isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            remove_from(d, module._parameters, module._buffers, module._non_persistent_buffers_set)
            modules[name] = value
        elif modules is not None and name in modules:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as child module '{name}' "
                                "(torch.nn.Module or None expected)")
            modules[name] = value
        else:
            buffers = d.get("_buffers")
            if isinstance(value, Buffer) or (buffers is not None and name in buffers):
                if value is not None and not isinstance(value, Tensor):
                    raise TypeError(f"cannot assign '{typename(value)}' as buffer '{name}' "
                                    "(torch.nn.Buffer, torch.Tensor or None expected)")
                persistent = value.persistent if isinstance(value, Buffer) else \
                    name not in module._non_persistent_buffers_set
                module.register_buffer(name, value, persistent)
            else:
                object.__setattr__(module, name, value)


def get_submodule(module, target: str, Module):  # noqa: N803
    if target == "":
        return module
    mod = module
    for item in target.split("."):
        if not hasattr(mod, item):
            raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
        mod = getattr(mod, item)
        if not isinstance(mod, Module):
            raise AttributeError("`" + item + "` is not an nn.Module")
    return mod


def get_member(module, target: str, kind: str, Module):  # noqa: N803
    """The parameter or buffer (``kind``) at dotted path ``target``."""
    module_path, _, name = target.rpartition(".")
    mod = get_submodule(module, module_path, Module)
    if not hasattr(mod, name):
        raise AttributeError(mod._get_name() + " has no attribute `" + name + "`")
    if kind == "parameter":
        param = getattr(mod, name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + name + "` is not an nn.Parameter")
        return param
    if name not in mod._buffers:
        raise AttributeError("`" + name + "` is not a buffer")
    return getattr(mod, name)
