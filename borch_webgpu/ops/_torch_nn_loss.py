"""The ``torch.*`` names of the nn losses, constant_pad_nd and grid_sampler, with ATen's arguments: the reduction
as an integer (1 'mean', 2 'sum', anything else 'none'; as in PyTorch 2.13 it defaults to 'none' through
``torch.*``), grid_sampler's modes as integers. Each calls F's loss (see _torch_nn.py for the other nn names).
"""
from __future__ import annotations

from ..tensor import Tensor
from ._registry import methods

__all__: list[str] = []


def _reduction(op: str, r) -> str:
    """ATen's integer reduction: 1 'mean', 2 'sum', anything else 'none' (as apply_loss_reduction does)."""
    return {1: "mean", 2: "sum"}.get(r, "none")


def kl_div(input: Tensor, target: Tensor, reduction: int = 0, *, log_target: bool = False) -> Tensor:
    """``F.kl_div`` with the reduction as an integer (0 'none', 1 'mean', 2 'sum').

    Example::

        >>> import borch_webgpu as torch
        >>> torch.kl_div(torch.tensor([0., 0.]), torch.tensor([1., 1.]))
        tensor([0., 0.])
    """
    from ._nn_loss import kl_div as f
    return f(input, target, reduction=_reduction("kl_div", reduction), log_target=log_target)


def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths, target_lengths, blank: int = 0, reduction: int = 0,
             zero_infinity: bool = False) -> Tensor:
    """``F.ctc_loss`` with the reduction as an integer (0 'none', 1 'mean', 2 'sum').

    Example::

        >>> import borch_webgpu as torch
        >>> lp = torch.zeros(2, 1, 2).log_softmax(2)
        >>> torch.ctc_loss(lp, torch.tensor([[1]]), [2], [1])
        tensor([0.2877])
    """
    from ._nn_ctc import ctc_loss as f
    return f(log_probs, targets, input_lengths, target_lengths, blank, _reduction("ctc_loss", reduction),
             zero_infinity)


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                          reduction: int = 0) -> Tensor:
    """``F.cosine_embedding_loss`` with the reduction as an integer.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.cosine_embedding_loss(torch.ones(1, 2), torch.ones(1, 2), torch.tensor([1.]))
        tensor([0.])
    """
    from ._nn_loss2 import cosine_embedding_loss as f
    return f(input1, input2, target, margin, reduction=_reduction("cosine_embedding_loss", reduction))


def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0, reduction: int = 0) -> Tensor:
    """``F.hinge_embedding_loss`` with the reduction as an integer.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.hinge_embedding_loss(torch.tensor([0.5, 2.]), torch.tensor([1., -1.]))
        tensor([0.5000, 0.0000])
    """
    from ._nn_loss2 import hinge_embedding_loss as f
    return f(input, target, margin, reduction=_reduction("hinge_embedding_loss", reduction))


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                        reduction: int = 0) -> Tensor:
    """``F.margin_ranking_loss`` with the reduction as an integer.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.margin_ranking_loss(torch.tensor([1., 0.]), torch.tensor([0., 1.]), torch.tensor([1., 1.]))
        tensor([0., 1.])
    """
    from ._nn_loss2 import margin_ranking_loss as f
    return f(input1, input2, target, margin, reduction=_reduction("margin_ranking_loss", reduction))


def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool, full: bool, eps: float,
                     reduction: int) -> Tensor:
    """``F.poisson_nll_loss`` with ATen's arguments (all required; the reduction as an integer).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.poisson_nll_loss(torch.zeros(2), torch.ones(2), True, False, 1e-8, 1)
        tensor(1.)
    """
    from ._nn_loss2 import poisson_nll_loss as f
    return f(input, target, log_input, full, eps=eps, reduction=_reduction("poisson_nll_loss", reduction))


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0, p: float = 2.0,
                        eps: float = 1e-6, swap: bool = False, reduction: int = 0) -> Tensor:
    """``F.triplet_margin_loss`` with the reduction as an integer.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.triplet_margin_loss(torch.zeros(1, 2), torch.zeros(1, 2), torch.ones(1, 2) * 3)
        tensor([0.])
    """
    from ._nn_loss2 import triplet_margin_loss as f
    return f(anchor, positive, negative, margin, p, eps, swap, reduction=_reduction("triplet_margin_loss", reduction))


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                     pos_weight: Tensor | None = None, reduction: int = 0) -> Tensor:
    """``F.binary_cross_entropy_with_logits`` with the reduction as an integer.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.binary_cross_entropy_with_logits(torch.zeros(2), torch.ones(2))
        tensor([0.6931, 0.6931])
    """
    from ._nn_loss import binary_cross_entropy_with_logits as f
    return f(input, target, weight, reduction=_reduction("binary_cross_entropy_with_logits", reduction),
             pos_weight=pos_weight)


def constant_pad_nd(input: Tensor, pad, value=0) -> Tensor:
    """``F.pad(input, pad, 'constant', value)``.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.constant_pad_nd(torch.ones(1, 2), [1, 0], 5.)
        tensor([[5., 1., 1.]])
    """
    from .shape import pad as f
    return f(input, list(pad), "constant", value)


_GRID_MODES = {0: "bilinear", 1: "nearest", 2: "bicubic"}
_GRID_PADDING = {0: "zeros", 1: "border", 2: "reflection"}


def grid_sampler(input: Tensor, grid: Tensor, interpolation_mode: int, padding_mode: int,
                 align_corners: bool) -> Tensor:
    """``F.grid_sample`` with the modes as integers (interpolation 0 bilinear, 1 nearest, 2 bicubic; padding
    0 zeros, 1 border, 2 reflection).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.grid_sampler(torch.ones(1, 1, 2, 2), torch.zeros(1, 1, 1, 2), 0, 0, False)
        tensor([[[[1.]]]])
    """
    from ._nn_grid import grid_sample
    if interpolation_mode not in _GRID_MODES or padding_mode not in _GRID_PADDING:
        raise ValueError(f"grid_sampler: interpolation_mode must be 0, 1 or 2 and padding_mode 0, 1 or 2, got "
                         f"{interpolation_mode!r} and {padding_mode!r}")
    return grid_sample(input, grid, _GRID_MODES[interpolation_mode], _GRID_PADDING[padding_mode], align_corners)


# ---- the public names (bound by borch_webgpu/_bind.py) --------------------------------------------------------
methods(("kl_div", kl_div), ("ctc_loss", ctc_loss), ("cosine_embedding_loss", cosine_embedding_loss),
        ("hinge_embedding_loss", hinge_embedding_loss), ("margin_ranking_loss", margin_ranking_loss),
        ("poisson_nll_loss", poisson_nll_loss), ("triplet_margin_loss", triplet_margin_loss),
        ("binary_cross_entropy_with_logits", binary_cross_entropy_with_logits),
        ("constant_pad_nd", constant_pad_nd), ("grid_sampler", grid_sampler), tensor=False)
