"""``torch.fx.Tracer`` and ``symbolic_trace``: run ``forward`` on Proxies and record a Graph.

PyTorch routes ``torch.relu(proxy)`` into the graph through ``__torch_function__``; our functions
have no such hook, so while a trace runs the public functions (``torch.*``, ``torch.nn.functional.*``),
the Tensor methods, ``Module.__call__`` / ``__getattr__`` and the names given to :func:`wrap` are
patched: a call that receives a Proxy becomes a node, any other call runs as usual. Everything is
restored when the trace ends, also on an error.
"""
from __future__ import annotations

import functools
import inspect
from types import FunctionType
from typing import Any, Callable

from ._patch import Patcher
from ._wrap import WRAPPED, wrap
from .graph import Graph
from .node import Argument
from .proxy import Proxy, TracerBase

__all__ = ["Tracer", "symbolic_trace", "wrap", "PH"]

class PHBase:
    """A placeholder for a concrete argument that should stay an input (``concrete_args={"x": PH}``)."""

    def __repr__(self) -> str:
        return "PH"


PH = PHBase()


class Tracer(TracerBase):
    """Records ``root.forward`` as a :class:`~borch_webgpu.fx.Graph`.

    Subclass it and override :meth:`is_leaf_module`, :meth:`call_module`, :meth:`create_proxy`,
    :meth:`create_node`, ... as PyTorch's tutorials do.

    Example:
        >>> import borch_webgpu as torch
        >>> import borch_webgpu.fx as fx
        >>> class M(torch.nn.Module):
        ...     def forward(self, x):
        ...         return torch.relu(x) + 1
        >>> graph = fx.Tracer().trace(M())
        >>> [n.op for n in graph.nodes]
        ['placeholder', 'call_function', 'call_function', 'output']
    """

    def __init__(self, autowrap_modules: tuple = (), autowrap_functions: tuple = (),
                 param_shapes_constant: bool = False) -> None:
        self._autowrap_functions = tuple(autowrap_functions)
        self._autowrap_modules = tuple(autowrap_modules)
        self.param_shapes_constant = param_shapes_constant
        self.submodule_paths: dict | None = None
        self.root_module_name = ""
        self.scope = None

    # ---- overridable ------------------------------------------------------------------------------
    def is_leaf_module(self, m, module_qualified_name: str) -> bool:
        """Modules of ``torch.nn`` (except Sequential) are recorded as calls, others traced through."""
        from ..nn import Sequential
        mod = type(m).__module__
        return (mod.startswith("borch_webgpu.nn") or mod.startswith("borch_webgpu.ao.nn")
                or mod.startswith("torch.nn")) and not isinstance(m, Sequential)

    def path_of_module(self, mod) -> str:
        """The dotted name of ``mod`` inside the root."""
        if self.submodule_paths:
            path = self.submodule_paths.get(mod)
            if path is None:
                raise NameError("module is not installed as a submodule")
            return path
        for n, p in self.root.named_modules():
            if mod is p:
                return n
        raise NameError("module is not installed as a submodule")

    def call_module(self, m, forward: Callable, args: tuple, kwargs: dict) -> Any:
        """A leaf module becomes a ``call_module`` node; any other module is traced into."""
        module_qualified_name = self.path_of_module(m)
        if not self.is_leaf_module(m, module_qualified_name):
            return forward(*args, **kwargs)
        return self.create_proxy("call_module", module_qualified_name, args, kwargs)

    def getattr(self, attr: str, attr_val: Any, parameter_proxy_cache: dict) -> Any:
        """A parameter read inside ``forward`` becomes one ``get_attr`` node (cached by name)."""
        from ..nn import Parameter
        from ..tensor import Tensor

        def proxy_for(collection):
            for n, p in collection:
                if attr_val is p:
                    if n not in parameter_proxy_cache:
                        parameter_proxy_cache[n] = self.create_proxy("get_attr", n, (), {})
                    return parameter_proxy_cache[n]
            return None
        if isinstance(attr_val, Parameter):
            found = proxy_for(self.root.named_parameters())
            if found is not None:
                return found
        if self.proxy_buffer_attributes and isinstance(attr_val, Tensor):
            found = proxy_for(self.root.named_buffers())
            if found is not None:
                return found
        return attr_val

    def create_arg(self, a: Any) -> Argument:
        """Parameters, buffers and submodules become ``get_attr`` nodes; other tensors constants."""
        from ..nn import Module, Parameter
        from ..tensor import Tensor
        if isinstance(a, Parameter):
            for n, p in self.root.named_parameters():
                if a is p:
                    return self.create_node("get_attr", n, (), {})
            raise NameError("parameter is not a member of this module")
        if isinstance(a, Tensor):
            for n_, p_ in self.root.named_buffers():
                if a is p_:
                    return self.create_node("get_attr", n_, (), {})
        elif isinstance(a, Module):
            for n_, p_ in self.root.named_modules():
                if a is p_:
                    return self.create_node("get_attr", n_, (), {})
        if isinstance(a, tuple) and hasattr(a, "_fields"):
            return self.create_node("call_function", a.__class__, tuple(self.create_arg(e) for e in a), {})
        if isinstance(a, Tensor):
            qualname = next((q for t, q in self.tensor_attrs if t is a), None)
            if not qualname:
                qualname = self.get_fresh_qualname("_tensor_constant")
                self.tensor_attrs.append((a, qualname))
                setattr(self.root, qualname, a)
            return self.create_node("get_attr", qualname, (), {})
        return super().create_arg(a)

    def get_fresh_qualname(self, prefix: str) -> str:
        i = 0
        while hasattr(self.root, f"{prefix}{i}"):
            i += 1
        return f"{prefix}{i}"

    # ---- tracing ----------------------------------------------------------------------------------
    def create_args_for_root(self, root_fn, is_module: bool, concrete_args=None):
        fn_for_analysis = inspect.unwrap(root_fn)
        co = fn_for_analysis.__code__
        total_args = co.co_argcount + co.co_kwonlyargcount
        names_iter = iter(co.co_varnames)
        args: list[Any] = []
        skip_arg_idx = 0
        if is_module:
            if total_args == 0:
                raise RuntimeError("``self`` argument cannot be part of *args expansion!")
            skip_arg_idx = 1
            next(names_iter)
            args.append(self.root)
        sig = inspect.signature(fn_for_analysis)
        self._annotations = getattr(fn_for_analysis, "__annotations__", {}) or {}
        arg_names = [next(names_iter) for _ in range(skip_arg_idx, total_args)]
        if isinstance(concrete_args, tuple):
            if len(arg_names) != len(concrete_args):
                raise RuntimeError(f"Tracing expected {len(arg_names)} arguments but got "
                                   f"{len(concrete_args)} concrete arguments")
            concrete_args = dict(zip(arg_names, concrete_args))
        args.extend(self._proxy_placeholder(name, concrete_args, sig) for name in arg_names)
        if co.co_kwonlyargcount > 0 or co.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS):
            if co.co_flags & inspect.CO_VARARGS:
                args.append(self._proxy_placeholder("*" + next(names_iter), concrete_args, sig))
            if co.co_flags & inspect.CO_VARKEYWORDS:
                args.append(self._proxy_placeholder("**" + next(names_iter), concrete_args, sig))
            root_fn = _patch_function(root_fn, len(args))
        return root_fn, args

    def _proxy_placeholder(self, name: str, concrete_args, sig) -> Any:
        if concrete_args is not None and name in concrete_args:
            x = concrete_args[name]
            param = sig.parameters[name]
            default = () if param.default is inspect.Parameter.empty else (param.default,)
            out = self.create_proxy("placeholder", f"{name}_1", default, {})
            if isinstance(x, PHBase):
                return out
            if type(x) in (bool, int, float, str, complex):
                from .._assert import _assert
                _assert(out == x, f"{name} has been specialized to have value {x} but got another value")
            elif x is None:
                from .._assert import _assert_is_none
                self.create_proxy("call_function", _assert_is_none,
                                  (out, f"{name} has been specialized to have value None but got another value"), {})
            return x
        if name[0] == "*":
            default = ()
        else:
            param = sig.parameters[name]
            default = () if param.default is inspect.Parameter.empty else (param.default,)
        return self.create_proxy("placeholder", name, default, {},
                                 type_expr=self._annotations.get(name.lstrip("*")))

    def trace(self, root, concrete_args: dict | None = None) -> Graph:
        """Trace ``root`` (a Module or a function) and return the Graph."""
        from ..nn import Module
        if isinstance(root, Module):
            self.root = root
            fn = getattr(type(root), self.traced_func_name)
            self.root_module_name = root._get_name() if hasattr(root, "_get_name") else type(root).__name__
            self.submodule_paths = {mod: name for name, mod in root.named_modules()}
        else:
            self.root = Module()
            fn = root
        self.graph = Graph(tracer_cls=type(self))
        self.tensor_attrs: list[tuple[Any, str]] = []

        def collect_tensor_attrs(m, prefix_atoms):
            from ..tensor import Tensor
            for k, v in m.__dict__.items():
                if isinstance(v, Tensor):
                    self.tensor_attrs.append((v, ".".join(prefix_atoms + [k])))
            for k, v in m.named_children():
                collect_tensor_attrs(v, prefix_atoms + [k])
        collect_tensor_attrs(self.root, [])
        if not isinstance(fn, FunctionType):
            raise AssertionError(f"Expected FunctionType, got {type(fn)}")
        fn_globals = fn.__globals__
        fn, args = self.create_args_for_root(fn, isinstance(root, Module), concrete_args)
        parameter_proxy_cache: dict[str, Proxy] = {}
        orig_getattr, orig_call = Module.__getattr__, Module.__call__

        def module_getattr_wrapper(mod, attr):
            return self.getattr(attr, orig_getattr(mod, attr), parameter_proxy_cache)

        def module_call_wrapper(mod, *args, **kwargs):
            def forward(*args, **kwargs):
                return orig_call(mod, *args, **kwargs)
            return self.call_module(mod, forward, args, kwargs)

        with Patcher() as patcher:
            patcher.patch(Module, "__getattr__", module_getattr_wrapper)
            patcher.patch(Module, "__call__", module_call_wrapper)
            for glb, name in WRAPPED:
                if name in glb:
                    patcher.patch_dict(glb, name, _wrapped_fn(self, glb[name], name))
            for glb in (fn_globals,):
                for f in self._autowrap_functions:
                    name = getattr(f, "__name__", None)
                    if name and glb.get(name) is f:
                        patcher.patch_dict(glb, name, _wrapped_fn(self, f, name))
            ann = inspect.get_annotations(inspect.unwrap(fn)) if callable(fn) else {}
            self.create_node("output", "output", (self.create_arg(fn(*args)),), {}, type_expr=ann.get("return"))
        self.submodule_paths = None
        return self.graph


def _wrapped_fn(tracer: Tracer, orig: Callable, name: str):
    from ._dispatch import has_proxy

    @functools.wraps(orig)
    def wrapped(*args, **kwargs):
        if has_proxy(args, kwargs):
            proxy = tracer.create_proxy("call_function", orig, args, kwargs, name=tracer.graph._target_to_str(name))
            proxy.node.meta["is_wrapped"] = True
            return proxy
        return orig(*args, **kwargs)
    return wrapped


def _patch_function(fn, nargs: int):
    """``fn`` taking its ``*args`` / ``**kwargs`` placeholders as plain positional parameters."""
    co = fn.__code__
    flags = co.co_flags & ~(inspect.CO_VARARGS | inspect.CO_VARKEYWORDS)
    new_code = co.replace(co_argcount=nargs, co_posonlyargcount=0, co_kwonlyargcount=0, co_flags=flags)
    return FunctionType(new_code, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)


def symbolic_trace(root, concrete_args: dict | None = None):
    """Trace ``root`` (an ``nn.Module`` or a function) into a :class:`~borch_webgpu.fx.GraphModule`.

    Example:
        >>> import borch_webgpu as torch
        >>> import borch_webgpu.fx as fx
        >>> class M(torch.nn.Module):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.linear = torch.nn.Linear(4, 2)
        ...     def forward(self, x):
        ...         return torch.relu(self.linear(x))
        >>> gm = fx.symbolic_trace(M())
        >>> print(gm.code.strip())
        def forward(self, x):
            linear = self.linear(x);  x = None
            relu = torch.relu(linear);  linear = None
            return relu
    """
    from .graph_module import GraphModule
    tracer = Tracer()
    graph = tracer.trace(root, concrete_args)
    from ..nn import Module
    name = root.__class__.__name__ if isinstance(root, Module) else root.__name__
    return GraphModule(tracer.root, graph, name)

