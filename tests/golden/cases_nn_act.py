"""Golden cases: the remaining activations of ``torch.nn.functional`` and their modules, their in-place forms,
rms_norm / RMSNorm, the alpha and 3-D dropouts, channel shuffles, pdist, conv_transpose1d, the ``*_with_indices``
pools, the deprecated upsample_bilinear / upsample_nearest (with UpsamplingBilinear2d / UpsamplingNearest2d),
and the ``torch.*`` names of nn ops under ``convolution`` (imported by cases.py; ``_module`` builds a module from
its first argument, see generate.py)."""
from __future__ import annotations

import numpy as np

from cases import V, case, golden, ints, nonleaf, uniform

F = "nn.functional."


def u(shape, lo=-3.0, hi=3.0):
    return uniform(shape, lo, hi)


def _with_special(shape):
    """Values with a zero, NaN and +-inf among them (forward only)."""
    a = u(shape)
    a.reshape(-1)[:4] = [0.0, np.nan, np.inf, -np.inf]
    return a


@golden("celu")
def _celu():
    c = F + "celu"
    out = [case(c, u((3, 4)), id="grad default", grad=True),
           case(c, u((2, 5)), 2.0, id="grad alpha=2", grad=True),
           case(c, u((6,)), alpha=0.5, id="grad alpha=0.5 kw", grad=True),
           case(c, _with_special((8,)), id="special values"),
           case(c, nonleaf(u((2, 3))), 1.5, True, id="grad inplace", grad=True),
           case(c, u((3,)), 0.0, id="error: alpha=0"),
           case(c, ints((3,)), id="error: int64"),
           case("_module", "nn.CELU(2.0)", u((2, 3)), id="grad module", grad=True),
           case("_module", "nn.CELU()", u((4,)), id="module default")]
    # the in-place F forms of the other activations (F.relu_, F.elu_, ...)
    for fn, args in (("celu_", (2.0,)), ("relu_", ()), ("elu_", (0.5,)), ("leaky_relu_", (0.2,)),
                     ("hardtanh_", (-0.5, 1.5)), ("selu_", ())):
        out.append(case(F + fn, nonleaf(u((2, 4))), *args, id=f"grad {fn}", grad=True))
    out.append(case(F + "relu_", np.array([True, False]), id="error: relu_ bool"))
    return out


@golden("glu")
def _glu():
    c = F + "glu"
    return [case(c, u((3, 4)), id="grad default dim=-1", grad=True),
            case(c, u((4, 3, 2)), 0, id="grad dim=0", grad=True),
            case(c, u((2, 6, 3)), dim=1, id="grad dim=1 kw", grad=True),
            case(c, V(u((4, 2)), ("t",)), id="grad transposed", grad=True),
            case(c, u((2, 3)), id="error: odd size"),
            case(c, np.array(1.0, np.float32), id="error: 0-d"),
            case(c, u((2, 4)), 3, id="error: dim out of range"),
            case("_module", "nn.GLU(1)", u((2, 4)), id="grad module", grad=True),
            case("_module", "nn.GLU()", u((2, 2)), id="module default")]


@golden("hardshrink")
def _hardshrink():
    c = F + "hardshrink"
    return [case(c, u((3, 5), -1, 1), id="grad default", grad=True),
            case(c, u((4, 4)), 1.5, id="grad lambd=1.5", grad=True),
            case(c, u((5,)), lambd=-1.0, id="negative lambd"),
            case(c, _with_special((8,)), id="special values"),
            case(c, ints((3,)), id="error: int64"),
            case("hardshrink", u((2, 3), -1, 1), 0.3, id="grad torch.hardshrink", grad=True),
            case("Tensor.hardshrink", u((2, 3), -1, 1), id="method"),
            case("_module", "nn.Hardshrink(0.2)", u((2, 3), -1, 1), id="grad module", grad=True)]


@golden("softshrink")
def _softshrink():
    c = F + "softshrink"
    return [case(c, u((3, 5), -1, 1), id="grad default", grad=True),
            case(c, u((4, 4)), 1.5, id="grad lambd=1.5", grad=True),
            case(c, _with_special((8,)), id="special values"),
            case(c, u((3,)), -1.0, id="error: negative lambd"),
            case(c, ints((3,)), id="error: int64"),
            case("_module", "nn.Softshrink(1.0)", u((2, 3)), id="grad module", grad=True)]


@golden("logsigmoid")
def _logsigmoid():
    c = F + "logsigmoid"
    return [case(c, u((3, 5)), id="grad", grad=True),
            case(c, np.array([-100.0, -30.0, -20.5, 0.0, 20.5, 30.0, 100.0], np.float32), id="grad large", grad=True),
            case(c, _with_special((8,)), id="special values"),
            case(c, ints((3,)), id="error: int64"),
            case("_module", "nn.LogSigmoid()", u((2, 3)), id="grad module", grad=True)]


@golden("softsign")
def _softsign():
    c = F + "softsign"
    return [case(c, u((3, 5)), id="grad", grad=True),
            case(c, _with_special((8,)), id="special values"),
            case(c, ints((3,)), id="int64 becomes float"),
            case("_module", "nn.Softsign()", u((2, 3)), id="grad module", grad=True)]


@golden("tanhshrink")
def _tanhshrink():
    c = F + "tanhshrink"
    return [case(c, u((3, 5)), id="grad", grad=True),
            case(c, np.array([-1e-3, 1e-4, 0.5, -20.0], np.float32), id="grad small and large", grad=True),
            case(c, ints((3,)), id="int64 becomes float"),
            case("_module", "nn.Tanhshrink()", u((2, 3)), id="grad module", grad=True)]


@golden("threshold")
def _threshold():
    c = F + "threshold"
    return [case(c, u((3, 5)), 0.5, -2.0, id="grad", grad=True),
            case(c, _with_special((8,)), 0.0, 9.0, id="special values"),
            case(c, np.array([0.5, 1.0, 1.5], np.float32), 1.0, 7.0, id="at the threshold"),
            case(c, np.arange(5, dtype=np.int64), 2, 10.5, id="int64 keeps its dtype"),
            case(c, nonleaf(u((2, 3))), 0.1, 5.0, True, id="grad inplace", grad=True),
            case(F + "threshold_", nonleaf(u((2, 3))), 0.1, 5.0, id="grad threshold_", grad=True),
            case("_module", "nn.Threshold(0.1, 20.0)", u((2, 3)), id="grad module", grad=True),
            case("_module", "nn.Threshold(0.1, 20, inplace=True)", u((2, 3)), id="module inplace")]


@golden("softmin")
def _softmin():
    c = F + "softmin"
    return [case(c, u((3, 5)), 1, id="grad dim=1", grad=True),
            case(c, u((3, 5)), dim=0, id="grad dim=0", grad=True),
            case(c, u((2, 3, 4)), id="grad implicit dim (warns)", grad=True),
            case(c, u((2, 3)), -1, dtype="float32", id="dtype"),
            case(c, u((2, 3)), 2, id="error: dim out of range"),
            case("_module", "nn.Softmin(dim=-1)", u((2, 3)), id="grad module", grad=True)]


@golden("prelu")
def _prelu():
    c = F + "prelu"
    return [case(c, u((2, 3, 4)), uniform((3,), 0, 0.5), id="grad per channel", grad=True),
            case(c, u((2, 3, 2, 2)), uniform((1,), 0, 0.5), id="grad one weight", grad=True),
            case(c, u((4,)), uniform((1,), 0, 0.5), id="grad 1-D input", grad=True),
            case(c, u((5, 2)), uniform((2,), 0, 0.5), id="grad 2-D input", grad=True),
            case(c, np.array(-2.0, np.float32), uniform((1,), 0, 0.5), id="0-d input"),
            case(c, u((2, 3, 4)), u((2,)), id="error: weight size"),
            case(c, u((2, 3)), u((1, 3)), id="error: 2-D weight"),
            case(c, np.array(-2.0, np.float32), u((2,)), id="error: 0-d input, 2 weights"),
            case("prelu", u((2, 3)), uniform((3,), 0, 0.5), id="grad torch.prelu", grad=True),
            case("Tensor.prelu", u((2, 3)), uniform((1,), 0, 0.5), id="method"),
            case("_module", "nn.PReLU()", u((2, 3)), id="grad module", grad=True),
            case("_module", "nn.PReLU(3, init=0.1)", u((2, 3, 2)), id="grad module per channel", grad=True)]


@golden("rrelu")
def _rrelu():
    c = F + "rrelu"
    return [case(c, u((3, 5)), id="grad eval default", grad=True),
            case(c, u((3, 5)), 0.1, 0.3, id="grad eval bounds", grad=True),
            case(c, nonleaf(u((2, 3))), 0.2, 0.4, False, True, id="grad eval inplace", grad=True),
            case(F + "rrelu_", nonleaf(u((2, 3))), id="grad rrelu_", grad=True),
            case(c, u((3, 5)), training=True, id="training", random=True),
            case(c, u((3,)), 0.5, 0.1, id="error: lower > upper"),
            case(c, ints((3,)), id="error: int64"),
            case("rrelu", u((2, 3)), 0.1, 0.2, id="grad torch.rrelu", grad=True),
            case("_module", "nn.RReLU(0.1, 0.3).eval()", u((2, 3)), id="grad module eval", grad=True),
            case("_module", "nn.RReLU()", u((2, 3)), id="module training", random=True)]


@golden("rms_norm")
def _rms_norm():
    c = F + "rms_norm"
    return [case(c, u((3, 4)), (4,), id="grad default eps", grad=True),
            case(c, u((2, 3, 4)), [3, 4], uniform((3, 4), 0.5, 1.5), 1e-3, id="grad weight eps", grad=True),
            case(c, u((2, 5)), [5], uniform((5,), 0.5, 1.5), id="grad list shape weight", grad=True),
            case(c, u((2, 5)), 5, id="error: int shape"),
            case(c, np.zeros((2, 3), np.float32), (3,), id="zeros"),
            case(c, u((2, 3)), (4,), id="error: shape"),
            case(c, u((2, 3)), (3,), u((4,)), id="error: weight shape"),
            case("rms_norm", u((2, 3)), [3], None, 1e-6, id="grad torch.rms_norm", grad=True),
            case("_module", "nn.RMSNorm(4)", u((2, 4)), id="grad module", grad=True),
            case("_module", "nn.RMSNorm([2, 3], eps=1e-5, elementwise_affine=False)", u((2, 2, 3)),
                 id="grad module no affine", grad=True)]


@golden("alpha_dropout")
def _alpha_dropout():
    # training outputs are random: shapes here, statistics in tests/unit/test_nn_act.py
    out = []
    for fn, shape in (("alpha_dropout", (3, 4)), ("feature_alpha_dropout", (2, 3, 4)), ("dropout3d", (2, 3, 2, 2, 2))):
        out += [case(F + fn, u(shape), 0.3, training=False, id=f"grad {fn} eval", grad=True),
                case(F + fn, u(shape), 0.3, training=True, id=f"{fn} training", random=True),
                case(F + fn, u(shape), 0.0, training=True, id=f"grad {fn} p=0", grad=True),
                case(F + fn, u((2,)), 1.5, id=f"error: {fn} p")]
    out += [case(F + "alpha_dropout", u((3,)), 1.0, True, id="alpha_dropout p=1"),
            case(F + "alpha_dropout", u((3,)), id="grad alpha_dropout default (eval)", grad=True),
            case(F + "feature_alpha_dropout", u((3,)), 0.5, True, id="error: feature_alpha_dropout 1-D"),
            case(F + "dropout3d", u((2, 3, 4)), 0.5, False, id="dropout3d 3-D (warns)"),
            case(F + "dropout3d", u((3, 2, 2, 2)), 0.5, True, id="dropout3d unbatched", random=True),
            case("_module", "nn.AlphaDropout(0.2).eval()", u((2, 3)), id="grad module AlphaDropout eval", grad=True),
            case("_module", "nn.AlphaDropout(0.2)", u((2, 3)), id="module AlphaDropout", random=True),
            case("_module", "nn.FeatureAlphaDropout(0.2).eval()", u((2, 3, 2)), id="module FeatureAlphaDropout eval"),
            case("_module", "nn.Dropout3d(0.2).eval()", u((1, 2, 2, 2, 2)), id="module Dropout3d eval"),
            case("_module", "nn.Dropout3d(0.2)", u((1, 2, 2, 2, 2)), id="module Dropout3d", random=True)]
    return out


@golden("channel_shuffle")
def _channel_shuffle():
    c = F + "channel_shuffle"
    return [case(c, u((2, 6, 3)), 2, id="grad 3-D groups=2", grad=True),
            case(c, u((1, 6, 2, 2)), 3, id="grad 4-D groups=3", grad=True),
            case(c, u((1, 4, 2, 1, 2)), 4, id="5-D groups=4"),
            case(c, ints((1, 4, 2)), 2, id="int64"),
            case(F + "native_channel_shuffle", u((1, 4, 2)), 2, id="native"),
            case("channel_shuffle", u((1, 4, 2)), 2, id="torch.channel_shuffle"),
            case(c, u((1, 4, 2)), 3, id="error: not divisible"),
            case(c, u((4, 2)), 2, id="error: 2-D"),
            case(c, u((1, 4, 2)), 0, id="error: groups=0"),
            case("_module", "nn.ChannelShuffle(2)", u((1, 4, 2, 2)), id="grad module", grad=True)]


@golden("pdist")
def _pdist():
    c = F + "pdist"
    x = u((4, 3))
    x[2] = x[0]  # two equal rows: a zero distance, whose gradient PyTorch takes as 0
    return [case(c, u((5, 3)), id="grad p=2", grad=True),
            case(c, x, id="grad equal rows", grad=True),
            case(c, u((4, 2)), 1.0, id="grad p=1", grad=True),
            case(c, u((4, 3)), 3.0, id="grad p=3", grad=True),
            case(c, u((3, 2)), float("inf"), id="p=inf"),
            case(c, u((1, 3)), id="one row"),
            case(c, u((3,)), id="error: 1-D"),
            case(c, u((3, 2)), -1.0, id="error: negative p"),
            case(c, ints((3, 2)), id="error: int64"),
            case("pdist", u((3, 2)), id="torch.pdist")]


@golden("conv_transpose1d")
def _conv_transpose1d():
    c = F + "conv_transpose1d"
    return [case(c, u((2, 3, 5)), u((3, 2, 3)), u((2,)), id="grad with bias", grad=True),
            case(c, u((1, 4, 4)), u((4, 1, 2)), None, 2, 1, 1, 2, id="grad stride pad output_padding groups",
                 grad=True),
            case(c, u((2, 6)), u((2, 3, 3)), dilation=2, id="grad unbatched dilation", grad=True),
            case(c, u((2, 3)), u((2, 3, 3)), id="error: 2-D weight for this input"),
            case(c, u((2, 3, 4, 5)), u((3, 2, 3)), id="error: 4-D input"),
            case("_module", "nn.ConvTranspose1d(3, 2, 3, stride=2)", u((1, 3, 4)), id="module", random=True)]


@golden("adaptive_max_pool1d")
def _adaptive_max_pool1d():
    c = F + "adaptive_max_pool1d"
    from cases import distinct
    out = [case(c, distinct((2, 3, 7)), 3, id="grad", grad=True),
           case(c, distinct((3, 8)), 4, True, id="grad unbatched indices", grad=True),
           case(c, distinct((1, 2, 5)), (2,), id="tuple size"),
           case(c, u((2, 3, 4, 5)), 2, id="error: 4-D"),
           case("_module", "nn.AdaptiveMaxPool1d(3, return_indices=True)", distinct((1, 2, 6)), id="module")]
    # the *_with_indices forms (F and torch.*): values and indices whatever return_indices says
    for fn, x, args in (("max_pool1d_with_indices", (1, 2, 8), (3, 2, 1)),
                        ("max_pool2d_with_indices", (1, 2, 5, 5), (2,)),
                        ("max_pool3d_with_indices", (1, 1, 4, 4, 4), (2, 1)),
                        ("adaptive_max_pool1d_with_indices", (1, 2, 7), (3,)),
                        ("adaptive_max_pool2d_with_indices", (1, 2, 5, 4), ((2, 3),)),
                        ("adaptive_max_pool3d_with_indices", (1, 1, 4, 3, 4), (2,))):
        out.append(case(F + fn, distinct(x), *args, id=f"grad {fn}", grad=True))
    return out


@golden("upsample_bilinear")
def _upsample_bilinear():
    # deprecated: both warn (compared), then interpolate with align_corners=True / mode='nearest'
    return [case(F + "upsample_bilinear", u((1, 2, 3, 3)), scale_factor=2, id="grad scale_factor", grad=True),
            case(F + "upsample_bilinear", u((1, 1, 2, 3)), (3, 5), id="grad size", grad=True),
            case(F + "upsample_bilinear", u((1, 2, 3)), scale_factor=2, id="error: 3-D"),
            case(F + "upsample_nearest", u((1, 2, 3, 3)), scale_factor=2, id="grad nearest scale_factor", grad=True),
            case(F + "upsample_nearest", u((1, 2, 4)), 6, id="grad nearest 1-D size", grad=True),
            case("_module", "nn.UpsamplingBilinear2d(scale_factor=2)", u((1, 2, 2, 3)), id="grad module bilinear",
                 grad=True),
            case("_module", "nn.UpsamplingNearest2d(size=(3, 4))", u((1, 1, 2, 2)), id="grad module nearest",
                 grad=True),
            case(F + "upsample_nearest", u((1, 1, 2, 2, 3)), scale_factor=2, id="nearest 5-D")] + _interpolate_5d()


def _interpolate_5d():
    """interpolate's 5-D modes (trilinear, nearest), with nn.Upsample over them."""
    c = F + "interpolate"
    return [case(c, u((1, 2, 2, 3, 3)), scale_factor=2, mode="trilinear", id="grad trilinear scale_factor", grad=True),
            case(c, u((2, 1, 3, 2, 4)), (4, 3, 5), mode="trilinear", align_corners=True,
                 id="grad trilinear size align_corners", grad=True),
            case(c, u((1, 1, 4, 3, 3)), scale_factor=(0.5, 1.5, 2.0), mode="trilinear", id="grad trilinear factors",
                 grad=True),
            case(c, u((1, 1, 3, 3, 3)), scale_factor=1.7, mode="trilinear", recompute_scale_factor=True,
                 id="trilinear recompute_scale_factor"),
            case(c, u((1, 2, 2, 2, 3)), (3, 4, 5), id="grad nearest 5-D size", grad=True),
            case(c, u((1, 1, 2, 3, 2)), scale_factor=(2, 1, 3), mode="nearest", id="nearest 5-D factors"),
            case(c, u((1, 1, 3, 3)), scale_factor=2, mode="trilinear", id="error: trilinear 4-D"),
            case(c, u((1, 1, 2, 3, 3)), scale_factor=2, mode="bilinear", id="error: bilinear 5-D"),
            case(c, ints((1, 1, 2, 2, 2)), scale_factor=2, mode="trilinear", id="error: trilinear int64"),
            case("_module", "nn.Upsample(scale_factor=2, mode='trilinear')", u((1, 2, 2, 2, 2)),
                 id="grad module Upsample trilinear", grad=True),
            case("_module", "nn.Upsample(size=(3, 2, 4), mode='trilinear', align_corners=True)", u((1, 1, 2, 2, 2)),
                 id="module Upsample trilinear align_corners")]


@golden("convolution")
def _torch_names():
    """The torch.* names of nn ops, with torch's own signatures (ATen's argument orders, integer reductions)."""
    x1, x2 = u((2, 3, 6)), u((1, 2, 5, 5))
    out = [case("convolution", x1, u((4, 3, 3)), u((4,)), [2], [1], [1], False, [0], 1, id="grad conv1d", grad=True),
           case("convolution", x2, u((2, 1, 3, 3)), None, [1, 1], [1, 1], [1, 1], False, [0, 0], 2,
                id="grad conv2d groups", grad=True),
           case("convolution", u((1, 2, 4)), u((2, 3, 3)), None, [2], [1], [1], True, [1], 1, id="grad transposed 1d",
                grad=True),
           case("convolution", u((1, 2, 3, 3)), u((2, 2, 2, 2)), u((2,)), [2, 2], [0, 0], [1, 1], True, [0, 0], 1,
                id="transposed 2d"),
           case("conv1d", x1, u((2, 3, 2)), id="torch.conv1d"),
           case("conv2d", x2, u((3, 2, 2, 2)), None, 1, 1, id="torch.conv2d"),
           case("conv3d", u((1, 1, 3, 3, 3)), u((1, 1, 2, 2, 2)), id="torch.conv3d"),
           case("conv_transpose1d", u((1, 2, 3)), u((2, 1, 2)), id="grad torch.conv_transpose1d", grad=True),
           case("conv_transpose2d", u((1, 2, 3, 3)), u((2, 1, 2, 2)), None, 2, id="torch.conv_transpose2d"),
           case("conv_transpose3d", u((1, 1, 2, 2, 2)), u((1, 1, 2, 2, 2)), id="torch.conv_transpose3d"),
           case("avg_pool1d", u((1, 2, 6)), 2, id="torch.avg_pool1d"),
           case("max_pool1d", u((1, 2, 6)), 3, [], 1, id="grad torch.max_pool1d empty stride", grad=True),
           case("max_pool2d", u((1, 1, 4, 4)), [2, 2], [1, 1], id="torch.max_pool2d"),
           case("max_pool3d", u((1, 1, 4, 4, 4)), 2, id="torch.max_pool3d"),
           case("max_pool1d_with_indices", u((1, 2, 6)), 2, id="torch.max_pool1d_with_indices"),
           case("adaptive_avg_pool1d", u((1, 2, 7)), 3, id="torch.adaptive_avg_pool1d"),
           case("adaptive_max_pool1d", u((1, 2, 7)), [3], id="torch.adaptive_max_pool1d"),
           case("dropout", u((2, 3)), 0.5, False, id="grad torch.dropout eval", grad=True),
           case("dropout", u((2, 3)), 0.5, True, id="torch.dropout train", random=True),
           case("alpha_dropout", u((2, 3)), 0.5, False, id="torch.alpha_dropout eval"),
           case("feature_alpha_dropout", u((2, 3)), 0.5, False, id="torch.feature_alpha_dropout eval"),
           case("feature_dropout", u((2, 3)), 0.5, False, id="torch.feature_dropout eval"),
           case("batch_norm", u((4, 3)), uniform((3,), 0.5, 1.5), u((3,)), None, None, True, 0.1, 1e-5, False,
                id="grad torch.batch_norm training", grad=True),
           case("batch_norm", u((4, 3, 2)), None, None, u((3,)), uniform((3,), 0.5, 2), False, 0.1, 1e-5, False,
                id="torch.batch_norm eval"),
           case("instance_norm", u((2, 3, 4)), None, None, None, None, True, 0.1, 1e-5, False,
                id="grad torch.instance_norm", grad=True),
           case("layer_norm", u((2, 4)), [4], uniform((4,), 0.5, 1.5), u((4,)), 1e-5, True, id="grad torch.layer_norm",
                grad=True),
           case("group_norm", u((2, 4, 3)), 2, None, None, 1e-5, True, id="grad torch.group_norm", grad=True),
           case("embedding", u((5, 3)), np.array([[0, 4], [2, 2]], np.int64), id="grad torch.embedding", grad=True),
           case("embedding", u((5, 3)), np.array([0, 1, 1], np.int64), 1, id="grad torch.embedding padding_idx",
                grad=True),
           case("pixel_shuffle", u((1, 8, 2, 2)), 2, id="torch.pixel_shuffle"),
           case("pixel_unshuffle", u((1, 2, 4, 4)), 2, id="torch.pixel_unshuffle"),
           case("relu_", u((2, 3)), id="torch.relu_"),
           case("selu_", u((2, 3)), id="torch.selu_"),
           case("celu", u((2, 3)), 2.0, id="grad torch.celu", grad=True),
           case("celu_", u((2, 3)), id="torch.celu_"),
           case("threshold", u((2, 3)), 0.5, -1.0, id="grad torch.threshold", grad=True),
           case("threshold_", u((2, 3)), 0.5, -1.0, id="torch.threshold_"),
           case("rrelu_", u((2, 3)), id="torch.rrelu_ eval"),
           case("bilinear", u((2, 3)), u((2, 4)), u((5, 3, 4)), u((5,)), id="grad torch.bilinear", grad=True),
           case("native_channel_shuffle", u((1, 4, 2)), 2, id="torch.native_channel_shuffle"),
           case("constant_pad_nd", u((2, 3)), [1, 2], 5.0, id="grad torch.constant_pad_nd", grad=True),
           case("constant_pad_nd", u((1, 2, 3)), [1, 0, 0, 1], id="torch.constant_pad_nd default value"),
           case("grid_sampler", u((1, 2, 3, 3)), u((1, 2, 2, 2), -1, 1), 0, 0, False, id="grad torch.grid_sampler",
                grad=True),
           case("grid_sampler", u((1, 1, 3, 3)), u((1, 2, 2, 2), -1, 1), 1, 1, True, id="torch.grid_sampler nearest")]
    pos = lambda s: uniform(s, 0.1, 1.0)  # noqa: E731
    sgn = lambda s: np.where(uniform(s, -1, 1) < 0, -1.0, 1.0).astype(np.float32)  # noqa: E731
    # each loss under one of the integer reductions (0 'none', 1 'mean', 2 'sum'), with its gradient
    losses = [("kl_div", lambda: (u((3, 4), -2, 0), pos((3, 4)))),
              ("cosine_embedding_loss", lambda: (u((3, 4)), u((3, 4)), sgn((3,)), 0.1)),
              ("hinge_embedding_loss", lambda: (u((3, 4)), sgn((3, 4)), 1.0)),
              ("margin_ranking_loss", lambda: (u((5,)), u((5,)), sgn((5,)), 0.2)),
              ("poisson_nll_loss", lambda: (u((3, 4)), pos((3, 4)) * 3, True, False, 1e-8)),
              ("triplet_margin_loss", lambda: (u((3, 4)), u((3, 4)), u((3, 4)), 1.0, 2.0, 1e-6, False)),
              ("binary_cross_entropy_with_logits", lambda: (u((3, 4)), pos((3, 4)), None, None))]
    for i, (fn, make) in enumerate(losses):
        for r in ((0, 1, 2)[i % 3], (0, 1, 2)[(i + 1) % 3]):
            out.append(case(fn, *make(), r, id=f"grad torch.{fn} reduction={r}", grad=True))
    out += [case("kl_div", u((3, 4), -2, 0), pos((3, 4)), id="torch.kl_div default reduction"),
            case("hinge_embedding_loss", u((3, 4)), sgn((3, 4)), id="torch.hinge_embedding_loss defaults"),
            case("binary_cross_entropy_with_logits", u((3, 4)), pos((3, 4)), id="torch.bce_with_logits defaults"),
            case("kl_div", u((3, 4), -2, 0), u((3, 4), -2, 0), 2, log_target=True, id="torch.kl_div log_target"),
            case("kl_div", u((3, 4), -2, 0), pos((3, 4)), 3, id="torch.kl_div reduction=3 is none")]
    lp = np.log(np.exp(u((6, 2, 4))) / np.exp(u((6, 2, 4))).sum(-1, keepdims=True)).astype(np.float32)
    out.append(case("ctc_loss", lp, np.array([[1, 2], [3, 3]], np.int64), [6, 5], [2, 2], 0, 1,
                    id="grad torch.ctc_loss mean", grad=True))
    out.append(case("ctc_loss", lp, np.array([[1, 2], [3, 1]], np.int64), [6, 6], [2, 1], id="torch.ctc_loss default"))
    return out


OPS = ("celu", "glu", "hardshrink", "softshrink", "logsigmoid", "softsign", "tanhshrink", "threshold", "softmin",
       "prelu", "rrelu", "rms_norm", "alpha_dropout", "channel_shuffle", "pdist", "conv_transpose1d",
       "adaptive_max_pool1d", "upsample_bilinear", "convolution")
