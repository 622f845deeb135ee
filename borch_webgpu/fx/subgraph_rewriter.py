"""``torch.fx.replace_pattern``: find every occurrence of a pattern graph and put a replacement in its
place, as PyTorch 2.13's ``subgraph_rewriter`` does: the pattern's placeholders match any value, other
nodes match by op, target and literal arguments; matched nodes other than the pattern's outputs may not
be used outside the match; matches do not overlap; the replacement is copied in before the first user
of the matched output."""
from __future__ import annotations

from typing import Callable, NamedTuple

from .graph import Graph
from .graph_module import GraphModule
from .node import Node

__all__ = ["Match", "replace_pattern"]


class Match(NamedTuple):
    anchor: Node                      # the pattern's node that the match was found from (its output)
    nodes_map: dict[Node, Node]       # pattern node -> original graph node


def _graph_of(obj) -> Graph:
    if isinstance(obj, GraphModule):
        return obj.graph
    if isinstance(obj, Graph):
        return obj
    from ._symbolic_trace import symbolic_trace
    return symbolic_trace(obj).graph


class _Matcher:
    def __init__(self, pattern: Graph) -> None:
        self.pattern = pattern
        out = next(n for n in pattern.nodes if n.op == "output")
        ret = out.args[0]
        self.returning = list(ret) if isinstance(ret, (tuple, list)) else [ret]
        self.placeholders = [n for n in pattern.nodes if n.op == "placeholder"]
        self.inner = [n for n in pattern.nodes if n.op not in ("placeholder", "output")]

    def match_args(self, pa, ga, nodes_map) -> bool:
        if isinstance(pa, Node) and isinstance(ga, Node):
            return self.match_node(pa, ga, nodes_map)
        if isinstance(pa, Node) and pa.op == "placeholder":  # a pattern input matches a literal too
            if pa in nodes_map:
                return not isinstance(nodes_map[pa], Node) and nodes_map[pa] == ga
            nodes_map[pa] = ga
            return True
        if isinstance(pa, (list, tuple)) and isinstance(ga, (list, tuple)):
            return len(pa) == len(ga) and all(self.match_args(p, g, nodes_map) for p, g in zip(pa, ga))
        if isinstance(pa, Node) or isinstance(ga, Node):
            return False
        return type(pa) is type(ga) and pa == ga

    def match_node(self, pn: Node, gn: Node, nodes_map) -> bool:
        if pn in nodes_map:
            return nodes_map[pn] is gn
        if pn.op == "placeholder":
            nodes_map[pn] = gn
            return True
        if any(v is gn for v in nodes_map.values()) or pn.op != gn.op or pn.target != gn.target:
            return False
        if len(pn.args) != len(gn.args) or set(pn.kwargs) != set(gn.kwargs):
            return False
        nodes_map[pn] = gn
        saved = dict(nodes_map)
        ok = all(self.match_args(p, g, nodes_map) for p, g in zip(pn.args, gn.args)) and \
            all(self.match_args(pn.kwargs[k], gn.kwargs[k], nodes_map) for k in pn.kwargs)
        if not ok:
            nodes_map.clear()
            nodes_map.update(saved)
            del nodes_map[pn]
        return ok

    def matches(self, graph: Graph) -> list[dict[Node, Node]]:
        found, used = [], set()
        anchor = self.returning[-1]
        for gn in graph.nodes:
            nodes_map: dict[Node, Node] = {}
            if gn.op in ("placeholder", "output") or not self.match_node(anchor, gn, nodes_map):
                continue
            if not all(r in nodes_map or self.match_returning(r, nodes_map, graph) for r in self.returning):
                continue
            matched = {nodes_map[p] for p in self.inner}
            returning = {nodes_map[r] for r in self.returning}
            if any(u not in matched for p in self.inner if nodes_map[p] not in returning
                   for u in nodes_map[p].users):
                continue  # an inner node is used outside the match
            if matched & used:
                continue
            used |= matched
            found.append(nodes_map)
        return found

    def match_returning(self, r: Node, nodes_map, graph: Graph) -> bool:
        return any(self.match_node(r, gn, nodes_map) for gn in graph.nodes if gn.op != "output")


def replace_pattern(gm: GraphModule, pattern: Callable | Graph | GraphModule,
                    replacement: Callable | Graph | GraphModule) -> list[Match]:
    """Replace each match of ``pattern`` in ``gm.graph`` with ``replacement``; returns the matches.

    Example:
        >>> import borch_webgpu as torch
        >>> import borch_webgpu.fx as fx
        >>> def f(x, y):
        ...     return torch.relu(torch.add(x, y))
        >>> def pattern(a, b):
        ...     return torch.relu(torch.add(a, b))
        >>> def replacement(a, b):
        ...     return torch.sigmoid(torch.mul(a, b))
        >>> gm = fx.symbolic_trace(f)
        >>> len(fx.replace_pattern(gm, pattern, replacement))
        1
        >>> [n.name for n in gm.graph.nodes]
        ['x', 'y', 'mul', 'sigmoid', 'output']
    """
    graph = gm.graph
    pattern_graph = _graph_of(pattern)
    replacement_graph = _graph_of(replacement)
    matcher = _Matcher(pattern_graph)
    replacement_placeholders = [n for n in replacement_graph.nodes if n.op == "placeholder"]
    if len(matcher.placeholders) != len(replacement_placeholders):
        raise AssertionError(f"Placeholder count mismatch: {len(matcher.placeholders)} vs "
                             f"{len(replacement_placeholders)}")
    changed: dict[Node, Node] = {}
    result = []
    for nodes_map in matcher.matches(graph):
        for p in matcher.placeholders:  # an input that an earlier replacement rewrote
            if isinstance(nodes_map[p], Node) and nodes_map[p] in changed:
                nodes_map[p] = changed[nodes_map[p]]
        placeholder_nodes = [nodes_map[p] for p in matcher.placeholders]
        val_map = dict(zip(replacement_placeholders, placeholder_nodes))
        returning_nodes = [nodes_map[r] for r in matcher.returning]
        user_nodes = {u for n in returning_nodes for u in n.users}
        insert_point = next((n for n in graph.nodes if n in user_nodes), None)
        if insert_point is None:
            nxt = None
            for n in reversed(graph.nodes):
                if n in returning_nodes:
                    insert_point = nxt
                    break
                nxt = n
        with graph.inserting_before(insert_point):
            copied = graph.graph_copy(replacement_graph, val_map)
        copied = tuple(copied) if isinstance(copied, (tuple, list)) else (copied,)
        if len(copied) != len(returning_nodes):
            raise AssertionError(f"Returning nodes count mismatch: {len(returning_nodes)} vs {len(copied)}")
        for gn, new in zip(returning_nodes, copied):
            gn.replace_all_uses_with(new)
            changed[gn] = new
        for node in reversed(pattern_graph.nodes):
            if node.op not in ("placeholder", "output"):
                graph.erase_node(nodes_map[node])
        result.append(Match(anchor=matcher.returning[0], nodes_map=nodes_map))
    gm.recompile()
    return result
