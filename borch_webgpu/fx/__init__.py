"""``torch.fx``: capture a module's ``forward`` as a Graph, edit it, and run it as Python again.

``symbolic_trace(model)`` runs ``forward`` on Proxies and returns a :class:`GraphModule` whose
``graph`` holds one :class:`Node` per operation and whose ``code`` is the regenerated ``forward``,
with PyTorch 2.13's node names and code text. ``Interpreter`` / ``Transformer`` run or rewrite a
graph node by node; ``passes.shape_prop.ShapeProp`` records shapes; ``replace_pattern`` rewrites
subgraphs.

Example:
    >>> import borch_webgpu as torch
    >>> import borch_webgpu.fx as fx
    >>> gm = fx.symbolic_trace(lambda x: torch.relu(x) + 1)
    >>> print(gm.code.strip())
    def forward(self, x):
        relu = torch.relu(x);  x = None
        add = relu + 1;  relu = None
        return add
"""
from . import _dispatch, node, proxy
from ._symbolic_trace import PH, Tracer, symbolic_trace, wrap
from .graph import Graph
from .graph_module import GraphModule
from .interpreter import Interpreter, Transformer
from .node import Node, map_arg
from .proxy import Proxy
from . import passes
from .subgraph_rewriter import replace_pattern

__all__ = ["symbolic_trace", "Tracer", "Graph", "GraphModule", "Node", "Proxy", "Interpreter", "Transformer",
           "wrap", "PH", "map_arg", "replace_pattern", "passes", "node", "proxy"]
