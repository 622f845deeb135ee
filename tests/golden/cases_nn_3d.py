"""Golden cases: conv3d, max_pool3d and avg_pool3d of ``torch.nn.functional`` with nn.Conv3d / MaxPool3d /
AvgPool3d (imported by cases_nn_more.py; ``_module`` builds a module from its first argument, see generate.py)."""
from __future__ import annotations

from cases import V, case, distinct, golden, uniform
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


OPS = ("conv3d", "max_pool3d", "avg_pool3d")
