"""nn.Module, nn.Parameter and the containers on the cpu device: registration, iteration, state dicts,
modes, device/dtype moves and hooks. (repr strings and error texts: test_nn_meta.py, against PyTorch.)"""
from __future__ import annotations

import copy
from collections import OrderedDict

import numpy as np
import pytest

import borch_webgpu as torch
from borch_webgpu import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 3)
        self.bn = nn.BatchNorm1d(3)
        self.fc2 = nn.Linear(3, 2)
        self.register_buffer("steps", torch.zeros(()))
        self.register_buffer("scratch", torch.ones(2), persistent=False)

    def forward(self, x):
        return self.fc2(self.bn(self.fc1(x)).relu())


# ---- Parameter ----------------------------------------------------------------------------------------------
def test_parameter_shares_memory_with_the_tensor_it_wraps():
    t = torch.zeros(3)
    p = nn.Parameter(t)
    assert p.requires_grad and p.is_leaf and isinstance(p, torch.Tensor)
    t.add_(1.0)
    assert p.tolist() == [1.0, 1.0, 1.0]
    assert not nn.Parameter(t, requires_grad=False).requires_grad
    assert nn.Parameter().shape == (0,)


def test_ops_on_parameters_return_plain_tensors_and_grads_reach_the_parameter():
    p = nn.Parameter(torch.tensor([1.0, 2.0]))
    y = p * 3
    assert type(y) is torch.Tensor and type(p.detach()) is torch.Tensor
    y.sum().backward()
    assert p.grad.tolist() == [3.0, 3.0]


def test_parameter_deepcopy_is_an_independent_parameter():
    p = nn.Parameter(torch.tensor([1.0]))
    q = copy.deepcopy(p)
    assert isinstance(q, nn.Parameter) and q.requires_grad
    with torch.no_grad():
        q.add_(1.0)
    assert p.item() == 1.0 and q.item() == 2.0


# ---- registration and iteration --------------------------------------------------------------------------------
def test_attributes_register_parameters_modules_and_buffers():
    net = Net()
    assert list(net._parameters) == [] and list(net._modules) == ["fc1", "bn", "fc2"]
    assert [n for n, _ in net.named_parameters()] == ["fc1.weight", "fc1.bias", "bn.weight", "bn.bias", "fc2.weight",
                                                       "fc2.bias"]
    assert [n for n, _ in net.named_buffers()] == ["steps", "scratch", "bn.running_mean", "bn.running_var",
                                                    "bn.num_batches_tracked"]
    assert [n for n, _ in net.named_parameters(prefix="model", recurse=True)][0] == "model.fc1.weight"
    assert list(net.named_parameters(recurse=False)) == []
    assert [n for n, _ in net.named_children()] == ["fc1", "bn", "fc2"]
    assert [n for n, _ in net.named_modules()] == ["", "fc1", "bn", "fc2"]
    assert len(list(net.modules())) == 4 and len(list(net.children())) == 3
    assert "fc1" in dir(net) and "steps" in dir(net)
    net.extra = nn.Parameter(torch.ones(1))
    assert "extra" in net._parameters and net.extra is net._parameters["extra"]


def test_reassigning_and_deleting_members():
    m = nn.Linear(2, 2)
    m.bias = None
    assert m.bias is None and [n for n, _ in m.named_parameters()] == ["weight"]
    m.bias = nn.Parameter(torch.zeros(2))
    del m.bias
    assert "bias" not in m._parameters
    m.sub = nn.ReLU()
    m.sub = None
    assert m._modules["sub"] is None
    m.register_buffer("b", torch.ones(1))
    m.b = torch.zeros(1)  # assigning a tensor to a buffer name keeps it a buffer
    assert m._buffers["b"].item() == 0.0
    m.plain = torch.ones(1)  # a plain tensor attribute is not registered
    assert "plain" not in m._buffers and "plain" in m.__dict__
    m.buf = nn.Buffer(torch.ones(2), persistent=False)
    assert "buf" in m._buffers and "buf" not in m.state_dict()
    with pytest.raises(AttributeError):
        m.nothing


def test_shared_parameters_and_modules_are_listed_once_unless_asked():
    lin = nn.Linear(2, 2)
    seq = nn.Sequential(lin, nn.ReLU(), lin)
    assert len(list(seq.parameters())) == 2
    assert len(list(seq.named_parameters(remove_duplicate=False))) == 4
    assert [n for n, _ in seq.named_modules()] == ["", "0", "1"]
    assert [n for n, _ in seq.named_modules(remove_duplicate=False)] == ["", "0", "1", "2"]


def test_get_submodule_parameter_buffer():
    net = nn.Sequential(OrderedDict(block=nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))))
    assert isinstance(net.get_submodule("block.1"), nn.BatchNorm1d)
    assert net.get_submodule("") is net
    assert net.get_parameter("block.0.bias") is net.block[0].bias
    assert net.get_buffer("block.1.running_var") is net.block[1].running_var


# ---- state dicts ----------------------------------------------------------------------------------------------
def test_state_dict_holds_detached_views_of_the_persistent_state():
    net = Net()
    sd = net.state_dict()
    assert isinstance(sd, OrderedDict)
    assert list(sd) == ["steps", "fc1.weight", "fc1.bias", "bn.weight", "bn.bias", "bn.running_mean",
                        "bn.running_var", "bn.num_batches_tracked", "fc2.weight", "fc2.bias"]
    assert not sd["fc1.weight"].requires_grad
    assert net.state_dict(keep_vars=True)["fc1.weight"] is net.fc1.weight
    assert list(net.state_dict(prefix="m."))[0] == "m.steps"
    assert sd._metadata["bn"] == {"version": 2} and sd._metadata[""] == {"version": 1}
    with torch.no_grad():
        net.fc1.weight.zero_()
    assert sd["fc1.weight"].abs().sum().item() == 0.0  # shares memory


def test_load_state_dict_round_trip_keeps_the_parameter_objects():
    a, b = Net(), Net()
    a.bn.train()(torch.randn(8, 3))
    w = b.fc1.weight
    result = b.load_state_dict(a.state_dict())
    assert result.missing_keys == [] and result.unexpected_keys == [] and repr(result) == \
        "<All keys matched successfully>"
    assert b.fc1.weight is w and w.requires_grad
    for k, v in a.state_dict().items():
        np.testing.assert_array_equal(b.state_dict()[k].numpy(), v.numpy())
    x = torch.randn(5, 4)
    a.eval(), b.eval()
    np.testing.assert_array_equal(a(x).detach().numpy(), b(x).detach().numpy())


def test_load_state_dict_non_strict_and_assign():
    m = nn.Linear(2, 2)
    r = m.load_state_dict({"weight": torch.ones(2, 2), "extra": torch.ones(1)}, strict=False)
    assert r.missing_keys == ["bias"] and r.unexpected_keys == ["extra"]
    assert m.weight.tolist() == [[1.0, 1.0], [1.0, 1.0]]
    new_w = torch.full((2, 2), 3.0)
    m.load_state_dict({"weight": new_w, "bias": torch.zeros(2)}, assign=True)
    assert isinstance(m.weight, nn.Parameter) and m.weight.requires_grad
    new_w[0, 0] = 7.0  # assign=True takes the given tensor's memory
    assert m.weight[0, 0].item() == 7.0


def test_batchnorm_loads_checkpoints_without_num_batches_tracked():
    bn = nn.BatchNorm1d(2)
    sd = {k: v for k, v in nn.BatchNorm1d(2).state_dict().items() if k != "num_batches_tracked"}
    assert bn.load_state_dict(sd).missing_keys == []


def test_one_element_checkpoint_tensor_loads_into_a_0d_buffer():
    m = nn.Module()
    m.register_buffer("t", torch.zeros(()))
    m.load_state_dict({"t": torch.tensor([5.0])})
    assert m.t.item() == 5.0


# ---- modes, gradients, moves -----------------------------------------------------------------------------------
def test_train_eval_propagate():
    net = Net().eval()
    assert not net.training and not net.bn.training
    net.train()
    assert all(m.training for m in net.modules())


def test_requires_grad_and_zero_grad():
    net = Net()
    net(torch.randn(4, 4)).sum().backward()
    assert all(p.grad is not None for p in net.parameters())
    net.zero_grad(set_to_none=False)
    assert all(p.grad.abs().sum().item() == 0.0 for p in net.parameters())
    net.zero_grad()
    assert all(p.grad is None for p in net.parameters())
    net.fc1.requires_grad_(False)
    assert not net.fc1.weight.requires_grad and net.fc2.weight.requires_grad


def test_apply_visits_children_first():
    seen = []
    Net().apply(lambda m: seen.append(type(m).__name__))
    assert seen == ["Linear", "BatchNorm1d", "Linear", "Net"]


def test_to_dtype_keeps_parameter_objects_and_casts_only_floats():
    net = Net()
    w = net.fc1.weight
    net(torch.randn(4, 4)).sum().backward()
    assert net.half() is net
    assert net.fc1.weight is w and w.dtype is torch.float16 and w.grad.dtype is torch.float16
    assert net.bn.num_batches_tracked.dtype is torch.int64
    net.to(torch.float32)
    assert w.dtype is torch.float32 and net.bn.running_mean.dtype is torch.float32
    assert net.to("cpu") is net and net.cpu() is net and net.float() is net
    net.to(torch.ones(1))
    with pytest.raises(TypeError):
        net.to(torch.int64)


# ---- hooks and calls ------------------------------------------------------------------------------------------------
def test_forward_hooks_change_inputs_and_outputs_and_can_be_removed():
    m = nn.Linear(2, 2)
    calls = []
    h1 = m.register_forward_pre_hook(lambda mod, args: (args[0] * 0,))
    h2 = m.register_forward_hook(lambda mod, args, out: calls.append(out.shape) or out + 1)
    y = m(torch.ones(3, 2))
    np.testing.assert_allclose(y.detach().numpy(), (m.bias.detach() + 1).expand(3, 2).numpy())
    assert calls == [(3, 2)]
    h1.remove()
    h2.remove()
    np.testing.assert_allclose(m(torch.ones(1, 2)).detach().numpy(), nn.functional.linear(
        torch.ones(1, 2), m.weight, m.bias).detach().numpy())
    with m.register_forward_hook(lambda *a: calls.append("ctx")):
        m(torch.ones(1, 2))
    m(torch.ones(1, 2))
    assert calls.count("ctx") == 1


def test_hooks_with_kwargs_prepend_and_always_call():
    class Add(nn.Module):
        def forward(self, x, *, y=0):
            if y == "boom":
                raise ValueError("boom")
            return x + y

    m = Add()
    order = []
    m.register_forward_pre_hook(lambda mod, args, kwargs: (args, {"y": 10}), with_kwargs=True)
    m.register_forward_pre_hook(lambda mod, args: order.append("first"), prepend=True)
    m.register_forward_hook(lambda mod, args, kwargs, out: out * 2, with_kwargs=True)
    assert m(torch.tensor(1.0), y=5).item() == 22.0 and order == ["first"]
    n = Add()
    seen = []
    n.register_forward_hook(lambda mod, args, out: seen.append(out), always_call=True)
    with pytest.raises(ValueError):
        n(torch.tensor(1.0), y="boom")
    assert seen == [None]


def test_custom_extra_repr_multiline():
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(1, 1)

        def extra_repr(self):
            return "a=1\nb=2"
    assert repr(M()) == "M(\n  a=1\n  b=2\n  (fc): Linear(in_features=1, out_features=1, bias=True)\n)"


# ---- containers -----------------------------------------------------------------------------------------------------
def test_sequential_list_operations():
    a, b, c = nn.Linear(2, 2), nn.ReLU(), nn.Tanh()
    s = nn.Sequential(a, b)
    assert s[0] is a and s[-1] is b and len(s) == 2 and list(s) == [a, b]
    assert isinstance(s[0:1], nn.Sequential) and s[0:1][0] is a
    s.append(c)
    assert list(s._modules) == ["0", "1", "2"]
    s.insert(0, nn.Identity())
    assert isinstance(s[0], nn.Identity) and s[1] is a
    assert s.pop(0).__class__ is nn.Identity and s[0] is a
    del s[0]
    assert list(s._modules) == ["0", "1"] and s[0] is b
    s[1] = a
    assert s[1] is a
    s.extend([nn.ReLU(), nn.ReLU()])
    assert len(s) == 4
    y = nn.Sequential(nn.Linear(3, 4), nn.ReLU())(torch.randn(2, 3))
    assert y.shape == (2, 4) and y.min().item() >= 0
    named = nn.Sequential(OrderedDict([("conv", nn.Linear(2, 2)), ("act", nn.ReLU())]))
    assert isinstance(named.conv, nn.Linear) and named[1] is named.act


def test_module_list_and_dict():
    ml = nn.ModuleList([nn.Linear(2, 2)])
    ml.append(nn.ReLU()).extend([nn.Tanh()])
    ml.insert(1, nn.Identity())
    assert [type(m).__name__ for m in ml] == ["Linear", "Identity", "ReLU", "Tanh"]
    ml += [nn.Sigmoid()]
    del ml[1]
    assert len(ml) == 4 and isinstance(ml[1], nn.ReLU) and isinstance(ml[1:], nn.ModuleList)
    assert len(list(ml.parameters())) == 2
    md = nn.ModuleDict({"a": nn.Linear(2, 2)})
    md["b"] = nn.ReLU()
    md.update([("c", nn.Tanh())])
    assert list(md) == ["a", "b", "c"] and "b" in md and len(md) == 3
    assert isinstance(md.pop("b"), nn.ReLU) and list(md.keys()) == ["a", "c"]
    assert [n for n, _ in md.named_parameters()] == ["a.weight", "a.bias"]


def test_parameter_list_and_dict_wrap_tensors():
    pl = nn.ParameterList([torch.ones(2)])
    pl.append(nn.Parameter(torch.zeros(3)))
    assert all(isinstance(p, nn.Parameter) for p in pl) and len(pl) == 2
    assert [n for n, _ in pl.named_parameters()] == ["0", "1"]
    pd = nn.ParameterDict({"b": torch.ones(1), "a": torch.zeros(1)})
    assert list(pd) == ["a", "b"]  # a plain dict is taken in sorted order, as PyTorch
    pd["c"] = torch.ones(2)
    assert isinstance(pd["c"], nn.Parameter) and pd.get("x") is None and "c" in pd
    assert pd.pop("c").shape == (2,) and len(pd) == 2
    with pytest.raises(RuntimeError):
        pl(1)


@pytest.mark.parametrize("module", ["nn.parameter", "nn.init", "nn.modules.module", "nn.modules.container",
                                    "nn.modules.linear", "nn.modules.conv", "nn.modules.pooling",
                                    "nn.modules.batchnorm", "nn.modules.instancenorm", "nn.modules.normalization",
                                    "nn.modules.dropout", "nn.modules.sparse", "nn.modules.flatten",
                                    "nn.modules.activation", "nn.modules.transformer", "nn.modules.loss",
                                    "nn.utils.clip_grad", "nn.utils.convert_parameters", "ops.nn_ops",
                                    "ops._nn_norm", "ops._nn_loss", "ops._nn_attention"])
def test_docstring_examples_run(module):
    import doctest
    import importlib

    mod = importlib.import_module("borch_webgpu." + module)
    torch.manual_seed(0)
    result = doctest.testmod(mod, extraglobs={"torch": torch}, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_deepcopy_of_a_module_is_independent():
    net = Net()
    net.cached = torch.ones(2)
    twin = copy.deepcopy(net)
    assert twin.fc1.weight is not net.fc1.weight and isinstance(twin.fc1.weight, nn.Parameter)
    assert twin.bn.running_mean is not net.bn.running_mean and twin.cached is not net.cached
    twin.train()(torch.randn(4, 4))
    assert net.bn.num_batches_tracked.item() == 0 and twin.bn.num_batches_tracked.item() == 1
    np.testing.assert_array_equal(twin.fc2.weight.detach().numpy(), net.fc2.weight.detach().numpy())
    shared = nn.Sequential(net.fc1, net.fc1)
    dup = copy.deepcopy(shared)
    assert dup[0] is dup[1] and dup[0] is not net.fc1
