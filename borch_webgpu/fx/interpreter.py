"""``torch.fx.Interpreter`` and ``Transformer``: run a GraphModule node by node, or rebuild it.

Each node kind dispatches to an overridable method (``placeholder``, ``get_attr``, ``call_function``,
``call_method``, ``call_module``, ``output``), as in PyTorch 2.13: subclass and override one of them
to observe or change execution; :class:`Transformer` runs the same methods on Proxies to produce a
new GraphModule.
"""
from __future__ import annotations

import inspect
from typing import Any

from ._dispatch import public
from .graph import Graph
from .graph_module import GraphModule
from .node import Argument, Node, map_aggregate, map_arg
from .proxy import Proxy, TracerBase

__all__ = ["Interpreter", "Transformer"]


class Interpreter:
    """Execute ``module.graph`` one node at a time (``Interpreter(gm).run(*inputs)``).

    Example:
        >>> import borch_webgpu as torch
        >>> import borch_webgpu.fx as fx
        >>> class NegSigmoid(fx.Interpreter):
        ...     def call_function(self, target, args, kwargs):
        ...         if target is torch.sigmoid:
        ...             return torch.neg(target(*args, **kwargs))
        ...         return super().call_function(target, args, kwargs)
        >>> gm = fx.symbolic_trace(lambda x: torch.sigmoid(x))
        >>> NegSigmoid(gm).run(torch.zeros(2))
        tensor([-0.5000, -0.5000])
    """

    def __init__(self, module, garbage_collect_values: bool = True, graph: Graph | None = None) -> None:
        self.module = module
        self.submodules = dict(self.module.named_modules())
        self.graph = graph if graph is not None else self.module.graph
        self.env: dict[Node, Any] = {}
        self.name = "Interpreter"
        self.garbage_collect_values = garbage_collect_values
        self.extra_traceback = True
        if self.garbage_collect_values:
            node_to_last_use: dict[Node, Node] = {}
            self.user_to_last_uses: dict[Node, list[Node]] = {}
            for node in reversed(self.graph.nodes):
                for n in node._input_nodes:
                    if n not in node_to_last_use:
                        node_to_last_use[n] = node
                        self.user_to_last_uses.setdefault(node, []).append(n)

    def run(self, *args, initial_env: dict | None = None, enable_io_processing: bool = True) -> Any:
        """Run the graph on ``args`` and return what its output node returns."""
        self.env = initial_env if initial_env is not None else {}
        self.args_iter = iter(args)
        for node in self.graph.nodes:
            if node in self.env:
                continue
            try:
                self.env[node] = self.run_node(node)
            except Exception as e:
                if self.extra_traceback:  # PyTorch's wording, including its pointer to tlparse
                    msg = f"While executing {node.format_node()}"
                    msg = f"{e.args[0]}\n\n{msg}" if e.args else str(msg)
                    msg += f"\nOriginal traceback:\n{node.stack_trace}"
                    msg += ("\nUse tlparse to see full graph. "
                            "(https://github.com/pytorch/tlparse?tab=readme-ov-file#tlparse-parse-structured-pt2-logs)")
                    e.args = (msg,) + e.args[1:]
                    if isinstance(e, KeyError):
                        raise RuntimeError(*e.args) from e
                raise
            if self.garbage_collect_values:
                for to_delete in self.user_to_last_uses.get(node, []):
                    del self.env[to_delete]
            if node.op == "output":
                return self.env[node]
        return None

    def run_node(self, n: Node) -> Any:
        """Fetch ``n``'s arguments from the environment and call the method for ``n.op``."""
        args, kwargs = self.fetch_args_kwargs_from_env(n)
        assert isinstance(args, tuple) and isinstance(kwargs, dict)
        target = public(n.target, n._qualname) if n.op == "call_function" else n.target
        return getattr(self, n.op)(target, args, kwargs)

    # ---- one method per op --------------------------------------------------------------------------
    def placeholder(self, target: str, args: tuple, kwargs: dict) -> Any:
        if target.startswith("**"):
            return list(self.args_iter)
        if target.startswith("*"):
            return list(self.args_iter)
        try:
            return next(self.args_iter)
        except StopIteration as si:
            if len(args) > 0:
                return args[0]
            raise RuntimeError(f"Expected positional argument for parameter {target}, but one was not passed in!") from si

    def get_attr(self, target: str, args: tuple, kwargs: dict) -> Any:
        return self.fetch_attr(target)

    def call_function(self, target, args: tuple, kwargs: dict) -> Any:
        return target(*args, **kwargs)

    def call_method(self, target: str, args: tuple, kwargs: dict) -> Any:
        self_obj, *args_tail = args
        return getattr(self_obj, target)(*args_tail, **kwargs)

    def call_module(self, target: str, args: tuple, kwargs: dict) -> Any:
        submod = self.fetch_attr(target)
        return submod(*args, **kwargs)

    def output(self, target: str, args: tuple, kwargs: dict) -> Any:
        return args[0]

    # ---- helpers ------------------------------------------------------------------------------------
    def fetch_attr(self, target: str) -> Any:
        """The attribute of ``self.module`` at dotted path ``target``."""
        target_atoms = target.split(".")
        attr_itr = self.module
        for i, atom in enumerate(target_atoms):
            if not hasattr(attr_itr, atom):
                raise RuntimeError(f"Node referenced nonexistent target {'.'.join(target_atoms[: i + 1])}")
            attr_itr = getattr(attr_itr, atom)
        return attr_itr

    def fetch_args_kwargs_from_env(self, n: Node) -> tuple[tuple, dict]:
        args = self.map_nodes_to_values(n.args, n)
        kwargs = self.map_nodes_to_values(n.kwargs, n)
        return args, kwargs

    def map_nodes_to_values(self, args: Argument, n: Node) -> Argument:
        def load_arg(n_arg: Node) -> Any:
            if n_arg not in self.env:
                raise RuntimeError(f"Node {n} referenced nonexistent value {n_arg}! Run Graph.lint() "
                                   f"to diagnose such issues")
            return self.env[n_arg]
        return map_arg(args, load_arg)


class _TransformerTracer(TracerBase):
    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.tensor_attrs: dict = {}

    def is_leaf_module(self, _, __) -> bool:
        return True


class Transformer(Interpreter):
    """Rebuild a GraphModule by running its graph on Proxies: override a method to change what is
    recorded (``call_function`` returning another function's Proxy replaces it).

    Example:
        >>> import borch_webgpu as torch
        >>> import borch_webgpu.fx as fx
        >>> class ReluToGelu(fx.Transformer):
        ...     def call_function(self, target, args, kwargs):
        ...         if target is torch.relu:
        ...             target = torch.nn.functional.gelu
        ...         return super().call_function(target, args, kwargs)
        >>> gm = ReluToGelu(fx.symbolic_trace(lambda x: torch.relu(x))).transform()
        >>> [n.target.__name__ for n in gm.graph.nodes if n.op == "call_function"]
        ['gelu']
    """

    def __init__(self, module: GraphModule) -> None:
        super().__init__(module)
        self.new_graph = Graph()
        self.tracer = _TransformerTracer(self.new_graph)
        self.tracer.root = module

    def placeholder(self, target: str, args: tuple, kwargs: dict) -> Proxy:
        default_value = next(iter(args)) if args else inspect.Signature.empty
        return Proxy(self.new_graph.placeholder(target, default_value=default_value), self.tracer)

    def get_attr(self, target: str, args: tuple, kwargs: dict) -> Proxy:
        return self.tracer.create_proxy("get_attr", target, args, kwargs)

    def call_function(self, target, args: tuple, kwargs: dict) -> Any:
        return self.tracer.create_proxy("call_function", target, args, kwargs)

    def call_method(self, target: str, args: tuple, kwargs: dict) -> Any:
        return self.tracer.create_proxy("call_method", target, args, kwargs)

    def call_module(self, target: str, args: tuple, kwargs: dict) -> Any:
        return self.tracer.create_proxy("call_module", target, args, kwargs)

    def transform(self) -> GraphModule:
        """Run the transformation and return the new GraphModule."""
        result = super().run(enable_io_processing=False)
        if result is not None:
            def strip_proxy(a):
                return a.node if isinstance(a, Proxy) else a
            self.new_graph.output(map_aggregate(result, strip_proxy))
        return GraphModule(self.module, self.new_graph)

    def run_node(self, n: Node) -> Any:
        result = super().run_node(n)
        if isinstance(result, Proxy) and n.op not in ("placeholder", "output") and result.node._qualname is None \
                and result.node.target is n.target:
            result.node._qualname = n._qualname
        return result
