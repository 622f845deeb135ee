"""Golden cases: lp_pool1d/2d, local_response_norm (with nn.Softmax2d), gumbel_softmax, unfold/fold,
embedding_bag, affine_grid/grid_sample and ctc_loss of ``torch.nn.functional`` and their nn modules (imported
by cases_nn_more.py; ``_module`` builds a module from its first argument, see generate.py)."""
from __future__ import annotations

import numpy as np

from cases import V, case, golden, ints, uniform
from cases_nn_more import REDUCTIONS, u

F = "nn.functional."


@golden("lp_pool1d")
def _lp_pool1d():
    c = F + "lp_pool1d"
    pos = lambda s: uniform(s, 0.2, 2.0)  # noqa: E731 - fractional powers of negatives are NaN, as in PyTorch
    out = [case(c, u((2, 3, 8)), 2, 3, id="grad p=2 k3", grad=True),
           case(c, pos((2, 3, 9)), 1.5, 3, 2, id="grad p=1.5 stride 2", grad=True),
           case(c, pos((1, 2, 10)), 3, 4, None, True, id="grad p=3 ceil_mode", grad=True),
           case(c, u((2, 7)), float("inf"), 2, id="p=inf unbatched"),
           case(c, u((2, 3, 8)), 1, 2, id="p=1 (signed sum)"),
           case("_module", "nn.LPPool1d(2, 3, stride=1)", u((2, 3, 6)), id="grad module", grad=True)]
    return out


@golden("lp_pool2d")
def _lp_pool2d():
    c = F + "lp_pool2d"
    pos = lambda s: uniform(s, 0.2, 2.0)  # noqa: E731
    out = [case(c, u((2, 3, 6, 6)), 2, 2, id="grad p=2 k2", grad=True),
           case(c, pos((1, 2, 7, 5)), 1.5, (3, 2), (2, 1), id="grad p=1.5 rectangular", grad=True),
           case(c, pos((1, 2, 7, 7)), 4, 3, None, True, id="grad p=4 ceil_mode", grad=True),
           case(c, u((2, 6, 6)), float("inf"), 3, id="p=inf unbatched"),
           case("_module", "nn.LPPool2d(2, (2, 3))", u((2, 2, 4, 6)), id="grad module", grad=True)]
    return out


@golden("local_response_norm")
def _local_response_norm():
    c = F + "local_response_norm"
    out = [case(c, u((2, 5, 4)), 3, id="grad 3-D size 3", grad=True),
           case(c, u((2, 6, 3, 3)), 2, alpha=0.1, beta=0.5, k=2.0, id="grad 4-D size 2", grad=True),
           case(c, u((1, 4, 2, 3, 2)), 5, alpha=1.0, id="grad 5-D size 5", grad=True),
           case(c, u((0, 3, 4)), 2, id="empty"),
           case(c, u((3, 4)), 2, id="error: 2-D input"),
           case("_module", "nn.LocalResponseNorm(3, alpha=0.5, beta=1.0, k=1.5)", u((2, 4, 3, 3)), id="grad module",
                grad=True),
           # nn.Softmax2d: a softmax over the channels of each location
           case("_module", "nn.Softmax2d()", u((2, 3, 4, 4)), id="grad module Softmax2d", grad=True),
           case("_module", "nn.Softmax2d()", u((3, 2, 2)), id="module Softmax2d 3-D"),
           case("_module", "nn.Softmax2d()", u((3, 2)), id="error: module Softmax2d 2-D")]
    return out


@golden("gumbel_softmax")
def _gumbel_softmax():
    # random: the goldens hold shapes and dtypes (tests/unit/test_nn_more.py checks the distribution)
    c = F + "gumbel_softmax"
    return [case(c, u((3, 5)), id="soft", random=True),
            case(c, u((2, 3, 4)), tau=0.5, hard=True, dim=1, id="hard dim=1", random=True)]


@golden("unfold")
def _unfold():
    c = F + "unfold"
    out = [case(c, u((2, 3, 4, 5)), 2, id="grad k2", grad=True),
           case(c, u((1, 2, 6, 7)), (3, 2), dilation=(1, 2), padding=1, stride=(2, 1), id="grad all options",
                grad=True),
           case(c, u((3, 5, 5)), 3, padding=2, stride=2, id="grad unbatched padding > kernel / 2", grad=True),
           case(c, V(u((2, 5, 4, 3)), ("permute", 0, 3, 2, 1)), 2, id="grad permuted input", grad=True),
           case(c, u((0, 3, 4, 5)), 2, id="empty batch"),
           case(c, u((4, 5)), 2, id="error: 2-D input"),
           case(c, u((1, 2, 3, 4, 5)), 2, id="error: 5-D input"),
           case(c, u((2, 0, 4, 5)), 2, id="error: no channels"),
           case(c, u((2, 3, 4, 5)), 0, id="error: kernel 0"),
           case(c, u((2, 3, 4, 5)), 2, dilation=0, id="error: dilation 0"),
           case(c, u((2, 3, 4, 5)), 2, padding=-1, id="error: negative padding"),
           case(c, u((2, 3, 4, 5)), 2, stride=0, id="error: stride 0"),
           case(c, u((2, 3, 4, 5)), 6, id="error: kernel larger than input"),
           case(c, ints((2, 3, 4, 5)), 2, id="error: int64 input"),
           case("_module", "nn.Unfold((2, 3), padding=1, stride=2)", u((2, 2, 5, 6)), id="grad module", grad=True)]
    return out


@golden("fold")
def _fold():
    c = F + "fold"
    out = [case(c, u((2, 12, 12)), (4, 5), 2, id="grad k2", grad=True),
           case(c, u((12, 12)), (4, 5), 2, id="grad unbatched", grad=True),
           case(c, u((1, 12, 21)), (6, 7), (3, 2), dilation=(1, 2), padding=1, stride=(2, 1), id="grad all options",
                grad=True),
           case(c, u((2, 18, 9)), (5, 5), 3, padding=1, stride=2, id="grad strided overlaps", grad=True),
           case(c, u((2, 13, 12)), (4, 5), 2, id="error: channels not divisible"),
           case(c, u((2, 12, 11)), (4, 5), 2, id="error: block count"),
           case(c, u((2, 12, 11, 1)), (4, 5), 2, id="error: 4-D input"),
           case(c, u((2, 12, 0)), (4, 5), 2, id="error: no blocks"),
           case(c, u((2, 12, 12)), (1, 1), 2, id="error: output smaller than the kernel"),
           case(c, u((2, 12, 12)), (4, 5), 0, id="error: kernel 0"),
           case(c, u((2, 12, 12)), (4, 5), 2, padding=-1, id="error: negative padding"),
           case(c, u((2, 12, 12)), (4, 5), 2, stride=0, id="error: stride 0"),
           case(c, u((2, 12, 12)), (4, 5), 2, dilation=0, id="error: dilation 0"),
           case(c, ints((2, 12, 12)), (4, 5), 2, id="error: int64 input"),
           case("_module", "nn.Fold((5, 6), (2, 3), padding=1, stride=2)", u((2, 12, 9)), id="grad module",
                grad=True)]
    return out


@golden("embedding_bag")
def _embedding_bag():
    c = F + "embedding_bag"
    idx = np.array([1, 2, 4, 5, 4, 3, 2, 9], np.int64)
    offs = np.array([0, 4], np.int64)
    out = [case(c, idx, u((10, 3)), offs, mode=m, id=f"grad {m}", grad=True) for m in ("sum", "mean", "max")]
    out += [case(c, ints((3, 4), 0, 7), u((8, 5)), mode=m, id=f"grad 2-D input {m}", grad=True)
            for m in ("sum", "mean", "max")]
    out.append(case(c, idx, u((10, 3)), np.array([0, 3, 3, 8], np.int64), mode="mean", id="grad empty bags",
                    grad=True))
    out.append(case(c, idx, u((10, 3)), np.array([0, 4, 8], np.int64), mode="sum", include_last_offset=True,
                    id="grad include_last_offset", grad=True))
    out.append(case(c, idx, u((10, 3)), offs, mode="sum", per_sample_weights=u((8,)), id="per_sample_weights"))
    out.append(case(c, idx, u((10, 3)), offs, None, 2, False, "sum", False, u((8,)), id="grad per_sample_weights",
                    grad=True))
    out.append(case(c, idx, u((10, 3)), offs, mode="mean", padding_idx=4, id="grad padding_idx mean", grad=True))
    out.append(case(c, idx, u((10, 3)), offs, mode="max", padding_idx=-1, id="grad padding_idx -1 max", grad=True))
    out.append(case(c, np.array([4, 4, 1, 4], np.int64), u((6, 2)), np.array([0, 2], np.int64), mode="sum",
                    scale_grad_by_freq=True, id="grad scale_grad_by_freq", grad=True))
    out.append(case(c, idx, u((10, 3)) * 3, offs, max_norm=1.0, id="max_norm"))
    out.append(case(c, idx.astype(np.int32), u((10, 3)), offs.astype(np.int32), id="int32 indices"))
    out.append(case(c, np.zeros(0, np.int64), u((10, 3)), np.array([0, 0], np.int64), id="empty input"))
    bad = [("offsets[0] not 0", idx, np.array([1, 4], np.int64), {}),
           ("offsets past the end", idx, np.array([0, 4, 9], np.int64), {}),
           ("offsets decreasing", idx, np.array([0, 5, 4], np.int64), {}),
           ("index too large", np.array([1, 2, 10], np.int64), np.array([0], np.int64), {}),
           ("negative index", np.array([1, -1, 2], np.int64), np.array([0], np.int64), {}),
           ("2-D input with offsets", ints((2, 2), 0, 5), offs, {}),
           ("offsets 2-D", idx, np.array([[0]], np.int64), {}),
           ("mode", idx, offs, {"mode": "min"}),
           ("per_sample_weights with mean", idx, offs, {"per_sample_weights": np.ones(8, np.float32)}),
           ("per_sample_weights shape", idx, offs, {"mode": "sum", "per_sample_weights": np.ones(3, np.float32)}),
           ("max with scale_grad_by_freq", idx, offs, {"mode": "max", "scale_grad_by_freq": True}),
           ("padding_idx too large", idx, offs, {"padding_idx": 10}),
           ("padding_idx too small", idx, offs, {"padding_idx": -11}),
           ("float indices", idx.astype(np.float32), offs, {})]
    out += [case(c, i, u((10, 3)), o, id=f"error: {name}", **kw) for name, i, o, kw in bad]
    out.append(case(c, idx, u((10,)), offs, id="error: 1-D weight"))
    out.append(case(c, np.array([[[1]]], np.int64), u((10, 3)), id="error: 3-D input"))
    out.append(case(c, idx, u((10, 3)), id="error: 1-D input without offsets"))
    out.append(case("_module", "nn.EmbeddingBag.from_pretrained(torch.linspace(-1, 1, 12).reshape(4, 3), "
                    "freeze=False, mode='max')", np.array([0, 3, 2, 1, 1], np.int64), np.array([0, 2], np.int64),
                    id="module from_pretrained max"))
    return out


def _theta(n, d=2):
    """Affine matrices near the identity (n, d, d + 1)."""
    return (np.eye(d, d + 1, dtype=np.float32) + uniform((n, d, d + 1), -0.4, 0.4)).astype(np.float32)


@golden("affine_grid")
def _affine_grid():
    c = F + "affine_grid"
    out = [case(c, _theta(2), (2, 3, 4, 5), align_corners=a, id=f"grad 2-D align_corners={a}", grad=True)
           for a in (False, True)]
    out += [case(c, _theta(2, 3), (2, 1, 3, 4, 2), align_corners=a, id=f"grad 3-D align_corners={a}", grad=True)
            for a in (False, True)]
    out.append(case(c, _theta(1), (1, 1, 1, 3), align_corners=False, id="unit height"))
    out.append(case(c, _theta(1), (1, 1, 1, 3), align_corners=True, id="unit height align_corners (warns)"))
    out.append(case(c, _theta(2), (2, 3, 4, 5), id="default align_corners (warns)"))
    out.append(case(c, ints((2, 2, 3), 0, 1), (2, 3, 4, 5), align_corners=False, id="error: int64 theta"))
    out.append(case(c, _theta(2, 3)[:, :, :3], (2, 3, 4, 5), align_corners=False, id="error: 3x3 theta for 4-D"))
    out.append(case(c, _theta(2), (2, 3, 4, 5, 6), align_corners=False, id="error: 2x3 theta for 5-D"))
    out.append(case(c, _theta(2), (2, 3, 4), align_corners=False, id="error: 3-D size"))
    out.append(case(c, _theta(2), (2, 3, 0, 5), align_corners=False, id="error: empty size"))
    out.append(case(c, _theta(2), (3, 3, 4, 5), align_corners=False, id="error: batch size"))
    return out


@golden("grid_sample")
def _grid_sample():
    c = F + "grid_sample"
    out = []
    for mode in ("bilinear", "nearest"):
        for pad in ("zeros", "border", "reflection"):
            for a in (False, True):
                # grid points beyond [-1, 1] exercise the padding; none on a pixel edge (ties, kinks)
                out.append(case(c, u((2, 3, 4, 5)), u((2, 3, 6, 2), -1.3, 1.3), mode=mode, padding_mode=pad,
                                align_corners=a, id=f"grad {mode} {pad} align_corners={a}", grad=True))
    out.append(case(c, u((1, 2, 3, 4, 5)), u((1, 2, 3, 2, 3), -1.2, 1.2), align_corners=False,
                    id="grad 3-D trilinear", grad=True))
    out.append(case(c, u((1, 2, 3, 4, 5)), u((1, 2, 2, 2, 3), -1.2, 1.2), mode="nearest",
                    padding_mode="reflection", align_corners=True, id="grad 3-D nearest reflection", grad=True))
    out.append(case(c, u((2, 3, 4, 5)), u((2, 3, 6, 2), -1, 1), id="default align_corners (warns)"))
    out.append(case(c, V(u((2, 5, 4, 3)), ("permute", 0, 3, 2, 1)), u((2, 2, 2, 2), -1, 1), align_corners=False,
                    id="grad permuted input", grad=True))
    out.append(case(c, u((1, 1, 1, 1)), u((1, 2, 2, 2), -1, 1), padding_mode="reflection", align_corners=True,
                    id="one pixel reflection align_corners"))
    bad = [("batch size", u((2, 3, 4, 5)), u((3, 6, 7, 2)), {}), ("grid last dim", u((2, 3, 4, 5)), u((2, 6, 7, 3)), {}),
           ("grid rank", u((2, 3, 4, 5)), u((2, 6, 7, 1, 2)), {}), ("3-D input", u((2, 3, 4)), u((2, 6, 1)), {}),
           ("mode", u((2, 3, 4, 5)), u((2, 6, 7, 2)), {"mode": "linear"}),
           ("padding_mode", u((2, 3, 4, 5)), u((2, 6, 7, 2)), {"padding_mode": "wrap"}),
           ("bicubic 3-D", u((2, 3, 4, 5, 6)), u((2, 6, 7, 2, 3)), {"mode": "bicubic"}),
           ("empty spatial dim", u((2, 3, 0, 5)), u((2, 6, 7, 2)), {}),
           ("int64 input", ints((2, 3, 4, 5)), u((2, 6, 7, 2)), {})]
    out += [case(c, x, g, id=f"error: {name}", align_corners=False, **kw) for name, x, g, kw in bad]
    # bicubic: 4 x 4 taps, each padded on its own; points far outside [-1, 1] fold several times (reflection)
    for pad in ("zeros", "border", "reflection"):
        for a in (False, True):
            out.append(case(c, u((2, 3, 4, 5)), u((2, 3, 6, 2), -1.3, 1.3), mode="bicubic", padding_mode=pad,
                            align_corners=a, id=f"grad bicubic {pad} align_corners={a}", grad=True))
            out.append(case(c, u((1, 2, 3, 2)), u((1, 4, 5, 2), -3.2, 3.2), mode="bicubic", padding_mode=pad,
                            align_corners=a, id=f"grad bicubic far points {pad} align_corners={a}", grad=True))
    out.append(case(c, u((1, 2, 1, 1)), u((1, 2, 2, 2), -1, 1), mode="bicubic", padding_mode="reflection",
                    align_corners=True, id="grad bicubic one pixel reflection align_corners", grad=True))
    out.append(case(c, V(u((2, 5, 4, 3)), ("permute", 0, 3, 2, 1)), u((2, 2, 3, 2), -1, 1), mode="bicubic",
                    align_corners=False, id="grad bicubic permuted input", grad=True))
    return out


def _logp(shape):
    """Log-probabilities over the last dim, differentiated through their log_softmax (as a model makes them)."""
    return V(u(shape, -3, 3), ("log_softmax", len(shape) - 1))


@golden("ctc_loss")
def _ctc_loss():
    c = F + "ctc_loss"
    tg = np.array([[1, 2, 2], [1, 1, 0]], np.int64)
    il, tl = np.array([6, 5], np.int64), np.array([3, 2], np.int64)
    out = [case(c, _logp((6, 2, 4)), tg, il, tl, reduction=r, id=f"grad {r}", grad=True) for r in REDUCTIONS]
    out.append(case(c, _logp((6, 2, 4)), np.array([1, 2, 2, 1, 1], np.int64), il, tl, id="grad concatenated targets",
                    grad=True))
    out.append(case(c, _logp((6, 2, 4)), tg, (6, 5), (3, 2), reduction="sum", id="grad lengths as tuples",
                    grad=True))
    out.append(case(c, _logp((8, 3, 5)), ints((3, 4), 0, 3), np.array([8, 7, 5], np.int64),
                    np.array([4, 0, 3], np.int64), blank=4, id="grad blank 4, an empty target", grad=True))
    out.append(case(c, _logp((6, 2, 4)), tg, np.array([6, 2], np.int64), tl, reduction="none",
                    id="impossible alignment is inf"))
    out.append(case(c, _logp((6, 2, 4)), tg, np.array([6, 2], np.int64), tl, reduction="none", zero_infinity=True,
                    id="grad zero_infinity", grad=True))
    out.append(case(c, _logp((6, 4)), np.array([1, 2, 2], np.int64), np.array(6, np.int64), np.array(3, np.int64),
                    id="grad unbatched", grad=True))
    out.append(case(c, _logp((30, 2, 6)), ints((2, 10), 1, 5), np.array([30, 25], np.int64),
                    np.array([10, 7], np.int64), id="grad 30 steps", grad=True))
    out.append(case("_module", "nn.CTCLoss(blank=1, reduction='sum')", _logp((5, 2, 3)),
                    np.array([[0, 2], [2, 2]], np.int64), [5, 5], [2, 2], id="grad module", grad=True))
    z = u((6, 2, 4)).astype(np.float64)
    leaf = (z - np.log(np.exp(z).sum(-1, keepdims=True))).astype(np.float32)
    out.append(case(c, leaf, tg, np.array([6, 4], np.int64), tl, id="grad leaf log_probs (PyTorch's gradient form)",
                    grad=True))
    lp = u((6, 2, 4))
    bad = [("input length too long", tg, np.array([7, 5]), tl, {}),
           ("target length too long", tg, il, np.array([4, 2]), {}),
           ("input_lengths size", tg, np.array([6, 5, 4]), tl, {}),
           ("target_lengths size", tg, il, np.array([3, 2, 1]), {}),
           ("blank out of range", tg, il, tl, {"blank": 4}),
           ("reduction", tg, il, tl, {"reduction": "x"}),
           ("negative input length", tg, np.array([6, -1]), tl, {}),
           ("negative target length", tg, il, np.array([3, -1]), {}),
           ("concatenated targets size", np.array([1, 2, 2, 1], np.int64), il, tl, {})]
    out += [case(c, lp, t, i.astype(np.int64), g.astype(np.int64), id=f"error: {name}", **kw)
            for name, t, i, g, kw in bad]
    return out


# the ops of this file, replayed on WebGPU by tests/browser/test_nn_more_webgpu.py
OPS = ("lp_pool1d", "lp_pool2d", "local_response_norm", "gumbel_softmax", "unfold", "fold", "embedding_bag",
       "affine_grid", "grid_sample", "ctc_loss")
