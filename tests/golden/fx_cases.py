"""torch.fx cases shared by generate_fx.py (real PyTorch 2.13) and replay_fx.py (borch_webgpu).

Every builder takes the torch module (``torch`` or ``borch_webgpu``) and returns ``(root, input
shapes)``: the same source defines the model on both sides. TRANSFORMS edit a traced GraphModule
the way PyTorch's fx tutorials do; ERRORS are programs whose trace must fail.
"""
from __future__ import annotations

import operator
from typing import List, Optional, Tuple


def mlp(torch):
    nn, F = torch.nn, torch.nn.functional

    class MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(12, 8)
            self.fc2 = nn.Linear(8, 3)

        def forward(self, x):
            x = torch.flatten(x, 1)
            x = F.relu(self.fc1(x))
            return self.fc2(x)
    return MLP(), [(2, 3, 4)]


def cnn(torch):
    nn, F = torch.nn, torch.nn.functional

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
            self.bn1 = nn.BatchNorm2d(4)
            self.conv2 = nn.Conv2d(4, 4, 3, padding=1)
            self.fc = nn.Linear(4 * 2 * 2 * 2, 5)

        def forward(self, x):
            y = F.relu(self.bn1(self.conv1(x)))
            y = torch.relu(self.conv2(y) + y)
            y = F.max_pool2d(y, 2)
            batch = y.shape[0]
            flat = y.view(batch, -1)
            both = torch.cat([flat, flat * 0.5], dim=1)
            return self.fc(both).softmax(dim=-1)
    net = Net()
    net.eval()
    return net, [(2, 1, 4, 4)]


def function(torch):
    def scaled(x, y):
        s = x.sum(dim=1, keepdim=True)
        z = torch.sigmoid(x) * s - y.t()
        return torch.tanh(z) / 2, z.mean()
    return scaled, [(3, 3), (3, 3)]


def sequential(torch):
    nn = torch.nn
    model = nn.Sequential(nn.Linear(6, 6), nn.ReLU(), nn.Dropout(0.5), nn.Linear(6, 2), nn.Sigmoid())
    model.eval()
    return model, [(4, 6)]


def nested(torch):
    nn = torch.nn

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)
            self.scale = nn.Parameter(torch.ones(4) * 0.5)

        def forward(self, x):
            return self.lin(x) * self.scale + x

    class Outer(nn.Module):
        def __init__(self):
            super().__init__()
            self.block = Block()
            self.register_buffer("offset", torch.arange(4.0))
            self.head = nn.Linear(4, 2)

        def forward(self, x):
            h = self.block(x) - self.offset
            h = h.relu().neg()
            return self.head(h[:, 1:].pow(2).sum(-1, keepdim=True).expand(-1, 4))
    return Outer(), [(3, 4)]


def ops(torch):
    nn = torch.nn

    class Ops(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)

        def forward(self, x):
            a = x + 1
            b = a * 2 - x
            c = b @ self.lin.weight
            d = -c
            e = d / 3 + b ** 2
            return self.lin(e)
    return Ops(), [(2, 4)]


def constants(torch):
    nn = torch.nn

    class Consts(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("b", torch.ones(2))
            self.c = torch.full((2,), 0.25)

        def forward(self, x):
            y = x + self.b + self.c + torch.ones(2)
            return torch.ones(2) * y, y.dim(), y.dtype
    return Consts(), [(3, 2)]


def tensor_left(torch):
    t = torch.tensor([0.5, 2.0])

    def f(x):
        return t + x, t - x, t * x, t / x, t @ x, t > x, t ** x, t.add(x), t.expand_as(x), t == x, t // x
    return f, [(2,)]


def functional(torch):
    F = torch.nn.functional

    def f(x):
        y = F.dropout(F.leaky_relu(x, 0.2), 0.1, training=False)
        y = F.layer_norm(F.softmax(y, dim=1) + F.log_softmax(y, 1), (4,))
        y = F.normalize(F.elu(F.relu6(y)), dim=-1)
        return F.adaptive_avg_pool2d(y.view(1, 2, 2, 4), 1)
    return f, [(4, 4)]


def annotated(torch):
    class Annotated(torch.nn.Module):
        def forward(self, x: torch.Tensor, n: int = 2, m: Optional[torch.Tensor] = None,
                    rest: Optional[List[torch.Tensor]] = None) -> Tuple[torch.Tensor, torch.Tensor]:
            return x * n, x.sum(0)
    return Annotated(), [(2, 3)]


def annotated_objects(torch):
    """The same with annotations that are objects (this file's are strings: __future__ annotations)."""
    root, shapes = annotated(torch)
    type(root).forward.__annotations__ = {"x": torch.Tensor, "n": int, "m": Optional[torch.Tensor],
                                          "rest": Optional[List[torch.Tensor]],
                                          "return": Tuple[torch.Tensor, torch.Tensor]}
    return root, shapes


def functional_builtin(torch):
    """nn.functional functions that PyTorch implements in C: F.conv2d is torch.conv2d, F.linear and
    F.avg_pool2d live in torch._C._nn."""
    F = torch.nn.functional

    def f(x, w):
        y = F.logsigmoid(F.conv2d(x, w, padding=1))
        z = F.pixel_shuffle(F.avg_pool2d(y, 2), 2)
        return F.softplus(F.linear(z.flatten(1), torch.ones(3, 16) * 0.1))
    return f, [(1, 4, 4, 4), (4, 4, 3, 3)]


def varargs(torch):
    class VarArgs(torch.nn.Module):
        def forward(self, x, *rest, scale=2.0, **kw):
            return x * scale
    return VarArgs(), [(2,)]


CASES = {"mlp": mlp, "cnn": cnn, "function": function, "sequential": sequential, "nested": nested, "ops": ops,
         "constants": constants, "tensor_left": tensor_left,
         "functional": functional, "annotated": annotated,
         "annotated_objects": annotated_objects, "varargs": varargs,
         "functional_builtin": functional_builtin}
ON_WEBGPU = ["mlp", "cnn", "nested"]


# ---- transformations (the fx tutorials) --------------------------------------------------------------
def relu_to_gelu(torch, fx, gm):
    """Edit the graph in place: every relu call becomes gelu."""
    F = torch.nn.functional
    for node in gm.graph.nodes:
        if node.op == "call_function" and node.target in (torch.relu, F.relu):
            node.target = F.gelu
            node.kwargs = {}
        elif node.op == "call_method" and node.target == "relu":
            node.target = "sigmoid"
    gm.graph.lint()
    gm.recompile()
    return gm


def insert_after(torch, fx, gm):
    """Insert a node after each call_module and route its users through it."""
    for node in list(gm.graph.nodes):
        if node.op == "call_module":
            with gm.graph.inserting_after(node):
                new = gm.graph.call_function(torch.mul, (node, 2.0))
            node.replace_all_uses_with(new)
            new.update_arg(0, node)
    gm.recompile()
    return gm


def add_to_mul(torch, fx, gm):
    """The tutorial's 'replace add with mul', then dead code elimination of an unused node."""
    for node in gm.graph.nodes:
        if node.op == "call_function" and node.target == operator.add:
            node.target = operator.mul
    out = next(n for n in gm.graph.nodes if n.op == "output")
    with gm.graph.inserting_before(out):
        gm.graph.call_function(torch.neg, (out.args[0],))
    gm.graph.eliminate_dead_code()
    gm.recompile()
    return gm


def transformer_gelu(torch, fx, gm):
    """fx.Transformer: relu (function, method or module) becomes gelu."""
    F = torch.nn.functional

    class ToGelu(fx.Transformer):
        def call_function(self, target, args, kwargs):
            if target in (torch.relu, F.relu):
                return super().call_function(F.gelu, args[:1], {})
            return super().call_function(target, args, kwargs)

        def call_method(self, target, args, kwargs):
            if target == "relu":
                return super().call_function(F.gelu, args, {})
            return super().call_method(target, args, kwargs)
    return ToGelu(gm).transform()


def copy_graph(torch, fx, gm):
    """Graph() + graph_copy + output into a new GraphModule; then delete_all_unused_submodules."""
    g = fx.Graph()
    val_map = {}
    out = g.graph_copy(gm.graph, val_map)
    g.output(out)
    new = fx.GraphModule(gm, g)
    new.delete_all_unused_submodules()
    return new


def fuse_conv_bn(torch, fx, gm):
    """The fx conv-bn fusion tutorial: fold each eval BatchNorm2d into the Conv2d before it."""
    import copy
    fuse_conv_bn_eval = torch.nn.utils.fusion.fuse_conv_bn_eval
    modules = dict(gm.named_modules())
    for node in list(gm.graph.nodes):
        if node.op == "call_module" and isinstance(modules[node.target], torch.nn.BatchNorm2d):
            prev = node.args[0]
            if prev.op == "call_module" and isinstance(modules[prev.target], torch.nn.Conv2d):
                if len(prev.users) > 1:
                    continue
                conv, bn = modules[prev.target], modules[node.target]
                fused = fuse_conv_bn_eval(copy.deepcopy(conv), bn)
                parent, _, name = prev.target.rpartition(".")
                setattr(gm.get_submodule(parent) if parent else gm, name, fused)
                node.replace_all_uses_with(prev)
                gm.graph.erase_node(node)
    gm.graph.lint()
    gm.delete_all_unused_submodules()
    gm.recompile()
    return gm


def retrace(torch, fx, gm):
    """A GraphModule traced again gives the same graph."""
    return fx.symbolic_trace(gm)


TRANSFORMS = [("cnn", "retrace"), ("mlp", "relu_to_gelu"), ("cnn", "relu_to_gelu"), ("cnn", "fuse_conv_bn"), ("mlp", "insert_after"),
              ("ops", "add_to_mul"), ("nested", "transformer_gelu"), ("cnn", "transformer_gelu"),
              ("nested", "copy_graph")]
TRANSFORM_FNS = {"retrace": retrace, "relu_to_gelu": relu_to_gelu, "insert_after": insert_after, "add_to_mul": add_to_mul,
                 "transformer_gelu": transformer_gelu, "copy_graph": copy_graph, "fuse_conv_bn": fuse_conv_bn}


# ---- programs that cannot be traced -----------------------------------------------------------------
def control_flow(torch):
    def f(x):
        if x.sum() > 0:
            return x
        return -x
    return f


def iterate(torch):
    def f(x):
        return [v for v in x]
    return f


def length(torch):
    def f(x):
        return x + len(x)
    return f


def concrete_flag(torch):
    def f(x, flag=True):
        if flag:
            return x + 1
        return x - 1
    return f


def refuse_negative(x):
    if (x < 0).any():
        raise ValueError("refuse_negative: got a negative value")
    return x


def interpreter_error(torch, fx):
    """An exception inside fx.Interpreter.run carries the node being executed."""
    g = fx.Graph()
    x = g.placeholder("x")
    y = g.call_function(refuse_negative, (x,))
    g.output(y)
    fx.Interpreter(fx.GraphModule(torch.nn.Module(), g)).run(torch.tensor([-1.0]))


ERRORS = {"control_flow": control_flow, "iterate": iterate, "length": length}
RUN_ERRORS = {"interpreter_error": interpreter_error}


# ---- subgraph_rewriter.replace_pattern ---------------------------------------------------------------
def rewrite(torch):
    def f(x, y):
        a = torch.relu(torch.add(x, y))
        b = torch.relu(torch.add(a, 2))
        return torch.relu(torch.add(b, x)) + a

    def pattern(a, b):
        return torch.relu(torch.add(a, b))

    def replacement(a, b):
        return torch.sigmoid(torch.mul(a, b))
    return f, pattern, replacement, [(3, 4), (3, 4)]

