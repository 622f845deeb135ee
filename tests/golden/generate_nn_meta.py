"""Record real PyTorch's ``torch.nn`` behaviour that is not numbers: module ``repr`` strings, registered
names (state dict keys, parameters, buffers, submodules) and the exception type and message of bad
input. ``python tests/golden/generate_nn_meta.py`` (needs torch==2.13.0) writes tests/golden/nn_meta.json;
tests/unit/test_nn_meta.py evaluates the same snippets with borch_webgpu and compares.

Each snippet runs with ``torch``, ``nn``, ``F`` and ``OrderedDict`` bound (to PyTorch here, to
borch_webgpu in the test), on small deterministic inputs. Numbers are compared in the golden suite
(cases_nn.py), not here.
"""
from __future__ import annotations

import json
import sys
import warnings
from collections import OrderedDict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import nn_meta_more  # noqa: E402
import nn_meta_act  # noqa: E402

# expressions whose repr() must match
REPRS = [
    "nn.Module()",
    "nn.Identity()",
    "nn.Linear(20, 30)",
    "nn.Linear(4, 2, bias=False)",
    "nn.Bilinear(3, 4, 5)",
    "nn.Bilinear(3, 4, 5, bias=False)",
    "nn.Flatten()",
    "nn.Flatten(0, 2)",
    "nn.Unflatten(1, (2, 5))",
    "nn.Unflatten(-1, [2, 2])",
    "nn.Conv1d(16, 33, 3, stride=2)",
    "nn.Conv1d(4, 8, 5, padding='same', dilation=2, padding_mode='reflect')",
    "nn.Conv2d(3, 8, 3)",
    "nn.Conv2d(3, 8, 3, padding=1, bias=False)",
    "nn.Conv2d(16, 33, (3, 5), stride=(2, 1), padding=(4, 2), dilation=(3, 1))",
    "nn.Conv2d(8, 8, 3, padding='same', groups=8, padding_mode='circular')",
    "nn.Conv2d(4, 6, 3, padding='valid', groups=2, padding_mode='replicate')",
    "nn.ConvTranspose2d(16, 8, 3, stride=2, padding=1, output_padding=1)",
    "nn.ConvTranspose2d(4, 4, (3, 2), groups=2, bias=False, dilation=2)",
    "nn.MaxPool1d(3, stride=2)",
    "nn.MaxPool2d(2)",
    "nn.MaxPool2d((3, 2), stride=(2, 1), padding=1, dilation=1, return_indices=True, ceil_mode=True)",
    "nn.AvgPool1d(3)",
    "nn.AvgPool1d(4, stride=2, padding=1, ceil_mode=True, count_include_pad=False)",
    "nn.AvgPool2d(3)",
    "nn.AvgPool2d((3, 2), stride=(2, 1), padding=1, divisor_override=2)",
    "nn.AdaptiveAvgPool1d(5)",
    "nn.AdaptiveAvgPool2d((1, 1))",
    "nn.AdaptiveAvgPool2d((5, None))",
    "nn.AdaptiveMaxPool2d(7, return_indices=True)",
    "nn.BatchNorm1d(100)",
    "nn.BatchNorm2d(16, eps=1e-3, momentum=None, affine=False)",
    "nn.BatchNorm2d(4, track_running_stats=False)",
    "nn.BatchNorm3d(2, bias=False)",
    "nn.LayerNorm(10)",
    "nn.LayerNorm([5, 10], eps=1e-6, elementwise_affine=False)",
    "nn.LayerNorm((3,), bias=False)",
    "nn.GroupNorm(2, 4)",
    "nn.GroupNorm(3, 6, affine=False)",
    "nn.InstanceNorm1d(3)",
    "nn.InstanceNorm2d(3, affine=True, track_running_stats=True)",
    "nn.Dropout()",
    "nn.Dropout(0.2, inplace=True)",
    "nn.Dropout1d(0.1)",
    "nn.Dropout2d(p=0.3)",
    "nn.Embedding(10, 3)",
    "nn.Embedding(10, 3, padding_idx=-1, max_norm=2.0, norm_type=1.0, scale_grad_by_freq=True)",
    "nn.Upsample(scale_factor=2)",
    "nn.Upsample(size=(3, 4), mode='bilinear', align_corners=True)",
    "nn.Upsample(scale_factor=(2, 3), mode='nearest')",
    "nn.PixelShuffle(3)",
    "nn.PixelUnshuffle(2)",
    "nn.ReLU()", "nn.ReLU(inplace=True)", "nn.ReLU6()", "nn.ReLU6(True)", "nn.GELU()", "nn.GELU('tanh')",
    "nn.SiLU()", "nn.SiLU(inplace=True)", "nn.Sigmoid()", "nn.Tanh()", "nn.Softmax(dim=1)", "nn.Softmax()",
    "nn.LogSoftmax(-1)", "nn.LeakyReLU()", "nn.LeakyReLU(0.2, inplace=True)", "nn.ELU()", "nn.ELU(0.5, True)",
    "nn.SELU()", "nn.SELU(inplace=True)", "nn.Hardswish()", "nn.Hardswish(inplace=True)", "nn.Hardsigmoid()",
    "nn.Hardtanh()", "nn.Hardtanh(-2.0, 2.0, inplace=True)", "nn.Mish()", "nn.Mish(inplace=True)", "nn.Softplus()",
    "nn.Softplus(beta=2, threshold=10)",
    "nn.MSELoss()", "nn.L1Loss(reduction='sum')", "nn.SmoothL1Loss(beta=0.5)", "nn.HuberLoss(delta=2.0)",
    "nn.CrossEntropyLoss()", "nn.CrossEntropyLoss(weight=torch.ones(3), ignore_index=1, label_smoothing=0.1)",
    "nn.NLLLoss()", "nn.BCELoss()", "nn.BCEWithLogitsLoss(pos_weight=torch.ones(2))", "nn.KLDivLoss(log_target=True)",
    "nn.MultiheadAttention(16, 4)",
    "nn.MultiheadAttention(8, 2, kdim=4, vdim=6, add_bias_kv=True)",
    "nn.TransformerEncoderLayer(8, 2)",
    "nn.TransformerEncoderLayer(16, 4, dim_feedforward=32, activation=nn.GELU(), batch_first=True, norm_first=True)",
    "nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, dim_feedforward=16), 3, norm=nn.LayerNorm(8))",
    "nn.Sequential()",
    "nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))",
    "nn.Sequential(OrderedDict([('conv', nn.Conv2d(1, 4, 3)), ('bn', nn.BatchNorm2d(4)), ('act', nn.ReLU())]))",
    "nn.Sequential(nn.Linear(2, 3), nn.Sequential(nn.ReLU(), nn.Sequential(nn.Linear(3, 3), nn.Tanh())))",
    "nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))[1:]",
    "nn.Sequential(nn.Linear(2, 3), nn.ReLU()) + nn.Sequential(nn.Tanh())",
    "nn.Sequential(nn.ReLU()) * 3",
    "nn.ModuleList()",
    "nn.ModuleList([nn.Linear(4, 4) for _ in range(3)] + [nn.ReLU(), nn.ReLU(), nn.Linear(4, 4)])",
    "nn.ModuleList([nn.Sequential(nn.Linear(2, 2), nn.ReLU()), nn.Sequential(nn.Linear(2, 2), nn.ReLU())])",
    "nn.ModuleDict({'cls': nn.Linear(8, 10), 'box': nn.Linear(8, 4)})",
    "nn.ModuleDict([('b', nn.ReLU()), ('a', nn.Tanh())])",
    "nn.ParameterList([nn.Parameter(torch.ones(2, 3)), torch.zeros(4)])",
    "nn.ParameterDict({'b': nn.Parameter(torch.ones(3)), 'a': torch.zeros(1, 2)})",
    "nn.Parameter(torch.tensor([1.0, 2.0]))",
    "nn.Parameter(torch.tensor([[1.5, -2.0], [0.25, 3.0]]), requires_grad=False)",
    "nn.Linear(2, 2).load_state_dict(nn.Linear(2, 2).state_dict())",
    "nn.Linear(2, 2).load_state_dict({'weight': torch.ones(2, 2), 'foo': torch.ones(1)}, strict=False)",
    "nn.BatchNorm1d(2).load_state_dict({'weight': torch.ones(2)}, strict=False)",
    *nn_meta_more.REPRS,
    *nn_meta_act.REPRS,
]

# a module-building expression: its registered names are compared
STRUCTURE = [
    "nn.Linear(3, 2)",
    "nn.Linear(3, 2, bias=False)",
    "nn.Bilinear(2, 3, 4)",
    "nn.Conv2d(3, 8, 3, groups=1)",
    "nn.Conv2d(8, 8, 3, groups=8, bias=False)",
    "nn.ConvTranspose2d(4, 6, 3, groups=2)",
    "nn.BatchNorm2d(4)",
    "nn.BatchNorm1d(4, affine=False, track_running_stats=False)",
    "nn.InstanceNorm2d(3, affine=True, track_running_stats=True)",
    "nn.LayerNorm((2, 3))",
    "nn.GroupNorm(2, 4)",
    "nn.Embedding(7, 3)",
    "nn.MultiheadAttention(8, 2)",
    "nn.MultiheadAttention(8, 2, kdim=4, vdim=6, add_bias_kv=True)",
    "nn.MultiheadAttention(8, 2, bias=False)",
    "nn.TransformerEncoderLayer(8, 2, dim_feedforward=16)",
    "nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, dim_feedforward=16), 2)",
    "nn.CrossEntropyLoss(weight=torch.ones(3))",
    "nn.BCEWithLogitsLoss(weight=torch.ones(2), pos_weight=torch.ones(2))",
    "nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.ReLU(), nn.Flatten(), nn.Linear(8, 2))",
    "nn.Sequential(OrderedDict([('a', nn.Linear(2, 2)), ('b', nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1)))]))",
    "nn.ModuleList([nn.Linear(2, 2), nn.ModuleDict({'x': nn.Linear(2, 3), 'y': nn.BatchNorm1d(3)})])",
    "nn.ParameterList([torch.ones(2), torch.zeros(3, 1)])",
    "nn.ParameterDict({'w': torch.ones(2), 'b': torch.zeros(1)})",
    *nn_meta_more.STRUCTURE,
    *nn_meta_act.STRUCTURE,
]

# (name, code): the code must raise; its exception type and message are recorded
ERRORS = [
    # wrong input for a layer
    ("Linear in_features", "nn.Linear(4, 3)(torch.ones(2, 5))"),
    ("Linear 3-D input", "nn.Linear(4, 3)(torch.ones(2, 3, 5))"),
    ("Linear 1-D input", "nn.Linear(4, 3)(torch.ones(5))"),
    ("Bilinear input2 size", "nn.Bilinear(3, 4, 5)(torch.ones(2, 3), torch.ones(2, 5))"),
    ("Bilinear batch dims", "nn.Bilinear(3, 4, 5)(torch.ones(2, 3), torch.ones(3, 4))"),
    ("Bilinear ranks", "nn.Bilinear(3, 4, 5)(torch.ones(2, 3), torch.ones(2, 1, 4))"),
    ("BatchNorm1d rank", "nn.BatchNorm1d(3)(torch.ones(2, 3, 4, 5))"),
    ("BatchNorm2d rank", "nn.BatchNorm2d(3)(torch.ones(2, 3, 4))"),
    ("BatchNorm2d channels", "nn.BatchNorm2d(3)(torch.ones(2, 4, 4, 4))"),
    ("BatchNorm2d channels eval", "nn.BatchNorm2d(3).eval()(torch.ones(2, 4, 4, 4))"),
    ("BatchNorm1d one value per channel", "nn.BatchNorm1d(3)(torch.ones(1, 3))"),
    ("batch_norm eval without stats", "F.batch_norm(torch.ones(2, 3), None, None, training=False)"),
    ("batch_norm weight size", "F.batch_norm(torch.ones(2, 3), torch.zeros(3), torch.ones(3), weight=torch.ones(4))"),
    ("batch_norm eps", "F.batch_norm(torch.ones(2, 3), None, None, training=True, eps=0.0)"),
    ("LayerNorm shape", "nn.LayerNorm(4)(torch.ones(2, 3))"),
    ("LayerNorm 2-D shape", "nn.LayerNorm([3, 4])(torch.ones(2, 4, 3))"),
    ("layer_norm weight shape", "F.layer_norm(torch.ones(2, 4), (4,), weight=torch.ones(5))"),
    ("GroupNorm channels", "nn.GroupNorm(2, 4)(torch.ones(2, 5, 3))"),
    ("GroupNorm construction", "nn.GroupNorm(3, 4)"),
    ("group_norm weight", "F.group_norm(torch.ones(2, 4, 3), 2, weight=torch.ones(5))"),
    ("InstanceNorm2d rank", "nn.InstanceNorm2d(3)(torch.ones(2, 3, 4, 5, 6))"),
    ("InstanceNorm2d one spatial element", "nn.InstanceNorm2d(3)(torch.ones(2, 3, 1, 1))"),
    ("InstanceNorm2d affine channels", "nn.InstanceNorm2d(3, affine=True)(torch.ones(2, 4, 5, 5))"),
    ("Conv2d channels", "nn.Conv2d(3, 8, 3)(torch.ones(2, 4, 5, 5))"),
    ("Conv2d rank", "nn.Conv2d(3, 8, 3)(torch.ones(4, 5))"),
    ("Conv1d channels", "nn.Conv1d(3, 8, 3)(torch.ones(2, 4, 5))"),
    ("Conv2d groups in_channels", "nn.Conv2d(3, 8, 3, groups=2)"),
    ("Conv2d groups out_channels", "nn.Conv2d(4, 6, 3, groups=4)"),
    ("Conv2d groups zero", "nn.Conv2d(3, 8, 3, groups=0)"),
    ("Conv2d same strided", "nn.Conv2d(3, 8, 3, padding='same', stride=2)"),
    ("Conv2d padding string", "nn.Conv2d(3, 8, 3, padding='foo')"),
    ("ConvTranspose2d padding_mode", "nn.ConvTranspose2d(3, 8, 3, padding_mode='reflect')"),
    ("ConvTranspose2d output_size",
     "nn.ConvTranspose2d(2, 2, 3, stride=2)(torch.ones(1, 2, 4, 4), output_size=[20, 20])"),
    ("Embedding index out of range", "nn.Embedding(10, 3)(torch.tensor([1, 10]))"),
    ("Embedding float indices", "nn.Embedding(10, 3)(torch.tensor([1.0, 2.0]))"),
    ("Embedding padding_idx", "nn.Embedding(10, 3, padding_idx=10)"),
    ("Embedding negative padding_idx", "nn.Embedding(10, 3, padding_idx=-11)"),
    ("embedding 1-D weight", "F.embedding(torch.tensor([0]), torch.ones(3))"),
    ("MultiheadAttention divisible", "nn.MultiheadAttention(10, 3)"),
    ("MultiheadAttention embed dim",
     "nn.MultiheadAttention(12, 3)(torch.ones(4, 2, 10), torch.ones(4, 2, 10), torch.ones(4, 2, 10))"),
    ("MultiheadAttention key/value",
     "nn.MultiheadAttention(12, 3)(torch.ones(4, 2, 12), torch.ones(5, 2, 12), torch.ones(6, 2, 12))"),
    ("MultiheadAttention attn_mask shape",
     "m = nn.MultiheadAttention(4, 2); x = torch.ones(3, 1, 4); "
     "m(x, x, x, attn_mask=torch.zeros(2, 3))"),
    ("MultiheadAttention int mask",
     "m = nn.MultiheadAttention(4, 2); x = torch.ones(3, 1, 4); m(x, x, x, "
     "key_padding_mask=torch.zeros(1, 3, dtype=torch.long))"),
    ("MultiheadAttention 4-D query", "m = nn.MultiheadAttention(4, 2); x = torch.ones(3, 1, 1, 4); m(x, x, x)"),
    ("TransformerEncoderLayer activation", "nn.TransformerEncoderLayer(12, 3, activation='swish')"),
    ("Dropout p", "nn.Dropout(p=-0.1)"),
    ("dropout p", "F.dropout(torch.ones(3), p=1.5)"),
    ("dropout1d rank", "F.dropout1d(torch.ones(2, 3, 4, 5))"),
    ("Flatten 0-d", "nn.Flatten()(torch.ones(()))"),
    ("Unflatten sizes", "nn.Unflatten(1, (2, 2))(torch.ones(3, 5))"),
    ("Softmax dim", "nn.Softmax(dim=3)(torch.ones(2, 3))"),
    ("Hardtanh bounds", "nn.Hardtanh(1.0, -1.0)"),
    ("MaxPool2d rank", "nn.MaxPool2d(2)(torch.ones(2))"),
    ("AdaptiveAvgPool2d rank", "nn.AdaptiveAvgPool2d((2, 2))(torch.ones(2))"),
    ("PixelShuffle channels", "nn.PixelShuffle(2)(torch.ones(1, 3, 4, 4))"),
    # losses
    ("cross_entropy target out of range", "F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 5]))"),
    ("cross_entropy negative target", "F.cross_entropy(torch.ones(2, 3), torch.tensor([0, -5]))"),
    ("CrossEntropyLoss target out of range", "nn.CrossEntropyLoss()(torch.ones(2, 3), torch.tensor([1, 3]))"),
    ("cross_entropy batch size", "F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 1, 2]))"),
    ("cross_entropy multi-target", "F.cross_entropy(torch.ones(2, 3), torch.ones(2, 4))"),
    ("cross_entropy int32 target", "F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 1], dtype=torch.int32))"),
    ("cross_entropy spatial target", "F.cross_entropy(torch.ones(2, 3, 4), torch.tensor([0, 1]))"),
    ("cross_entropy weight size", "F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 1]), weight=torch.ones(4))"),
    ("cross_entropy reduction", "F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 1]), reduction='avg')"),
    ("cross_entropy label_smoothing", "F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 1]), label_smoothing=1.5)"),
    ("cross_entropy probabilities int", "F.cross_entropy(torch.ones(2, 3), torch.ones(2, 3, dtype=torch.long))"),
    ("nll_loss float target", "F.nll_loss(torch.ones(2, 3), torch.tensor([0, 1.0]))"),
    ("nll_loss target out of range", "F.nll_loss(torch.ones(2, 3), torch.tensor([0, 3]))"),
    ("nll_loss 1-D input", "F.nll_loss(torch.ones(2), torch.tensor([0, 1]))"),
    ("nll_loss 0-d input", "F.nll_loss(torch.ones(()), torch.tensor(1))"),
    ("nll_loss weight requires grad",
     "F.nll_loss(torch.ones(2, 3), torch.tensor([0, 1]), weight=torch.ones(3, requires_grad=True))"),
    ("binary_cross_entropy sizes", "F.binary_cross_entropy(torch.full((3,), 0.5), torch.ones(3, 1))"),
    ("binary_cross_entropy range", "F.binary_cross_entropy(torch.full((3,), 1.5), torch.ones(3))"),
    ("BCEWithLogitsLoss sizes", "nn.BCEWithLogitsLoss()(torch.ones(3), torch.ones(3, 1))"),
    ("mse_loss reduction", "F.mse_loss(torch.ones(3), torch.ones(3), reduction='bad')"),
    ("mse_loss shapes", "F.mse_loss(torch.ones(3), torch.ones(4))"),
    ("mse_loss weight size", "F.mse_loss(torch.ones(3), torch.ones(3), weight=torch.ones(2))"),
    ("mse_loss int64", "F.mse_loss(torch.ones(3, dtype=torch.long), torch.ones(3, dtype=torch.long))"),
    ("smooth_l1_loss beta", "F.smooth_l1_loss(torch.ones(3), torch.ones(3), beta=-1.0)"),
    ("huber_loss delta", "F.huber_loss(torch.ones(3), torch.ones(3), delta=0.0)"),
    ("kl_div reduction", "F.kl_div(torch.ones(3), torch.ones(3), reduction='bad')"),
    ("one_hot too large", "F.one_hot(torch.tensor([1, 5]), 3)"),
    ("one_hot negative", "F.one_hot(torch.tensor([1, -1]), 3)"),
    ("one_hot float", "F.one_hot(torch.tensor([1.0]), 3)"),
    ("sdpa causal with mask",
     "F.scaled_dot_product_attention(torch.ones(2, 3, 4), torch.ones(2, 5, 4), torch.ones(2, 5, 6), "
     "attn_mask=torch.ones(3, 5, dtype=torch.bool), is_causal=True)"),
    ("sdpa head dims", "F.scaled_dot_product_attention(torch.ones(2, 3, 4), torch.ones(2, 5, 3), torch.ones(2, 5, 6))"),
    ("sdpa int mask",
     "F.scaled_dot_product_attention(torch.ones(1, 2, 3), torch.ones(1, 4, 3), torch.ones(1, 4, 3), "
     "attn_mask=torch.ones(2, 4, dtype=torch.long))"),
    # Module registration and attributes
    ("missing attribute", "nn.Linear(2, 2).foo"),
    ("forward not implemented", "nn.Module()(torch.ones(1))"),
    ("register_buffer existing attribute", "nn.Linear(2, 2).register_buffer('weight', torch.ones(1))"),
    ("register_buffer dotted name", "nn.Linear(2, 2).register_buffer('a.b', torch.ones(1))"),
    ("register_buffer empty name", "nn.Linear(2, 2).register_buffer('', torch.ones(1))"),
    ("register_buffer not a tensor", "nn.Linear(2, 2).register_buffer('x', 3)"),
    ("register_parameter plain tensor", "nn.Linear(2, 2).register_parameter('x', torch.ones(1))"),
    ("register_parameter non-leaf", "nn.Linear(2, 2).register_parameter('x', nn.Parameter(torch.ones(1)) * 2)"),
    ("add_module not a module", "nn.Linear(2, 2).add_module('x', 3)"),
    ("add_module dotted name", "nn.Linear(2, 2).add_module('a.b', nn.ReLU())"),
    ("add_module name type", "nn.Linear(2, 2).add_module(1, nn.ReLU())"),
    ("assign tensor to parameter", "m = nn.Linear(2, 2); m.weight = torch.ones(2, 2)"),
    ("assign int to submodule", "m = nn.Sequential(nn.ReLU()); setattr(m, '0', 3)"),
    ("assign before init", "class M(nn.Module):\n    def __init__(self):\n        self.fc = nn.Linear(2, 2)\nM()"),
    ("parameter before init",
     "class M(nn.Module):\n    def __init__(self):\n        self.w = nn.Parameter(torch.ones(1))\nM()"),
    ("get_submodule missing", "nn.Linear(2, 2).get_submodule('foo')"),
    ("get_submodule nested missing", "nn.Sequential(nn.Linear(2, 2)).get_submodule('0.foo')"),
    ("get_submodule not a module", "nn.Sequential(nn.Linear(2, 2)).get_submodule('0.weight')"),
    ("get_parameter not a parameter", "nn.Sequential(nn.Linear(2, 2)).get_parameter('0')"),
    ("to integer dtype", "nn.Linear(2, 2).to(torch.int64)"),
    ("train not bool", "nn.Linear(2, 2).train('yes')"),
    ("Module init args", "nn.Module(3)"),
    ("Module init kwargs", "nn.Module(foo=3)"),
    # state dicts
    ("load_state_dict size mismatch",
     "nn.Linear(4, 2).load_state_dict({'weight': torch.ones(3, 4), 'bias': torch.ones(2)})"),
    ("load_state_dict missing key", "nn.Linear(2, 2).load_state_dict({'weight': torch.ones(2, 2)})"),
    ("load_state_dict unexpected key",
     "nn.Linear(2, 2).load_state_dict({'weight': torch.ones(2, 2), 'bias': torch.ones(2), "
     "'extra': torch.ones(1)})"),
    ("load_state_dict not a tensor", "nn.Linear(2, 2).load_state_dict({'weight': 3, 'bias': torch.ones(2)})"),
    ("load_state_dict not a mapping", "nn.Linear(2, 2).load_state_dict([1])"),
    ("load_state_dict nested",
     "nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2)).load_state_dict({'0.weight': torch.ones(2, "
     "3), '1.foo': torch.ones(1), '2.bar': torch.ones(1)})"),
    ("load_state_dict all kinds",
     "nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1)).load_state_dict({'0.weight': torch.ones(2, 2), "
     "'1.weight': torch.ones(1, 3), 'x.y': torch.ones(1)})"),
    ("load_state_dict instance norm stats", "nn.InstanceNorm1d(2).load_state_dict({'running_mean': torch.zeros(2)})"),
    # containers
    ("Sequential index", "nn.Sequential(nn.ReLU())[3]"),
    ("Sequential negative index", "nn.Sequential(nn.ReLU())[-2]"),
    ("Sequential pop", "nn.Sequential(nn.ReLU()).pop(3)"),
    ("Sequential not a module", "nn.Sequential(1)"),
    ("Sequential insert index", "nn.Sequential(nn.ReLU()).insert(5, nn.Tanh())"),
    ("Sequential add", "nn.Sequential(nn.ReLU()) + nn.ReLU()"),
    ("Sequential mul", "nn.Sequential(nn.ReLU()) * 0"),
    ("ModuleList index", "nn.ModuleList([nn.ReLU()])[2]"),
    ("ModuleList not a module", "nn.ModuleList([1])"),
    ("ModuleList extend", "nn.ModuleList().extend(3)"),
    ("ModuleDict key", "nn.ModuleDict({'a': nn.ReLU()})['b']"),
    ("ModuleDict update", "nn.ModuleDict().update([('a', nn.ReLU(), 1)])"),
    ("ParameterList call", "nn.ParameterList()(1)"),
    ("ParameterList extend tensor", "nn.ParameterList().extend(torch.ones(2))"),
    ("ParameterDict key", "nn.ParameterDict({'a': torch.ones(1)})['b']"),
    ("ParameterDict non-string key", "nn.ParameterDict()[1] = torch.ones(1)"),
    # init and utils
    ("kaiming_uniform_ 1-D", "nn.init.kaiming_uniform_(torch.ones(3))"),
    ("kaiming_uniform_ mode", "nn.init.kaiming_uniform_(torch.ones(3, 3), mode='fan_x')"),
    ("calculate_gain unknown", "nn.init.calculate_gain('foo')"),
    ("calculate_gain slope", "nn.init.calculate_gain('leaky_relu', 'x')"),
    ("xavier_uniform_ 1-D", "nn.init.xavier_uniform_(torch.ones(3))"),
    ("eye_ 3-D", "nn.init.eye_(torch.ones(2, 2, 2))"),
    ("orthogonal_ 1-D", "nn.init.orthogonal_(torch.ones(3))"),
    ("vector_to_parameters not a tensor", "nn.utils.vector_to_parameters([1], [torch.ones(1)])"),
    ("clip_grad_norm_ non-finite",
     "p = nn.Parameter(torch.ones(2)); p.grad = torch.tensor([1.0, "
     "float('inf')]); nn.utils.clip_grad_norm_([p], 1.0, error_if_nonfinite=True)"),
    ("Parameter of integers", "nn.Parameter(torch.ones(2, dtype=torch.long))"),
    *nn_meta_more.ERRORS,
    *nn_meta_act.ERRORS,
]


def _structure(m) -> dict:
    return {
        "state_dict": [[k, list(v.shape)] for k, v in m.state_dict().items()],
        "parameters": [[k, list(v.shape), bool(v.requires_grad)] for k, v in m.named_parameters()],
        "buffers": [[k, list(v.shape), str(v.dtype)] for k, v in m.named_buffers()],
        "modules": [[k, type(v).__name__] for k, v in m.named_modules()],
        "children": [k for k, _ in m.named_children()],
    }


def namespace(torch_module) -> dict:
    return {"torch": torch_module, "nn": torch_module.nn, "F": torch_module.nn.functional,
            "OrderedDict": OrderedDict}


def main() -> None:
    import torch
    ns = namespace(torch)
    out = {"torch": torch.__version__, "reprs": [], "structure": [], "errors": []}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for expr in REPRS:
            out["reprs"].append([expr, repr(eval(expr, dict(ns)))])  # noqa: S307 - our own list
        for expr in STRUCTURE:
            out["structure"].append([expr, _structure(eval(expr, dict(ns)))])  # noqa: S307
        for name, code in ERRORS:
            try:
                exec(code, dict(ns))  # noqa: S102 - our own list
            except Exception as e:  # noqa: BLE001 - recording PyTorch's exception
                out["errors"].append([name, code, type(e).__name__, str(e)])
                continue
            raise SystemExit(f"{name}: PyTorch did not raise; every error snippet must be bad input")
    (HERE / "nn_meta.json").write_text(json.dumps(out, indent=1) + "\n")
    print(f"nn_meta.json: {len(out['reprs'])} reprs, {len(out['structure'])} structures, "
          f"{len(out['errors'])} errors (torch {torch.__version__})")


if __name__ == "__main__":
    main()
