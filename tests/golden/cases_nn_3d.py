"""Golden cases: conv3d, conv_transpose3d, max_pool3d, avg_pool3d, adaptive_avg_pool3d, adaptive_max_pool3d
and lp_pool3d of ``torch.nn.functional`` with their nn modules (imported by cases_nn_more.py; ``_module``
builds a module from its first argument, see generate.py)."""
from __future__ import annotations

from cases import V, case, distinct, golden, ints, uniform
from cases_nn_more import u

F = "nn.functional."


def w_(shape):
    return uniform(shape, -1.0, 1.0)


@golden("conv3d")
def _conv3d():
    c = F + "conv3d"
    out = [case(c, u((2, 3, 5, 4, 6)), w_((4, 3, 2, 3, 2)), w_((4,)), id="grad basic", grad=True),
           case(c, u((1, 4, 6, 6, 5)), w_((6, 2, 3, 3, 3)), None, (2, 1, 2), (1, 2, 0), (1, 1, 2), 2,
                id="grad stride padding dilation groups", grad=True),
           case(c, u((3, 5, 5, 5)), w_((2, 3, 3, 3, 3)), w_((2,)), padding="same", id="grad unbatched same",
                grad=True),
           case(c, u((1, 2, 5, 6, 4)), w_((3, 2, 2, 2, 4)), w_((3,)), padding="same", dilation=2,
                id="grad same even kernel dilation 2", grad=True),
           case(c, V(u((2, 4, 4, 4, 3)), ("permute", 0, 4, 1, 2, 3)), w_((2, 3, 2, 2, 2)), None, padding="valid",
                id="grad permuted input", grad=True),
           case(c, u((2, 4, 5, 5, 5)), w_((4, 3, 2, 2, 2)), None, id="error: channels"),
           case(c, u((2, 3, 4)), w_((4, 3, 2, 2, 2)), None, id="error: 3-D input"),
           case(c, u((2, 3, 2, 2, 2)), w_((4, 3, 3, 3, 3)), None, id="error: kernel larger than input"),
           case(c, u((2, 3, 5, 5, 5)), w_((4, 3, 3, 3, 3)), None, 2, "same", id="error: same with stride"),
           # a module's random init cannot match PyTorch's: its weight is set by nn.init.dirac_ (3 of 4 outputs
           # copy an input channel, the 4th is zero)
           case("_module", "(lambda m: (nn.init.dirac_(m.weight), m)[1])(nn.Conv3d(3, 4, (3, 3, 3), stride=(1, 2, 1), "
                "padding=1, bias=False))", u((2, 3, 4, 5, 5)), id="grad module Conv3d with dirac_ weights",
                grad=True)]
    return out


@golden("max_pool3d")
def _max_pool3d():
    c = F + "max_pool3d"
    return [case(c, distinct((2, 3, 4, 6, 5)), 2, id="grad k2", grad=True),
            case(c, distinct((1, 2, 7, 6, 5)), (3, 2, 2), (2, 1, 2), (1, 1, 0), id="grad stride padding",
                 grad=True),
            case(c, distinct((2, 5, 5, 7)), 3, 2, 1, 2, True, id="grad unbatched dilation ceil_mode", grad=True),
            case(c, distinct((1, 2, 5, 5, 5)), 2, None, 1, 1, True, True, id="ceil_mode return_indices"),
            case(c, distinct((1, 2, 4, 4, 4)), 3, 1, 1, return_indices=True, id="padded return_indices"),
            case(c, distinct((1, 2, 4, 4, 4)), 2, padding=2, id="error: padding over half the kernel"),
            case(c, distinct((1, 2, 1, 4, 4)), 2, id="error: output too small"),
            case(c, distinct((2, 4, 4)), 2, id="error: 3-D input"),
            case("_module", "nn.MaxPool3d((2, 2, 1), stride=1)", distinct((2, 2, 3, 3, 3)), id="grad module",
                 grad=True)]


@golden("avg_pool3d")
def _avg_pool3d():
    c = F + "avg_pool3d"
    return [case(c, u((2, 3, 4, 6, 5)), 2, id="grad k2", grad=True),
            case(c, u((1, 2, 7, 6, 5)), (3, 2, 2), (2, 1, 2), (1, 1, 0), id="grad stride padding", grad=True),
            case(c, u((1, 2, 7, 6, 5)), 3, 2, 1, True, False, id="grad ceil_mode without pad counts", grad=True),
            case(c, u((2, 5, 6, 7)), 3, 2, 1, True, True, id="grad unbatched ceil_mode with pad counts", grad=True),
            case(c, u((1, 2, 4, 4, 4)), 2, divisor_override=3, id="grad divisor_override", grad=True),
            case(c, u((1, 2, 4, 4, 4)), 2, padding=2, id="error: padding over half the kernel"),
            case(c, u((1, 2, 4, 4, 4)), 2, divisor_override=0, id="error: divisor 0"),
            case("_module", "nn.AvgPool3d(2, stride=1, count_include_pad=False, padding=1)", u((1, 2, 3, 4, 3)),
                 id="grad module", grad=True)]


@golden("conv_transpose3d")
def _conv_transpose3d():
    c = F + "conv_transpose3d"
    return [case(c, u((2, 3, 3, 4, 2)), w_((3, 2, 2, 3, 2)), w_((2,)), id="grad basic", grad=True),
            case(c, u((1, 4, 3, 3, 2)), w_((4, 3, 3, 2, 3)), None, (2, 1, 3), (1, 0, 2), (1, 0, 2), 2, (1, 2, 1),
                 id="grad stride padding output_padding groups dilation", grad=True),
            case(c, u((3, 2, 3, 2)), w_((3, 2, 3, 3, 3)), w_((2,)), 2, 2, 1, id="grad unbatched padding over reach",
                 grad=True),
            case(c, V(u((2, 3, 3, 2, 2)), ("permute", 0, 4, 1, 2, 3)), w_((2, 2, 2, 2, 2)), None, 2,
                 id="grad permuted input", grad=True),
            case(c, u((2, 3, 4, 5, 6)), w_((4, 2, 2, 2, 2)), id="error: channels"),
            case(c, u((3, 4, 5)), w_((3, 2, 2, 2, 2)), id="error: 3-D input"),
            case(c, u((2, 3, 2, 2, 2)), w_((3, 2, 2, 2, 2)), None, 2, 0, 2, id="error: output_padding"),
            case(c, u((2, 3, 2, 2, 2)), w_((3, 2, 2, 2, 2)), w_((3,)), id="error: bias size"),
            case(c, u((2, 3, 2, 2, 2)), w_((3, 2, 2, 2, 2)), groups=2, id="error: groups"),
            case(c, u((2, 3, 2, 2, 2)), w_((3, 2, 2, 2, 2)), padding="same", id="error: padding string"),
            case(c, u((1, 3, 2, 2, 2)), w_((3, 2, 2, 2, 2)), padding=3, id="error: output too small [type only]"),
            case("_module", "(lambda m: (nn.init.dirac_(m.weight), m)[1])(nn.ConvTranspose3d(3, 3, 3, stride=2, "
                 "padding=1, output_padding=1, bias=False))", u((1, 3, 2, 3, 2)), id="grad module with dirac_ weights",
                 grad=True),
            case("_module", "(lambda m: (nn.init.dirac_(m.weight), m)[1])(nn.ConvTranspose3d(2, 2, (1, 2, 3), "
                 "stride=(1, 2, 2), bias=False)).forward", u((1, 2, 2, 2, 2)), (2, 5, 6),
                 id="grad module forward output_size", grad=True),
            case("_module", "nn.ConvTranspose3d(2, 2, (1, 2, 3), stride=(1, 2, 2)).forward", u((1, 2, 2, 2, 2)),
                 (3, 4, 5), id="error: module output_size out of range")]


@golden("adaptive_avg_pool3d")
def _adaptive_avg_pool3d():
    c = F + "adaptive_avg_pool3d"
    return [case(c, u((2, 3, 5, 7, 4)), (2, 3, 4), id="grad uneven windows", grad=True),
            case(c, u((1, 2, 3, 4, 5)), 5, id="grad output larger than input", grad=True),
            case(c, u((3, 4, 6, 5)), (None, 2, 1), id="grad unbatched None keeps a dim", grad=True),
            case(c, V(u((2, 4, 3, 5, 3)), ("transpose", 1, 3)), 2, id="grad transposed input", grad=True),
            case(c, u((2, 3, 4, 4, 4)), 0, id="zero output"),
            case(c, u((3, 4)), 2, id="error: 2-D input"),
            case(c, u((2, 3, 0, 5, 6)), 2, id="error: empty dim"),
            case(c, u((2, 3, 4, 5, 6)), (2, 2), id="error: two sizes"),
            case(c, u((2, 3, 4, 5, 6)), (2, -1, 2), id="error: negative size"),
            case(c, ints((2, 3, 4, 5, 6)), 2, id="error: int64 input"),
            case("_module", "nn.AdaptiveAvgPool3d((1, None, 2))", u((2, 2, 3, 4, 5)), id="grad module", grad=True)]


@golden("adaptive_max_pool3d")
def _adaptive_max_pool3d():
    c = F + "adaptive_max_pool3d"
    return [case(c, distinct((2, 3, 5, 7, 4)), (2, 3, 4), id="grad uneven windows", grad=True),
            case(c, distinct((1, 2, 3, 4, 5)), 5, True, id="grad output larger than input, indices", grad=True),
            case(c, distinct((3, 4, 6, 5)), (None, 2, 1), return_indices=True, id="grad unbatched indices",
                 grad=True),
            case(c, V(distinct((2, 4, 3, 5, 3)), ("transpose", 1, 3)), 2, True, id="grad transposed input indices",
                 grad=True),
            case(c, distinct((2, 3, 4, 4, 4)), 0, True, id="zero output"),
            case(c, u((3, 4)), 2, id="error: 2-D input"),
            case(c, u((2, 3, 0, 5, 6)), 2, id="error: empty dim"),
            case(c, u((2, 3, 4, 5, 6)), (2, 2), id="error: two sizes"),
            case(c, u((2, 3, 4, 5, 6)), (2, -1, 2), id="error: negative size"),
            case(c, ints((2, 3, 4, 5, 6)), 2, id="error: int64 input"),
            case("_module", "nn.AdaptiveMaxPool3d((2, 1, None), return_indices=True)", distinct((2, 2, 3, 4, 5)),
                 id="grad module", grad=True)]


@golden("lp_pool3d")
def _lp_pool3d():
    c = F + "lp_pool3d"
    return [case(c, uniform((2, 3, 4, 5, 6), 0.1, 2.0), 2, 2, id="grad p=2 k2", grad=True),
            case(c, u((1, 2, 5, 6, 5)), 1, (3, 2, 2), (2, 1, 2), id="grad p=1 stride", grad=True),
            case(c, uniform((2, 5, 6, 7), 0.1, 2.0), 3.0, 3, 2, True, id="grad unbatched p=3 ceil_mode", grad=True),
            case(c, distinct((1, 2, 4, 4, 4)), float("inf"), 2, id="grad p=inf", grad=True),
            case(c, u((3, 4)), 2, 2, id="error: 2-D input"),
            case(c, u((2, 3, 4, 5, 6)), 2, 5, id="error: kernel larger than input [type only]"),
            case("_module", "nn.LPPool3d(1.5, (2, 2, 1), stride=1)", uniform((2, 2, 3, 3, 3), 0.1, 2.0),
                 id="grad module", grad=True)]


OPS = ("conv3d", "max_pool3d", "avg_pool3d", "conv_transpose3d", "adaptive_avg_pool3d", "adaptive_max_pool3d",
       "lp_pool3d")
