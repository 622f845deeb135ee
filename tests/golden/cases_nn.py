"""Golden cases: torch.nn.functional layers and losses (imported by cases.py).

Convolutions, pooling, resampling, linear layers, normalization, dropout, embedding, attention and
losses. Weights, biases (and running statistics) are passed positionally, so that grad=True records
their gradients too; running statistics are passed through ``detach`` views in grad cases (PyTorch
refuses to differentiate with respect to them). ``_bn_train`` is a golden-only name (see
generate.py): batch_norm in training mode returning (out, updated running_mean, updated running_var).
"""
from __future__ import annotations

from fractions import Fraction
import math

import numpy as np

from cases import Big, V, big_in, bools, case, distinct, golden, ints, strided, uniform
from golden_io import formula

F = "nn.functional."


def u(shape, lo=-2.0, hi=2.0):
    return uniform(shape, lo, hi)


def w_(shape):
    """A weight tensor: values in [-1, 1)."""
    return uniform(shape, -1.0, 1.0)


def det(a):
    """``a.detach()``: an input that takes part in the call but is not differentiated (running stats)."""
    return V(a, ("detach",))


def pos(shape, lo=0.5, hi=2.0):
    """Positive values (variances)."""
    return uniform(shape, lo, hi)


def _fmt(kw):
    return " ".join(f"{k}={v}" for k, v in kw.items())


# ---------------------------------------------------------------------------------------------- convolution

def _conv_cases(fn, table, grad_ids):
    """table: (id, input, weight, bias, kwargs). grad_ids: ids that also get a grad case."""
    out = []
    for cid, x, w, b, kw in table:
        out.append(case(F + fn, x, w, b, id=cid, **kw))
        if cid in grad_ids:
            out.append(case(F + fn, x, w, b, id=f"grad {cid}", grad=True, **kw))
    return out


@golden("conv1d")
def _conv1d():
    t = [
        ("basic (2,3,10) k3", u((2, 3, 10)), w_((4, 3, 3)), w_((4,)), {}),
        ("no bias", u((2, 3, 10)), w_((4, 3, 3)), None, {}),
        ("stride 2", u((2, 3, 11)), w_((5, 3, 3)), w_((5,)), {"stride": 2}),
        ("stride tuple (3,)", u((1, 2, 13)), w_((3, 2, 2)), w_((3,)), {"stride": (3,)}),
        ("padding 1", u((2, 3, 7)), w_((4, 3, 3)), w_((4,)), {"padding": 1}),
        ("padding tuple (2,)", u((2, 3, 7)), w_((4, 3, 3)), None, {"padding": (2,)}),
        ("padding 4 > kernel", u((1, 2, 5)), w_((3, 2, 3)), w_((3,)), {"padding": 4}),
        ("padding same k3", u((2, 3, 9)), w_((4, 3, 3)), w_((4,)), {"padding": "same"}),
        ("padding same even k4", u((2, 3, 9)), w_((4, 3, 4)), w_((4,)), {"padding": "same"}),
        ("padding same dilation 2 k4", u((1, 2, 12)), w_((3, 2, 4)), w_((3,)), {"padding": "same", "dilation": 2}),
        ("padding valid", u((2, 3, 9)), w_((4, 3, 3)), w_((4,)), {"padding": "valid"}),
        ("dilation 2", u((2, 3, 12)), w_((4, 3, 3)), w_((4,)), {"dilation": 2}),
        ("dilation 3 stride 2 padding 2", u((1, 4, 17)), w_((2, 4, 3)), w_((2,)),
         {"dilation": 3, "stride": 2, "padding": 2}),
        ("groups 2", u((2, 4, 9)), w_((6, 2, 3)), w_((6,)), {"groups": 2}),
        ("depthwise groups 4", u((2, 4, 9)), w_((4, 1, 3)), w_((4,)), {"groups": 4}),
        ("depthwise multiplier 2", u((2, 3, 8)), w_((6, 1, 5)), w_((6,)), {"groups": 3, "padding": 2}),
        ("kernel 1", u((3, 16, 6)), w_((8, 16, 1)), w_((8,)), {}),
        ("kernel 5", u((2, 3, 15)), w_((4, 3, 5)), w_((4,)), {}),
        ("kernel equals length", u((2, 3, 5)), w_((4, 3, 5)), w_((4,)), {}),
        ("unbatched (3,10)", u((3, 10)), w_((4, 3, 3)), w_((4,)), {}),
        ("unbatched stride 2 padding 1", u((2, 9)), w_((5, 2, 3)), None, {"stride": 2, "padding": 1}),
        ("one channel", u((4, 1, 12)), w_((1, 1, 3)), w_((1,)), {}),
        ("16 channels batch 4", u((4, 16, 20)), w_((16, 16, 3)), w_((16,)), {"padding": 1}),
        ("stride > kernel", u((2, 3, 14)), w_((2, 3, 2)), w_((2,)), {"stride": 3}),
        ("all options", u((2, 4, 19)), w_((6, 2, 3)), w_((6,)),
         {"stride": 2, "padding": 3, "dilation": 2, "groups": 2}),
    ]
    grads = {"basic (2,3,10) k3", "no bias", "stride 2", "padding 1", "padding same even k4", "dilation 2",
             "groups 2", "depthwise groups 4", "kernel 1", "kernel 5", "unbatched (3,10)", "all options",
             "padding valid", "dilation 3 stride 2 padding 2", "depthwise multiplier 2", "stride > kernel"}
    out = _conv_cases("conv1d", t, grads)
    c = F + "conv1d"
    out.append(case(c, u((2, 3, 10)), w_((4, 3, 3)), w_((4,)), 2, 1, 1, 1, id="positional stride padding dilation"))
    out.append(case(c, u((2, 3, 10)), weight=w_((4, 3, 3)), bias=w_((4,)), id="weight and bias as kwargs"))
    # views
    out.append(case(c, V(u((2, 10, 3)), ("transpose", 1, 2)), w_((4, 3, 3)), w_((4,)), id="transposed input",
                    grad=True))
    out.append(case(c, strided(u((2, 3, 20))), w_((4, 3, 3)), w_((4,)), id="strided input", grad=True))
    out.append(case(c, u((2, 3, 10)), V(w_((3, 4, 3)), ("transpose", 0, 1)), w_((4,)), id="transposed weight",
                    grad=True))
    out.append(case(c, u((2, 3, 10)), w_((4, 3, 3)), V(w_((1,)), ("expand", 4)), id="expanded bias", grad=True))
    out.append(case(c, u((0, 3, 10)), w_((4, 3, 3)), w_((4,)), id="empty batch"))
    # errors
    out.append(case(c, u((2, 3, 10, 3)), w_((4, 3, 3)), None, id="error: 4-D input"))
    out.append(case(c, u((10,)), w_((4, 3, 3)), None, id="error: 1-D input"))
    out.append(case(c, u((2, 4, 10)), w_((4, 3, 3)), None, id="error: channel mismatch"))
    out.append(case(c, u((2, 3, 10)), w_((4, 3, 3)), w_((5,)), id="error: bias size mismatch"))
    out.append(case(c, u((2, 3, 10)), w_((4, 3)), None, id="error: 2-D weight"))
    out.append(case(c, u((2, 6, 10)), w_((4, 3, 3)), None, groups=4, id="error: groups do not divide channels"))
    out.append(case(c, u((2, 3, 2)), w_((4, 3, 3)), None, id="error: kernel bigger than input"))
    out.append(case(c, u((2, 3, 4)), w_((4, 3, 3)), None, dilation=2, id="error: dilated kernel bigger than input"))
    out.append(case(c, u((2, 3, 10)), w_((4, 3, 3)), None, stride=2, padding="same",
                    id="error: padding same with stride 2"))
    out.append(case(c, u((2, 3, 10)), w_((4, 3, 3)), None, padding="full", id="error: unknown padding string"))
    out.append(case(c, u((2, 3, 10)), w_((4, 3, 3)), None, padding=-1, id="error: negative padding"))
    out.append(case(c, u((2, 3, 10)), w_((4, 3, 3)), None, stride=0, id="error: stride 0"))
    out.append(case(c, u((2, 3, 10)), ints((4, 3, 3)), None, id="error: int64 weight"))
    # large
    out.append(case(c, Big((4, 16, 1024), seed=3000), Big((32, 16, 5), seed=3001), w_((32,)), padding=2,
                    id="4x16x1024 k5"))
    out.append(case(c, Big((4, 16, 512), seed=3002), Big((32, 16, 3), seed=3003), w_((32,)), stride=2, padding=1,
                    id="grad 4x16x512 stride 2", grad=True))
    return out


@golden("conv2d")
def _conv2d():
    t = [
        ("basic (2,3,8,8) k3", u((2, 3, 8, 8)), w_((4, 3, 3, 3)), w_((4,)), {}),
        ("no bias", u((2, 3, 8, 8)), w_((4, 3, 3, 3)), None, {}),
        ("stride 2", u((2, 3, 9, 9)), w_((4, 3, 3, 3)), w_((4,)), {"stride": 2}),
        ("stride (2,1)", u((2, 3, 9, 8)), w_((4, 3, 3, 3)), w_((4,)), {"stride": (2, 1)}),
        ("padding 1", u((2, 3, 7, 7)), w_((4, 3, 3, 3)), w_((4,)), {"padding": 1}),
        ("padding (2,1)", u((2, 3, 7, 6)), w_((4, 3, 3, 3)), w_((4,)), {"padding": (2, 1)}),
        ("padding (0,3)", u((1, 2, 5, 5)), w_((3, 2, 3, 3)), w_((3,)), {"padding": (0, 3)}),
        ("padding same k3", u((2, 3, 7, 9)), w_((4, 3, 3, 3)), w_((4,)), {"padding": "same"}),
        ("padding same k5", u((1, 3, 7, 6)), w_((2, 3, 5, 5)), w_((2,)), {"padding": "same"}),
        ("padding same even k (2,4)", u((2, 3, 7, 9)), w_((4, 3, 2, 4)), w_((4,)), {"padding": "same"}),
        ("padding same dilation 2", u((1, 2, 9, 9)), w_((3, 2, 3, 3)), w_((3,)), {"padding": "same", "dilation": 2}),
        ("padding same dilation (1,2) even k", u((1, 2, 8, 9)), w_((3, 2, 4, 2)), w_((3,)),
         {"padding": "same", "dilation": (1, 2)}),
        ("padding valid", u((2, 3, 8, 8)), w_((4, 3, 3, 3)), w_((4,)), {"padding": "valid"}),
        ("dilation 2", u((2, 3, 10, 10)), w_((4, 3, 3, 3)), w_((4,)), {"dilation": 2}),
        ("dilation (1,3)", u((2, 3, 8, 12)), w_((4, 3, 3, 3)), w_((4,)), {"dilation": (1, 3)}),
        ("groups 2", u((2, 4, 7, 7)), w_((6, 2, 3, 3)), w_((6,)), {"groups": 2}),
        ("groups 3 padding 1", u((1, 6, 6, 6)), w_((9, 2, 3, 3)), w_((9,)), {"groups": 3, "padding": 1}),
        ("depthwise 4 channels", u((2, 4, 7, 7)), w_((4, 1, 3, 3)), w_((4,)), {"groups": 4, "padding": 1}),
        ("depthwise multiplier 2", u((1, 3, 6, 6)), w_((6, 1, 3, 3)), w_((6,)), {"groups": 3}),
        ("depthwise 16 channels stride 2", u((2, 16, 8, 8)), w_((16, 1, 3, 3)), w_((16,)),
         {"groups": 16, "stride": 2, "padding": 1}),
        ("1x1 kernel", u((2, 16, 5, 5)), w_((8, 16, 1, 1)), w_((8,)), {}),
        ("1x1 kernel stride 2", u((2, 8, 7, 7)), w_((4, 8, 1, 1)), None, {"stride": 2}),
        ("5x5 kernel padding 2", u((1, 2, 9, 11)), w_((3, 2, 5, 5)), w_((3,)), {"padding": 2}),
        ("5x5 kernel", u((2, 3, 10, 10)), w_((4, 3, 5, 5)), w_((4,)), {}),
        ("unbatched (3,7,7)", u((3, 7, 7)), w_((4, 3, 3, 3)), w_((4,)), {}),
        ("unbatched stride 2 padding 1", u((2, 8, 9)), w_((3, 2, 3, 3)), None, {"stride": 2, "padding": 1}),
        ("odd sizes (3,5,11,13) k(3,2)", u((3, 5, 11, 13)), w_((7, 5, 3, 2)), w_((7,)),
         {"stride": (3, 2), "padding": (1, 0)}),
        ("one channel batch 4", u((4, 1, 6, 6)), w_((1, 1, 3, 3)), w_((1,)), {}),
        ("kernel equals input", u((1, 2, 5, 5)), w_((3, 2, 5, 5)), w_((3,)), {}),
        ("stride > kernel", u((2, 3, 10, 10)), w_((2, 3, 2, 2)), w_((2,)), {"stride": 3}),
        ("kernel (1,5)", u((2, 3, 6, 9)), w_((4, 3, 1, 5)), w_((4,)), {"padding": (0, 2)}),
        ("padding 3 > kernel", u((1, 2, 4, 4)), w_((3, 2, 3, 3)), w_((3,)), {"padding": 3}),
        ("16 channels batch 4", u((4, 16, 8, 8)), w_((16, 16, 3, 3)), w_((16,)), {"padding": 1}),
        ("all options", u((2, 4, 13, 11)), w_((6, 2, 3, 3)), w_((6,)),
         {"stride": 2, "padding": (2, 1), "dilation": (2, 1), "groups": 2}),
        ("1x1 output", u((3, 4, 3, 3)), w_((5, 4, 3, 3)), w_((5,)), {}),
    ]
    grads = {"basic (2,3,8,8) k3", "no bias", "stride 2", "stride (2,1)", "padding 1", "padding (2,1)",
             "padding same k3", "padding same even k (2,4)", "padding same dilation 2", "dilation 2",
             "dilation (1,3)", "groups 2", "groups 3 padding 1", "depthwise 4 channels", "depthwise multiplier 2",
             "depthwise 16 channels stride 2", "1x1 kernel", "5x5 kernel padding 2", "unbatched (3,7,7)",
             "odd sizes (3,5,11,13) k(3,2)", "one channel batch 4", "stride > kernel", "all options",
             "16 channels batch 4", "padding valid", "kernel equals input"}
    out = _conv_cases("conv2d", t, grads)
    c = F + "conv2d"
    out.append(case(c, u((2, 3, 8, 8)), w_((4, 3, 3, 3)), w_((4,)), (2, 1), (1, 0), 1, 1,
                    id="positional stride padding dilation groups"))
    out.append(case(c, u((2, 3, 8, 8)), weight=w_((4, 3, 3, 3)), bias=w_((4,)), padding=1,
                    id="weight and bias as kwargs"))
    # views
    out.append(case(c, V(u((2, 3, 8, 7)), ("transpose", 2, 3)), w_((4, 3, 3, 3)), w_((4,)),
                    id="transposed spatial dims", grad=True))
    out.append(case(c, V(u((2, 7, 8, 3)), ("permute", 0, 3, 1, 2)), w_((4, 3, 3, 3)), w_((4,)), padding=1,
                    id="channels-last view", grad=True))
    out.append(case(c, strided(u((2, 3, 8, 16))), w_((4, 3, 3, 3)), w_((4,)), id="strided input", grad=True))
    out.append(case(c, u((2, 3, 8, 8)), V(w_((8, 3, 3, 3)), ("__getitem__", slice(None, None, 2))), w_((4,)),
                    id="strided weight", grad=True))
    out.append(case(c, u((2, 3, 8, 8)), V(w_((3, 4, 3, 3)), ("transpose", 0, 1)), w_((4,)),
                    id="transposed weight", grad=True))
    out.append(case(c, u((2, 3, 8, 8)), w_((4, 3, 3, 3)), V(w_((1,)), ("expand", 4)), id="expanded bias",
                    grad=True))
    out.append(case(c, V(u((1, 3, 6, 6)), ("expand", 3, 3, 6, 6)), w_((2, 3, 3, 3)), w_((2,)),
                    id="expanded batch", grad=True))
    out.append(case(c, u((0, 3, 8, 8)), w_((4, 3, 3, 3)), w_((4,)), id="empty batch"))
    # errors
    out.append(case(c, u((3, 8)), w_((4, 3, 3, 3)), None, id="error: 2-D input"))
    out.append(case(c, u((1, 2, 3, 8, 8)), w_((4, 3, 3, 3)), None, id="error: 5-D input"))
    out.append(case(c, u((2, 4, 8, 8)), w_((4, 3, 3, 3)), None, id="error: channel mismatch"))
    out.append(case(c, u((3, 8, 8)), w_((4, 2, 3, 3)), None, id="error: unbatched channel mismatch"))
    out.append(case(c, u((2, 3, 8, 8)), w_((4, 3, 3)), None, id="error: 3-D weight"))
    out.append(case(c, u((2, 3, 8, 8)), w_((4, 3, 3, 3)), w_((3,)), id="error: bias size mismatch"))
    out.append(case(c, u((2, 3, 8, 8)), w_((4, 3, 3, 3)), w_((4, 1)), id="error: 2-D bias"))
    out.append(case(c, u((2, 6, 8, 8)), w_((4, 3, 3, 3)), None, groups=3, id="error: groups do not divide out"))
    out.append(case(c, u((2, 6, 8, 8)), w_((6, 3, 3, 3)), None, groups=4, id="error: groups do not divide in"))
    out.append(case(c, u((2, 3, 2, 8)), w_((4, 3, 3, 3)), None, id="error: kernel bigger than input"))
    out.append(case(c, u((2, 3, 4, 4)), w_((4, 3, 3, 3)), None, dilation=2, id="error: dilated kernel too big"))
    out.append(case(c, u((2, 3, 8, 8)), w_((4, 3, 3, 3)), None, stride=2, padding="same",
                    id="error: padding same with stride 2"))
    out.append(case(c, u((2, 3, 8, 8)), w_((4, 3, 3, 3)), None, padding="full", id="error: unknown padding string"))
    out.append(case(c, u((2, 3, 8, 8)), w_((4, 3, 3, 3)), None, padding=-1, id="error: negative padding"))
    out.append(case(c, u((2, 3, 8, 8)), w_((4, 3, 3, 3)), None, stride=0, id="error: stride 0"))
    out.append(case(c, u((2, 3, 8, 8)), w_((4, 3, 3, 3)), None, stride=(1, 2, 1), id="error: 3 strides"))
    out.append(case(c, u((2, 3, 8, 8)), ints((4, 3, 3, 3)), None, id="error: int64 weight"))
    # large: >= 64 channels on 32x32 images, a ResNet block conv, a stem conv
    out.append(case(c, Big((2, 64, 32, 32), seed=3010), Big((64, 64, 3, 3), seed=3011), w_((64,)), padding=1,
                    id="64 channels 32x32 k3"))
    out.append(case(c, Big((2, 64, 32, 32), seed=3012), Big((128, 64, 1, 1), seed=3013), None,
                    id="64->128 channels 32x32 1x1"))
    out.append(case(c, Big((2, 64, 32, 32), seed=3014), Big((64, 1, 3, 3), seed=3015), w_((64,)), padding=1,
                    groups=64, id="depthwise 64 channels 32x32", grad=True))
    out.append(case(c, Big((8, 32, 16, 16), seed=3016), Big((32, 32, 3, 3), seed=3017), w_((32,)), padding=1,
                    id="grad ResNet-like 8x32x16x16 k3", grad=True))
    out.append(case(c, Big((8, 32, 16, 16), seed=3018), Big((64, 32, 3, 3), seed=3019), None, stride=2, padding=1,
                    id="grad ResNet-like downsample stride 2", grad=True))
    out.append(case(c, Big((2, 3, 64, 64), seed=3020), Big((16, 3, 5, 5), seed=3021), w_((16,)), stride=2, padding=2,
                    id="grad stem 3x64x64 k5 stride 2", grad=True))
    out.append(case(c, Big((1, 64, 32, 32), seed=3022), Big((64, 64, 3, 3), seed=3023), w_((64,)), padding=1,
                    id="grad 64 channels 32x32 k3", grad=True))
    return out


@golden("conv_transpose2d")
def _conv_transpose2d():
    t = [
        ("basic (2,3,5,5) k3", u((2, 3, 5, 5)), w_((3, 4, 3, 3)), w_((4,)), {}),
        ("no bias", u((2, 3, 5, 5)), w_((3, 4, 3, 3)), None, {}),
        ("stride 2", u((2, 3, 4, 4)), w_((3, 2, 3, 3)), w_((2,)), {"stride": 2}),
        ("stride 2 k2 (upsampling)", u((2, 4, 5, 5)), w_((4, 2, 2, 2)), w_((2,)), {"stride": 2}),
        ("stride (2,3)", u((1, 3, 4, 3)), w_((3, 2, 3, 3)), w_((2,)), {"stride": (2, 3)}),
        ("padding 1", u((2, 3, 5, 5)), w_((3, 4, 3, 3)), w_((4,)), {"padding": 1}),
        ("padding (1,2)", u((2, 3, 5, 6)), w_((3, 4, 3, 5)), w_((4,)), {"padding": (1, 2)}),
        ("stride 2 padding 1 output_padding 1", u((2, 3, 4, 4)), w_((3, 2, 3, 3)), w_((2,)),
         {"stride": 2, "padding": 1, "output_padding": 1}),
        ("output_padding (1,0)", u((1, 2, 4, 5)), w_((2, 3, 3, 3)), w_((3,)),
         {"stride": 2, "output_padding": (1, 0)}),
        ("stride 3 output_padding 2", u((1, 2, 3, 3)), w_((2, 2, 3, 3)), None, {"stride": 3, "output_padding": 2}),
        ("dilation 2", u((2, 3, 5, 5)), w_((3, 4, 3, 3)), w_((4,)), {"dilation": 2}),
        ("dilation 2 output_padding 1", u((1, 2, 4, 4)), w_((2, 3, 3, 3)), w_((3,)),
         {"dilation": 2, "output_padding": 1, "stride": 1}),
        ("groups 2", u((2, 4, 5, 5)), w_((4, 3, 3, 3)), w_((6,)), {"groups": 2}),
        ("depthwise", u((2, 4, 5, 5)), w_((4, 1, 3, 3)), w_((4,)), {"groups": 4, "stride": 2}),
        ("1x1 kernel", u((2, 16, 4, 4)), w_((16, 8, 1, 1)), w_((8,)), {}),
        ("5x5 kernel stride 2 padding 2", u((1, 3, 4, 4)), w_((3, 2, 5, 5)), w_((2,)),
         {"stride": 2, "padding": 2, "output_padding": 1}),
        ("unbatched (3,4,4)", u((3, 4, 4)), w_((3, 2, 3, 3)), w_((2,)), {"stride": 2}),
        ("odd sizes (3,5,7,3)", u((3, 5, 7, 3)), w_((5, 3, 3, 2)), w_((3,)), {"stride": (1, 2), "padding": (1, 0)}),
        ("one channel", u((4, 1, 5, 5)), w_((1, 1, 3, 3)), w_((1,)), {}),
        ("all options", u((2, 4, 5, 4)), w_((4, 3, 3, 3)), w_((6,)),
         {"stride": 2, "padding": 1, "output_padding": 1, "groups": 2, "dilation": 2}),
        ("padding cuts output to 1x1", u((1, 2, 3, 3)), w_((2, 2, 3, 3)), w_((2,)), {"padding": 2}),
    ]
    grads = {"basic (2,3,5,5) k3", "no bias", "stride 2", "stride 2 k2 (upsampling)", "padding 1",
             "stride 2 padding 1 output_padding 1", "dilation 2", "groups 2", "depthwise", "1x1 kernel",
             "5x5 kernel stride 2 padding 2", "unbatched (3,4,4)", "odd sizes (3,5,7,3)", "all options",
             "stride 3 output_padding 2"}
    out = _conv_cases("conv_transpose2d", t, grads)
    c = F + "conv_transpose2d"
    out.append(case(c, u((2, 3, 4, 4)), w_((3, 2, 3, 3)), w_((2,)), 2, 1, 1, 1, 1,
                    id="positional stride padding output_padding groups dilation"))
    out.append(case(c, V(u((2, 3, 5, 4)), ("transpose", 2, 3)), w_((3, 2, 3, 3)), w_((2,)), stride=2,
                    id="transposed input", grad=True))
    out.append(case(c, u((2, 3, 4, 4)), V(w_((2, 3, 3, 3)), ("transpose", 0, 1)), w_((2,)), stride=2,
                    id="transposed weight", grad=True))
    out.append(case(c, strided(u((1, 3, 4, 8))), w_((3, 2, 3, 3)), None, id="strided input", grad=True))
    # errors
    out.append(case(c, u((1, 3, 4, 4)), w_((2, 3, 3, 3)), None, id="error: channel mismatch"))
    out.append(case(c, u((3, 4)), w_((3, 2, 3, 3)), None, id="error: 2-D input"))
    out.append(case(c, u((1, 3, 4, 4)), w_((3, 2, 3, 3)), None, stride=2, output_padding=2,
                    id="error: output_padding >= stride"))
    out.append(case(c, u((1, 3, 4, 4)), w_((3, 2, 3, 3)), None, padding=5, id="error: output size negative"))
    out.append(case(c, u((1, 3, 4, 4)), w_((3, 2, 3, 3)), w_((3,)), id="error: bias size mismatch"))
    out.append(case(c, u((1, 6, 4, 4)), w_((6, 2, 3, 3)), None, groups=4, id="error: groups do not divide channels"))
    out.append(case(c, u((1, 3, 4, 4)), w_((3, 2, 3, 3)), None, padding="same", id="error: padding string"))
    # large
    out.append(case(c, Big((2, 64, 16, 16), seed=3030), Big((64, 32, 4, 4), seed=3031), w_((32,)), stride=2,
                    padding=1, id="64 channels 16x16 -> 32x32 k4 stride 2"))
    out.append(case(c, Big((4, 32, 16, 16), seed=3032), Big((32, 16, 3, 3), seed=3033), w_((16,)), stride=2,
                    padding=1, output_padding=1, id="grad 32 channels 16x16 stride 2", grad=True))
    return out


# -------------------------------------------------------------------------------------------------- pooling

def _out_len(n, k, s, p, d, ceil):
    eff = d * (k - 1) + 1
    num = n + 2 * p - eff
    o = (-(-num // s) if ceil else num // s) + 1
    if ceil and (o - 1) * s >= n + p:
        o -= 1
    return o


def _window_max_untied(a, ks, ss, ps, ds):
    """True when the max of every pooling window over the trailing len(ks) dims is unique."""
    nd = len(ks)
    pad = [(0, 0)] * (a.ndim - nd) + [(p, p) for p in ps]
    ap = np.pad(a.astype(np.float64), pad, constant_values=-np.inf)
    outs = [_out_len(a.shape[a.ndim - nd + i], ks[i], ss[i], ps[i], ds[i], False) for i in range(nd)]
    vals = []
    for offs in np.ndindex(*ks):
        sl = [slice(None)] * (a.ndim - nd)
        for i, o in enumerate(offs):
            start = o * ds[i]
            sl.append(slice(start, start + (outs[i] - 1) * ss[i] + 1, ss[i]))
        vals.append(ap[tuple(sl)])
    st = np.sort(np.stack(vals, -1), -1)
    return bool((st[..., -1] > st[..., -2]).all())


def untied_pool_seed(shape, ks, ss, ps, ds, start):
    for seed in range(start, start + 200):
        if _window_max_untied(formula(shape, "float32", seed), ks, ss, ps, ds):
            return seed
    raise ValueError("no untied seed")


def _adaptive_max_untied(a, outs):
    nd = len(outs)
    ins = a.shape[-nd:]
    for idx in np.ndindex(*outs):
        sl = [Ellipsis]
        for i, o in enumerate(idx):
            s = (o * ins[i]) // outs[i]
            e = -(-((o + 1) * ins[i]) // outs[i])
            sl.append(slice(s, e))
        w = a[tuple(sl)].reshape(*a.shape[:-nd], -1)
        st = np.sort(w, -1)
        if w.shape[-1] > 1 and not (st[..., -1] > st[..., -2]).all():
            return False
    return True


def _maxpool(fn, nd):
    def gen():
        c = F + fn
        d = distinct
        out = []
        if nd == 1:
            table = [
                ("k2", (2, 3, 8), 2, {}),
                ("k3 stride 1", (2, 3, 9), 3, {"stride": 1}),
                ("k3 stride 2 padding 1", (2, 3, 10), 3, {"stride": 2, "padding": 1}),
                ("k4 stride 3", (1, 2, 13), 4, {"stride": 3}),
                ("k3 stride 2 ceil_mode", (2, 2, 10), 3, {"stride": 2, "ceil_mode": True}),
                ("k2 stride 2 padding 1 ceil_mode", (1, 3, 9), 2, {"stride": 2, "padding": 1, "ceil_mode": True}),
                ("k2 stride 2 padding 1 ceil_mode drops last window", (1, 2, 5), 2,
                 {"stride": 2, "padding": 1, "ceil_mode": True}),
                ("dilation 2", (2, 3, 12), 3, {"dilation": 2}),
                ("dilation 2 padding 1 stride 3", (1, 2, 15), 3, {"dilation": 2, "padding": 1, "stride": 3}),
                ("kernel 1", (2, 3, 7), 1, {}),
                ("kernel equals length", (2, 3, 7), 7, {}),
                ("stride > kernel", (2, 3, 14), 2, {"stride": 3}),
                ("unbatched (3,10)", (3, 10), 3, {}),
                ("unbatched padding 1", (4, 9), 3, {"stride": 2, "padding": 1}),
                ("16 channels batch 4", (4, 16, 32), 3, {"stride": 2, "padding": 1}),
                ("tuple kernel (3,) stride (2,)", (2, 3, 11), (3,), {"stride": (2,)}),
            ]
        else:
            table = [
                ("k2", (2, 3, 8, 8), 2, {}),
                ("k3 stride 1", (2, 3, 7, 7), 3, {"stride": 1}),
                ("k3 stride 2 padding 1", (2, 3, 9, 9), 3, {"stride": 2, "padding": 1}),
                ("k (2,3) stride (1,2)", (2, 3, 6, 9), (2, 3), {"stride": (1, 2)}),
                ("k (3,1)", (1, 2, 7, 5), (3, 1), {}),
                ("padding (1,0)", (1, 2, 6, 6), 3, {"padding": (1, 0), "stride": 2}),
                ("k3 stride 2 ceil_mode", (2, 2, 8, 8), 3, {"stride": 2, "ceil_mode": True}),
                ("k2 stride 2 ceil_mode odd", (1, 3, 7, 9), 2, {"stride": 2, "ceil_mode": True}),
                ("k2 stride 2 padding 1 ceil_mode drops last window", (1, 2, 5, 5), 2,
                 {"stride": 2, "padding": 1, "ceil_mode": True}),
                ("k3 stride 2 padding 1 ceil_mode", (1, 2, 10, 7), 3, {"stride": 2, "padding": 1, "ceil_mode": True}),
                ("dilation 2", (2, 3, 9, 9), 3, {"dilation": 2}),
                ("dilation (2,1) padding 1", (1, 2, 9, 7), 3, {"dilation": (2, 1), "padding": 1}),
                ("dilation 2 stride 2 padding 1 ceil_mode", (1, 2, 11, 12), 3,
                 {"dilation": 2, "stride": 2, "padding": 1, "ceil_mode": True}),
                ("kernel 1", (2, 3, 5, 5), 1, {}),
                ("kernel 1 stride 2", (1, 2, 7, 7), 1, {"stride": 2}),
                ("kernel equals input", (2, 3, 5, 5), 5, {}),
                ("stride > kernel", (2, 3, 10, 10), 2, {"stride": 3}),
                ("unbatched (3,7,7)", (3, 7, 7), 3, {"stride": 2}),
                ("unbatched padding 1", (2, 6, 5), 3, {"padding": 1}),
                ("16 channels batch 4", (4, 16, 8, 8), 2, {}),
                ("odd sizes (3,5,11,13)", (3, 5, 11, 13), (3, 2), {"stride": (2, 3), "padding": 1}),
                ("stride None explicit", (1, 2, 6, 6), 2, {"stride": None}),
            ]
        grads = {"k2", "k3 stride 1", "k3 stride 2 padding 1", "k3 stride 2 ceil_mode", "dilation 2",
                 "kernel equals input", "kernel equals length", "unbatched (3,10)", "unbatched (3,7,7)",
                 "k (2,3) stride (1,2)", "dilation 2 padding 1 stride 3", "k3 stride 2 padding 1 ceil_mode",
                 "dilation (2,1) padding 1", "odd sizes (3,5,11,13)", "stride > kernel", "16 channels batch 4"}
        for cid, shape, k, kw in table:
            x = d(shape)
            out.append(case(c, x, k, id=cid, **kw))
            if cid in grads:
                out.append(case(c, x, k, id=f"grad {cid}", grad=True, **kw))
            if cid in ("k2", "k3 stride 2 padding 1", "k3 stride 2 ceil_mode", "dilation 2", "unbatched (3,10)",
                       "unbatched (3,7,7)", "k (2,3) stride (1,2)", "dilation 2 padding 1 stride 3",
                       "k3 stride 2 padding 1 ceil_mode", "k2 stride 2 padding 1 ceil_mode drops last window"):
                out.append(case(c, x, k, return_indices=True, id=f"return_indices {cid}", **kw))
        sh = (2, 3, 9) if nd == 1 else (2, 3, 7, 7)
        out.append(case(c, d(sh), 3, 2, 1, id="positional stride padding"))
        out.append(case(c, d(sh), 3, return_indices=True, stride=2, padding=1, id="grad return_indices", grad=True))
        out.append(case(c, d(sh, -5, -1), 3, stride=2, padding=1, id="all negative with padding (pads with -inf)",
                        grad=True))
        xs = d(sh)
        xs.reshape(-1)[[3, 10, 17]] = [np.inf, -np.inf, np.nan]
        out.append(case(c, xs, 3, stride=2, padding=1, id="inf and nan propagate"))
        if nd == 2:  # max_pool1d has no int64 kernel on CPU
            out.append(case(c, distinct(sh, dtype="int64"), 2, id="int64 (probe)"))
        # views
        if nd == 1:
            out.append(case(c, V(d((2, 9, 3)), ("transpose", 1, 2)), 3, stride=2, id="transposed input", grad=True))
            out.append(case(c, strided(d((2, 3, 18))), 2, id="strided input", grad=True))
        else:
            out.append(case(c, V(d((2, 3, 8, 7)), ("transpose", 2, 3)), 3, stride=2, id="transposed input",
                            grad=True))
            out.append(case(c, V(d((2, 7, 7, 3)), ("permute", 0, 3, 1, 2)), 2, id="channels-last view", grad=True))
            out.append(case(c, strided(d((2, 3, 6, 12))), 2, id="strided input", grad=True))
        out.append(case(c, d((0,) + sh[1:]), 2, id="empty batch"))
        # errors
        bad_rank = u((2, 3, 4, 5)) if nd == 1 else u((6, 6))
        out.append(case(c, bad_rank, 2, id="error: wrong input rank"))
        out.append(case(c, u((6,)) if nd == 1 else u((2, 1, 2, 6, 6)), 2, id="error: wrong input rank (2)"))
        out.append(case(c, u(sh), 3, padding=2, id="error: padding above half the kernel"))
        small = (1, 2, 2) if nd == 1 else (1, 2, 2, 2)
        out.append(case(c, u(small), 3, id="error: kernel bigger than input"))
        out.append(case(c, u(sh), 2, stride=0, id="error: stride 0"))
        out.append(case(c, u(sh), 0, id="error: kernel 0"))
        out.append(case(c, u(sh), 2, dilation=0, id="error: dilation 0"))
        # large (tie-free windows)
        if nd == 1:
            shape, k, s, p = (4, 32, 4096), 3, 2, 1
            seed = untied_pool_seed(shape, (k,), (s,), (p,), (1,), 3040)
            out.append(case(c, Big(shape, seed=seed), k, stride=s, padding=p, id="4x32x4096 k3 stride 2"))
            seed = untied_pool_seed(shape, (2,), (2,), (0,), (1,), 3060)
            out.append(case(c, Big(shape, seed=seed), 2, id="grad 4x32x4096 k2", grad=True))
        else:
            shape = (4, 64, 32, 32)
            seed = untied_pool_seed(shape, (3, 3), (2, 2), (1, 1), (1, 1), 3040)
            out.append(case(c, Big(shape, seed=seed), 3, stride=2, padding=1, id="4x64x32x32 k3 stride 2 padding 1",
                            grad=True))
            seed = untied_pool_seed(shape, (2, 2), (2, 2), (0, 0), (1, 1), 3060)
            out.append(case(c, Big(shape, seed=seed), 2, return_indices=True, id="grad 4x64x32x32 k2 return_indices",
                            grad=True))
        return out
    golden(fn)(gen)


_maxpool("max_pool1d", 1)
_maxpool("max_pool2d", 2)


def _avgpool(fn, nd):
    def gen():
        c = F + fn
        out = []
        if nd == 1:
            table = [
                ("k2", (2, 3, 8), 2, {}),
                ("k3 stride 1", (2, 3, 9), 3, {"stride": 1}),
                ("k3 stride 2 padding 1", (2, 3, 10), 3, {"stride": 2, "padding": 1}),
                ("k3 stride 2 padding 1 count_include_pad False", (2, 3, 10), 3,
                 {"stride": 2, "padding": 1, "count_include_pad": False}),
                ("k4 stride 3", (1, 2, 13), 4, {"stride": 3}),
                ("k3 stride 2 ceil_mode", (2, 2, 10), 3, {"stride": 2, "ceil_mode": True}),
                ("k3 stride 2 padding 1 ceil_mode", (2, 2, 10), 3, {"stride": 2, "padding": 1, "ceil_mode": True}),
                ("k3 stride 2 padding 1 ceil_mode count_include_pad False", (2, 2, 10), 3,
                 {"stride": 2, "padding": 1, "ceil_mode": True, "count_include_pad": False}),
                ("k2 stride 2 padding 1 ceil_mode drops last window", (1, 2, 5), 2,
                 {"stride": 2, "padding": 1, "ceil_mode": True}),
                ("k4 padding 2 count_include_pad False", (1, 3, 9), 4, {"padding": 2, "count_include_pad": False}),
                ("kernel 1", (2, 3, 7), 1, {}),
                ("kernel equals length", (2, 3, 7), 7, {}),
                ("stride > kernel", (2, 3, 14), 2, {"stride": 3}),
                ("unbatched (3,10)", (3, 10), 3, {}),
                ("unbatched padding 1", (4, 9), 3, {"stride": 2, "padding": 1}),
                ("16 channels batch 4", (4, 16, 32), 3, {"stride": 2, "padding": 1}),
                ("tuple kernel (3,) stride (2,)", (2, 3, 11), (3,), {"stride": (2,)}),
            ]
        else:
            table = [
                ("k2", (2, 3, 8, 8), 2, {}),
                ("k3 stride 1", (2, 3, 7, 7), 3, {"stride": 1}),
                ("k3 stride 2 padding 1", (2, 3, 9, 9), 3, {"stride": 2, "padding": 1}),
                ("k3 stride 2 padding 1 count_include_pad False", (2, 3, 9, 9), 3,
                 {"stride": 2, "padding": 1, "count_include_pad": False}),
                ("k (2,3) stride (1,2)", (2, 3, 6, 9), (2, 3), {"stride": (1, 2)}),
                ("padding (1,0)", (1, 2, 6, 6), 3, {"padding": (1, 0), "stride": 2}),
                ("k3 stride 2 ceil_mode", (2, 2, 8, 8), 3, {"stride": 2, "ceil_mode": True}),
                ("k3 stride 2 padding 1 ceil_mode", (1, 2, 10, 7), 3, {"stride": 2, "padding": 1, "ceil_mode": True}),
                ("k3 stride 2 padding 1 ceil_mode count_include_pad False", (1, 2, 10, 7), 3,
                 {"stride": 2, "padding": 1, "ceil_mode": True, "count_include_pad": False}),
                ("k2 stride 2 padding 1 ceil_mode drops last window", (1, 2, 5, 5), 2,
                 {"stride": 2, "padding": 1, "ceil_mode": True}),
                ("k2 stride 2 padding 1 ceil_mode count_include_pad", (1, 1, 5, 5), 2,
                 {"stride": 2, "padding": 1, "ceil_mode": True, "count_include_pad": True}),
                ("divisor_override 3", (2, 3, 6, 6), 2, {"divisor_override": 3}),
                ("divisor_override 1 padding 1", (1, 2, 7, 7), 3, {"padding": 1, "stride": 2, "divisor_override": 1}),
                ("divisor_override with count_include_pad False", (1, 2, 7, 7), 3,
                 {"padding": 1, "divisor_override": 5, "count_include_pad": False}),
                ("kernel 1", (2, 3, 5, 5), 1, {}),
                ("kernel equals input", (2, 3, 5, 5), 5, {}),
                ("stride > kernel", (2, 3, 10, 10), 2, {"stride": 3}),
                ("unbatched (3,7,7)", (3, 7, 7), 3, {"stride": 2}),
                ("unbatched padding 1", (2, 6, 5), 3, {"padding": 1}),
                ("16 channels batch 4", (4, 16, 8, 8), 2, {}),
                ("odd sizes (3,5,11,13)", (3, 5, 11, 13), (3, 2), {"stride": (2, 3), "padding": 1}),
                ("k (5,3) padding (2,1) count_include_pad False", (1, 2, 9, 6), (5, 3),
                 {"padding": (2, 1), "count_include_pad": False}),
            ]
        grads = {"k2", "k3 stride 1", "k3 stride 2 padding 1", "k3 stride 2 padding 1 count_include_pad False",
                 "k3 stride 2 ceil_mode", "k3 stride 2 padding 1 ceil_mode",
                 "k3 stride 2 padding 1 ceil_mode count_include_pad False", "divisor_override 3",
                 "divisor_override 1 padding 1", "kernel equals input", "kernel equals length", "unbatched (3,10)",
                 "unbatched (3,7,7)", "k (2,3) stride (1,2)", "odd sizes (3,5,11,13)", "stride > kernel",
                 "k4 padding 2 count_include_pad False", "k2 stride 2 padding 1 ceil_mode count_include_pad"}
        for cid, shape, k, kw in table:
            x = u(shape)
            out.append(case(c, x, k, id=cid, **kw))
            if cid in grads:
                out.append(case(c, x, k, id=f"grad {cid}", grad=True, **kw))
        sh = (2, 3, 9) if nd == 1 else (2, 3, 7, 7)
        out.append(case(c, u(sh), 3, 2, 1, False, False, id="positional stride padding ceil_mode count_include_pad"))
        xs = u(sh)
        xs.reshape(-1)[[3, 40]] = [np.inf, np.nan]
        out.append(case(c, xs, 3, stride=2, padding=1, id="inf and nan propagate"))
        if nd == 1:
            out.append(case(c, V(u((2, 9, 3)), ("transpose", 1, 2)), 3, stride=2, id="transposed input", grad=True))
            out.append(case(c, strided(u((2, 3, 18))), 2, id="strided input", grad=True))
        else:
            out.append(case(c, V(u((2, 3, 8, 7)), ("transpose", 2, 3)), 3, stride=2, id="transposed input",
                            grad=True))
            out.append(case(c, V(u((2, 7, 7, 3)), ("permute", 0, 3, 1, 2)), 2, id="channels-last view", grad=True))
            out.append(case(c, strided(u((2, 3, 6, 12))), 2, id="strided input", grad=True))
        out.append(case(c, u((0,) + sh[1:]), 2, id="empty batch"))
        # errors
        bad_rank = u((2, 3, 4, 5)) if nd == 1 else u((6, 6))
        out.append(case(c, bad_rank, 2, id="error: wrong input rank"))
        out.append(case(c, u(sh), 3, padding=2, id="error: padding above half the kernel"))
        small = (1, 2, 2) if nd == 1 else (1, 2, 2, 2)
        out.append(case(c, u(small), 3, id="error: kernel bigger than input"))
        out.append(case(c, u(sh), 2, stride=0, id="error: stride 0"))
        out.append(case(c, ints(sh), 2, id="int64 (probe)"))
        if nd == 2:
            out.append(case(c, u(sh), 2, divisor_override=0, id="error: divisor_override 0"))
        # large
        if nd == 1:
            out.append(case(c, Big((4, 32, 4096), seed=3080), 3, stride=2, padding=1, id="4x32x4096 k3 stride 2"))
            out.append(case(c, Big((4, 32, 4096), seed=3081), 4, stride=4, id="grad 4x32x4096 k4", grad=True))
        else:
            out.append(case(c, Big((4, 64, 32, 32), seed=3080), 3, stride=2, padding=1,
                            id="4x64x32x32 k3 stride 2 padding 1", grad=True))
            out.append(case(c, Big((4, 64, 32, 32), seed=3081), 2, id="grad 4x64x32x32 k2", grad=True))
            out.append(case(c, Big((2, 64, 32, 32), seed=3082), 3, stride=2, padding=1, ceil_mode=True,
                            count_include_pad=False, id="grad 2x64x32x32 ceil_mode count_include_pad False",
                            grad=True))
        return out
    golden(fn)(gen)


_avgpool("avg_pool1d", 1)
_avgpool("avg_pool2d", 2)


@golden("adaptive_avg_pool1d")
def _adaptive_avg_pool1d():
    c = F + "adaptive_avg_pool1d"
    out = []
    for shape, o in [((2, 3, 8), 4), ((2, 3, 8), 1), ((2, 3, 7), 3), ((2, 3, 10), 4), ((1, 2, 5), 7), ((2, 3, 5), 5),
                     ((1, 4, 13), 5), ((3, 10), 3), ((4, 16, 33), 8), ((2, 3, 1), 3), ((2, 3, 6), (4,))]:
        out.append(case(c, u(shape), o, id=f"{shape} -> {o}"))
    for shape, o in [((2, 3, 8), 4), ((2, 3, 7), 3), ((2, 3, 10), 4), ((1, 2, 5), 7), ((3, 10), 3), ((2, 3, 9), 1)]:
        out.append(case(c, u(shape), o, id=f"grad {shape} -> {o}", grad=True))
    out.append(case(c, V(u((2, 10, 3)), ("transpose", 1, 2)), 4, id="transposed input", grad=True))
    out.append(case(c, strided(u((2, 3, 14))), 3, id="strided input", grad=True))
    out.append(case(c, u((0, 3, 6)), 2, id="empty batch"))
    out.append(case(c, u((6,)), 2, id="error: 1-D input"))
    out.append(case(c, u((2, 3, 4, 4)), 2, id="error: 4-D input"))
    out.append(case(c, u((2, 3, 0)), 2, id="error: empty length"))
    out.append(case(c, u((2, 3, 6)), -1, id="error: negative output size"))
    out.append(case(c, Big((8, 64, 1000), seed=3090), 7, id="8x64x1000 -> 7"))
    out.append(case(c, Big((8, 64, 1000), seed=3091), 30, id="grad 8x64x1000 -> 30", grad=True))
    return out


@golden("adaptive_avg_pool2d")
def _adaptive_avg_pool2d():
    c = F + "adaptive_avg_pool2d"
    out = []
    for shape, o in [((2, 3, 8, 8), 4), ((2, 3, 8, 8), 1), ((2, 3, 8, 8), (1, 1)), ((2, 3, 7, 7), 3),
                     ((2, 3, 10, 9), (4, 5)), ((1, 2, 5, 5), 7), ((1, 2, 5, 6), (7, 4)), ((2, 3, 6, 6), 6),
                     ((1, 4, 13, 11), (5, 3)), ((3, 7, 7), 3), ((2, 3, 7, 5), (None, 3)), ((2, 3, 7, 5), (2, None)),
                     ((4, 16, 7, 9), 2), ((2, 3, 1, 1), 3), ((2, 3, 4, 4), (2, 1))]:
        out.append(case(c, u(shape), o, id=f"{shape} -> {o}"))
    for shape, o in [((2, 3, 8, 8), 4), ((2, 3, 7, 7), 3), ((2, 3, 10, 9), (4, 5)), ((1, 2, 5, 6), (7, 4)),
                     ((3, 7, 7), 3), ((2, 3, 6, 6), 1), ((2, 3, 7, 5), (None, 3))]:
        out.append(case(c, u(shape), o, id=f"grad {shape} -> {o}", grad=True))
    out.append(case(c, V(u((2, 3, 9, 7)), ("transpose", 2, 3)), 4, id="transposed input", grad=True))
    out.append(case(c, V(u((2, 7, 7, 3)), ("permute", 0, 3, 1, 2)), 3, id="channels-last view", grad=True))
    out.append(case(c, u((0, 3, 6, 6)), 2, id="empty batch"))
    out.append(case(c, u((6, 6)), 2, id="error: 2-D input"))
    out.append(case(c, u((2, 3, 0, 4)), 2, id="error: empty height"))
    out.append(case(c, u((2, 3, 6, 6)), -1, id="error: negative output size"))
    out.append(case(c, Big((4, 64, 32, 32), seed=3100), 1, id="4x64x32x32 global"))
    out.append(case(c, Big((4, 64, 32, 32), seed=3101), (7, 5), id="grad 4x64x32x32 -> (7,5)", grad=True))
    out.append(case(c, Big((2, 512, 7, 7), seed=3102), 1, id="grad 2x512x7x7 global (ResNet head)", grad=True))
    return out


@golden("adaptive_max_pool2d")
def _adaptive_max_pool2d():
    c = F + "adaptive_max_pool2d"
    out = []
    for shape, o in [((2, 3, 8, 8), 4), ((2, 3, 8, 8), 1), ((2, 3, 7, 7), 3), ((2, 3, 10, 9), (4, 5)),
                     ((1, 2, 5, 5), 7), ((1, 2, 5, 6), (7, 4)), ((2, 3, 6, 6), 6), ((1, 4, 13, 11), (5, 3)),
                     ((3, 7, 7), 3), ((2, 3, 7, 5), (None, 3)), ((4, 16, 7, 9), 2), ((2, 3, 1, 1), 3)]:
        out.append(case(c, distinct(shape), o, id=f"{shape} -> {o}"))
    for shape, o in [((2, 3, 7, 7), 3), ((1, 2, 5, 6), (7, 4)), ((3, 7, 7), 3), ((2, 3, 10, 9), (4, 5))]:
        out.append(case(c, distinct(shape), o, return_indices=True, id=f"return_indices {shape} -> {o}"))
    for shape, o in [((2, 3, 8, 8), 4), ((2, 3, 7, 7), 3), ((2, 3, 10, 9), (4, 5)), ((1, 2, 5, 6), (7, 4)),
                     ((3, 7, 7), 3), ((2, 3, 6, 6), 1)]:
        out.append(case(c, distinct(shape), o, id=f"grad {shape} -> {o}", grad=True))
    out.append(case(c, distinct((2, 3, 7, 7)), 3, True, id="grad return_indices positional", grad=True))
    out.append(case(c, V(distinct((2, 3, 9, 7)), ("transpose", 2, 3)), 4, id="transposed input", grad=True))
    x = distinct((1, 2, 6, 6))
    x.reshape(-1)[[5, 40]] = [np.inf, np.nan]
    out.append(case(c, x, 3, id="inf and nan propagate"))
    out.append(case(c, distinct((1, 2, 6, 6), -5, -1), 4, id="all negative"))
    out.append(case(c, u((6, 6)), 2, id="error: 2-D input"))
    out.append(case(c, u((2, 3, 0, 4)), 2, id="error: empty height"))
    shape = (4, 64, 32, 32)
    for seed in range(3110, 3310):
        if _adaptive_max_untied(formula(shape, "float32", seed), (5, 7)):
            break
    out.append(case(c, Big(shape, seed=seed), (5, 7), id="grad 4x64x32x32 -> (5,7)", grad=True))
    return out


# ------------------------------------------------------------------------------------------------- resampling

def _nearest_ok(n_in, n_out, sf=None):
    """PyTorch's float32 nearest source index floor(dst * scale) equals the exact one, away from rounding."""
    if n_out == n_in or n_out == 2 * n_in:
        return True
    scale = np.float32(1.0 / sf) if sf else np.float32(n_in) / np.float32(n_out)
    exact_scale = 1 / Fraction(sf).limit_denominator(1000) if sf else Fraction(n_in, n_out)
    for dst in range(n_out):
        f = float(np.float32(np.float32(dst) * scale))
        e = dst * exact_scale
        if math.floor(f) != math.floor(e):
            return False
        frac = e - math.floor(e)
        if frac != 0 and min(frac, 1 - frac) < Fraction(1, 1000):
            return False
    return True


@golden("interpolate")
def _interpolate():
    c = F + "interpolate"
    out = []

    def check_nearest(shape, size=None, sf=None):
        sp = shape[2:]
        for i, n in enumerate(sp):
            if size is not None:
                o = size if isinstance(size, int) else size[i]
                assert _nearest_ok(n, o), (shape, size)
            else:
                s = sf if isinstance(sf, (int, float)) else sf[i]
                assert _nearest_ok(n, math.floor(n * s), s), (shape, sf)

    nearest = [((2, 3, 4, 4), {"size": 8}), ((2, 3, 4, 4), {"size": (8, 12)}), ((1, 2, 8, 8), {"size": 3}),
               ((1, 2, 5, 7), {"size": (7, 5)}), ((1, 2, 6, 6), {"size": (4, 9)}), ((2, 3, 4, 5), {"scale_factor": 2}),
               ((2, 3, 4, 5), {"scale_factor": 2.0}), ((1, 2, 4, 6), {"scale_factor": (2, 3)}),
               ((1, 2, 8, 8), {"scale_factor": 0.5}), ((1, 2, 6, 6), {"scale_factor": 1.5}),
               ((1, 2, 7, 9), {"scale_factor": 0.75}), ((1, 2, 5, 5), {"scale_factor": 1.7}),
               ((1, 2, 5, 5), {"scale_factor": 1.7, "recompute_scale_factor": True}),
               ((1, 2, 9, 9), {"scale_factor": 0.4, "recompute_scale_factor": True}),
               ((1, 1, 1, 1), {"size": (3, 4)}), ((2, 3, 5, 5), {"size": 5}),
               ((2, 3, 7), {"size": 14}), ((2, 3, 10), {"size": 4}), ((2, 3, 6), {"scale_factor": 3}),
               ((1, 2, 9), {"scale_factor": 0.5}), ((4, 16, 8, 8), {"size": 16})]
    for shape, kw in nearest:
        check_nearest(shape, kw.get("size"), None if "size" in kw else kw["scale_factor"])
        out.append(case(c, u(shape), id=f"nearest {shape} {_fmt(kw)}", **kw))
    out.append(case(c, u((1, 2, 4, 4)), 8, None, "nearest", id="positional size mode"))
    for shape, kw in [((2, 3, 4, 4), {"size": 8}), ((1, 2, 5, 7), {"size": (7, 5)}), ((1, 2, 8, 8), {"size": 3}),
                      ((1, 2, 4, 6), {"scale_factor": (2, 3)}), ((1, 2, 6, 6), {"scale_factor": 1.5}),
                      ((2, 3, 7), {"size": 14}), ((2, 3, 10), {"size": 4})]:
        out.append(case(c, u(shape), id=f"grad nearest {shape} {_fmt(kw)}", grad=True, **kw))
    bil = [((2, 3, 4, 4), {"size": 8}), ((2, 3, 4, 4), {"size": (8, 11)}), ((1, 2, 8, 8), {"size": 3}),
           ((1, 2, 5, 7), {"size": (7, 5)}), ((2, 3, 4, 5), {"scale_factor": 2}),
           ((1, 2, 4, 6), {"scale_factor": (2, 3)}),
           ((1, 2, 8, 8), {"scale_factor": 0.5}), ((1, 2, 6, 6), {"scale_factor": 1.5}),
           ((1, 2, 7, 9), {"scale_factor": 0.75}), ((1, 2, 5, 5), {"scale_factor": 1.7}),
           ((1, 2, 5, 5), {"scale_factor": 1.7, "recompute_scale_factor": True}), ((1, 1, 1, 1), {"size": (3, 4)}),
           ((1, 2, 4, 4), {"size": (1, 1)}), ((2, 3, 5, 5), {"size": 5}), ((1, 2, 1, 6), {"size": (4, 3)}),
           ((4, 16, 8, 8), {"size": 16})]
    for ac in (False, True):
        for shape, kw in bil:
            if ac and "recompute_scale_factor" in kw:
                continue
            out.append(case(c, u(shape), mode="bilinear", align_corners=ac,
                            id=f"bilinear align_corners={ac} {shape} {_fmt(kw)}", **kw))
    out.append(case(c, u((1, 2, 4, 4)), size=7, mode="bilinear", id="bilinear align_corners default"))
    for ac in (False, True):
        for shape, kw in [((2, 3, 4, 4), {"size": 8}), ((1, 2, 5, 7), {"size": (7, 5)}), ((1, 2, 8, 8), {"size": 3}),
                          ((1, 2, 4, 6), {"scale_factor": (2, 3)}), ((1, 2, 7, 9), {"scale_factor": 0.75}),
                          ((1, 2, 1, 6), {"size": (4, 3)})]:
            out.append(case(c, u(shape), mode="bilinear", align_corners=ac, grad=True,
                            id=f"grad bilinear align_corners={ac} {shape} {_fmt(kw)}", **kw))
    # 1-D linear on 3-D input
    for ac in (False, True):
        for shape, kw in [((2, 3, 5), {"size": 9}), ((2, 3, 9), {"size": 4}), ((1, 2, 6), {"scale_factor": 2.5})]:
            out.append(case(c, u(shape), mode="linear", align_corners=ac,
                            id=f"linear align_corners={ac} {shape} {_fmt(kw)}", **kw))
        out.append(case(c, u((2, 3, 5)), mode="linear", align_corners=ac, size=8, grad=True,
                        id=f"grad linear align_corners={ac}"))
    # views
    out.append(case(c, V(u((2, 3, 5, 4)), ("transpose", 2, 3)), size=(7, 9), mode="bilinear", id="bilinear transposed",
                    grad=True))
    out.append(case(c, V(u((2, 4, 4, 3)), ("permute", 0, 3, 1, 2)), scale_factor=2, mode="bilinear",
                    align_corners=True, id="bilinear channels-last view", grad=True))
    out.append(case(c, strided(u((1, 2, 4, 8))), size=8, id="nearest strided", grad=True))
    # errors
    out.append(case(c, u((1, 2, 4, 4)), size=3, scale_factor=2, id="error: size and scale_factor"))
    out.append(case(c, u((1, 2, 4, 4)), id="error: neither size nor scale_factor"))
    out.append(case(c, u((1, 2, 4, 4)), size=3, align_corners=True, id="error: align_corners with nearest"))
    out.append(case(c, u((1, 2, 5)), scale_factor=2, mode="bilinear", id="error: bilinear on 3-D input"))
    out.append(case(c, u((1, 2, 4, 4)), size=3, mode="linear", id="error: linear on 4-D input"))
    out.append(case(c, u((1, 2, 4, 4)), size=(3, 3, 3), id="error: size of the wrong length"))
    out.append(case(c, u((4, 4)), size=3, id="error: 2-D input"))
    out.append(case(c, u((1, 2, 4, 4)), size=3, mode="cubic", id="error: unknown mode"))
    # large
    out.append(case(c, Big((2, 16, 64, 64), seed=3320), scale_factor=2, id="nearest 2x16x64x64 x2"))
    out.append(case(c, Big((2, 16, 64, 64), seed=3321), scale_factor=2, mode="bilinear", id="bilinear 2x16x64x64 x2",
                    grad=True))
    out.append(case(c, Big((2, 16, 64, 64), seed=3322), size=(45, 37), mode="bilinear", align_corners=True,
                    id="grad bilinear 2x16x64x64 -> 45x37 align_corners", grad=True))
    out.append(case(c, Big((2, 16, 64, 64), seed=3323), size=32, id="grad nearest 2x16x64x64 -> 32", grad=True))
    return out


def _pixel(fn, shuffle):
    def gen():
        c = F + fn
        out = []
        if shuffle:
            table = [((1, 8, 3, 3), 2), ((2, 9, 2, 4), 3), ((4, 2, 2), 2), ((2, 4, 3, 5), 1), ((2, 1, 8, 2, 2), 2),
                     ((2, 32, 4, 4), 4), ((1, 4, 1, 1), 2), ((3, 12, 5, 3), 2)]
        else:
            table = [((1, 2, 6, 6), 2), ((2, 1, 6, 12), 3), ((2, 4, 4), 2), ((2, 4, 3, 5), 1), ((2, 1, 2, 4, 4), 2),
                     ((2, 2, 16, 16), 4), ((1, 1, 2, 2), 2), ((3, 3, 10, 6), 2)]
        for shape, r in table:
            out.append(case(c, u(shape), r, id=f"{shape} r={r}"))
        for shape, r in table[:6]:
            out.append(case(c, u(shape), r, id=f"grad {shape} r={r}", grad=True))
        out.append(case(c, ints(table[0][0]), table[0][1], id="int64"))
        out.append(case(c, bools(table[0][0]), table[0][1], id="bool"))
        sh, r = table[0]
        out.append(case(c, V(u((sh[0], sh[1], sh[3], sh[2])), ("transpose", 2, 3)), r, id="transposed input",
                        grad=True))
        out.append(case(c, V(u((sh[0], sh[2], sh[3], sh[1])), ("permute", 0, 3, 1, 2)), r, id="channels-last view",
                        grad=True))
        out.append(case(c, u((0,) + sh[1:]), r, id="empty batch"))
        if shuffle:
            out.append(case(c, u((1, 5, 3, 3)), 2, id="error: channels not divisible by r^2"))
            out.append(case(c, u((4, 4)), 2, id="error: 2-D input"))
            out.append(case(c, Big((4, 64, 32, 32), seed=3330), 2, id="4x64x32x32 r=2", grad=True))
        else:
            out.append(case(c, u((1, 2, 5, 6)), 2, id="error: height not divisible"))
            out.append(case(c, u((1, 2, 6, 5)), 2, id="error: width not divisible"))
            out.append(case(c, u((4, 4)), 2, id="error: 2-D input"))
            out.append(case(c, Big((4, 16, 64, 64), seed=3331), 2, id="4x16x64x64 r=2", grad=True))
        out.append(case(c, u(sh), 0, id="error: factor 0"))
        return out
    golden(fn)(gen)


_pixel("pixel_shuffle", True)
_pixel("pixel_unshuffle", False)


# ------------------------------------------------------------------------------------------------------ linear

@golden("linear")
def _linear():
    c = F + "linear"
    out = []
    for xs, ws, bs in [((3, 4), (5, 4), (5,)), ((3, 4), (5, 4), None), ((4,), (5, 4), (5,)), ((2, 3, 4), (5, 4), (5,)),
                       ((2, 2, 3, 4), (6, 4), (6,)), ((3, 4), (1, 4), (1,)), ((3, 4), (4,), None), ((4,), (4,), ()),
                       ((0, 4), (5, 4), (5,)), ((3, 0), (5, 0), (5,)), ((3, 4), (5, 4), (1,)),
                       ((17, 33), (65, 33), (65,)), ((1, 1), (1, 1), (1,))]:
        b = None if bs is None else w_(bs)
        out.append(case(c, u(xs), w_(ws), b, id=f"{xs} {ws} bias {bs}"))
    for xs, ws, bs in [((3, 4), (5, 4), (5,)), ((3, 4), (5, 4), None), ((4,), (5, 4), (5,)), ((2, 3, 4), (5, 4), (5,)),
                       ((2, 2, 3, 4), (6, 4), (6,)), ((3, 4), (4,), None), ((3, 4), (5, 4), (1,)),
                       ((17, 33), (65, 33), (65,)), ((0, 4), (5, 4), (5,))]:
        b = None if bs is None else w_(bs)
        out.append(case(c, u(xs), w_(ws), b, id=f"grad {xs} {ws} bias {bs}", grad=True))
    out.append(case(c, u((3, 4)), weight=w_((5, 4)), bias=w_((5,)), id="kwargs"))
    out.append(case(c, V(u((4, 3)), ("t",)), w_((5, 4)), w_((5,)), id="transposed input", grad=True))
    out.append(case(c, u((3, 4)), V(w_((4, 5)), ("t",)), w_((5,)), id="transposed weight (x @ W)", grad=True))
    out.append(case(c, strided(u((3, 8))), w_((5, 4)), w_((5,)), id="strided input", grad=True))
    out.append(case(c, V(u((1, 4)), ("expand", 3, 4)), w_((5, 4)), V(w_((1,)), ("expand", 5)),
                    id="expanded input and bias", grad=True))
    out.append(case(c, V(u((3, 2, 4)), ("transpose", 0, 1)), w_((5, 4)), w_((5,)), id="3-D transposed batch",
                    grad=True))
    out.append(case(c, u((3, 4)), w_((5, 3)), None, id="error: in features mismatch"))
    out.append(case(c, u((3, 4)), w_((5, 4)), w_((4,)), id="error: bias size mismatch"))
    out.append(case(c, u((3, 4)), ints((5, 4)), None, id="error: int64 weight"))
    out.append(case(c, u((3, 4)), w_((2, 5, 4)), None, id="error: 3-D weight"))
    out.append(case(c, Big((64, 512), seed=3340), Big((256, 512), seed=3341), w_((256,)), id="64x512 -> 256"))
    out.append(case(c, Big((4, 32, 256), seed=3342), Big((512, 256), seed=3343), w_((512,)), id="grad 4x32x256 -> 512",
                    grad=True))
    out.append(case(c, Big((128, 784), seed=3344), Big((100, 784), seed=3345), None,
                    id="grad MNIST-like 128x784 -> 100",
                    grad=True))
    return out


@golden("bilinear")
def _bilinear():
    c = F + "bilinear"
    out = []
    for a, b, o, bias in [((3, 4), (3, 5), 6, True), ((3, 4), (3, 5), 6, False), ((4,), (5,), 6, True),
                          ((2, 3, 4), (2, 3, 5), 6, True), ((3, 4), (3, 4), 1, True), ((1, 1), (1, 1), 1, True),
                          ((0, 4), (0, 5), 6, True), ((5, 7), (5, 3), 2, True)]:
        out.append(case(c, u(a), u(b), w_((o, a[-1], b[-1])), w_((o,)) if bias else None,
                        id=f"{a} {b} out {o} bias {bias}"))
        if a != (0, 4):
            out.append(case(c, u(a), u(b), w_((o, a[-1], b[-1])), w_((o,)) if bias else None,
                            id=f"grad {a} {b} out {o} bias {bias}", grad=True))
    out.append(case(c, u((3, 4)), u((3, 5)), weight=w_((6, 4, 5)), bias=w_((6,)), id="kwargs"))
    out.append(case(c, V(u((4, 3)), ("t",)), u((3, 5)), w_((6, 4, 5)), w_((6,)), id="transposed input1", grad=True))
    out.append(case(c, u((3, 4)), u((3, 5)), V(w_((6, 5, 4)), ("transpose", 1, 2)), w_((6,)), id="transposed weight",
                    grad=True))
    out.append(case(c, u((3, 4)), u((3, 5)), w_((6, 4, 4)), None, id="error: input2 size mismatch"))
    out.append(case(c, u((3, 4)), u((2, 5)), w_((6, 4, 5)), None, id="error: batch mismatch"))
    out.append(case(c, u((3, 4)), u((3, 5)), w_((6, 4, 5)), w_((5,)), id="error: bias size mismatch"))
    out.append(case(c, Big((64, 32), seed=3350), Big((64, 48), seed=3351), Big((16, 32, 48), seed=3352), w_((16,)),
                    id="grad 64x32 x 64x48 -> 16", grad=True))
    return out


# ----------------------------------------------------------------------------------------------- normalization

def _bn_inputs(shape):
    cch = shape[1] if len(shape) > 1 else shape[0]
    return u(shape, -3, 3), u((cch,), -0.5, 0.5), pos((cch,)), w_((cch,)), w_((cch,))


@golden("batch_norm")
def _batch_norm():
    c = F + "batch_norm"
    out = []
    shapes = [(4, 3), (2, 3, 5), (2, 3, 4, 5), (2, 3, 2, 3, 4), (3, 1, 4), (1, 4, 3, 3), (4, 16, 2, 2)]
    for shape in shapes:
        x, rm, rv, w, b = _bn_inputs(shape)
        out.append(case(c, x, rm, rv, w, b, False, id=f"eval {shape}"))
        out.append(case(c, x, rm, rv, w, b, True, id=f"train {shape}"))
        out.append(case(c, x, None, None, w, b, True, id=f"train no running stats {shape}"))
        out.append(case(c, x, det(rm), det(rv), w, b, False, id=f"grad eval {shape}", grad=True))
        out.append(case(c, x, det(rm), det(rv), w, b, True, id=f"grad train {shape}", grad=True))
    x, rm, rv, w, b = _bn_inputs((2, 3, 5))
    for training in (False, True):
        tag = "train" if training else "eval"
        out.append(case(c, x, rm, rv, None, None, training, id=f"{tag} no affine"))
        out.append(case(c, x, rm, rv, w, None, training, id=f"{tag} weight only"))
        out.append(case(c, x, rm, rv, None, b, training, id=f"{tag} bias only"))
        out.append(case(c, x, rm, rv, w, b, training, 0.3, 1e-3, id=f"{tag} momentum 0.3 eps 1e-3"))
        out.append(case(c, x, rm, rv, w, b, training, eps=0.5, id=f"{tag} eps 0.5"))
        out.append(case(c, x, rm, rv, weight=w, bias=b, training=training, momentum=0.0, id=f"{tag} kwargs"))
        out.append(case(c, x, det(rm), det(rv), None, None, training, id=f"grad {tag} no affine", grad=True))
        out.append(case(c, x, det(rm), det(rv), w, None, training, id=f"grad {tag} weight only", grad=True))
        out.append(case(c, x, det(rm), det(rv), w, b, training, 0.1, 0.5, id=f"grad {tag} eps 0.5", grad=True))
    out.append(case(c, x, None, None, None, None, True, id="grad train no stats no affine", grad=True))
    out.append(case(c, u((2, 3, 5)) + np.float32(4.0), None, None, w, b, True, id="train offset mean"))
    out.append(case(c, np.full((4, 3), 1.5, np.float32), None, None, w_((3,)), w_((3,)), True,
                    id="train constant input (zero variance)"))
    out.append(case(c, u((2, 3)), None, None, w_((3,)), w_((3,)), True, id="train two values per channel"))
    out.append(case(c, u((3, 3)), None, None, w_((3,)), w_((3,)), True, id="grad train three values per channel",
                    grad=True))
    # views
    x5, rm5, rv5, w5, b5 = _bn_inputs((2, 3, 5))
    out.append(case(c, V(u((3, 2, 5)), ("transpose", 0, 1)), det(rm5), det(rv5), w5, b5, True,
                    id="grad train transposed batch", grad=True))
    out.append(case(c, V(u((2, 4, 5, 3)), ("permute", 0, 3, 1, 2)), det(rm5), det(rv5), w5, b5, True,
                    id="grad train channels-last view", grad=True))
    out.append(case(c, V(u((2, 4, 5, 3)), ("permute", 0, 3, 1, 2)), det(rm5), det(rv5), w5, b5, False,
                    id="grad eval channels-last view", grad=True))
    out.append(case(c, strided(u((2, 3, 10))), det(rm5), det(rv5), V(w_((1,)), ("expand", 3)), b5, True,
                    id="grad train strided input expanded weight", grad=True))
    # errors
    out.append(case(c, u((2, 4, 5)), rm5, rv5, None, None, False, id="error: eval channel mismatch"))
    out.append(case(c, u((2, 4, 5)), rm5, rv5, None, None, True, id="error: train channel mismatch"))
    out.append(case(c, u((2, 3, 5)), rm5, rv5, w_((4,)), None, False, id="error: weight size mismatch"))
    out.append(case(c, u((2, 3, 5)), rm5, rv5, None, w_((4,)), True, id="error: bias size mismatch"))
    out.append(case(c, u((1, 3)), None, None, None, None, True, id="error: one value per channel in training"))
    out.append(case(c, u((1, 3, 1, 1)), rm5, rv5, None, None, True, id="error: one value per channel 4-D"))
    out.append(case(c, u((2, 3, 5)), None, None, None, None, False, id="error: eval without running stats"))
    out.append(case(c, u((5,)), pos((5,)), pos((5,)), None, None, False, id="error: 1-D input"))
    out.append(case(c, u((2, 3, 5)), rm5, rv5, None, None, True, None, id="error: momentum None"))
    # running statistics after a training step (golden-only _bn_train)
    for shape, m, e, aff in [((4, 3), 0.1, 1e-5, True), ((2, 3, 5), 0.1, 1e-5, True), ((2, 3, 4, 5), 0.1, 1e-5, True),
                             ((2, 3, 4, 5), 0.5, 1e-3, False), ((2, 3, 5), 1.0, 1e-5, True),
                             ((2, 3, 5), 0.0, 1e-5, True), ((2, 3), 0.2, 1e-5, True), ((3, 1, 4), 0.9, 0.1, True),
                             ((2, 3, 2, 3, 4), 0.1, 1e-5, True), ((4, 16, 2, 2), 0.25, 1e-5, False)]:
        x, rm, rv, w, b = _bn_inputs(shape)
        wb = (w, b) if aff else (None, None)
        out.append(case("_bn_train", x, rm, rv, *wb, momentum=m, eps=e,
                        id=f"running stats {shape} momentum={m} eps={e} affine={aff}"))
        if shape in ((2, 3, 5), (2, 3, 4, 5), (4, 3)) and m in (0.1, 0.5):
            out.append(case("_bn_train", x, rm, rv, *wb, momentum=m, eps=e,
                            id=f"grad running stats {shape} momentum={m} affine={aff}", grad=True))
    out.append(case("_bn_train", V(u((2, 4, 5, 3)), ("permute", 0, 3, 1, 2)), u((3,)), pos((3,)), w_((3,)), w_((3,)),
                    id="running stats channels-last view"))
    # large
    out.append(case(c, Big((8, 64, 16, 16), seed=3360), None, None, w_((64,)), w_((64,)), True,
                    id="grad train 8x64x16x16", grad=True))
    out.append(case(c, Big((8, 64, 16, 16), seed=3361), u((64,), -0.2, 0.2), pos((64,)), w_((64,)), w_((64,)), False,
                    id="eval 8x64x16x16"))
    out.append(case("_bn_train", big_in((8, 32, 32, 32), -2, 3, 3362), u((32,), -0.2, 0.2), pos((32,)), w_((32,)),
                    w_((32,)), momentum=0.1, id="running stats 8x32x32x32"))
    return out


@golden("layer_norm")
def _layer_norm():
    c = F + "layer_norm"
    out = []
    for xs, ns in [((3, 4), (4,)), ((2, 3, 4), (4,)), ((2, 3, 4), (3, 4)), ((2, 3, 4), (2, 3, 4)), ((5,), (5,)),
                   ((2, 3, 4, 5), (4, 5)), ((2, 3, 4, 5), (3, 4, 5)), ((4, 1), (1,)), ((2, 300), (300,)),
                   ((3, 0), (0,)), ((0, 4), (4,))]:
        out.append(case(c, u(xs, -3, 3), ns, w_(ns), w_(ns), id=f"{xs} over {ns} affine"))
        out.append(case(c, u(xs, -3, 3), ns, id=f"{xs} over {ns} no affine"))
        if 0 not in xs and math.prod(ns) > 2:  # (over 1 or 2 values the gradients are rounding noise)
            out.append(case(c, u(xs, -3, 3), ns, w_(ns), w_(ns), id=f"grad {xs} over {ns} affine", grad=True))
        if xs in ((3, 4), (2, 3, 4), (2, 3, 4, 5)):
            out.append(case(c, u(xs, -3, 3), ns, id=f"grad {xs} over {ns} no affine", grad=True))
    out.append(case(c, u((3, 4)), (4,), w_((4,)), None, id="weight only"))
    out.append(case(c, u((3, 4)), (4,), None, w_((4,)), id="bias only"))
    out.append(case(c, u((3, 4)), (4,), w_((4,)), None, id="grad weight only", grad=True))
    out.append(case(c, u((3, 4)), (4,), None, w_((4,)), id="grad bias only", grad=True))
    out.append(case(c, u((3, 4)), [4], w_((4,)), w_((4,)), id="normalized_shape as a list"))
    for eps in (1e-3, 0.1, 1.0):
        out.append(case(c, u((3, 4)), (4,), w_((4,)), w_((4,)), eps, id=f"eps {eps}"))
    out.append(case(c, u((3, 4)), (4,), w_((4,)), w_((4,)), eps=0.1, id="grad eps 0.1", grad=True))
    out.append(case(c, u((3, 4)), (4,), weight=w_((4,)), bias=w_((4,)), eps=1e-6, id="kwargs"))
    out.append(case(c, np.full((2, 5), -0.75, np.float32), (5,), w_((5,)), w_((5,)), id="constant rows"))
    out.append(case(c, u((2, 5)) + np.float32(10.0), (5,), w_((5,)), w_((5,)), id="offset mean", grad=True))
    out.append(case(c, V(u((4, 3)), ("t",)), (4,), w_((4,)), w_((4,)), id="grad transposed input", grad=True))
    out.append(case(c, strided(u((3, 8))), (4,), w_((4,)), w_((4,)), id="grad strided input", grad=True))
    out.append(case(c, u((3, 4)), (4,), V(w_((1,)), ("expand", 4)), V(w_((8,)), ("__getitem__", slice(None, None, 2))),
                    id="grad expanded weight strided bias", grad=True))
    out.append(case(c, V(u((2, 4, 3)), ("transpose", 1, 2)), (3, 4), w_((3, 4)), w_((3, 4)),
                    id="grad transposed last two dims", grad=True))
    out.append(case(c, u((3, 4)), (5,), id="error: normalized_shape mismatch"))
    out.append(case(c, u((3, 4)), (3, 5), id="error: normalized_shape mismatch 2-D"))
    out.append(case(c, u((2, 3, 4)), (3, 4), w_((4,)), id="error: weight shape mismatch"))
    out.append(case(c, u((2, 3, 4)), (4,), w_((4,)), w_((3,)), id="error: bias shape mismatch"))
    out.append(case(c, u((4,)), (2, 4), id="error: more dims than the input"))
    out.append(case(c, Big((64, 1024), seed=3370), (1024,), w_((1024,)), w_((1024,)), id="grad 64x1024", grad=True))
    out.append(case(c, Big((8, 128, 256), seed=3371), (256,), w_((256,)), w_((256,)), id="8x128x256"))
    out.append(case(c, Big((4, 64, 8, 8), seed=3372), (64, 8, 8), None, None, id="grad 4x(64x8x8) no affine",
                    grad=True))
    return out


@golden("group_norm")
def _group_norm():
    c = F + "group_norm"
    out = []
    for xs, g in [((2, 4, 5), 1), ((2, 4, 5), 2), ((2, 4, 5), 4), ((2, 6, 3, 3), 3), ((2, 6, 3, 3), 2), ((3, 4), 2),
                  ((3, 4), 4), ((2, 4, 2, 3, 2), 2), ((1, 8, 4, 4), 4), ((4, 16, 3, 3), 8), ((2, 3, 7), 3),
                  ((2, 6, 1), 3)]:
        cch = xs[1]
        out.append(case(c, u(xs, -3, 3), g, w_((cch,)), w_((cch,)), id=f"{xs} groups {g} affine"))
        out.append(case(c, u(xs, -3, 3), g, id=f"{xs} groups {g} no affine"))
        if math.prod(xs[2:]) * cch // g > 2:  # (over 1 or 2 values per group the gradients are rounding noise)
            out.append(case(c, u(xs, -3, 3), g, w_((cch,)), w_((cch,)), id=f"grad {xs} groups {g} affine", grad=True))
    out.append(case(c, u((2, 4, 5)), 2, id="grad no affine", grad=True))
    out.append(case(c, u((2, 4, 5)), 2, w_((4,)), None, id="grad weight only", grad=True))
    out.append(case(c, u((2, 4, 5)), 2, None, w_((4,)), id="bias only"))
    out.append(case(c, u((2, 4, 5)), 2, w_((4,)), w_((4,)), 0.1, id="eps 0.1"))
    out.append(case(c, u((2, 4, 5)), 2, w_((4,)), w_((4,)), eps=0.5, id="grad eps 0.5", grad=True))
    out.append(case(c, u((2, 4, 5)), num_groups=2, weight=w_((4,)), bias=w_((4,)), id="kwargs"))
    out.append(case(c, np.full((2, 4, 3), 2.0, np.float32), 2, w_((4,)), w_((4,)), id="constant input"))
    out.append(case(c, V(u((2, 5, 4)), ("transpose", 1, 2)), 2, w_((4,)), w_((4,)), id="grad transposed input",
                    grad=True))
    out.append(case(c, V(u((2, 3, 3, 6)), ("permute", 0, 3, 1, 2)), 3, w_((6,)), w_((6,)), id="grad channels-last view",
                    grad=True))
    out.append(case(c, u((2, 6, 5)), 4, id="error: channels not divisible by groups"))
    out.append(case(c, u((2, 4, 5)), 2, w_((3,)), id="error: weight size mismatch"))
    out.append(case(c, u((2, 4, 5)), 2, w_((4,)), w_((5,)), id="error: bias size mismatch"))
    out.append(case(c, u((4,)), 2, id="error: 1-D input"))
    out.append(case(c, Big((4, 32, 16, 16), seed=3380), 8, w_((32,)), w_((32,)), id="grad 4x32x16x16 groups 8",
                    grad=True))
    out.append(case(c, Big((2, 64, 32, 32), seed=3381), 32, None, None, id="2x64x32x32 groups 32"))
    return out


@golden("instance_norm")
def _instance_norm():
    c = F + "instance_norm"
    out = []
    for xs in [(2, 3, 5), (2, 3, 4, 4), (1, 4, 3, 5), (2, 3, 2, 3, 2), (4, 16, 3, 3), (2, 3, 2)]:
        cch = xs[1]
        x, rm, rv, w, b = u(xs, -3, 3), u((cch,), -0.5, 0.5), pos((cch,)), w_((cch,)), w_((cch,))
        out.append(case(c, x, None, None, w, b, id=f"{xs} affine"))
        out.append(case(c, x, id=f"{xs} no affine"))
        out.append(case(c, x, rm, rv, w, b, True, id=f"{xs} with running stats"))
        out.append(case(c, x, rm, rv, w, b, False, id=f"{xs} use_input_stats=False"))
        if math.prod(xs[2:]) > 2:  # (over 2 values the input gradient is rounding noise)
            out.append(case(c, x, None, None, w, b, id=f"grad {xs} affine", grad=True))
        out.append(case(c, x, det(rm), det(rv), w, b, False, id=f"grad {xs} use_input_stats=False", grad=True))
        if xs in ((2, 3, 5), (2, 3, 4, 4)):
            out.append(case(c, x, id=f"grad {xs} no affine", grad=True))
            out.append(case(c, x, det(rm), det(rv), w, b, True, id=f"grad {xs} with running stats", grad=True))
    x = u((2, 3, 5))
    out.append(case(c, x, None, None, w_((3,)), None, id="weight only", grad=True))
    out.append(case(c, x, None, None, None, w_((3,)), id="bias only"))
    out.append(case(c, x, None, None, w_((3,)), w_((3,)), True, 0.1, 0.5, id="eps 0.5", grad=True))
    out.append(case(c, x, weight=w_((3,)), bias=w_((3,)), eps=1e-3, id="kwargs"))
    out.append(case(c, V(u((2, 5, 3)), ("transpose", 1, 2)), None, None, w_((3,)), w_((3,)),
                    id="grad transposed input", grad=True))
    out.append(case(c, V(u((2, 4, 4, 3)), ("permute", 0, 3, 1, 2)), None, None, w_((3,)), w_((3,)),
                    id="grad channels-last view", grad=True))
    out.append(case(c, u((2, 3, 1)), id="error: one spatial element"))
    out.append(case(c, u((3, 5)), id="error: 2-D input (one spatial element per channel)"))
    out.append(case(c, u((2, 3, 5)), None, None, w_((4,)), id="error: weight size mismatch"))
    out.append(case(c, u((2, 3, 5)), pos((4,)), pos((4,)), id="error: running stats size mismatch"))
    out.append(case(c, Big((4, 16, 32, 32), seed=3390), None, None, w_((16,)), w_((16,)), id="grad 4x16x32x32",
                    grad=True))
    return out


# ------------------------------------------------------------------------------------- dropout, embedding, one_hot

def _dropout(fn, shapes):
    def gen():
        c = F + fn
        out = []
        for shape in shapes:
            out.append(case(c, u(shape), 0.5, True, id=f"random {shape} p=0.5", random=True))
        out.append(case(c, u(shapes[0]), id="random defaults", random=True))
        out.append(case(c, u(shapes[0]), 0.2, True, True, id="random inplace", random=True))
        out.append(case(c, u(shapes[0]), p=0.9, training=True, id="random p=0.9 kwargs", random=True))
        out.append(case(c, Big((16, 64, 32, 32), seed=3400), 0.3, True, id="random 1M", random=True))
        for shape in shapes:
            out.append(case(c, u(shape), 0.0, True, id=f"p=0 {shape}"))
            out.append(case(c, u(shape), 0.5, False, id=f"training=False {shape}"))
            out.append(case(c, u(shape), 1.0, True, id=f"p=1 {shape}"))
        sh = shapes[0]
        out.append(case(c, u(sh), 0.0, True, id="grad p=0", grad=True))
        out.append(case(c, u(sh), 0.7, False, id="grad training=False", grad=True))
        out.append(case(c, u(sh), 1.0, True, id="grad p=1", grad=True))
        out.append(case(c, V(u(sh[::-1]), ("permute", *range(len(sh) - 1, -1, -1))), 0.0, True,
                        id="grad p=0 permuted", grad=True))
        out.append(case(c, u(sh), 1.0, True, True, id="p=1 inplace"))
        out.append(case(c, u(sh), 0.3, False, True, id="training=False inplace"))
        out.append(case(c, u(sh), -0.1, True, id="error: p < 0"))
        out.append(case(c, u(sh), 1.5, True, id="error: p > 1"))
        out.append(case(c, Big((16, 64, 32, 32), seed=3401), 0.5, False, id="1M training=False"))
        return out
    golden(fn)(gen)


_dropout("dropout", [(3, 4), (2, 3, 4), (7,), (), (0, 3), (2, 3, 4, 5)])
_dropout("dropout2d", [(2, 3, 4, 5), (3, 4, 5), (1, 8, 2, 2), (0, 3, 2, 2)])


@golden("embedding")
def _embedding():
    c = F + "embedding"
    out = []
    for idx_shape, n, d in [((4,), 10, 3), ((2, 3), 10, 3), ((), 5, 4), ((2, 3, 4), 7, 2), ((0,), 5, 3), ((6,), 1, 5),
                            ((3, 1), 20, 16)]:
        idx = ints(idx_shape, 0, n - 1)
        out.append(case(c, idx, w_((n, d)), id=f"indices {idx_shape} weight ({n},{d})"))
        out.append(case(c, idx, w_((n, d)), id=f"grad indices {idx_shape} weight ({n},{d})", grad=True))
    rep = np.array([[1, 3, 1], [3, 3, 0]], np.int64)
    out.append(case(c, rep, w_((5, 4)), id="grad repeated indices accumulate", grad=True))
    out.append(case(c, rep, w_((5, 4)), scale_grad_by_freq=True, id="grad scale_grad_by_freq", grad=True))
    out.append(case(c, rep, w_((5, 4)), 3, id="padding_idx 3"))
    out.append(case(c, rep, w_((5, 4)), 3, id="grad padding_idx 3 (zero gradient row)", grad=True))
    out.append(case(c, rep, w_((5, 4)), padding_idx=0, id="grad padding_idx 0 kwarg", grad=True))
    out.append(case(c, np.array([0, 4, 2, 4], np.int64), w_((5, 4)), -1, id="grad padding_idx -1", grad=True))
    out.append(case(c, np.array([0, 4, 2, 4], np.int64), w_((5, 4)), -1, id="padding_idx -1"))
    out.append(case(c, rep, w_((5, 4)), padding_idx=2, id="grad padding_idx not in the input", grad=True))
    out.append(case(c, rep, w_((5, 4)), padding_idx=3, scale_grad_by_freq=True,
                    id="grad padding_idx with scale_grad_by_freq", grad=True))
    out.append(case(c, ints((2, 3), 0, 4, "int32"), w_((5, 4)), id="int32 indices"))
    out.append(case(c, ints((2, 3), 0, 4, "int32"), w_((5, 4)), id="grad int32 indices", grad=True))
    out.append(case(c, V(ints((3, 2), 0, 4), ("t",)), w_((5, 4)), id="transposed indices"))
    out.append(case(c, ints((2, 3), 0, 4), V(w_((4, 5)), ("t",)), id="grad transposed weight", grad=True))
    out.append(case(c, ints((2, 3), 0, 4), V(w_((5, 8)), ("__getitem__", (slice(None), slice(None, None, 2)))),
                    id="grad strided weight", grad=True))
    out.append(case(c, input=ints((2, 3), 0, 4), weight=w_((5, 4)), id="kwargs"))
    out.append(case(c, np.array([0, 5], np.int64), w_((5, 3)), id="error: index out of range"))
    out.append(case(c, np.array([0, -1], np.int64), w_((5, 3)), id="error: negative index"))
    out.append(case(c, np.array([0.0, 1.0], np.float32), w_((5, 3)), id="error: float indices"))
    out.append(case(c, np.array([0, 1], np.int64), w_((5, 3)), 5, id="error: padding_idx out of range"))
    out.append(case(c, np.array([0, 1], np.int64), w_((5,)), id="error: 1-D weight"))
    out.append(case(c, ints((4, 50), 0, 999), Big((1000, 64), seed=3410), id="grad 4x50 into 1000x64", grad=True))
    out.append(case(c, ints((8, 128), 0, 1999), Big((2000, 32), seed=3411), 0,
                    id="grad 8x128 into 2000x32 padding_idx 0",
                    grad=True))
    return out


@golden("one_hot")
def _one_hot():
    c = F + "one_hot"
    out = []
    out.append(case(c, np.array([0, 2, 1, 4], np.int64), id="inferred classes"))
    out.append(case(c, np.array([0, 2, 1, 4], np.int64), 6, id="num_classes 6"))
    out.append(case(c, np.array([0, 2, 1, 4], np.int64), -1, id="num_classes -1"))
    out.append(case(c, np.array([0, 2, 1, 4], np.int64), num_classes=5, id="num_classes kwarg exact"))
    out.append(case(c, ints((2, 3), 0, 3), id="2-D inferred"))
    out.append(case(c, ints((2, 3), 0, 3), 7, id="2-D num_classes 7"))
    out.append(case(c, ints((2, 3, 4), 0, 9), 10, id="3-D"))
    out.append(case(c, np.array(3, np.int64), id="0-d inferred"))
    out.append(case(c, np.array(3, np.int64), 5, id="0-d num_classes 5"))
    out.append(case(c, np.zeros((0,), np.int64), 3, id="empty with num_classes"))
    out.append(case(c, np.zeros((2, 0), np.int64), 4, id="empty 2-D with num_classes"))
    out.append(case(c, np.zeros((5,), np.int64), id="all zeros inferred (1 class)"))
    out.append(case(c, np.array([2], np.int64), 3, id="single"))
    out.append(case(c, V(ints((3, 2), 0, 4), ("t",)), 5, id="transposed input"))
    out.append(case(c, strided(ints((2, 8), 0, 4)), id="strided input"))
    out.append(case(c, ints((300,), 0, 99), 100, id="300 x 100"))
    out.append(case(c, Big((64, 128), "int64", seed=3420), id="error: negative values in Big (probe)"))
    out.append(case(c, V(Big((64, 128), "int64", seed=3421), ("add", 50)), 100, id="64x128 x 100 classes"))
    out.append(case(c, np.array([0, -1], np.int64), id="error: negative class"))
    out.append(case(c, np.array([0, 3], np.int64), 3, id="error: class >= num_classes"))
    out.append(case(c, np.array([0.0, 1.0], np.float32), id="error: float input"))
    out.append(case(c, np.array([0, 1], np.int32), id="error: int32 input"))
    out.append(case(c, np.zeros((0,), np.int64), id="error: empty with inferred classes"))
    return out


# --------------------------------------------------------------------------------------------------- attention

@golden("scaled_dot_product_attention")
def _sdpa():
    c = F + "scaled_dot_product_attention"
    out = []
    for qs, ks, vs in [((2, 3, 4, 8), (2, 3, 4, 8), (2, 3, 4, 8)), ((2, 5, 8), (2, 5, 8), (2, 5, 8)),
                       ((2, 2, 4, 8), (2, 2, 6, 8), (2, 2, 6, 8)), ((2, 6, 4), (2, 3, 4), (2, 3, 5)),
                       ((1, 1, 1, 4), (1, 1, 1, 4), (1, 1, 1, 4)), ((3, 4), (5, 4), (5, 4)),
                       ((2, 2, 3, 4), (1, 1, 5, 4), (1, 1, 5, 4)), ((1, 2, 16, 32), (1, 2, 16, 32), (1, 2, 16, 32)),
                       ((2, 3, 0, 8), (2, 3, 4, 8), (2, 3, 4, 8))]:
        out.append(case(c, u(qs), u(ks), u(vs), id=f"q {qs} k {ks} v {vs}"))
        if 0 not in qs:
            out.append(case(c, u(qs), u(ks), u(vs), id=f"grad q {qs} k {ks} v {vs}", grad=True))
    B, H, L, S, E = 2, 2, 4, 6, 8
    q, k, v = (u((B, H, L, E)), u((B, H, S, E)), u((B, H, S, E)))
    bm = bools((L, S), 0.7)
    bm[:, 0] = True  # no fully masked row
    bm4 = bools((B, H, L, S), 0.7)
    bm4[..., 1] = True
    fm = u((L, S), -1, 1)
    fm[bm4[0, 0] == 0] = -np.inf
    fm3 = u((B, 1, L, S), -1, 1)
    out.append(case(c, q, k, v, attn_mask=bm, id="bool mask (L,S)"))
    out.append(case(c, q, k, v, attn_mask=bm4, id="bool mask (B,H,L,S)"))
    out.append(case(c, q, k, v, attn_mask=bm4[:, :1].copy(), id="bool mask (B,1,L,S)"))
    out.append(case(c, q, k, v, attn_mask=fm, id="float mask with -inf (L,S)"))
    out.append(case(c, q, k, v, attn_mask=fm3, id="float mask (B,1,L,S)"))
    out.append(case(c, q, k, v, attn_mask=bm, id="grad bool mask", grad=True))
    out.append(case(c, q, k, v, attn_mask=bm4, id="grad bool mask (B,H,L,S)", grad=True))
    out.append(case(c, q, k, v, attn_mask=fm, id="grad float mask kwarg", grad=True))
    out.append(case(c, q, k, v, fm3, id="grad float mask positional (mask gradient)", grad=True))
    q3, k3, v3 = u((2, 5, 4)), u((2, 7, 4)), u((2, 7, 3))
    bm3 = bools((5, 7), 0.6)
    bm3[:, 3] = True
    out.append(case(c, q3, k3, v3, attn_mask=bm3, id="3-D bool mask"))
    out.append(case(c, q3, k3, v3, attn_mask=u((2, 5, 7), -1, 1), id="grad 3-D float mask", grad=True))
    for ls in [(4, 4), (3, 6), (6, 3)]:
        qq, kk, vv = u((2, 2, ls[0], 8)), u((2, 2, ls[1], 8)), u((2, 2, ls[1], 8))
        out.append(case(c, qq, kk, vv, is_causal=True, id=f"causal L={ls[0]} S={ls[1]}"))
        out.append(case(c, qq, kk, vv, is_causal=True, id=f"grad causal L={ls[0]} S={ls[1]}", grad=True))
    out.append(case(c, q3, u((2, 5, 4)), u((2, 5, 3)), None, 0.0, True, id="causal 3-D positional"))
    out.append(case(c, q, k, v, scale=0.5, id="scale 0.5"))
    out.append(case(c, q, k, v, scale=2.0, id="grad scale 2.0", grad=True))
    out.append(case(c, q, k, v, attn_mask=bm, scale=0.25, id="grad scale with bool mask", grad=True))
    out.append(case(c, u((4, 4, 8)), u((4, 4, 8)), u((4, 4, 8)), is_causal=True, scale=0.1, id="causal with scale"))
    out.append(case(c, u((1, 4, 3, 8)), u((1, 2, 5, 8)), u((1, 2, 5, 8)), enable_gqa=True, id="enable_gqa (probe)"))
    dead = bm.copy()
    dead[1, :] = False
    out.append(case(c, q, k, v, attn_mask=dead, id="fully masked row (probe)"))
    out.append(case(c, u((4, 4, 8)), u((4, 4, 8)), u((4, 4, 8)), dropout_p=0.3, id="dropout_p 0.3", random=True))
    out.append(case(c, u((2, 3, 4, 8)) * np.float32(3), u((2, 3, 4, 8)) * np.float32(3), u((2, 3, 4, 8)),
                    id="large scores (stable softmax)"))
    # views
    out.append(case(c, V(u((2, 4, 2, 8)), ("transpose", 1, 2)), V(u((2, 6, 2, 8)), ("transpose", 1, 2)),
                    V(u((2, 6, 2, 8)), ("transpose", 1, 2)), id="grad transposed heads (B,L,H,E) layout", grad=True))
    out.append(case(c, q, V(u((B, H, E, S)), ("transpose", -1, -2)), v, id="grad transposed key", grad=True))
    out.append(case(c, q, k, V(u((1, H, S, E)), ("expand", B, H, S, E)), id="grad expanded value", grad=True))
    # errors
    # (3-D: PyTorch's 4-D CPU path accepts some of these)
    out.append(case(c, q3, u((2, 5, 4)), u((2, 5, 3)), attn_mask=bools((5, 5)), is_causal=True,
                    id="error: attn_mask with is_causal"))
    out.append(case(c, q, u((B, H, S, E + 1)), v, id="error: key embedding mismatch"))
    out.append(case(c, q3, k3, u((2, 8, 3)), id="error: key and value lengths differ"))
    out.append(case(c, q, k, v, attn_mask=u((L + 1, S)), id="error: mask shape"))
    out.append(case(c, q, k, v, attn_mask=ints((L, S), 0, 1), id="error: int64 mask"))
    # large
    out.append(case(c, Big((2, 4, 128, 64), seed=3430), Big((2, 4, 128, 64), seed=3431),
                    Big((2, 4, 128, 64), seed=3432),
                    id="grad 2x4x128x64", grad=True))
    out.append(case(c, Big((2, 4, 128, 64), seed=3433), Big((2, 4, 128, 64), seed=3434),
                    Big((2, 4, 128, 64), seed=3435),
                    is_causal=True, id="grad causal 2x4x128x64", grad=True))
    out.append(case(c, Big((1, 8, 256, 32), seed=3436), Big((1, 8, 512, 32), seed=3437),
                    Big((1, 8, 512, 32), seed=3438),
                    id="1x8x256x32 with 512 keys"))
    return out


# -------------------------------------------------------------------------------------------------------- losses

REDUCTIONS = ("none", "mean", "sum")


def _pointwise_loss(fn, extra_kw, bad_kw=()):
    def gen():
        c = F + fn
        out = []
        for shape in [(3, 4), (5,), (), (2, 3, 4), (0, 3), (1,)]:
            for r in REDUCTIONS:
                out.append(case(c, u(shape, -3, 3), u(shape, -3, 3), reduction=r, id=f"{shape} {r}"))
                if 0 not in shape or r != "mean":
                    out.append(case(c, u(shape, -3, 3), u(shape, -3, 3), reduction=r, id=f"grad {shape} {r}",
                                    grad=True))
        for kw in extra_kw:
            for r in REDUCTIONS:
                out.append(case(c, u((4, 5), -3, 3), u((4, 5), -3, 3), reduction=r, id=f"{_fmt(kw)} {r}", **kw))
            out.append(case(c, u((4, 5), -3, 3), u((4, 5), -3, 3), reduction="mean", id=f"grad {_fmt(kw)} mean",
                            grad=True, **kw))
            out.append(case(c, u((4, 5), -3, 3), u((4, 5), -3, 3), reduction="none", id=f"grad {_fmt(kw)} none",
                            grad=True, **kw))
        out.append(case(c, u((3, 4)), u((3, 4)), id="default reduction"))
        out.append(case(c, u((3, 4)), u((4,)), id="broadcast target (probe)"))
        out.append(case(c, u((3, 1)), u((4,)), reduction="sum", id="grad broadcast both", grad=True))
        out.append(case(c, V(u((4, 3)), ("t",)), u((3, 4)), reduction="sum", id="grad transposed input", grad=True))
        out.append(case(c, strided(u((3, 8))), V(u((4, 3)), ("t",)), id="grad strided and transposed", grad=True))
        out.append(case(c, u((3, 4)), V(u((3, 4)), ("detach",)), reduction="sum", id="grad constant target",
                        grad=True))
        sp = np.array([np.inf, -np.inf, np.nan, 1.0, 0.0, 2.0], np.float32)
        out.append(case(c, sp, np.array([1.0, 0.0, 0.0, np.inf, 0.0, 2.0], np.float32), reduction="none",
                        id="inf and nan"))
        out.append(case(c, u((3, 4)), u((3, 5)), id="error: shape mismatch"))
        out.append(case(c, u((3, 4)), u((3, 4)), reduction="avg", id="error: unknown reduction"))
        out.append(case(c, ints((3, 4)), ints((3, 4)), id="error: int64 inputs"))
        for kw in bad_kw:
            out.append(case(c, u((3,)), u((3,)), id=f"error: {_fmt(kw)}", **kw))
        out.append(case(c, Big((1024, 1024), seed=3440), Big((1024, 1024), seed=3441), id="1M mean"))
        out.append(case(c, Big((1024, 1024), seed=3442), Big((1024, 1024), seed=3443), reduction="sum",
                        id="grad 1M sum",
                        grad=True))
        out.append(case(c, Big((256, 256), seed=3444), Big((256, 256), seed=3445), reduction="none",
                        id="grad 256x256 none", grad=True, **(extra_kw[0] if extra_kw else {})))
        return out
    golden(fn)(gen)


_pointwise_loss("mse_loss", [])
_pointwise_loss("l1_loss", [])
_pointwise_loss("smooth_l1_loss", [{"beta": 1.0}, {"beta": 0.5}, {"beta": 2.0}, {"beta": 0.0}], [{"beta": -1.0}])
_pointwise_loss("huber_loss", [{"delta": 1.0}, {"delta": 0.5}, {"delta": 2.5}], [{"delta": 0.0}, {"delta": -1.0}])


def _class_target(shape, ncls, ignore=None, frac=0.0):
    t = ints(shape, 0, ncls - 1)
    if ignore is not None and frac > 0:
        m = bools(shape, frac)
        if t.size:
            m.reshape(-1)[0] = True
        t = np.where(m, ignore, t).astype(np.int64)
        if t.size > 1:  # at least one target counts (all ignored has cases of its own)
            t.reshape(-1)[-1] = 1 if ignore == 0 else 0
    return t


def _class_loss(fn):
    """cross_entropy and nll_loss: class-index targets (and, for cross_entropy, probabilities)."""
    def gen():
        c = F + fn
        ce = fn == "cross_entropy"
        out = []

        def inp(shape):
            x = u(shape, -3, 3)
            if ce:
                return x
            # log-probabilities
            e = np.exp(x - x.max(axis=1 if len(shape) > 1 else 0, keepdims=True))
            return np.log(e / e.sum(axis=1 if len(shape) > 1 else 0, keepdims=True)).astype(np.float32)

        N, C = 5, 4
        opts = [("plain", {}, None), ("weight", {"weight": pos((C,))}, None),
                ("ignore -100", {}, -100), ("ignore_index 1", {"ignore_index": 1}, 1),
                ("weight ignore_index 2", {"weight": pos((C,)), "ignore_index": 2}, 2)]
        if ce:
            opts += [("label_smoothing 0.1", {"label_smoothing": 0.1}, None),
                     ("label_smoothing 0.3 weight", {"label_smoothing": 0.3, "weight": pos((C,))}, None),
                     ("label_smoothing 0.2 ignore -100", {"label_smoothing": 0.2}, -100),
                     ("label_smoothing 0.2 weight ignore_index 0", {"label_smoothing": 0.2, "weight": pos((C,)),
                                                                     "ignore_index": 0}, 0)]
        for name, kw, ign in opts:
            for r in REDUCTIONS:
                t = _class_target((N,), C, ign, 0.3)
                out.append(case(c, inp((N, C)), t, reduction=r, id=f"(N,C) {name} {r}", **kw))
                out.append(case(c, inp((N, C)), t, reduction=r, id=f"grad (N,C) {name} {r}", grad=True, **kw))
        # K-dimensional
        for shape in [(2, C, 3), (2, C, 3, 2), (2, C, 2, 2, 2)]:
            tshape = (shape[0],) + shape[2:]
            for name, kw, ign in opts[:2] + opts[4:5] + (opts[5:7] if ce else []):
                for r in REDUCTIONS:
                    t = _class_target(tshape, C, ign, 0.3)
                    out.append(case(c, inp(shape), t, reduction=r, id=f"{shape} {name} {r}", **kw))
                t = _class_target(tshape, C, ign, 0.3)
                out.append(case(c, inp(shape), t, reduction="mean", id=f"grad {shape} {name} mean", grad=True, **kw))
        # unbatched
        out.append(case(c, inp((C,)), np.array(2, np.int64), id="unbatched (C,)"))
        out.append(case(c, inp((C,)), np.array(1, np.int64), weight=pos((C,)), reduction="none",
                        id="grad unbatched weight none", grad=True))
        out.append(case(c, inp((C,)), np.array(3, np.int64), id="grad unbatched", grad=True))
        # all targets ignored
        for r in REDUCTIONS:
            out.append(case(c, inp((3, C)), np.full((3,), -100, np.int64), reduction=r, id=f"all ignored {r}"))
        out.append(case(c, inp((3, C)), np.full((3,), 1, np.int64), weight=pos((C,)), ignore_index=1,
                        id="all ignored with weight mean"))
        out.append(case(c, inp((3, C)), np.full((3,), -100, np.int64), reduction="sum", id="grad all ignored sum",
                        grad=True))
        out.append(case(c, inp((3, C)), np.full((3,), -100, np.int64), id="grad all ignored mean (nan)", grad=True))
        out.append(case(c, inp((3, C)), ints((3,), 0, C - 1), np.ones(C, np.float32) * np.float32(0.5),
                        id="weight positional"))
        out.append(case(c, inp((3, C)), ints((3,), 0, C - 1), id="default reduction"))
        out.append(case(c, inp((0, C)), np.zeros((0,), np.int64), reduction="sum", id="empty batch sum"))
        out.append(case(c, inp((0, C)), np.zeros((0,), np.int64), id="empty batch mean (nan)"))
        out.append(case(c, inp((1, 1)), np.zeros((1,), np.int64), id="grad one class", grad=True))
        if ce:
            out.append(case(c, u((3, C), -100, 100), ints((3,), 0, C - 1), reduction="none",
                            id="grad large logits", grad=True))
            out.append(case(c, np.array([[0.0, -np.inf, 1.0, -np.inf]], np.float32), np.array([2], np.int64),
                            id="-inf logit of another class"))
        # views
        out.append(case(c, V(inp((C, N)), ("t",)), ints((N,), 0, C - 1), id="grad transposed input", grad=True))
        out.append(case(c, V(inp((2, 3, C)), ("permute", 0, 2, 1)), ints((2, 3), 0, C - 1), reduction="sum",
                        id="grad channels-last K-dim input", grad=True))
        out.append(case(c, inp((N, C)), strided(ints((2 * N,), 0, C - 1)), id="strided target"))
        # probabilities (cross_entropy only)
        if ce:
            def probs(shape, axis=1):
                e = np.exp(u(shape, -2, 2))
                return (e / e.sum(axis=axis, keepdims=True)).astype(np.float32)
            for r in REDUCTIONS:
                out.append(case(c, inp((N, C)), probs((N, C)), reduction=r, id=f"probabilities (N,C) {r}"))
                out.append(case(c, inp((N, C)), probs((N, C)), reduction=r, id=f"grad probabilities (N,C) {r}",
                                grad=True))
                out.append(case(c, inp((2, C, 3, 2)), probs((2, C, 3, 2)), reduction=r,
                                id=f"probabilities (N,C,d1,d2) {r}"))
            out.append(case(c, inp((2, C, 3, 2)), probs((2, C, 3, 2)), reduction="mean",
                            id="grad probabilities (N,C,d1,d2) mean", grad=True))
            out.append(case(c, inp((N, C)), probs((N, C)), weight=pos((C,)), id="probabilities weight mean"))
            out.append(case(c, inp((N, C)), probs((N, C)), weight=pos((C,)), reduction="sum",
                            id="grad probabilities weight sum", grad=True))
            out.append(case(c, inp((N, C)), probs((N, C)), label_smoothing=0.2, id="grad probabilities label_smoothing",
                            grad=True))
            out.append(case(c, inp((N, C)), probs((N, C)), label_smoothing=0.1, weight=pos((C,)), reduction="none",
                            id="grad probabilities label_smoothing weight none", grad=True))
            out.append(case(c, inp((C,)), probs((C,), 0), id="grad probabilities unbatched", grad=True))
            out.append(case(c, inp((N, C)), u((N, C), 0, 1), id="unnormalized soft targets"))
            out.append(case(c, inp((N, C)), probs((N, C)), ignore_index=1, id="error: ignore_index with probabilities"))
            out.append(case(c, inp((N, C)), probs((N, C + 1)), id="error: probabilities shape mismatch"))
            out.append(case(c, inp((N, C)), ints((N,), 0, C - 1), label_smoothing=1.5,
                            id="error: label_smoothing above 1"))
        # errors
        out.append(case(c, inp((N, C)), np.array([0, 1, C, 2, 3], np.int64), id="error: target out of range"))
        out.append(case(c, inp((N, C)), np.array([0, 1, -1, 2, 3], np.int64), id="error: negative target"))
        out.append(case(c, inp((N, C)), np.array([0, 1, -1, 2, 3], np.int64), reduction="none",
                        id="error: negative target none"))
        out.append(case(c, inp((N, C)), u((N,), 0, 3), id="error: float class target"))
        out.append(case(c, inp((N, C)), ints((N,), 0, C - 1, "int32"), id="error: int32 target"))
        out.append(case(c, inp((N, C)), ints((N + 1,), 0, C - 1), id="error: batch size mismatch"))
        out.append(case(c, inp((2, C, 3)), ints((2, 4), 0, C - 1), id="error: K-dim target shape mismatch"))
        out.append(case(c, inp((N, C)), ints((N,), 0, C - 1), weight=pos((C + 1,)), id="error: weight size mismatch"))
        out.append(case(c, inp((N, C)), ints((N,), 0, C - 1), reduction="avg", id="error: unknown reduction"))
        # large
        out.append(case(c, big_in((256, 1000), -4, 4, 3450), ints((256,), 0, 999), id="256x1000 mean"))
        out.append(case(c, big_in((256, 1000), -4, 4, 3451), _class_target((256,), 1000, -100, 0.1),
                        id="grad 256x1000 with ignored targets", grad=True))
        out.append(case(c, big_in((4, 21, 32, 32), -4, 4, 3452), ints((4, 32, 32), 0, 20), weight=pos((21,)),
                        id="grad segmentation 4x21x32x32 weight", grad=True))
        return out
    golden(fn)(gen)


_class_loss("cross_entropy")
_class_loss("nll_loss")


@golden("binary_cross_entropy")
def _bce():
    c = F + "binary_cross_entropy"
    out = []

    def p(shape):
        return u(shape, 0.02, 0.98)
    for shape in [(3, 4), (5,), (), (2, 3, 4), (0, 2)]:
        for r in REDUCTIONS:
            out.append(case(c, p(shape), u(shape, 0, 1), reduction=r, id=f"{shape} {r}"))
            if 0 not in shape:
                out.append(case(c, p(shape), u(shape, 0, 1), reduction=r, id=f"grad {shape} {r}", grad=True))
    for r in REDUCTIONS:
        out.append(case(c, p((3, 4)), bools((3, 4)).astype(np.float32), reduction=r, id=f"hard targets {r}"))
        out.append(case(c, p((3, 4)), u((3, 4), 0, 1), weight=pos((3, 4)), reduction=r, id=f"weight {r}"))
        out.append(case(c, p((3, 4)), u((3, 4), 0, 1), weight=pos((3, 4)), reduction=r, id=f"grad weight {r}",
                        grad=True))
        out.append(case(c, p((3, 4)), u((3, 4), 0, 1), weight=pos((4,)), reduction=r, id=f"grad broadcast weight {r}",
                        grad=True))
    out.append(case(c, p((3, 4)), u((3, 4), 0, 1), pos((3, 4)), id="weight positional"))
    out.append(case(c, p((3, 4)), u((3, 4), 0, 1), id="default reduction"))
    edge = np.array([0.0, 1.0, 0.0, 1.0, 1e-30, 1 - 2 ** -24, 1e-8, 0.5], np.float32)
    tgt = np.array([1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.5, 0.5], np.float32)
    out.append(case(c, edge, tgt, reduction="none", id="inputs at 0 and 1 (log clamped at -100)"))
    out.append(case(c, edge, tgt, reduction="sum", id="inputs at 0 and 1 sum"))
    near = np.array([1e-4, 0.9999, 1e-3, 0.999, 0.5, 0.01], np.float32)
    out.append(case(c, near, np.array([1.0, 0.0, 0.3, 0.7, 0.5, 1.0], np.float32), reduction="none",
                    id="grad inputs near 0 and 1", grad=True))
    out.append(case(c, edge, V(tgt, ("detach",)), reduction="none", id="grad at exactly 0 and 1 (probe)", grad=True))
    out.append(case(c, V(p((4, 3)), ("t",)), u((3, 4), 0, 1), id="grad transposed input", grad=True))
    out.append(case(c, strided(p((3, 8))), V(u((3, 4), 0, 1), ("detach",)), reduction="sum",
                    id="grad strided input constant target", grad=True))
    out.append(case(c, np.array([0.5, 1.5], np.float32), np.array([0.0, 1.0], np.float32),
                    id="error: input above 1"))
    out.append(case(c, np.array([-0.5, 0.5], np.float32), np.array([0.0, 1.0], np.float32),
                    id="error: negative input"))
    out.append(case(c, p((3,)), u((4,), 0, 1), id="error: target size mismatch"))
    out.append(case(c, p((3, 4)), u((3, 4), 0, 1), reduction="avg", id="error: unknown reduction"))
    out.append(case(c, big_in((1024, 1024), 0.01, 0.99, 3460), big_in((1024, 1024), 0, 1, 3461), id="1M mean"))
    out.append(case(c, big_in((256, 256), 0.01, 0.99, 3462), big_in((256, 256), 0, 1, 3463), reduction="sum",
                    id="grad 256x256 sum", grad=True))
    return out


@golden("binary_cross_entropy_with_logits")
def _bce_logits():
    c = F + "binary_cross_entropy_with_logits"
    out = []
    for shape in [(3, 4), (5,), (), (2, 3, 4), (0, 2)]:
        for r in REDUCTIONS:
            out.append(case(c, u(shape, -4, 4), u(shape, 0, 1), reduction=r, id=f"{shape} {r}"))
            if 0 not in shape:
                out.append(case(c, u(shape, -4, 4), u(shape, 0, 1), reduction=r, id=f"grad {shape} {r}", grad=True))
    for r in REDUCTIONS:
        out.append(case(c, u((3, 4), -4, 4), bools((3, 4)).astype(np.float32), reduction=r, id=f"hard targets {r}"))
        out.append(case(c, u((3, 4), -4, 4), u((3, 4), 0, 1), weight=pos((3, 4)), reduction=r, id=f"weight {r}"))
        out.append(case(c, u((3, 4), -4, 4), u((3, 4), 0, 1), pos_weight=pos((4,), 0.5, 4), reduction=r,
                        id=f"pos_weight {r}"))
        out.append(case(c, u((3, 4), -4, 4), u((3, 4), 0, 1), weight=pos((4,)), pos_weight=pos((4,), 0.5, 4),
                        reduction=r, id=f"grad weight and pos_weight {r}", grad=True))
        out.append(case(c, u((3, 4), -4, 4), u((3, 4), 0, 1), pos_weight=pos((4,), 0.5, 4), reduction=r,
                        id=f"grad pos_weight {r}", grad=True))
    out.append(case(c, u((2, 3, 4), -4, 4), u((2, 3, 4), 0, 1), pos_weight=pos((3, 1), 0.5, 4),
                    id="grad pos_weight broadcast over a middle dim", grad=True))
    out.append(case(c, u((3, 4), -4, 4), u((3, 4), 0, 1), weight=pos((3, 1)), id="grad weight (3,1)", grad=True))
    big_logits = np.array([100.0, -100.0, 200.0, -200.0, 1e4, -1e4, 30.0, -30.0, 0.0, 88.0], np.float32)
    tg = np.array([1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.5, 0.5, 1.0, 0.3], np.float32)
    out.append(case(c, big_logits, tg, reduction="none", id="large logits"))
    out.append(case(c, big_logits, tg, reduction="none", id="grad large logits", grad=True))
    out.append(case(c, big_logits, tg, pos_weight=np.full((10,), 3.0, np.float32), reduction="none",
                    id="grad large logits pos_weight", grad=True))
    out.append(case(c, u((3, 4), -4, 4), u((3, 4), 0, 1), id="default reduction"))
    out.append(case(c, V(u((4, 3), -4, 4), ("t",)), u((3, 4), 0, 1), id="grad transposed input", grad=True))
    out.append(case(c, strided(u((3, 8), -4, 4)), V(u((3, 4), 0, 1), ("detach",)), reduction="sum",
                    id="grad strided input constant target", grad=True))
    out.append(case(c, u((3,)), u((4,), 0, 1), id="error: target size mismatch"))
    out.append(case(c, u((3, 4)), u((3, 4), 0, 1), pos_weight=pos((3,)), id="error: pos_weight not broadcastable"))
    out.append(case(c, u((3, 4)), u((3, 4), 0, 1), reduction="avg", id="error: unknown reduction"))
    out.append(case(c, big_in((1024, 1024), -6, 6, 3470), big_in((1024, 1024), 0, 1, 3471), id="1M mean"))
    out.append(case(c, big_in((256, 256), -6, 6, 3472), big_in((256, 256), 0, 1, 3473), reduction="sum",
                    pos_weight=pos((256,), 0.5, 3), id="grad 256x256 sum pos_weight", grad=True))
    return out


@golden("kl_div")
def _kl_div():
    c = F + "kl_div"
    out = []

    def logp(shape):
        x = u(shape, -2, 2)
        e = np.exp(x)
        return np.log(e / e.sum(axis=-1, keepdims=True)).astype(np.float32)

    for shape in [(3, 4), (5,), (2, 3, 4), (1, 1)]:
        for r in REDUCTIONS + ("batchmean",):
            for lt in (False, True):
                tgt = logp(shape) if lt else np.exp(logp(shape)).astype(np.float32)
                out.append(case(c, logp(shape), tgt, reduction=r, log_target=lt, id=f"{shape} {r} log_target={lt}"))
                if shape != (1, 1):
                    out.append(case(c, logp(shape), tgt, reduction=r, log_target=lt,
                                    id=f"grad {shape} {r} log_target={lt}", grad=True))
    out.append(case(c, logp((3, 4)), np.exp(logp((3, 4))).astype(np.float32), id="default reduction (mean)"))
    out.append(case(c, logp((3, 4)), np.exp(logp((3, 4))).astype(np.float32), None, None, "sum",
                    id="positional reduction"))
    t0 = np.exp(logp((3, 4))).astype(np.float32)
    t0[0, 1] = t0[2, 3] = 0.0
    out.append(case(c, logp((3, 4)), t0, reduction="none", id="zero targets contribute 0"))
    out.append(case(c, logp((3, 4)), V(t0, ("detach",)), reduction="sum", id="grad zero targets (input gradient)",
                    grad=True))
    lt0 = logp((3, 4))
    lt0[1, 2] = -np.inf
    out.append(case(c, logp((3, 4)), lt0, reduction="none", log_target=True, id="log_target with -inf (nan, probe)"))
    out.append(case(c, u((3, 4), -3, 3), u((3, 4), 0.1, 2), reduction="sum", id="unnormalized inputs"))
    out.append(case(c, V(logp((4, 3)), ("t",)), np.exp(logp((3, 4))).astype(np.float32), reduction="batchmean",
                    id="grad transposed input", grad=True))
    out.append(case(c, logp((3, 4)), np.exp(logp((4,))).astype(np.float32), reduction="sum", id="grad broadcast target",
                    grad=True))
    out.append(case(c, logp((3, 4)), np.exp(logp((3, 5))).astype(np.float32), id="error: shape mismatch"))
    out.append(case(c, logp((3, 4)), np.exp(logp((3, 4))).astype(np.float32), reduction="avg",
                    id="error: unknown reduction"))
    out.append(case(c, big_in((1024, 1024), -8, -4, 3480), big_in((1024, 1024), 0, 0.002, 3481), reduction="batchmean",
                    id="1M batchmean"))
    out.append(case(c, big_in((256, 256), -7, -4, 3482), big_in((256, 256), -7, -4, 3483), reduction="sum",
                    log_target=True, id="grad 256x256 sum log_target", grad=True))
    return out
