"""pytorch/examples' fx scripts (fx/*.py), reduced to what they print, as functions of the torch
module: each returns a list of strings (generated code, printed graphs, tables) and tensors (what the
rewritten module computes). Shared by generate_fx.py (real PyTorch 2.13) and replay_fx.py."""
from __future__ import annotations

import contextlib
import io
import operator
import sys


def _printed(fn) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        fn()
    return buf.getvalue()


def custom_tracer(torch, fx):
    class M1(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.relu = torch.nn.ReLU()

        def forward(self, x):
            return self.relu(x)

    class LowerReluTracer(fx.Tracer):
        def is_leaf_module(self, m, qualname):
            if isinstance(m, torch.nn.ReLU):
                return False
            return super().is_leaf_module(m, qualname)

    class TaggingTracer(fx.Tracer):
        def create_node(self, kind, target, args, kwargs, name=None, type_expr=None):
            n = super().create_node(kind, target, args, kwargs, name)
            n.tag = "foo"
            return n
    default = fx.symbolic_trace(M1())
    lowered = LowerReluTracer().trace(M1())
    tagged = TaggingTracer().trace(M1())
    return [_printed(default.graph.print_tabular), str(lowered), str(all(n.tag == "foo" for n in tagged.nodes))]


def inline_function(torch, fx):
    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.relu = torch.nn.ReLU()

        def forward(self, x):
            return self.relu(x) + 1.0
    m = fx.symbolic_trace(M())
    for node in m.graph.nodes:
        if (node.op, node.target) == ("call_module", "relu"):
            with m.graph.inserting_before(node):
                proxy_args = fx.node.map_arg(node.args, fx.Proxy)
                proxy_output = m.relu(*proxy_args)
                node.replace_all_uses_with(proxy_output.node)
                m.graph.erase_node(node)
    m.recompile()
    return [m.code, m(torch.tensor([-1.0, 2.0]))]


def invert(torch, fx):
    # the script's pairs are (sin, arcsin), (cos, arccos), (tan, arctan), (exp, log); here arctan and
    # atan are one function, named atan in a graph, so the chain is exp(neg(x)) instead of exp(tan(x))
    mapping = {}
    for a, b in [(torch.neg, torch.neg), (torch.exp, torch.log)]:
        mapping[a], mapping[b] = b, a

    def f(x):
        return torch.exp(torch.neg(x))
    traced = fx.symbolic_trace(f)
    new_graph, env = fx.Graph(), {}
    for node in reversed(traced.graph.nodes):
        if node.op == "call_function":
            env[node.args[0].name] = new_graph.call_function(mapping[node.target], (env[node.name],))
        elif node.op == "output":
            env[node.args[0].name] = new_graph.placeholder(node.name)
        elif node.op == "placeholder":
            new_graph.output(env[node.name])
    new_graph.lint()
    res = fx.GraphModule(traced, new_graph)
    return [res.code, f(res(torch.arange(5) + 1.0))]


def sigmoid_lowp(x):
    x = x.float()
    x = x.sigmoid()
    return x.half()


def add_lowp(a, b):
    a, b = a.float(), b.float()
    c = a + b
    return c.half()


def _fx():
    """The fx of the side running: borch_webgpu's in the replay, PyTorch's in the generator."""
    if "borch_webgpu" in sys.modules or "torch" not in sys.modules:
        import borch_webgpu
        return borch_webgpu.fx
    return sys.modules["torch"].fx


_fx().wrap("sigmoid_lowp")  # module scope, as fx.wrap requires
_fx().wrap(add_lowp)


def primitive_library(torch, fx):
    class Foo(torch.nn.Module):
        def forward(self, x, y):
            x = sigmoid_lowp(x)
            y = sigmoid_lowp(y)
            return add_lowp(x, y)
    traced = fx.symbolic_trace(Foo())
    out = [traced.code]
    for node in list(traced.graph.nodes):
        if node.op == "call_function" and node.target is sigmoid_lowp:
            with node.graph.inserting_before(node):
                output_proxy = node.target(*fx.node.map_arg(node.args, fx.Proxy))
                node.replace_all_uses_with(output_proxy.node)
                node.graph.erase_node(node)
    traced.recompile()
    out.append(traced.code)

    class InliningTracer(fx.Tracer):
        def create_node(self, kind, target, args, kwargs, name=None, type_expr=None):
            if kind == "call_function" and target is add_lowp:
                return target(*fx.node.map_arg(args, fx.Proxy)).node
            return super().create_node(kind, target, args, kwargs, name, type_expr)
    f = Foo()
    module = fx.GraphModule(f, InliningTracer().trace(f))
    x, y = torch.tensor([0.0, 1.0]), torch.tensor([2.0, -1.0])
    return out + [module.code, traced(x, y).float(), module(x, y).float()]


def proxy_graph(torch, fx):
    graph = fx.Graph()
    tracer = fx.proxy.GraphAppendingTracer(graph)
    y = fx.Proxy(graph.placeholder("x"), tracer)
    z = fx.Proxy(graph.placeholder("y"), tracer)
    c = torch.neg(torch.tanh(torch.cat([y, z])))
    graph.output(c.node)
    mod = fx.GraphModule(torch.nn.Module(), graph)
    return [mod.code, mod(torch.tensor([0.5]), torch.tensor([1.0]))]


def replace_op(torch, fx):
    class M(torch.nn.Module):
        def forward(self, x, y):
            return x + y, torch.add(x, y), x.add(y)
    traced = fx.symbolic_trace(M())
    patterns = {operator.add, torch.add, "add"}
    for n in traced.graph.nodes:
        if any(n.target == pattern for pattern in patterns):
            with traced.graph.inserting_after(n):
                new_node = traced.graph.call_function(torch.bitwise_and, n.args, n.kwargs)
                n.replace_all_uses_with(new_node)
            traced.graph.erase_node(n)
    traced.recompile()
    return [traced.code, *traced(torch.tensor([3, 5]), torch.tensor([1, 4]))]


def subgraph_rewriter(torch, fx):
    class M(torch.nn.Module):
        def forward(self, x, w1, w2):
            val1 = torch.neg(w1)
            m1 = torch.cat([val1, w2]).sum()
            val2 = torch.neg(w1)
            m2 = torch.cat([val2, w2]).sum()
            return x + torch.max(m1) + torch.max(m2)

    def pattern(a1, a2):
        return torch.cat([torch.neg(a1), a2]).sum()

    def replacement(w1, w2):
        return torch.stack([w1, w2])
    traced = fx.symbolic_trace(M())
    matches = fx.replace_pattern(traced, pattern, replacement)
    return [traced.code, str(len(matches))]


def wrap_output(torch, fx):
    class M(torch.nn.Module):
        def forward(self, x, y):
            return torch.cat([x, y])
    traced = fx.symbolic_trace(M())
    output_node = next(n for n in reversed(traced.graph.nodes) if n.op == "output")
    wrap_node = output_node.all_input_nodes[0]
    act = fx.symbolic_trace(torch.nn.LeakyReLU())
    with traced.graph.inserting_after(wrap_node):  # the script inserts before it, which breaks the order
        output_node.args = (act(fx.Proxy(wrap_node)).node,)
    traced.recompile()
    return [traced.code, str(traced.graph), traced(torch.tensor([-2.0]), torch.tensor([3.0]))]


EXAMPLES = {"custom_tracer": custom_tracer, "inline_function": inline_function, "invert": invert,
            "primitive_library": primitive_library, "proxy_graph": proxy_graph, "replace_op": replace_op,
            "subgraph_rewriter": subgraph_rewriter, "wrap_output": wrap_output}
