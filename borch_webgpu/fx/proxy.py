"""``torch.fx.Proxy``: the stand-in value that records what a traced function does with it.

Every operator, attribute read and method call on a Proxy becomes a node of the tracer's graph
(``x + 1`` -> ``call_function[operator.add]``, ``x.view(-1)`` -> ``call_method[view]``,
``x.shape`` -> ``call_function[builtins.getattr]``). Control flow on a Proxy raises
:class:`TraceError`, as in PyTorch 2.13.
"""
from __future__ import annotations

import operator
from typing import Any

from ._codegen import magic_methods, reflectable_magic_methods
from . import _dispatch
from .graph import Graph
from .node import Node

__all__ = ["TraceError", "TracerBase", "GraphAppendingTracer", "Proxy", "Attribute"]

_BASE_TYPES = (str, int, float, bool, complex, bytes, type(None), type(...))


class TraceError(ValueError):
    """Raised when a traced program needs the value of a Proxy (``if x.sum() > 0:``)."""


class TracerBase:
    """Node creation and argument lowering shared by every tracer."""

    graph: Graph
    record_stack_traces = False
    check_mutable_operations = False
    trace_asserts = False
    proxy_buffer_attributes = False
    traced_func_name = "forward"
    scope = None
    module_stack: dict = {}
    node_name_to_scope: dict = {}

    def create_node(self, kind: str, target, args: tuple, kwargs: dict, name: str | None = None,
                    type_expr: Any | None = None) -> Node:
        """Insert one node into ``self.graph`` (overridable: tutorials add metadata here)."""
        return self.graph.create_node(kind, target, args, kwargs, name, type_expr)

    def proxy(self, node: Node) -> "Proxy":
        return Proxy(node, self)

    def create_proxy(self, kind: str, target, args: tuple, kwargs: dict, name: str | None = None,
                     type_expr: Any | None = None, proxy_factory_fn=None) -> "Proxy":
        """Lower ``args``/``kwargs`` with :meth:`create_arg`, create the node and wrap it in a Proxy."""
        args_ = self.create_arg(args)
        kwargs_ = self.create_arg(kwargs)
        assert isinstance(args_, tuple) and isinstance(kwargs_, dict)
        node = self.create_node(kind, target, args_, kwargs_, name, type_expr)
        return self.proxy(node) if proxy_factory_fn is None else proxy_factory_fn(node)

    def create_arg(self, a: Any) -> Any:
        """Turn a traced-program value into something a node may hold (Proxy -> its node)."""
        if isinstance(a, Proxy):
            return a.node
        if hasattr(a, "__fx_create_arg__"):
            return a.__fx_create_arg__(self)
        if isinstance(a, tuple):
            if hasattr(a, "_fields"):
                return type(a)(*[self.create_arg(elem) for elem in a])
            return tuple(self.create_arg(elem) for elem in a)
        if isinstance(a, list):
            return [self.create_arg(elem) for elem in a]
        if isinstance(a, dict):
            out = {}
            for k, v in a.items():
                k = self.create_arg(k)
                if isinstance(k, Node):
                    raise RuntimeError(f"Keys for dictionaries used as an argument cannot contain a Node. Got key: {k}")
                out[k] = self.create_arg(v)
            return out
        if isinstance(a, slice):
            return slice(self.create_arg(a.start), self.create_arg(a.stop), self.create_arg(a.step))
        if isinstance(a, range):
            return range(self.create_arg(a.start), self.create_arg(a.stop), self.create_arg(a.step))
        from .._dtype import dtype
        from ..device import device
        if isinstance(a, _BASE_TYPES) or isinstance(a, (dtype, device, Node)):
            return a
        import enum
        if isinstance(a, enum.Enum):
            return a
        raise NotImplementedError(f"argument of type: {type(a)}")

    def to_bool(self, obj: "Proxy") -> bool:
        raise TraceError("symbolically traced variables cannot be used as inputs to control flow")

    def iter(self, obj: "Proxy"):
        raise TraceError("Proxy object cannot be iterated. This can be attempted when the Proxy is used in a "
                         "loop or as a *args or **kwargs function argument. See the torch.fx docs on "
                         "pytorch.org for a more detailed explanation of what types of control flow can be "
                         "traced, and check out the Proxy docstring for help troubleshooting Proxy iteration "
                         "errors")

    def keys(self, obj: "Proxy"):
        return Attribute(obj, "keys")()


class GraphAppendingTracer(TracerBase):
    """A tracer that appends to an existing graph (``Proxy(node)`` without a tracer uses one)."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph


class Proxy:
    """A traced value: operations on it are recorded as nodes of ``tracer.graph``.

    Example:
        >>> import borch_webgpu.fx as fx
        >>> g = fx.Graph()
        >>> x = fx.Proxy(g.placeholder("x"))
        >>> y = (x * 2).relu()
        >>> _ = g.output(y.node)
        >>> [n.op for n in g.nodes]
        ['placeholder', 'call_function', 'call_method', 'output']
    """

    _is_fx_proxy = True

    def __init__(self, node: Node, tracer: TracerBase | None = None) -> None:
        _dispatch.proxy_born(self)
        if tracer is None:
            tracer = GraphAppendingTracer(node.graph)
        self.tracer = tracer
        self.node = node

    def __repr__(self) -> str:
        return f"Proxy({self.node.name})"

    def __getattr__(self, k: str) -> "Attribute":
        if k.startswith("__") and k.endswith("__"):
            raise AttributeError(k)
        return Attribute(self, k)

    def __getstate__(self):
        return self.__dict__

    def __deepcopy__(self, memo):
        raise RuntimeError("symbolically traced variables cannot be deep-copied")

    def __call__(self, *args, **kwargs) -> "Proxy":
        return self.tracer.create_proxy("call_method", "__call__", (self,) + args, kwargs)

    def __iter__(self):
        return self.tracer.iter(self)

    def __abs__(self) -> "Proxy":
        return self.tracer.create_proxy("call_function", operator.abs, (self,), {})

    def __bool__(self) -> bool:
        return self.tracer.to_bool(self)

    def keys(self):
        return self.tracer.keys(self)

    def __len__(self) -> int:
        raise RuntimeError("'len' is not supported in symbolic tracing by default. If you want this call to be "
                           "recorded, please call torch.fx.wrap('len') at module scope")

    def __index__(self):
        raise TraceError("symbolically traced variables cannot be used as inputs to control flow")

    def __setitem__(self, key, value) -> None:
        self.tracer.create_proxy("call_function", operator.setitem, (self, key, value), {})


class Attribute(Proxy):
    """``proxy.attr``: a ``getattr`` node, created only when the value is used as a value (calling
    it makes a ``call_method`` node instead)."""

    def __init__(self, root: Proxy, attr: str) -> None:
        _dispatch.proxy_born(self)
        self.root = root
        self.attr = attr
        self.tracer = root.tracer
        self._node: Node | None = None

    @property
    def node(self) -> Node:
        if self._node is None:
            self._node = self.tracer.create_proxy("call_function", getattr, (self.root, self.attr), {}).node
        return self._node

    def __call__(self, *args, **kwargs) -> Proxy:
        return self.tracer.create_proxy("call_method", self.attr, (self.root,) + args, kwargs)


def _magic(method: str):
    def impl(*args, **kwargs):
        return args[0].tracer.create_proxy("call_function", getattr(operator, method), args, kwargs)
    impl.__name__ = f"__{method.strip('_')}__"
    return impl


def _reflected(orig: str):
    def impl(self, rhs):
        return self.tracer.create_proxy("call_function", getattr(operator, orig), (rhs, self), {})
    impl.__name__ = f"__r{orig.strip('_')}__"
    return impl


for _method in magic_methods:
    setattr(Proxy, f"__{_method.strip('_')}__", _magic(_method))
for _orig in reflectable_magic_methods:
    setattr(Proxy, f"__r{_orig.strip('_')}__", _reflected(_orig))


_dispatch._PROXY_TYPE.append(Proxy)
