"""``torch.fx.Graph``: a doubly linked list of :class:`Node` with PyTorch 2.13's naming, insertion
points, copying, linting, dead code elimination and printing (``str(graph)``, ``print_tabular``,
``python_code``)."""
from __future__ import annotations

import inspect
import warnings
from typing import Any, Callable

from ._codegen import Namespace, PythonCode, gen_python_code, snake_case
from ._tabulate import tabulate
from .node import Argument, Node, Target, map_arg

__all__ = ["Graph", "PythonCode"]


def _is_magic(x: str) -> bool:
    return x.startswith("__") and x.endswith("__")


class _InsertPoint:
    def __init__(self, graph: "Graph", new_insert: Callable[[Node], None]) -> None:
        self.graph = graph
        self.orig_insert, graph._insert = graph._insert, new_insert

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> None:
        self.graph._insert = self.orig_insert


class _NodeList:
    def __init__(self, graph: "Graph", direction: str = "_next") -> None:
        self.graph, self.direction = graph, direction

    def __len__(self) -> int:
        return self.graph._len

    def __iter__(self):
        root = self.graph._root
        cur = getattr(root, self.direction)
        while cur is not root:
            if not cur._erased:
                yield cur
            cur = getattr(cur, self.direction)

    def __reversed__(self):
        return iter(_NodeList(self.graph, "_prev" if self.direction == "_next" else "_next"))


class Graph:
    """The intermediate representation of :mod:`borch_webgpu.fx`: nodes in program order.

    Example:
        >>> import operator
        >>> import borch_webgpu.fx as fx
        >>> g = fx.Graph()
        >>> x = g.placeholder("x")
        >>> y = g.call_function(operator.add, (x, 1))
        >>> _ = g.output(y)
        >>> print(g.python_code("self").src.strip())
        def forward(self, x):
            add = x + 1;  x = None
            return add
    """

    def __init__(self, owning_module=None, tracer_cls=None, tracer_extras=None) -> None:
        self._root = Node(self, "", "root", "", (), {})
        self._used_names: dict[str, int] = {}
        self._insert = self._root.prepend
        self._len = 0
        self._graph_namespace = Namespace()
        self._owning_module = owning_module
        self._tracer_cls = tracer_cls
        self._tracer_extras = tracer_extras

    @property
    def owning_module(self):
        return self._owning_module

    @owning_module.setter
    def owning_module(self, mod) -> None:
        self._owning_module = mod

    @property
    def nodes(self) -> _NodeList:
        """The nodes in order (a live view: ``len()``, iteration, ``reversed()``)."""
        return _NodeList(self)

    def find_nodes(self, *, op: str, target: Any = None, sort: bool = True) -> list[Node]:
        """The nodes with this ``op`` (and ``target``, when given), in graph order."""
        return [n for n in self.nodes if n.op == op and (target is None or n.target == target)]

    # ---- creating nodes --------------------------------------------------------------------------------
    def _target_to_str(self, target: Target) -> str:
        if callable(target):
            from ._names import public_name
            public = public_name(target)  # torch.log is "log" (its function is named log_dispatch)
            op = public.rsplit(".", 1)[1] if public is not None else target.__name__
        else:
            op = target
            if _is_magic(op):
                op = op[2:-2]
        return snake_case(op)

    def create_node(self, op: str, target: Target, args: tuple | None = None, kwargs: dict | None = None,
                    name: str | None = None, type_expr: Any | None = None) -> Node:
        """Create a node and insert it at the current insertion point (the end, by default)."""
        args = () if args is None else args
        kwargs = {} if kwargs is None else kwargs
        if not isinstance(args, tuple):
            raise AssertionError(f"args must be a tuple, got {type(args)}")
        if not isinstance(kwargs, dict):
            raise AssertionError(f"kwargs must be a dict, got {type(kwargs)}")
        spelling = None
        if op == "call_function":
            from ._dispatch import unwrap
            target, spelling = unwrap(target)  # nodes hold the package's own function, not a wrapper
        candidate = name if name is not None else self._target_to_str(target)
        name = self._graph_namespace.create_name(candidate, None)
        n = Node(self, name, op, target, args, kwargs, type_expr)
        if spelling is not None:
            n._qualname = spelling
        self._graph_namespace.associate_name_with_obj(name, n)
        self._insert(n)
        self._len += 1
        return n

    def placeholder(self, name: str, type_expr: Any | None = None,
                    default_value: Any = inspect.Signature.empty) -> Node:
        """A function input named ``name`` (with a default when ``default_value`` is given)."""
        args = () if default_value is inspect.Signature.empty else (default_value,)
        return self.create_node("placeholder", name, args=args, type_expr=type_expr)

    def get_attr(self, qualified_name: str, type_expr: Any | None = None) -> Node:
        """Read a parameter, buffer or submodule of the owning module by dotted name."""
        mod = self.owning_module
        if mod is not None and not _get_attr_reference_exists(mod, qualified_name):
            warnings.warn("Attempted to insert a get_attr Node with no underlying reference in the owning "
                          "GraphModule! Call GraphModule.add_submodule to add the necessary submodule, "
                          "GraphModule.add_parameter to add the necessary Parameter, or "
                          "nn.Module.register_buffer to add the necessary buffer", stacklevel=2)
        return self.create_node("get_attr", qualified_name, type_expr=type_expr)

    def call_module(self, module_name: str, args: tuple | None = None, kwargs: dict | None = None,
                    type_expr: Any | None = None) -> Node:
        """Call the submodule at dotted path ``module_name``."""
        mod = self.owning_module
        if mod is not None and _submodule_or_none(mod, module_name) is None:
            warnings.warn("Attempted to insert a call_module Node with no underlying reference in the owning "
                          "GraphModule! Call GraphModule.add_submodule to add the necessary submodule")
        return self.create_node("call_module", module_name, args, kwargs, type_expr=type_expr)

    def call_method(self, method_name: str, args: tuple | None = None, kwargs: dict | None = None,
                    type_expr: Any | None = None) -> Node:
        """Call method ``method_name`` of ``args[0]``."""
        return self.create_node("call_method", method_name, args, kwargs, type_expr=type_expr)

    def call_function(self, the_function: Callable, args: tuple | None = None, kwargs: dict | None = None,
                      type_expr: Any | None = None, name: str | None = None) -> Node:
        """Call a free function (``torch.relu``, ``operator.add``, ...)."""
        return self.create_node("call_function", the_function, args, kwargs, name=name, type_expr=type_expr)

    def output(self, result: Argument, type_expr: Any | None = None) -> Node:
        """The ``return`` of the graph."""
        return self.create_node("output", "output", (result,), type_expr=type_expr)

    def node_copy(self, node: Node, arg_transform: Callable[[Node], Argument] = lambda x: x) -> Node:
        """Copy ``node`` (from any graph) into this one, mapping its inputs with ``arg_transform``."""
        args = map_arg(node.args, arg_transform)
        kwargs = map_arg(node.kwargs, arg_transform)
        result_node = self.create_node(node.op, node.target, args, kwargs, node.name, node.type)
        result_node._qualname = node._qualname
        result_node.meta = dict(node.meta)
        return result_node

    def graph_copy(self, g: "Graph", val_map: dict, return_output_node: bool = False):
        """Copy every node of ``g`` into this graph; returns the value ``g``'s output returns."""
        for node in g.nodes:
            if node in val_map:
                continue
            if node.op == "output":
                rv = map_arg(node.args[0], lambda n: val_map[n])
                return rv if not return_output_node else (rv, node)
            val_map[node] = self.node_copy(node, lambda n: val_map[n])
        return None

    def __deepcopy__(self, memo=None) -> "Graph":
        memo = memo if memo else {}
        g = Graph(tracer_cls=self._tracer_cls)
        output_vals = g.graph_copy(self, val_map=memo, return_output_node=True)
        if output_vals is not None:
            vals, old_output = output_vals
            new_output = g.output(vals, type_expr=old_output.type)
            new_output.meta = dict(old_output.meta)
        return g

    def erase_node(self, to_erase: Node) -> None:
        """Remove a node that has no users."""
        if len(to_erase.users) > 0:
            raise RuntimeError(f"Tried to erase Node {to_erase} but it still had {len(to_erase.users)} "
                               f"users in the graph: {to_erase.users}!")
        if to_erase.graph != self:
            raise RuntimeError(f"Attempting to remove {to_erase} from wrong graph!")
        if to_erase._erased:
            warnings.warn(f"erase_node({to_erase}) on an already erased node")
            return
        to_erase._remove_from_list()
        to_erase._erased = True
        self._len -= 1
        to_erase.args = map_arg(to_erase.args, lambda n: None)
        to_erase.kwargs = map_arg(to_erase.kwargs, lambda n: None)

    def inserting_before(self, n: Node | None = None) -> _InsertPoint:
        """Insert new nodes before ``n`` (the start of the graph when None); a context manager."""
        if n is None:
            return self.inserting_after(self._root)
        assert n.graph == self, "Node to insert before is not in graph."
        return _InsertPoint(self, n.prepend)

    def inserting_after(self, n: Node | None = None) -> _InsertPoint:
        """Insert new nodes after ``n`` (the end of the graph when None); a context manager."""
        if n is None:
            return self.inserting_before(self._root)
        assert n.graph == self, "Node to insert after is not in graph."
        return _InsertPoint(self, n.append)

    # ---- checks and passes -----------------------------------------------------------------------------
    def lint(self) -> None:
        """Check ownership, topological order, unique names and (with an owner) that targets exist."""
        seen_names: set[str] = set()
        seen_values: set[Node] = set()
        for node in self.nodes:
            if node.graph is not self:
                raise RuntimeError(f"Node '{node}' does not belong to this Graph!")
            for arg in node._input_nodes:
                context_str = f" of Node '{node}' "
                if arg.graph is not self:
                    raise RuntimeError(f"Argument '{arg}'{context_str}does not belong to this Graph, but was used "
                                       f"as an argument! If you are copying nodes from another graph, make sure "
                                       f"to use ``arg_transform`` on node_copy() to remap values\n{self}")
                if arg not in seen_values:
                    raise RuntimeError(f"Argument '{arg}'{context_str}was used before it has been defined! Please "
                                       f"check that Nodes in the graph are topologically ordered\n{self}")
            seen_values.add(node)
            if node.name in seen_names:
                raise RuntimeError(f"Node redefined name {node.name}!")
            seen_names.add(node.name)
        if self.owning_module is None:
            return
        from ..nn import Module
        for node in self.nodes:
            if node.op in ("get_attr", "call_module"):
                atoms = node.target.split(".")
                m_itr = self.owning_module
                for i, atom in enumerate(atoms):
                    new_m_itr = getattr(m_itr, atom, None)
                    seen_qualname = ".".join(atoms[:i])
                    if new_m_itr is None:
                        raise RuntimeError(f"Node {node} target {node.target} references nonexistent attribute "
                                           f"{atom} of {seen_qualname}")
                    if node.op == "call_module" and not isinstance(new_m_itr, Module):
                        raise RuntimeError(f"Node {node} target {node.target} {atom} of {seen_qualname} does "
                                           "not reference an nn.Module")
                    m_itr = new_m_itr

    def eliminate_dead_code(self, is_impure_node: Callable[[Node], bool] | None = None) -> bool:
        """Erase nodes without users and without side effects; True when something was removed."""
        self.lint()
        changed = False
        for node in reversed(self.nodes):
            impure = is_impure_node(node) if is_impure_node is not None else node.is_impure()
            if not impure and len(node.users) == 0:
                self.erase_node(node)
                changed = True
        return changed

    # ---- printing --------------------------------------------------------------------------------------
    def python_code(self, root_module: str, **kwargs) -> PythonCode:
        """The source of ``forward`` for this graph and its globals."""
        return gen_python_code(list(self.nodes), root_module)

    def __str__(self) -> str:
        placeholder_names: list[str] = []
        maybe_return_typename = [""]
        node_strs = [node.format_node(placeholder_names) for node in self.nodes]
        s = f"graph({', '.join(placeholder_names)}){maybe_return_typename[0]}:"
        for node_str in node_strs:
            if node_str:
                s += "\n    " + node_str
        return s

    def print_tabular(self) -> None:
        """Print the nodes as a table (opcode, name, target, args, kwargs), as PyTorch does with tabulate."""
        node_specs = [[n.op, n.name, n.target, n.args, n.kwargs] for n in self.nodes]
        print(tabulate(node_specs, headers=["opcode", "name", "target", "args", "kwargs"]))


def _submodule_or_none(mod, path: str):
    try:
        return mod.get_submodule(path)
    except AttributeError:
        return None


def _get_attr_reference_exists(mod, qualified_name: str) -> bool:
    from ..nn import Module, Parameter
    module_path, _, name = qualified_name.rpartition(".")
    submod = _submodule_or_none(mod, module_path)
    if submod is None or not hasattr(submod, name):
        return False
    res = getattr(submod, name)
    return isinstance(res, (Module, Parameter)) or name in submod._buffers
