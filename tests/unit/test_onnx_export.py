"""torch.onnx.export: the file passes onnx's checker and ONNX Runtime (CPU) computes what our forward
computes (within 1e-4), also at a batch size that was not traced (dynamic_axes)."""
from __future__ import annotations

import io
import warnings

import numpy as np
import onnx
import onnxruntime as ort
import pytest

import borch_webgpu as torch
from borch_webgpu import nn
from borch_webgpu.nn import functional as F
from borch_webgpu.onnx import _proto
from borch_webgpu.onnx.errors import UnsupportedOperatorError
from borch_webgpu.vision.models import resnet18_cifar

DYN = {"x": {0: "batch"}, "y": {0: "batch"}}


def mnist_cnn():
    """The CNN of tests/browser/scripts/mnist_train.py."""
    return nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(16 * 7 * 7, 10))


def export(model, *args, **kw) -> bytes:
    buf = io.BytesIO()
    kw.setdefault("input_names", ["x"] if len(args) == 1 else [f"x{i}" for i in range(len(args))])
    kw.setdefault("output_names", ["y"])
    torch.onnx.export(model, args, buf, **kw)
    data = buf.getvalue()
    onnx.checker.check_model(onnx.load_from_string(data), full_check=True)
    return data


def run(data: bytes, **feeds) -> list[np.ndarray]:
    s = ort.InferenceSession(data, providers=["CPUExecutionProvider"])
    return s.run(None, {k: v.detach().numpy() if isinstance(v, torch.Tensor) else v for k, v in feeds.items()})


def close(got, want):
    np.testing.assert_allclose(got, want.detach().numpy() if isinstance(want, torch.Tensor) else want, rtol=1e-4,
                               atol=1e-4)


@pytest.mark.parametrize("name", ["mnist_cnn", "resnet18_cifar"])
def test_models_run_in_onnx_runtime_at_traced_and_untraced_batch_sizes(name):
    torch.manual_seed(0)
    model, shape = (mnist_cnn(), (1, 28, 28)) if name == "mnist_cnn" else (resnet18_cifar(width=8), (3, 16, 16))
    model.eval()
    data = export(model, torch.randn(2, *shape), dynamic_axes=DYN)
    m = onnx.load_from_string(data)
    assert m.opset_import[0].version == 20 and m.ir_version == 9
    assert m.graph.input[0].type.tensor_type.shape.dim[0].dim_param == "batch"
    assert m.graph.output[0].type.tensor_type.shape.dim[0].dim_param == "batch"
    assert {i.name for i in m.graph.initializer} == set(model.state_dict()) - {
        k for k in model.state_dict() if k.endswith("num_batches_tracked")}
    for n in (2, 5):
        x = torch.randn(n, *shape)
        with torch.no_grad():
            want = model(x)
        close(run(data, x=x)[0], want)
    ops = {n.op_type for n in m.graph.node}
    assert ops == ({"Conv", "Relu", "MaxPool", "Flatten", "Gemm"} if name == "mnist_cnn" else
                   {"Conv", "BatchNormalization", "Relu", "Add", "GlobalAveragePool", "Flatten", "Gemm"})


class Fn(nn.Module):
    def __init__(self, fn, **params):
        super().__init__()
        self.fn = fn
        for k, v in params.items():
            setattr(self, k, v)
        self.eval()

    def forward(self, *xs):
        return self.fn(self, *xs)


W = torch.randn(6, 5)
CASES = {
    "arithmetic": (lambda m, x: (2 - x) * 3 + x / 4 - 1 / (x.abs() + 1) + x ** 2 + torch.add(x, x, alpha=2), (4, 6)),
    "in-place": (lambda m, x: x.mul(2).add_(1).relu_().sub_(x).div_(2), (4, 6)),
    "unary": (lambda m, x: x.exp() + x.abs().sqrt() + x.abs().add(1).log() + x.sigmoid() + x.tanh() - x.neg()
              + torch.erf(x) + x.abs().add(1).reciprocal(), (4, 6)),
    "activations": (lambda m, x: F.leaky_relu(x, 0.2) + F.elu(x, 0.5) + F.silu(x) + F.hardsigmoid(x) + F.hardswish(x)
                    + F.relu6(x * 4) + F.hardtanh(x, -0.5, 0.5) + x.clamp(-0.3, 0.2) + F.selu(x) + F.gelu(x)
                    + F.gelu(x, approximate="tanh"), (4, 6)),
    "softmax": (lambda m, x: F.softmax(x, dim=1) + F.log_softmax(x, -1) + x.softmax(0), (4, 6)),
    "matmul": (lambda m, x: x @ m.w + torch.matmul(x, m.w) + x.mm(m.w), (4, 6), {"w": nn.Parameter(W)}),
    "linear-3d": (lambda m, x: m.lin(x) + F.linear(x, m.lin.weight), (4, 3, 6), {"lin": nn.Linear(6, 5, bias=False)}),
    "linear-3d-bias": (lambda m, x: m.lin(x), (4, 3, 6), {"lin": nn.Linear(6, 5)}),
    "shapes": (lambda m, x: torch.cat([x.view(x.size(0), -1, 2).transpose(1, 2).reshape(-1, 6),
                                       x.permute(0, 2, 1).flatten(1).unsqueeze(1).squeeze(1).view(-1, 6)], 0), (4, 3, 4)),
    "stack-mean-sum": (lambda m, x: torch.stack([x.mean(1), x.sum(-1, keepdim=True).squeeze(-1)], 1) + x.mean()
                       + x.t().sum(0).unsqueeze(1), (4, 4)),
    "layer_norm": (lambda m, x: m.ln(x) + F.layer_norm(x, (6,)), (4, 3, 6), {"ln": nn.LayerNorm(6)}),
    "conv1d": (lambda m, x: F.avg_pool1d(F.max_pool1d(m.c(x), 2), 2, 1) + F.adaptive_avg_pool1d(m.c(x), 1),
               (2, 3, 12), {"c": nn.Conv1d(3, 4, 3, padding=1)}),
    "adaptive-divisible": (lambda m, x: F.adaptive_avg_pool2d(x, (2, 5)) + F.adaptive_max_pool2d(x, (2, 5)),
                           (2, 3, 8, 10)),
    "casts": (lambda m, x: (x * 10).long().float() + (x * 10).int().to(torch.float32)
              + x.detach().contiguous().clone(), (4, 6)),
}


def _case(name):
    fn, shape, *params = CASES[name]
    torch.manual_seed(1)
    return Fn(fn, **(params[0] if params else {})).eval(), shape


@pytest.mark.parametrize("name", list(CASES))
def test_each_mapped_op_matches_onnx_runtime(name):
    model, shape = _case(name)
    data = export(model, torch.randn(*shape), dynamic_axes=DYN)
    for n in (shape[0], shape[0] + 3):
        x = torch.randn(n, *shape[1:])
        close(run(data, x=x)[0], model(x))


def test_conv_padding_modes_and_pool_options_match_onnx_runtime():
    torch.manual_seed(2)
    same = Fn(lambda m, x: m.a(x) + m.c(x), a=nn.Conv2d(4, 6, 3, padding="same", dilation=2, groups=2),
              c=nn.Conv2d(4, 6, (4, 2), padding="same"))   # odd total padding: the extra row/column at the end
    strided = Fn(lambda m, x: m.b(x), b=nn.Conv2d(4, 6, 2, stride=2, padding="valid"))
    pools = Fn(lambda m, x: F.avg_pool2d(x, 3, 2, 1, count_include_pad=False) + F.max_pool2d(x, 3, 2, 1, ceil_mode=True)
               + F.avg_pool2d(x, 3, 2, 1, ceil_mode=True) + F.max_pool2d(x, 3, 2, 1, dilation=1))
    for model, shape in ((same, (2, 4, 9, 9)), (strided, (2, 4, 9, 9)), (pools, (2, 3, 11, 11))):
        model.eval()
        data = export(model, torch.randn(*shape), dynamic_axes=DYN)
        x = torch.randn(3, *shape[1:])
        close(run(data, x=x)[0], model(x))


def test_what_has_no_mapping_raises_unsupported_operator_error_naming_it():
    with pytest.raises(UnsupportedOperatorError) as e:
        export(Fn(lambda m, x: x[:, 0]).eval(), torch.randn(2, 3))
    # the message of torch.onnx.errors.UnsupportedOperatorError("aten::__getitem__", 20, None) in PyTorch 2.13
    assert str(e.value) == "Exporting the operator 'aten::__getitem__' to ONNX opset version 20 is not supported"


def test_ceil_mode_window_in_the_padding_is_refused():
    # PyTorch drops a last window that starts in the right padding; ONNX's formula keeps it
    with pytest.raises(UnsupportedOperatorError, match="max_pool2d"):
        export(Fn(lambda m, x: F.max_pool2d(x, 2, 2, 1, ceil_mode=True)), torch.randn(1, 1, 5, 5))


@pytest.mark.parametrize("opset", [17, 20])
def test_batch_norm_in_training_mode_uses_batch_statistics_and_warns_like_pytorch(opset):
    torch.manual_seed(3)
    model = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.BatchNorm2d(4, affine=False),
                          nn.Flatten(2), nn.BatchNorm1d(4))
    with pytest.warns(UserWarning, match="Exporting a model while it is in training mode"):
        data = export(model, torch.randn(4, 3, 6, 6), dynamic_axes=DYN, opset_version=opset)
    ops = [n.op_type for n in onnx.load_from_string(data).graph.node]
    assert "BatchNormalization" not in ops and ops.count("ReduceMean") == 6
    x = torch.randn(5, 3, 6, 6)
    close(run(data, x=x)[0], model(x))
    assert model.training


def test_dynamo_false_follows_training_mode_eval_and_restores_the_mode():
    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Dropout(0.5))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        data = export(model, torch.randn(2, 3), dynamo=False)
    ops = [n.op_type for n in onnx.load_from_string(data).graph.node]
    assert ops == ["Gemm", "BatchNormalization", "Identity"] and model.training
    model.eval()
    x = torch.randn(2, 3)
    close(run(data, x=x)[0], model(x))


def test_dropout_in_training_mode_is_onnx_dropout():
    with pytest.warns(UserWarning):
        data = export(nn.Sequential(nn.Dropout(0.5)), torch.ones(2, 8), dynamic_axes=DYN)
    node = onnx.load_from_string(data).graph.node[0]
    assert node.op_type == "Dropout"
    y = run(data, x=np.ones((64, 8), np.float32))[0]
    assert set(np.unique(y).tolist()) == {0.0, 2.0}


def test_params_as_inputs_initializers_as_inputs_and_no_folding():
    torch.manual_seed(4)
    model = Fn(lambda m, x: x @ (m.w * 2).t() + torch.ones(3), w=nn.Parameter(torch.randn(3, 5))).eval()
    x = torch.randn(2, 5)
    want = model(x)
    folded = onnx.load_from_string(export(model, x))
    assert [n.op_type for n in folded.graph.node] == ["MatMul", "Add"]   # (w * 2).t() and ones(3) were folded
    no_fold = export(model, x, do_constant_folding=False)
    assert [n.op_type for n in onnx.load_from_string(no_fold).graph.node] == ["Mul", "Transpose", "MatMul", "Add"]
    close(run(no_fold, x=x)[0], want)
    as_inputs = export(model, x, export_params=False)
    g = onnx.load_from_string(as_inputs).graph
    assert [i.name for i in g.input] == ["x", "w"] and not [i for i in g.initializer if i.name == "w"]
    close(run(as_inputs, x=x, w=model.w.detach())[0], want)
    kept = onnx.load_from_string(export(model, x, keep_initializers_as_inputs=True)).graph
    assert {i.name for i in kept.initializer} <= {i.name for i in kept.input}


def test_reshape_that_hard_codes_the_batch_is_refused_and_minus_one_works():
    ok = export(Fn(lambda m, x: x.view(-1, 3)), torch.randn(2, 6), dynamic_axes=DYN)
    close(run(ok, x=np.arange(30, dtype=np.float32).reshape(5, 6))[0], np.arange(30.0).reshape(10, 3))
    with pytest.raises(RuntimeError, match=r"dynamic axes \['batch'\].*Write -1"):
        export(Fn(lambda m, x: x.view(4, 3)), torch.randn(2, 6), dynamic_axes=DYN)


def test_untraced_code_and_writes_through_views_are_refused():
    from borch_webgpu.ops.unary import relu as private_relu   # bound by name: the tracer cannot see it
    with pytest.raises(RuntimeError, match="does not trace"):
        export(Fn(lambda m, x: private_relu(x) + 1), torch.randn(2, 3))

    def through_a_view(m, x):
        y = x.flatten()
        x.relu_()        # y sees the write in PyTorch; the graph could not
        return y + 1
    with pytest.raises(RuntimeError, match="in-place write"):
        export(Fn(through_a_view), torch.randn(2, 3))


class TwoInputs(nn.Module):
    def forward(self, x, z):
        return x + z, x, torch.relu(z)


def test_outputs_inputs_names_files_and_opsets(tmp_path):
    model = TwoInputs().eval()
    x, z = torch.randn(2, 3), torch.randn(2, 3)
    path = tmp_path / "m.onnx"
    torch.onnx.export(model, (x, {"z": z}), str(path), opset_version=17, dynamic_axes={"x": [0], "z": [0], "sum": [0]},
                      output_names=["sum"])
    m = onnx.load(str(path))
    onnx.checker.check_model(m, full_check=True)
    assert [i.name for i in m.graph.input] == ["x", "z"]   # the forward's argument names
    assert m.opset_import[0].version == 17 and m.ir_version == 8
    assert [o.name for o in m.graph.output] == ["sum", "output_1", "output_2"]
    assert [n.op_type for n in m.graph.node] == ["Add", "Relu", "Identity"]   # an output that is an input
    assert m.graph.input[0].type.tensor_type.shape.dim[0].dim_param == "x_dynamic_axes_1"
    assert m.graph.output[0].type.tensor_type.shape.dim[0].dim_param == "sum_dynamic_axes_1"
    got = run(path.read_bytes(), x=torch.randn(4, 3), z=torch.randn(4, 3)) and run(path.read_bytes(), x=x, z=z)
    for g, w in zip(got, model(x, z)):
        close(g, w)
    program = torch.onnx.export(nn.ReLU().eval(), torch.randn(2))
    program.save(tmp_path / "p.onnx")
    assert (tmp_path / "p.onnx").read_bytes() == bytes(program)
    with pytest.raises(ValueError, match="Unsupported ONNX opset version: 9"):
        torch.onnx.export(nn.ReLU(), torch.randn(2), io.BytesIO(), opset_version=9)
    with pytest.warns(UserWarning, match="Provided key nope for dynamic axes is not a valid input/output name"):
        torch.onnx.export(nn.ReLU().eval(), torch.randn(2), io.BytesIO(), dynamic_axes={"nope": [0]})


def test_gelu_before_opset_20_is_written_with_erf():
    data = export(nn.GELU().eval(), torch.randn(2, 3), opset_version=18)
    assert "Erf" in {n.op_type for n in onnx.load_from_string(data).graph.node}
    x = torch.randn(2, 3)
    close(run(data, x=x)[0], F.gelu(x))
    with pytest.raises(UnsupportedOperatorError, match="added in version 20"):
        export(nn.GELU("tanh").eval(), torch.randn(2, 3), opset_version=19)


def test_the_tracing_hook_restores_every_binding_even_after_an_error():
    before_t, before_f = dict(vars(torch.Tensor)), {n: getattr(F, n) for n in F.__all__}
    before_p = {n: getattr(torch, n) for n in dir(torch)}
    with pytest.raises(UnsupportedOperatorError):
        export(Fn(lambda m, x: torch.cumsum(x, 0)).eval(), torch.randn(2, 3))
    assert dict(vars(torch.Tensor)) == before_t
    assert {n: getattr(F, n) for n in F.__all__} == before_f
    assert {n: getattr(torch, n) for n in dir(torch)} == before_p


def test_protobuf_writer_encodes_what_onnx_reads():
    assert _proto.varint(300) == b"\xac\x02" and _proto.varint(-1) == b"\xff" * 9 + b"\x01"
    attrs = {"i": -3, "f": 0.25, "s": "same", "ints": [1, -2, 3], "floats": [0.5, 1.5]}
    raw = np.arange(6, dtype=np.float32).reshape(2, 3)
    node = _proto.node("Foo", ["a", ""], ["b"], "n0", attrs)
    t = _proto.tensor("w", "float32", raw.shape, raw.tobytes())
    g = _proto.graph("g", [node], [t], [_proto.value_info("a", "float32", ("N", 3))],
                     [_proto.value_info("b", "int64", (2, 3))])
    m = onnx.ModelProto.FromString(_proto.model(g, 20, 9, "p", "1"))
    n = m.graph.node[0]
    assert (n.op_type, list(n.input), list(n.output), n.name) == ("Foo", ["a", ""], ["b"], "n0")
    got = {a.name: onnx.helper.get_attribute_value(a) for a in n.attribute}
    assert got == {"i": -3, "f": 0.25, "s": b"same", "ints": [1, -2, 3], "floats": [0.5, 1.5]}
    np.testing.assert_array_equal(onnx.numpy_helper.to_array(m.graph.initializer[0]), raw)
    dims = m.graph.input[0].type.tensor_type.shape.dim
    assert (dims[0].dim_param, dims[1].dim_value) == ("N", 3)
    assert m.graph.output[0].type.tensor_type.elem_type == onnx.TensorProto.INT64
    assert (m.ir_version, m.opset_import[0].version, m.producer_name) == (9, 20, "p")


def test_embedding_takes_int64_indices_as_a_graph_input():
    torch.manual_seed(5)
    model = nn.Sequential(nn.Embedding(10, 4), nn.Flatten(), nn.Linear(12, 2)).eval()
    data = export(model, torch.tensor([[1, 2, 3], [4, 5, 9]]), dynamic_axes={"x": {0: "batch"}})
    g = onnx.load_from_string(data).graph
    assert [n.op_type for n in g.node] == ["Gather", "Flatten", "Gemm"]
    assert g.input[0].type.tensor_type.elem_type == onnx.TensorProto.INT64
    idx = np.array([[1, 2, 3], [4, 5, 9], [0, 0, 7]], np.int64)
    close(run(data, x=idx)[0], model(torch.tensor(idx)))
