"""The nn layers on the cpu device: shapes, modes, running statistics, initialisation bounds, masks and
gradients that the functional goldens (cases_nn.py) do not see; nn.init and nn.utils."""
from __future__ import annotations

import math

import numpy as np
import pytest

import borch_webgpu as torch
import borch_webgpu.nn.functional as F
from borch_webgpu import nn


@pytest.fixture(autouse=True)
def _seed():
    torch.manual_seed(0)


def close(a, b, tol=1e-5):
    np.testing.assert_allclose(a.detach().numpy() if hasattr(a, "detach") else a,
                               b.detach().numpy() if hasattr(b, "detach") else b, rtol=tol, atol=tol)


# ---- default initialisation ----------------------------------------------------------------------------------
@pytest.mark.parametrize("make,fan_in", [(lambda: nn.Linear(50, 40), 50), (lambda: nn.Conv2d(6, 8, 3), 54),
                                         (lambda: nn.Conv1d(4, 8, 5, groups=2), 10),
                                         (lambda: nn.ConvTranspose2d(4, 6, 3), 54)])
def test_weight_and_bias_are_uniform_within_one_over_sqrt_fan_in(make, fan_in):
    m = make()
    bound = 1 / math.sqrt(fan_in)
    for p in (m.weight, m.bias):
        v = p.detach().numpy()
        assert np.abs(v).max() <= bound + 1e-7 and np.abs(v).max() > 0.5 * bound and p.requires_grad


def test_norm_and_embedding_initialisation():
    bn = nn.BatchNorm2d(3)
    assert bn.weight.tolist() == [1.0] * 3 and bn.bias.tolist() == [0.0] * 3
    assert bn.running_mean.tolist() == [0.0] * 3 and bn.running_var.tolist() == [1.0] * 3
    assert bn.num_batches_tracked.item() == 0 and bn.num_batches_tracked.dtype is torch.int64
    emb = nn.Embedding(1000, 16, padding_idx=3)
    w = emb.weight.detach().numpy()
    assert abs(w.std() - 1.0) < 0.05 and abs(w.mean()) < 0.05 and (w[3] == 0).all()
    ln = nn.LayerNorm((2, 3))
    assert ln.weight.shape == (2, 3) and ln.bias.sum().item() == 0.0


def test_factory_kwargs():
    m = nn.Linear(3, 2, dtype=torch.float16, device="cpu")
    assert m.weight.dtype is torch.float16 and m.weight.device.type == "cpu"


# ---- layers ----------------------------------------------------------------------------------------------------
def test_linear_and_bilinear_forward_and_backward():
    m = nn.Linear(3, 2)
    x = torch.randn(4, 5, 3)
    close(m(x), x @ m.weight.T + m.bias)
    m(x).sum().backward()
    close(m.bias.grad, torch.full((2,), 20.0))
    b = nn.Bilinear(3, 4, 2)
    x1, x2 = torch.randn(5, 3), torch.randn(5, 4)
    ref = torch.einsum("ni,kij,nj->nk", x1, b.weight, x2) + b.bias
    close(b(x1, x2), ref)
    assert nn.Identity(3, foo=1)(x1) is x1


def test_batchnorm_running_statistics_and_modes():
    bn = nn.BatchNorm1d(2, momentum=0.5)
    x = torch.tensor([[1.0, 10.0], [3.0, 30.0], [5.0, 50.0]])
    y = bn(x)
    close(y.mean(0), torch.zeros(2), 1e-6)
    close(bn.running_mean, torch.tensor([1.5, 15.0]))
    close(bn.running_var, torch.tensor([0.5 + 0.5 * 4.0, 0.5 + 0.5 * 400.0]))  # unbiased variance
    assert bn.num_batches_tracked.item() == 1
    bn.eval()
    close(bn(x), (x - bn.running_mean) / (bn.running_var + bn.eps).sqrt())
    assert bn.num_batches_tracked.item() == 1


def test_batchnorm_cumulative_average_and_no_running_stats():
    bn = nn.BatchNorm1d(1, momentum=None)
    for v in (2.0, 4.0, 9.0):
        bn(torch.tensor([[v - 1.0], [v + 1.0]]))
    close(bn.running_mean, torch.tensor([5.0]))  # the plain average of the batch means
    free = nn.BatchNorm2d(2, track_running_stats=False).eval()
    x = torch.randn(4, 2, 3, 3)
    close(free(x).mean((0, 2, 3)), torch.zeros(2), 1e-5)  # eval still uses the batch's statistics
    assert free.running_mean is None and "running_mean" not in free.state_dict()


def test_layer_group_instance_norm():
    x = torch.randn(4, 6, 5)
    close(nn.LayerNorm(5)(x).mean(-1), torch.zeros(4, 6), 1e-5)
    g = nn.GroupNorm(3, 6)(x).reshape(4, 3, 10)
    close(g.mean(-1), torch.zeros(4, 3), 1e-5)
    close(g.var(-1, unbiased=False), torch.ones(4, 3), 1e-3)
    inorm = nn.InstanceNorm1d(6, track_running_stats=True)
    y = inorm(x)
    close(y.mean(-1), torch.zeros(4, 6), 1e-5)
    close(inorm.running_mean, 0.1 * x.mean(-1).mean(0), 1e-5)
    assert inorm(x[0]).shape == (6, 5)  # unbatched input


def test_dropout_modes_and_statistics():
    d = nn.Dropout(0.25)
    x = torch.ones(20000)
    y = d(x)
    vals = set(np.unique(y.numpy()).tolist())
    assert vals <= {0.0, float(np.float32(1.0) / np.float32(0.75))}
    assert abs((y == 0).float().mean().item() - 0.25) < 0.02
    assert d.eval()(x) is x
    d2 = nn.Dropout2d(0.5)(torch.ones(8, 16, 3, 3))
    per_channel = d2.reshape(8, 16, 9)
    assert ((per_channel.max(-1).values == per_channel.min(-1).values).all()).item()  # whole channels
    z = torch.ones(4, requires_grad=True)
    nn.Dropout(0.5)(z * 1).sum().backward()
    assert set(z.grad.tolist()) <= {0.0, 2.0}


def test_embedding_padding_idx_gets_no_gradient():
    emb = nn.Embedding(5, 2, padding_idx=1)
    idx = torch.tensor([[1, 2, 1], [4, 2, 0]])
    out = emb(idx)
    assert out.shape == (2, 3, 2) and out[0, 0].tolist() == [0.0, 0.0]
    out.sum().backward()
    assert emb.weight.grad[:, 0].tolist() == [1.0, 0.0, 2.0, 0.0, 1.0]
    frozen = nn.Embedding.from_pretrained(torch.eye(3))
    assert not frozen.weight.requires_grad and frozen(torch.tensor([2])).tolist() == [[0.0, 0.0, 1.0]]


def test_conv_padding_modes_are_f_pad_then_conv():
    x = torch.randn(2, 3, 6, 7)
    for mode in ("reflect", "replicate", "circular"):
        m = nn.Conv2d(3, 4, 3, padding=(1, 2), padding_mode=mode)
        ref = F.conv2d(F.pad(x, (2, 2, 1, 1), mode=mode), m.weight, m.bias)
        close(m(x), ref)
    same = nn.Conv2d(3, 4, (3, 4), padding="same", dilation=2)
    assert same(x).shape == (2, 4, 6, 7)
    dw = nn.Conv2d(3, 3, 3, groups=3, padding=1)
    assert dw.weight.shape == (3, 1, 3, 3) and dw(x).shape == (2, 3, 6, 7)
    assert nn.Conv1d(3, 5, 3, padding="same", padding_mode="reflect")(torch.randn(2, 3, 9)).shape == (2, 5, 9)
    up = nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1, output_padding=1)
    assert up(x).shape == (2, 2, 12, 14) and up(x, output_size=[11, 13]).shape == (2, 2, 11, 13)


def test_flatten_unflatten_pixel_modules():
    x = torch.randn(2, 3, 4, 5)
    assert nn.Flatten()(x).shape == (2, 60) and nn.Flatten(0, 1)(x).shape == (6, 4, 5)
    assert nn.Unflatten(1, (3, 1))(torch.ones(2, 3)).shape == (2, 3, 1)


@pytest.mark.parametrize("cls,fn", [(nn.ReLU, F.relu), (nn.ReLU6, F.relu6), (nn.SiLU, F.silu), (nn.Mish, F.mish),
                                    (nn.SELU, F.selu), (nn.Hardswish, F.hardswish), (nn.Hardsigmoid, F.hardsigmoid),
                                    (nn.GELU, F.gelu), (nn.Sigmoid, torch.sigmoid), (nn.Tanh, torch.tanh),
                                    (nn.LeakyReLU, F.leaky_relu), (nn.ELU, F.elu), (nn.Hardtanh, F.hardtanh),
                                    (nn.Softplus, F.softplus)])
def test_activation_modules_match_functional(cls, fn):
    x = torch.randn(3, 4) * 4
    close(cls()(x), fn(x))
    if "inplace" in cls.__init__.__code__.co_varnames:
        y = x.clone()
        out = cls(inplace=True)(y)
        close(y, fn(x))
        assert out._storage is y._storage


def test_softmax_modules():
    x = torch.randn(2, 5)
    close(nn.Softmax(dim=1)(x).sum(1), torch.ones(2))
    close(nn.LogSoftmax(dim=-1)(x).exp(), nn.Softmax(-1)(x))


def test_multihead_attention_shapes_masks_and_names():
    mha = nn.MultiheadAttention(8, 2)
    q, kv = torch.randn(3, 2, 8), torch.randn(5, 2, 8)
    out, w = mha(q, kv, kv)
    assert out.shape == (3, 2, 8) and w.shape == (2, 3, 5)
    close(w.sum(-1), torch.ones(2, 3))
    _, w_heads = mha(q, kv, kv, average_attn_weights=False)
    assert w_heads.shape == (2, 2, 3, 5)
    pad = torch.tensor([[False, False, True, True, False]] * 2)
    _, w = mha(q, kv, kv, key_padding_mask=pad)
    assert w[:, :, 2:4].abs().max().item() == 0.0
    out2, none = mha(q, kv, kv, key_padding_mask=pad, need_weights=False)
    assert none is None
    close(out2, mha(q, kv, kv, key_padding_mask=pad)[0])
    causal = torch.triu(torch.ones(3, 3, dtype=torch.bool), 1)
    _, w = mha(q, q, q, attn_mask=causal)
    assert w[:, 0, 1:].abs().max().item() == 0.0
    bf = nn.MultiheadAttention(8, 2, batch_first=True)
    bf.load_state_dict(mha.state_dict())
    close(bf(q.transpose(0, 1), kv.transpose(0, 1), kv.transpose(0, 1))[0], mha(q, kv, kv)[0].transpose(0, 1))
    assert mha(q[:, 0], kv[:, 0], kv[:, 0])[0].shape == (3, 8)  # unbatched
    kd = nn.MultiheadAttention(8, 2, kdim=4, vdim=6, add_bias_kv=True, add_zero_attn=True)
    out, w = kd(q, torch.randn(5, 2, 4), torch.randn(5, 2, 6))
    assert out.shape == (3, 2, 8) and w.shape == (2, 3, 7)
    out.sum().backward()
    assert kd.k_proj_weight.grad is not None and kd.bias_k.grad is not None


def test_transformer_encoder_layer_and_encoder():
    layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True)
    x = torch.randn(2, 5, 8)
    y = layer(x)
    assert y.shape == (2, 5, 8)
    close(y.mean(-1), torch.zeros(2, 5), 1e-5)  # post-norm: the output is LayerNorm'd
    pre = nn.TransformerEncoderLayer(8, 2, 16, 0.0, activation="gelu", norm_first=True)
    y = pre(x.transpose(0, 1), src_key_padding_mask=torch.tensor([[False] * 4 + [True]] * 2))
    y.sum().backward()
    assert pre.linear1.weight.grad is not None and pre.activation is F.gelu
    enc = nn.TransformerEncoder(layer, 2)
    assert enc.layers[0].linear1.weight is not enc.layers[1].linear1.weight
    assert enc(x).shape == (2, 5, 8)


def test_loss_modules_match_functional_and_keep_weights_as_buffers():
    x, t = torch.randn(4, 3), torch.tensor([0, 2, 1, 2])
    w = torch.tensor([1.0, 2.0, 0.5])
    ce = nn.CrossEntropyLoss(weight=w, label_smoothing=0.1)
    close(ce(x, t), F.cross_entropy(x, t, weight=w, label_smoothing=0.1))
    assert list(ce.state_dict()) == ["weight"]
    close(nn.NLLLoss(reduction="sum")(x.log_softmax(1), t), F.nll_loss(x.log_softmax(1), t, reduction="sum"))
    p, y = torch.rand(4, 3), torch.rand(4, 3)
    close(nn.BCELoss()(p, y), F.binary_cross_entropy(p, y))
    close(nn.BCEWithLogitsLoss(pos_weight=torch.ones(3) * 2)(x, y),
          F.binary_cross_entropy_with_logits(x, y, pos_weight=torch.ones(3) * 2))
    close(nn.KLDivLoss(reduction="batchmean")(x.log_softmax(1), p), F.kl_div(x.log_softmax(1), p,
                                                                           reduction="batchmean"))
    with pytest.warns(UserWarning):
        assert nn.MSELoss(size_average=False).reduction == "sum"
    for cls in (nn.MSELoss, nn.L1Loss, nn.SmoothL1Loss, nn.HuberLoss):
        assert cls(reduction="none")(x, y).shape == (4, 3)


# ---- nn.init ----------------------------------------------------------------------------------------------------
def test_calculate_gain():
    init = nn.init
    assert init.calculate_gain("linear") == 1 and init.calculate_gain("conv2d") == 1
    assert init.calculate_gain("tanh") == 5.0 / 3 and init.calculate_gain("relu") == math.sqrt(2.0)
    assert init.calculate_gain("leaky_relu") == math.sqrt(2.0 / (1 + 0.01 ** 2))
    assert init.calculate_gain("selu") == 0.75


def test_init_functions_fill_in_place_without_recording():
    init = nn.init
    p = nn.Parameter(torch.empty(64, 32))
    for fn, check in ((init.kaiming_uniform_, lambda v: np.abs(v).max() <= math.sqrt(6 / 32)),
                      (init.xavier_uniform_, lambda v: np.abs(v).max() <= math.sqrt(6 / 96)),
                      (init.kaiming_normal_, lambda v: abs(v.std() - math.sqrt(2 / 32)) < 0.02),
                      (init.xavier_normal_, lambda v: abs(v.std() - math.sqrt(2 / 96)) < 0.01),
                      (lambda t: init.normal_(t, 1.0, 0.1), lambda v: abs(v.mean() - 1.0) < 0.01),
                      (lambda t: init.uniform_(t, 2, 3), lambda v: v.min() >= 2 and v.max() < 3),
                      (lambda t: init.trunc_normal_(t, std=1.0, a=-0.5, b=0.5), lambda v: np.abs(v).max() <= 0.5),
                      (lambda t: init.constant_(t, 0.3), lambda v: np.allclose(v, 0.3)),
                      (init.zeros_, lambda v: (v == 0).all()), (init.ones_, lambda v: (v == 1).all())):
        assert fn(p) is p and p.grad_fn is None and p.requires_grad
        assert check(p.detach().numpy()), fn
    big = init.trunc_normal_(torch.empty(20000), mean=0.0, std=1.0)
    v = big.numpy()
    assert np.abs(v).max() <= 2.0 and abs(v.std() - 0.8796) < 0.02  # std of N(0, 1) truncated to [-2, 2]
    q = init.orthogonal_(torch.empty(3, 5), gain=2.0).numpy()
    np.testing.assert_allclose(q @ q.T, 4 * np.eye(3), atol=1e-5)
    assert init.eye_(torch.empty(2, 3)).tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    with pytest.warns(UserWarning):
        init.kaiming_uniform_(torch.empty(0, 3))


# ---- nn.utils ---------------------------------------------------------------------------------------------------
def test_clip_grad_norm_and_value():
    a, b = nn.Parameter(torch.zeros(2)), nn.Parameter(torch.zeros(1))
    a.grad, b.grad = torch.tensor([3.0, 0.0]), torch.tensor([4.0])
    total = nn.utils.clip_grad_norm_([a, b], max_norm=1.0)
    assert abs(total.item() - 5.0) < 1e-6
    close(torch.cat([a.grad, b.grad]), torch.tensor([0.6, 0.0, 0.8]), 1e-5)
    total = nn.utils.clip_grad_norm_(iter([a, b]), max_norm=10.0, norm_type=math.inf)
    assert abs(total.item() - 0.8) < 1e-6 and abs(a.grad[0].item() - 0.6) < 1e-6
    assert nn.utils.clip_grad_norm_([nn.Parameter(torch.ones(1))], 1.0).item() == 0.0
    nn.utils.clip_grad_value_(a, 0.5)
    assert a.grad.tolist()[0] == 0.5


def test_parameters_to_vector_round_trip():
    m = nn.Linear(3, 2)
    vec = nn.utils.parameters_to_vector(m.parameters())
    assert vec.shape == (8,)
    nn.utils.vector_to_parameters(torch.arange(8.0), m.parameters())
    assert m.weight.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]] and m.bias.tolist() == [6.0, 7.0]
    assert isinstance(m.weight, nn.Parameter)
