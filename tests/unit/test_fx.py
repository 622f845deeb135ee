"""torch.fx on the cpu device against PyTorch 2.13's answers frozen in tests/golden/fx.json by
tests/golden/generate_fx.py: generated code, str(graph), print_readable, print_tabular, node lists,
ShapeProp, outputs of the GraphModule / Interpreter / root, the tutorials' transformations (relu ->
gelu by editing the graph and with a Transformer, conv-bn fusion, inserting nodes, dead code
elimination, graph_copy), TraceError / RuntimeError messages and concrete_args. Then the API pieces the
goldens do not spell out (Tracer subclasses, wrap, Node editing, patching restored)."""
from __future__ import annotations

import operator
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import fx_cases  # noqa: E402
import fx_examples  # noqa: E402
import replay_fx  # noqa: E402

import borch_webgpu as torch  # noqa: E402
import borch_webgpu.fx as fx  # noqa: E402
from borch_webgpu import nn  # noqa: E402

GOLD = replay_fx.load()


def test_fx_json_is_up_to_date_with_the_cases():
    stale = "fx_cases.py changed: run PYTHONPATH= /tmp/torchenv/bin/python tests/golden/generate_fx.py"
    assert list(GOLD["cases"]) == list(fx_cases.CASES), stale
    assert list(GOLD["transforms"]) == [f"{c}:{t}" for c, t in fx_cases.TRANSFORMS], stale
    assert set(GOLD["errors"]) == set(fx_cases.ERRORS) | set(fx_cases.RUN_ERRORS) | {"erase_used"}, stale
    assert list(GOLD["examples"]) == list(fx_examples.EXAMPLES), stale
    assert GOLD["torch"].startswith("2.13"), GOLD["torch"]


@pytest.mark.parametrize("name", list(GOLD["cases"]))
def test_trace_matches_pytorch(name):
    assert replay_fx.check_case(name, GOLD, "cpu") == []


@pytest.mark.parametrize("key", list(GOLD["transforms"]))
def test_transform_matches_pytorch(key):
    assert replay_fx.check_transform(key, GOLD, "cpu") == []


@pytest.mark.parametrize("name", list(GOLD["errors"]))
def test_error_matches_pytorch(name):
    assert replay_fx.check_error(name, GOLD) == []


def test_concrete_args_match_pytorch():
    assert replay_fx.check_concrete(GOLD, "cpu") == []


@pytest.mark.parametrize("name", list(GOLD["examples"]))
def test_pytorch_examples_fx_script_matches_pytorch(name):
    assert replay_fx.check_example(name, GOLD, "cpu") == []


def test_replace_pattern_matches_pytorch():
    assert replay_fx.check_rewrite(GOLD, "cpu") == []


def test_control_flow_raises_trace_error_type():
    with pytest.raises(fx.proxy.TraceError, match="cannot be used as inputs to control flow"):
        fx.symbolic_trace(fx_cases.control_flow(torch))


def test_trace_restores_every_patched_name():
    """The wrappers that record Proxy calls exist only while a Proxy is alive: afterwards torch.relu
    is its op record again (tests/unit/test_layers.py::test_every_record_is_bound)."""
    import gc

    from borch_webgpu.fx import _dispatch
    before = (torch.relu, torch.nn.functional.relu, torch.Tensor.add, nn.Module.__call__, nn.Module.__getattr__)
    with pytest.raises(fx.proxy.TraceError):
        fx.symbolic_trace(fx_cases.control_flow(torch))
    gm = fx.symbolic_trace(fx_cases.mlp(torch)[0])
    gc.collect()
    assert not _dispatch.installed()
    assert (torch.relu, torch.nn.functional.relu, torch.Tensor.add, nn.Module.__call__,
            nn.Module.__getattr__) == before
    assert [n.target for n in gm.graph.nodes if n.op == "call_function"] == [torch.flatten, torch.nn.functional.relu]
    p = fx.Proxy(gm.graph.placeholder("z"))
    assert _dispatch.installed() and torch.relu is not before[0]
    del p
    assert not _dispatch.installed() and torch.relu is before[0]


def test_custom_tracer_leaf_and_create_node():
    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(3, 3)

        def forward(self, x):
            return self.lin(x).relu()

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.block = Block()

        def forward(self, x):
            return self.block(x) + 1

    seen = []

    class LeafBlocks(fx.Tracer):
        def is_leaf_module(self, m, qualname):
            return isinstance(m, Block) or super().is_leaf_module(m, qualname)

        def create_node(self, kind, target, args, kwargs, name=None, type_expr=None):
            n = super().create_node(kind, target, args, kwargs, name, type_expr)
            n.meta["tag"] = kind
            seen.append(n.name)
            return n

    net = Net()
    graph = LeafBlocks().trace(net)
    assert [(n.op, n.target) for n in graph.nodes] == [("placeholder", "x"), ("call_module", "block"),
                                                        ("call_function", operator.add), ("output", "output")]
    assert seen == ["x", "block", "add", "output"] and graph.find_nodes(op="call_module")[0].meta["tag"] == "call_module"
    gm = fx.GraphModule(net, graph)
    x = torch.randn(2, 3)
    assert torch.equal(gm(x), net(x))


def my_clamp(x, lo):
    return x.clamp(min=lo)


fx.wrap("my_clamp")


def test_wrap_records_a_call_function():
    def f(x):
        return my_clamp(x, 0.5) * 2
    gm = fx.symbolic_trace(f)
    calls = [n for n in gm.graph.nodes if n.op == "call_function"]
    assert calls[0].target is my_clamp and calls[0].name == "my_clamp"
    x = torch.tensor([0.0, 1.0])
    assert gm(x).tolist() == [1.0, 2.0]


def test_node_editing_api():
    g = fx.Graph()
    x = g.placeholder("x")
    a = g.call_function(torch.relu, (x,))
    b = g.call_method("neg", (a,))
    out = g.output(b)
    assert a.next is b and b.prev is a and a.all_input_nodes == [x] and list(a.users) == [b]
    with g.inserting_before(b):
        c = g.call_function(operator.mul, (a, 3))
    b.replace_input_with(a, c)
    assert list(a.users) == [c] and b.args == (c,)
    out.prepend(c)  # moves c after b: the graph is no longer topologically ordered
    with pytest.raises(RuntimeError, match="was used before it has been defined"):
        g.lint()
    b.prepend(c)
    g.lint()
    gm = fx.GraphModule(nn.Module(), g)
    assert gm(torch.tensor([-1.0, 2.0])).tolist() == [-0.0, -6.0]
    copy = fx.Graph()
    env = {}
    for n in g.nodes:
        env[n] = copy.node_copy(n, lambda m: env[m])
    assert [n.name for n in copy.nodes] == ["x", "relu", "mul", "neg", "output"]


def test_graph_module_from_dict_and_state():
    net = fx_cases.mlp(torch)[0]
    gm = fx.symbolic_trace(net)
    assert [k for k, _ in gm.named_parameters()] == [k for k, _ in net.named_parameters()]
    assert gm.fc1.weight is net.fc1.weight
    assert list(gm.state_dict()) == list(net.state_dict())
    gm2 = fx.GraphModule({"fc1": net.fc1, "fc2": net.fc2}, gm.graph)
    x = torch.randn(2, 3, 4)
    assert torch.allclose(gm2(x), net(x))
    with pytest.raises(RuntimeError, match="referenced target fc2 but that target was not provided"):
        fx.GraphModule({"fc1": net.fc1}, gm.graph)


def test_functional_call_table_names_our_parameters():
    """Each nn.functional function whose recorded call form comes from torch's source
    (borch_webgpu/fx/_functional_calls.py) has parameters of the same names here, so the
    recorded args/kwargs are PyTorch's."""
    import inspect

    from borch_webgpu.fx._functional_calls import FUNCTIONAL_CALLS
    F = torch.nn.functional
    mismatched = {name: [p for p in pos + kw if p not in inspect.signature(getattr(F, name)).parameters]
                  for name, (pos, kw) in FUNCTIONAL_CALLS.items() if hasattr(F, name)}
    assert {k: v for k, v in mismatched.items() if v} == {}
    assert len(mismatched) >= 80


def test_graph_module_deepcopy_keeps_code_and_values():
    import copy
    net = fx_cases.cnn(torch)[0]
    gm = fx.symbolic_trace(net)
    gm2 = copy.deepcopy(gm)
    x = torch.randn(2, 1, 4, 4)
    assert gm2.code == gm.code and gm2.conv1.weight is not gm.conv1.weight
    assert torch.allclose(gm2(x), gm(x))
