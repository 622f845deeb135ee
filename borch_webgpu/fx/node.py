"""``torch.fx.Node``: one operation of a :class:`~borch_webgpu.fx.Graph`, with its inputs and users.

The op kinds, names, printing (``format_node``) and use-def bookkeeping follow torch/fx/node.py of
PyTorch 2.13: a node's ``args``/``kwargs`` may hold other nodes (also inside lists, tuples, dicts and
slices); each node knows its ``users``, and replacing or erasing keeps both sides consistent.
"""
from __future__ import annotations

import types
from typing import Any, Callable

__all__ = ["Node", "map_arg", "map_aggregate", "has_side_effect", "Argument", "Target"]

Argument = Any
Target = Any

_LEGAL_OPS = ("placeholder", "call_method", "call_module", "call_function", "get_attr", "output", "root")


_SIDE_EFFECTFUL: set = set()


def has_side_effect(fn):
    """Mark ``fn`` so that ``Graph.eliminate_dead_code`` keeps its calls; returns ``fn``."""
    _SIDE_EFFECTFUL.add(fn)
    return fn


def map_aggregate(a: Argument, fn: Callable[[Argument], Argument]) -> Argument:
    """Apply ``fn`` to every leaf of ``a`` (tuples, lists, dicts and slices are walked).

    Example:
        >>> from borch_webgpu.fx.node import map_aggregate
        >>> map_aggregate((1, [2, {"k": 3}]), lambda v: v * 10)
        (10, [20, {'k': 30}])
    """
    if isinstance(a, tuple):
        t = tuple(map_aggregate(elem, fn) for elem in a)
        return t if not hasattr(a, "_fields") else type(a)(*t)
    if isinstance(a, list):
        return [map_aggregate(elem, fn) for elem in a]
    if isinstance(a, dict):
        return {k: map_aggregate(v, fn) for k, v in a.items()}
    if isinstance(a, slice):
        return slice(map_aggregate(a.start, fn), map_aggregate(a.stop, fn), map_aggregate(a.step, fn))
    return fn(a)


def map_arg(a: Argument, fn: Callable[["Node"], Argument]) -> Argument:
    """Apply ``fn`` to every :class:`Node` inside ``a``; other leaves are kept.

    Example:
        >>> import borch_webgpu.fx as fx
        >>> g = fx.Graph(); x = g.placeholder("x")
        >>> fx.node.map_arg((x, 2), lambda n: n.name)
        ('x', 2)
    """
    if not callable(fn):
        raise TypeError("torch.fx.map_arg(a, fn): fn must be a callable")
    return map_aggregate(a, lambda x: fn(x) if isinstance(x, Node) else x)


def _qualname_default(func) -> str:
    from ._names import qualified_name
    return qualified_name(func)


def _format_arg(arg: object, max_list_len: float = float("inf")) -> str:
    if isinstance(arg, list):
        items = ", ".join(_format_arg(a) for idx, a in enumerate(arg) if idx < max_list_len)
        maybe_len = "" if len(arg) < max_list_len + 1 else f", ...[total_len={len(arg)}]"
        return f"[{items}{maybe_len}]"
    if isinstance(arg, tuple):
        items = ", ".join(_format_arg(a) for idx, a in enumerate(arg) if idx < max_list_len)
        maybe_len = "" if len(arg) < max_list_len + 1 else f", ...[total_len={len(arg)}]"
        maybe_comma = "," if len(arg) == 1 else ""
        return f"({items}{maybe_comma}{maybe_len})"
    if isinstance(arg, dict):
        items_str = ", ".join(f"{k}: {_format_arg(v)}" for k, v in arg.items())
        return f"{{{items_str}}}"
    if isinstance(arg, Node):
        return "%" + str(arg)
    return str(arg)


def _torch_spelling(text: str) -> str:
    """Our classes under torch's names (``borch_webgpu.tensor.Tensor`` -> ``torch.Tensor``)."""
    return text.replace("borch_webgpu.tensor.Tensor", "torch.Tensor").replace("borch_webgpu.", "torch.")


def _type_repr(obj) -> str:
    """PyTorch's ``_type_repr``: ``torch.Tensor``, ``int``, ``typing.Optional[torch.Tensor]``."""
    if isinstance(obj, type):
        if obj.__module__ == "builtins":
            return obj.__qualname__
        return _torch_spelling(f"{obj.__module__}.{obj.__qualname__}")
    if obj is ...:
        return "..."
    if isinstance(obj, types.FunctionType):
        return obj.__name__
    return _torch_spelling(repr(obj))


class Node:
    """One operation in a :class:`~borch_webgpu.fx.Graph`.

    ``op`` is one of ``placeholder`` (a function input), ``get_attr`` (a parameter, buffer or
    submodule read from the root), ``call_function``, ``call_module``, ``call_method`` and
    ``output`` (the return statement). ``args``/``kwargs`` may reference other nodes; ``users``
    are the nodes that read this one.

    Example:
        >>> import borch_webgpu.fx as fx
        >>> g = fx.Graph()
        >>> x = g.placeholder("x")
        >>> y = g.call_method("relu", (x,))
        >>> _ = g.output(y)
        >>> (y.op, y.name, y.target, y.args, list(x.users))
        ('call_method', 'relu', 'relu', (x,), [relu])
    """

    def __init__(self, graph, name: str, op: str, target: Target, args: tuple, kwargs: dict,
                 return_type: Any | None = None) -> None:
        if op not in _LEGAL_OPS:
            raise ValueError(f"Node: op must be one of {_LEGAL_OPS[:-1]}, got {op!r}")
        if op == "call_function" and not callable(target):
            raise ValueError(f"Node [graph = {graph}, name = '{name}'] target {target} has type "
                             f"{type(target)} but a Callable is expected")
        if op in ("call_method", "call_module", "get_attr", "placeholder", "output") and \
                not isinstance(target, str):
            raise ValueError(f"Node [graph = {graph}, name = '{name}'] target {target} has type "
                             f"{type(target)} but a str is expected")
        self.graph = graph
        self.name = name
        self.op = op
        self._target = target
        self._qualname: str | None = None  # how a traced call spelled its function (torch.relu vs F.relu)
        self._input_nodes: dict[Node, None] = {}
        self._args: tuple = ()
        self._kwargs: dict = {}
        self.__update_args_kwargs(args, kwargs)
        self.users: dict[Node, None] = {}
        self.type = return_type
        self._prev = self
        self._next = self
        self._erased = False
        self.meta: dict[str, Any] = {}

    @property
    def stack_trace(self) -> str | None:
        """Where the traced operation was written (recorded only when the tracer records stack traces)."""
        return self.meta.get("stack_trace", None)

    @stack_trace.setter
    def stack_trace(self, trace: str | None) -> None:
        self.meta["stack_trace"] = trace

    # ---- linked list ---------------------------------------------------------------------------------
    @property
    def next(self) -> "Node":
        """The node after this one in the graph (the root sentinel after the last)."""
        return self._next

    @property
    def prev(self) -> "Node":
        """The node before this one in the graph."""
        return self._prev

    def prepend(self, x: "Node") -> None:
        """Move node ``x`` (of the same graph) to just before this node."""
        if self == x:
            raise AssertionError("Cannot prepend a node to itself")
        if self.graph != x.graph:
            raise AssertionError("Attempting to move a Node into a different Graph")
        x._remove_from_list()
        p = self._prev
        p._next, x._prev = x, p
        x._next, self._prev = self, x

    def append(self, x: "Node") -> None:
        """Move node ``x`` (of the same graph) to just after this node."""
        self._next.prepend(x)

    def _remove_from_list(self) -> None:
        p, n = self._prev, self._next
        p._next, n._prev = n, p

    # ---- args / kwargs ---------------------------------------------------------------------------------
    @property
    def target(self) -> Target:
        return self._target

    @target.setter
    def target(self, value: Target) -> None:
        from ._dispatch import unwrap
        self._target, self._qualname = unwrap(value)

    @property
    def args(self) -> tuple:
        """The positional arguments (nodes or constants); setting it updates the use lists."""
        return self._args

    @args.setter
    def args(self, a: tuple) -> None:
        self.__update_args_kwargs(a, self._kwargs)

    @property
    def kwargs(self) -> dict:
        """The keyword arguments; setting it updates the use lists."""
        return self._kwargs

    @kwargs.setter
    def kwargs(self, k: dict) -> None:
        self.__update_args_kwargs(self._args, k)

    @property
    def all_input_nodes(self) -> list["Node"]:
        """Every node this one reads, in order of first appearance in args then kwargs."""
        return list(self._input_nodes)

    def update_arg(self, idx: int, arg: Argument) -> None:
        """Set ``args[idx]``."""
        args = list(self.args)
        args[idx] = arg
        self.args = tuple(args)

    def insert_arg(self, idx: int, arg: Argument) -> None:
        """Insert a positional argument at ``idx``."""
        args = list(self.args)
        args.insert(idx, arg)
        self.args = tuple(args)

    def update_kwarg(self, key: str, arg: Argument) -> None:
        """Set ``kwargs[key]``."""
        self.kwargs = {**self.kwargs, key: arg}

    def __update_args_kwargs(self, new_args, new_kwargs) -> None:
        for old_use in self._input_nodes:
            old_use.users.pop(self)
        self._input_nodes = {}

        def collect(n: Node) -> Node:
            self._input_nodes.setdefault(n)
            return n
        self._args = map_arg(tuple(new_args), collect)
        self._kwargs = map_arg(dict(new_kwargs), collect)
        for new_use in self._input_nodes:
            new_use.users.setdefault(self)

    # ---- rewriting -------------------------------------------------------------------------------------
    def replace_all_uses_with(self, replace_with: "Node", delete_user_cb: Callable[["Node"], bool] = lambda user: True,
                              *, propagate_meta: bool = False) -> list["Node"]:
        """Make every user of this node read ``replace_with`` instead; returns the users changed.

        Example:
            >>> import borch_webgpu.fx as fx
            >>> g = fx.Graph(); x = g.placeholder("x")
            >>> r = g.call_method("relu", (x,)); s = g.call_method("sigmoid", (x,)); _ = g.output(r)
            >>> r.replace_all_uses_with(s)
            [output]
        """
        if propagate_meta:
            if len(replace_with.meta) != 0:
                raise AssertionError("Called node.replace_all_uses_with(replace_with, propagate_meta=True), "
                                     "but replace_with already has .meta keys")
            replace_with.meta.update(self.meta)
        to_process = list(self.users)
        skipped, result = [], []
        for use_node in to_process:
            if not delete_user_cb(use_node):
                skipped.append(use_node)
                continue
            use_node._replace_input(self, replace_with)
            result.append(use_node)
        if delete_user_cb is None or not skipped:
            assert len(self.users) == 0
        return result

    def replace_input_with(self, old_input: "Node", new_input: "Node") -> None:
        """Replace every appearance of ``old_input`` among this node's inputs with ``new_input``."""
        self._replace_input(old_input, new_input)

    def _replace_input(self, old: "Node", new: "Node") -> None:
        def maybe(n: Node) -> Node:
            return new if n == old else n
        self.__update_args_kwargs(map_arg(self._args, maybe), map_arg(self._kwargs, maybe))

    def is_impure(self, impure_random: bool = True) -> bool:
        """Kept by dead code elimination: placeholders, outputs, ``torch._assert`` and
        ``operator.setitem`` calls, functions marked with ``has_side_effect`` and modules with
        ``_is_impure``; method calls are not (as in PyTorch 2.13)."""
        if self.op in ("placeholder", "output"):
            return True
        if self.op == "call_module":
            mod = self.graph.owning_module
            if mod is None:
                raise AssertionError("self.graph.owning_module not set for purity check")
            return getattr(mod.get_submodule(self.target), "_is_impure", False)
        if self.op == "call_function":
            import operator
            from .._assert import _assert
            return self.target in (operator.setitem, _assert) or self.target in _SIDE_EFFECTFUL
        return False

    # ---- printing --------------------------------------------------------------------------------------
    def __repr__(self) -> str:
        return self.name

    @staticmethod
    def _pretty_print_target(target: object) -> str:
        if isinstance(target, str):
            return target
        if hasattr(target, "__module__"):
            name = getattr(target, "__name__", None)
            if name is None:
                return _qualname_default(target)
            if target.__module__ == "builtins":
                return f"builtins.{name}"
            if target.__module__ == "_operator":
                return f"operator.{name}"
        return _qualname_default(target)

    def format_node(self, placeholder_names: list[str] | None = None,
                    maybe_return_typename: list[str] | None = None) -> str | None:
        """PyTorch's one-line description of this node (the lines of ``str(graph)``).

        Example:
            >>> import borch_webgpu.fx as fx
            >>> g = fx.Graph(); x = g.placeholder("x")
            >>> g.call_method("relu", (x,)).format_node()
            '%relu : [num_users=0] = call_method[target=relu](args = (%x,), kwargs = {})'
        """
        if self.op == "placeholder":
            arg_str = self.target
            arg_str += arg_str + f": {_type_repr(self.type)}" if self.type else ""
            if placeholder_names:
                placeholder_names.append(arg_str)
                return None
            maybe_typename = f"{_type_repr(self.type)} " if self.type else ""
            default_val = "(default=" + str(self.args[0]) + ")" if self.args else ""
            return f"%{self.name} : {maybe_typename}[num_users={len(self.users)}] = {self.op}[target={self.target}]{default_val}"
        if self.op == "get_attr":
            maybe_typename = f"{_type_repr(self.type)} " if self.type is not None else ""
            return (f"%{self.name} : {maybe_typename}[num_users={len(self.users)}] = "
                    f"{self.op}[target={self._pretty_print_target(self.target)}]")
        if self.op == "output":
            if self.type and maybe_return_typename:
                maybe_return_typename[0] = f" -> {_type_repr(self.type)}"
            return f"return {self.args[0]}"
        type_annotation = f"{_type_repr(self.type)} " if self.type is not None else ""
        target = self._qualname if self._qualname is not None else self._pretty_print_target(self.target)
        return (f"%{self.name} : {type_annotation}[num_users={len(self.users)}] = "
                f"{self.op}[target={target}](args = {_format_arg(self.args)}, kwargs = {_format_arg(self.kwargs)})")

