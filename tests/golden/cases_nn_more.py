"""Golden cases: normalize, cosine_similarity, pairwise_distance and the margin / ranking / embedding /
triplet / likelihood losses of ``torch.nn.functional`` (imported by cases.py), with the nn modules over them
(``_module``: a golden-only name that builds the module from its first argument, see generate.py)."""
from __future__ import annotations

import numpy as np

from cases import V, case, golden, ints, uniform

F = "nn.functional."
REDUCTIONS = ("none", "mean", "sum")


def u(shape, lo=-2.0, hi=2.0):
    return uniform(shape, lo, hi)


def signs(shape):
    """A target of +1 / -1 (float)."""
    return np.where(uniform(shape, -1, 1) < 0, -1.0, 1.0).astype(np.float32)


@golden("normalize")
def _normalize():
    c = F + "normalize"
    x = u((3, 5))
    x[1] = 0.0  # a zero row: the norm is clamped at eps
    out = [case(c, x, id="grad default p=2 dim=1", grad=True)]
    for kw in ({"p": 1.0}, {"p": 3.0, "dim": 0}, {"dim": -1, "eps": 0.5}, {"p": float("inf")}):
        out.append(case(c, u((2, 3, 4)), id=f"grad {kw}", grad=True, **kw))
    out.append(case(c, V(u((4, 3)), ("t",)), id="grad transposed", grad=True))
    out.append(case(c, u((5,)), dim=0, id="1-D"))
    out.append(case(c, u((3,)), dim=1, id="error: dim out of range"))
    out.append(case(c, ints((2, 3)), id="error: int64 input"))
    return out


@golden("cosine_similarity")
def _cosine_similarity():
    c = F + "cosine_similarity"
    a = u((4, 6))
    a[2] = 0.0
    out = [case(c, a, u((4, 6)), id="grad default dim=1, a zero row", grad=True),
           case(c, u((3, 1, 5)), u((4, 5)), dim=-1, id="grad broadcast", grad=True),
           case(c, u((2, 3, 4)), u((2, 3, 4)), dim=0, eps=1e-3, id="grad dim=0 eps", grad=True),
           case(c, u((2, 3)) * 1e-6, u((2, 3)), id="grad tiny norms", grad=True),
           case(c, u((5,)), u((5,)), dim=0, id="1-D"),
           case(c, ints((2, 3)), ints((2, 3)), id="error: int64 inputs"),
           case(c, u((2, 3)), u((2, 3)), dim=2, id="error: dim out of range"),
           case(c, u((2, 3)), u((3, 3)), id="error: shapes do not broadcast"),
           case("_module", "nn.CosineSimilarity(dim=0, eps=1e-6)", u((4, 3)), u((4, 3)), id="grad module", grad=True),
           case("_module", "nn.CosineSimilarity()", u((2, 4, 3)), u((2, 4, 3)), id="module default")]
    return out


@golden("pairwise_distance")
def _pairwise_distance():
    c = F + "pairwise_distance"
    out = [case(c, u((4, 5)), u((4, 5)), id="grad default", grad=True),
           case(c, u((4, 5)), u((5,)), p=1.0, id="grad broadcast p=1", grad=True),
           case(c, u((2, 3, 4)), u((2, 3, 4)), p=3.0, keepdim=True, id="grad p=3 keepdim", grad=True),
           case(c, u((3, 4)), u((3, 4)), p=float("inf"), eps=0.0, id="p=inf eps=0"),
           case(c, u((6,)), u((6,)), id="grad 1-D", grad=True),
           case(c, u((3, 4)), u((2, 4)), id="error: shapes do not broadcast"),
           case("_module", "nn.PairwiseDistance(p=1.0, keepdim=True)", u((3, 4)), u((3, 4)), id="grad module",
                grad=True),
           case("_module", "nn.PairwiseDistance()", u((3, 4)), u((3, 4)), id="module default")]
    return out


def _reductions(c, make, grad_reductions=REDUCTIONS, **kw):
    """Cases for each reduction (make() gives fresh args), gradients for grad_reductions."""
    return [case(c, *make(), reduction=r, id=f"{'grad ' if r in grad_reductions else ''}{r} {kw}",
                 grad=r in grad_reductions, **kw) for r in REDUCTIONS]


@golden("poisson_nll_loss")
def _poisson():
    c = F + "poisson_nll_loss"
    out = _reductions(c, lambda: (u((3, 4)), uniform((3, 4), 0, 4)))
    out += _reductions(c, lambda: (uniform((3, 4), 0.1, 3), uniform((3, 4), 0, 4)), log_input=False)
    out += _reductions(c, lambda: (u((3, 4)), np.round(uniform((3, 4), 0, 5))), full=True)
    out.append(case(c, uniform((4,), 0.0, 2.0), uniform((4,), 0, 3), log_input=False, full=True, eps=0.1,
                    id="grad log_input=False full eps", grad=True))
    out.append(case(c, u((2,)), u((3,)), id="error: shapes"))
    out.append(case(c, u((2,)), u((2,)), reduction="avg", id="error: reduction"))
    out.append(case("_module", "nn.PoissonNLLLoss(log_input=False, full=True)", uniform((3,), 0.5, 2),
                    np.array([0.0, 2.0, 5.0], np.float32), id="grad module", grad=True))
    return out


@golden("gaussian_nll_loss")
def _gaussian():
    c = F + "gaussian_nll_loss"
    out = _reductions(c, lambda: (u((3, 4)), u((3, 4)), uniform((3, 4), 0.1, 2)))
    out.append(case(c, u((3, 4)), u((3, 4)), uniform((3,), 0.1, 2), id="grad var one dim fewer", grad=True))
    out.append(case(c, u((3, 4)), u((3, 4)), uniform((3, 1), 0.1, 2), full=True, id="grad var (3, 1) full",
                    grad=True))
    var = uniform((2, 3), 0.1, 2)
    var[0, 0] = 1e-9
    out.append(case(c, u((2, 3)), u((2, 3)), var, eps=1e-3, id="grad var clamped at eps", grad=True))
    out.append(case(c, u((2, 3)), u((2, 3)), 0.5, id="float var"))
    out.append(case(c, u((2, 3)), u((2, 3)), -1.0, id="error: negative float var"))
    out.append(case(c, u((2, 3)), u((2, 3)), -uniform((2, 3), 0.1, 1), id="error: negative var"))
    out.append(case(c, u((2, 3)), u((2, 3)), uniform((3, 3), 0.1, 1), id="error: var size"))
    out.append(case(c, u((2, 3)), u((2, 3)), uniform((2, 3), 0.1, 1), reduction="x", id="error: reduction"))
    out.append(case("_module", "nn.GaussianNLLLoss(full=True, reduction='sum')", u((3, 2)), u((3, 2)),
                    uniform((3, 2), 0.5, 2), id="grad module", grad=True))
    return out


@golden("margin_ranking_loss")
def _margin_ranking():
    c = F + "margin_ranking_loss"
    out = _reductions(c, lambda: (u((6,)), u((6,)), signs((6,))))
    out += _reductions(c, lambda: (u((6,)), u((6,)), signs((6,))), ("mean",), margin=0.5)
    out.append(case(c, u((2,)), u((2, 1)), signs((2,)), id="error: dims"))
    out.append(case(c, u((2,)), u((3,)), signs((2,)), id="error: sizes"))
    out.append(case(c, u((2,)), u((2,)), signs((2,)), reduction="x", id="error: reduction"))
    out.append(case("_module", "nn.MarginRankingLoss(margin=0.3)", u((5,)), u((5,)), signs((5,)), id="grad module",
                    grad=True))
    return out


@golden("hinge_embedding_loss")
def _hinge():
    c = F + "hinge_embedding_loss"
    out = _reductions(c, lambda: (u((3, 4)), signs((3, 4))))
    out.append(case(c, u((3, 4)), signs((3, 4)), margin=2.0, id="grad margin 2", grad=True))
    out.append(case(c, u((4,)), np.array([1.0, -1.0, 0.0, 2.0], np.float32), id="grad targets other than +-1",
                    grad=True))
    out.append(case(c, u((2,)), signs((3,)), id="error: sizes"))
    out.append(case(c, u((2,)), signs((2,)), reduction="x", id="error: reduction"))
    out.append(case("_module", "nn.HingeEmbeddingLoss(margin=0.5)", u((6,)), signs((6,)), id="grad module",
                    grad=True))
    return out


@golden("soft_margin_loss")
def _soft_margin():
    c = F + "soft_margin_loss"
    out = _reductions(c, lambda: (u((3, 4)), V(signs((3, 4)), ("detach",))))
    out.append(case(c, u((2,)), signs((3,)), id="error: sizes"))
    out.append(case(c, u((2,)), signs((2,)), reduction="x", id="error: reduction"))
    out.append(case("_module", "nn.SoftMarginLoss(reduction='sum')", u((5,)), V(signs((5,)), ("detach",)),
                    id="grad module", grad=True))
    return out


@golden("multilabel_soft_margin_loss")
def _multilabel_soft():
    c = F + "multilabel_soft_margin_loss"
    t = lambda s: (uniform(s, 0, 1) < 0.5).astype(np.float32)  # noqa: E731
    out = _reductions(c, lambda: (u((3, 5)), t((3, 5))))
    out.append(case(c, u((3, 5)), t((3, 5)), uniform((5,), 0, 2), id="grad weight", grad=True))
    out.append(case(c, u((4,)), t((4,)), reduction="none", id="grad 1-D", grad=True))
    out.append(case(c, u((2, 3)), t((2, 3)), reduction="x", id="error: reduction"))
    out.append(case("_module", "nn.MultiLabelSoftMarginLoss(weight=torch.tensor([1.0, 2.0, 0.5]))", u((2, 3)),
                    t((2, 3)), id="grad module", grad=True))
    return out


@golden("multilabel_margin_loss")
def _multilabel_margin():
    c = F + "multilabel_margin_loss"
    t = np.array([[3, 0, -1, 1], [1, 2, 3, -1], [0, 1, 2, 3]], np.int64)
    out = [case(c, u((3, 4)), t, reduction=r, id=f"grad {r}", grad=True) for r in REDUCTIONS]
    out.append(case(c, u((4,)), np.array([2, 2, -1, 0], np.int64), reduction="none", id="grad 1-D repeated label",
                    grad=True))
    out.append(case(c, u((2, 3)), np.array([[-1, 0, 1], [2, -1, 0]], np.int64), id="grad -1 first", grad=True))
    out.append(case(c, u((2, 3)), np.array([[0, 3, 0], [1, 2, -1]], np.int64), id="error: target out of range"))
    out.append(case(c, u((2, 3)), np.array([[0, -2, 0], [1, 2, -1]], np.int64), id="error: target below -1"))
    out.append(case(c, u((2, 3)), np.array([[0, 1], [1, 2]], np.int64), id="error: target size"))
    out.append(case(c, u((2, 3)), np.array([[0, 1, 1], [1, 2, 1]], np.float32), id="error: float target"))
    out.append(case(c, u((2, 3, 4)), np.zeros((2, 3, 4), np.int64), id="error: 3-D input"))
    out.append(case("_module", "nn.MultiLabelMarginLoss()", u((2, 3)), np.array([[2, -1, 0], [0, 1, -1]], np.int64),
                    id="grad module", grad=True))
    return out


@golden("multi_margin_loss")
def _multi_margin():
    c = F + "multi_margin_loss"
    out = _reductions(c, lambda: (u((4, 5)), ints((4,), 0, 4)))
    out.append(case(c, u((4, 5)), ints((4,), 0, 4), p=2, margin=0.5, id="grad p=2 margin", grad=True))
    out.append(case(c, u((4, 5)), ints((4,), 0, 4), weight=uniform((5,), 0, 2), id="grad weight",
                    grad=True))
    out.append(case(c, u((5,)), np.array(2, np.int64), reduction="none", id="grad 1-D input", grad=True))
    out.append(case(c, u((2, 3)), np.array([1, 3], np.int64), id="error: target out of range"))
    out.append(case(c, u((2, 3)), np.array([1, -1], np.int64), id="error: negative target"))
    out.append(case(c, u((2, 3)), np.array([1, 1, 1], np.int64), id="error: target size"))
    out.append(case(c, u((2, 3)), np.array([1, 1], np.int64), weight=np.ones(4, np.float32), id="error: weight size"))
    out.append(case(c, u((2, 3)), np.array([1, 1], np.int64), p=3, id="error: p"))
    out.append(case(c, u((2, 3)), np.array([1.0, 1.0], np.float32), id="error: float target"))
    out.append(case("_module", "nn.MultiMarginLoss(p=2, weight=torch.tensor([1.0, 0.5, 2.0]))", u((3, 3)),
                    np.array([0, 2, 1], np.int64), id="grad module", grad=True))
    return out


@golden("cosine_embedding_loss")
def _cosine_embedding():
    c = F + "cosine_embedding_loss"
    out = _reductions(c, lambda: (u((4, 5)), u((4, 5)), signs((4,))))
    out.append(case(c, u((4, 5)), u((4, 5)), signs((4,)), margin=-0.3, id="grad margin", grad=True))
    out.append(case(c, u((5,)), u((5,)), np.array(-1.0, np.float32), reduction="none", id="grad 0-D target",
                    grad=True))
    out.append(case(c, u((2, 3)), u((2, 3)), signs((2, 1)), id="error: 2-D target"))
    out.append(case(c, u((3,)), u((2, 3)), signs((2,)), id="error: 1-D input with 1-D target"))
    out.append(case(c, u((2, 3)), u((2, 3)), np.array(1.0, np.float32), id="error: 2-D input with 0-D target"))
    out.append(case(c, u((2, 3)), u((2, 3)), signs((2,)), reduction="x", id="error: reduction"))
    out.append(case("_module", "nn.CosineEmbeddingLoss(margin=0.2)", u((3, 4)), u((3, 4)), signs((3,)),
                    id="grad module", grad=True))
    return out


@golden("triplet_margin_loss")
def _triplet():
    c = F + "triplet_margin_loss"
    out = _reductions(c, lambda: (u((4, 5)), u((4, 5)), u((4, 5))))
    out.append(case(c, u((4, 5)), u((4, 5)), u((4, 5)), margin=2.0, p=1, swap=True, id="grad p=1 swap", grad=True))
    out.append(case(c, u((6,)), u((6,)), u((6,)), margin=3.0, id="grad 1-D", grad=True))
    out.append(case(c, u((2, 3)), u((2, 3)), u((3,)), id="error: dims"))
    out.append(case(c, u((2, 3)), u((2, 3)), u((2, 3)), margin=0.0, id="error: margin"))
    out.append(case("_module", "nn.TripletMarginLoss(margin=1.5, p=3, swap=True)", u((3, 4)), u((3, 4)), u((3, 4)),
                    id="grad module", grad=True))
    return out


@golden("triplet_margin_with_distance_loss")
def _triplet_distance():
    c = F + "triplet_margin_with_distance_loss"
    out = _reductions(c, lambda: (u((4, 5)), u((4, 5)), u((4, 5))))
    out.append(case(c, u((4, 5)), u((4, 5)), u((4, 5)), margin=2.0, swap=True, id="grad swap", grad=True))
    out.append(case(c, u((2, 3)), u((2, 3)), u((3,)), id="error: dims"))
    out.append(case(c, u((2, 3)), u((2, 3)), u((2, 3)), margin=-1.0, id="error: margin"))
    out.append(case(c, u((2, 3)), u((2, 3)), u((2, 3)), reduction="x", id="error: reduction"))
    out.append(case("_module", "nn.TripletMarginWithDistanceLoss(distance_function=nn.CosineSimilarity(), "
                    "margin=0.5)", u((3, 4)), u((3, 4)), u((3, 4)), id="grad module cosine distance", grad=True))
    return out


# the ops of this file, replayed on WebGPU by tests/browser/test_nn_more_webgpu.py
OPS = ("normalize", "cosine_similarity", "pairwise_distance", "poisson_nll_loss", "gaussian_nll_loss",
       "margin_ranking_loss", "hinge_embedding_loss", "soft_margin_loss", "multilabel_soft_margin_loss",
       "multilabel_margin_loss", "multi_margin_loss", "cosine_embedding_loss", "triplet_margin_loss",
       "triplet_margin_with_distance_loss")

import cases_nn_3d  # noqa: E402,F401 - these files' cases register themselves
import cases_nn_more_layers  # noqa: E402,F401
