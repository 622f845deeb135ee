"""``F.ctc_loss``: the connectionist temporal classification loss, as the forward (alpha) recursion of
Graves et al. (2006) in log space, one step per time step of ``logsumexp`` over the three predecessors of
each state of the blank-extended target, batched over the sequences; autograd differentiates it.

Targets and lengths are read to the host (PyTorch's CPU kernel reads them too) to build the extended
labels; log-probabilities stay on the device. Unreachable states hold -1e30 instead of -inf, so that no
gradient is NaN; an impossible alignment is set to inf afterwards (0 with ``zero_infinity``). PyTorch's
gradient with respect to ``log_probs`` is the one through its log_softmax (``exp(lp) - posterior``, zero past
each input length); a zero-valued term adds the ``exp(lp)`` part, so leaf log-probabilities get the same."""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor
from ._registry import OpDef, register

__all__ = ["ctc_loss"]

# T steps of float32 logsumexp: a few ulps per step of an O(T) sum
register(OpDef("ctc_loss", "nn", None, None, tol=(1e-5, 1e-5), extra={"messages": True},
               doc="-log of the summed probability of the alignments of each target (the alpha recursion)"))

_NEG = -1e30
_WHERE = " (while checking arguments for ctc_loss_allocate_outputs)"


def _ints(name: str, v) -> np.ndarray:
    if isinstance(v, Tensor):
        return np.asarray(v.tolist(), np.int64).reshape(-1)
    return np.asarray(list(v) if isinstance(v, (list, tuple)) else [v], np.int64)


def _check(log_probs: Tensor, targets: Tensor, il: np.ndarray, tl: np.ndarray, blank: int) -> np.ndarray:
    """PyTorch's checks; the (N, max target length) padded targets."""
    t_len, n, c = tuple(log_probs.shape)
    if not 0 <= blank < c:
        raise RuntimeError("blank must be in label range")
    if il.size != n:
        raise RuntimeError("input_lengths must be of size batch_size")
    if tl.size != n:
        raise RuntimeError("target_lengths must be of size batch_size")
    tgt = np.asarray(targets.tolist(), np.int64)
    if targets.dim() == 1:
        if tgt.size != tl.sum():
            raise RuntimeError(f"Expected tensor to have size {tl.sum()} at dimension 0, but got size {tgt.size} for "
                               f"argument #2 'targets'{_WHERE}")
    for name, lens in (("target_lengths", tl), ("input_lengths", il)):
        if (lens < 0).any():
            raise RuntimeError(f"Expected {name} to have value at least 0, but got value {lens[lens < 0][0]}"
                               f"{_WHERE}")
    if (il > t_len).any():
        raise RuntimeError(f"Expected input_lengths to have value at most {t_len}, but got value {il[il > t_len][0]}"
                           f"{_WHERE}")
    s_max = int(tl.max()) if n else 0
    if targets.dim() != 1 and tgt.shape[1] < s_max:
        raise RuntimeError(f"Expected tensor to have size at least {s_max} at dimension 1, but got size "
                           f"{tgt.shape[1]} for argument #2 'targets'{_WHERE}")
    padded = np.full((n, s_max), blank, np.int64)
    starts = np.concatenate([[0], np.cumsum(tl)[:-1]]) if targets.dim() == 1 else None
    for b in range(n):
        row = tgt[starts[b]:starts[b] + tl[b]] if starts is not None else tgt[b, :tl[b]]
        padded[b, :tl[b]] = row
    return padded


def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths, target_lengths, blank: int = 0,
             reduction: str = "mean", zero_infinity: bool = False) -> Tensor:
    """CTC loss of ``log_probs`` (T, N, C) (log-softmax outputs; (T, C) unbatched) against ``targets``
    ((N, S) padded, or all targets concatenated), with per-sequence ``input_lengths`` and
    ``target_lengths``; ``'mean'`` divides each loss by its target length, then averages the batch.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> lp = torch.full((2, 1, 2), 0.5).log()
        >>> round(F.ctc_loss(lp, torch.tensor([[1]]), [2], [1], reduction="sum").item(), 4)  # 3 paths of 1/4
        0.2877
    """
    from .creation import tensor as make
    from .elementwise import where
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    batched = log_probs.dim() == 3
    lp = log_probs if batched else log_probs.unsqueeze(1)
    il, tl = _ints("input_lengths", input_lengths), _ints("target_lengths", target_lengths)
    tg = targets if batched or targets.dim() != 1 else targets.unsqueeze(0)
    padded = _check(lp, tg, il, tl, blank)
    t_len, n, _ = tuple(lp.shape)
    s_max = padded.shape[1]
    ext = np.full((n, 2 * s_max + 1), blank, np.int64)
    ext[:, 1::2] = padded
    skip = np.zeros(ext.shape, bool)          # s may come from s - 2: a label unlike the one two before
    skip[:, 2:] = (ext[:, 2:] != blank) & (ext[:, 2:] != ext[:, :-2])
    dev = lp.device
    lpe = lp.gather(2, make(ext, device=dev).unsqueeze(0).expand(t_len, n, ext.shape[1]))   # (T, N, L)
    neg = make(np.float32(_NEG), device=dev)
    start = np.full(ext.shape, _NEG, np.float32)
    start[:, :2] = 0.0
    alpha = lpe[0] + make(start, device=dev) if t_len else None
    skip_t, live = make(skip, device=dev), make(il, device=dev).unsqueeze(1)
    for t in range(1, t_len):
        a1 = where(make(np.arange(ext.shape[1]) >= 1, device=dev), alpha.roll(1, 1), neg)
        a2 = where(skip_t, alpha.roll(2, 1), neg)
        step = lpe[t] + _stack3(alpha, a1, a2).logsumexp(0)
        alpha = where(live > t, step, alpha)
    ends = np.stack([2 * tl, np.maximum(2 * tl - 1, 0)], 1)        # the last label or the blank after it
    last = alpha.gather(1, make(ends, device=dev))
    last = where(make(np.stack([np.ones(n, bool), tl > 0], 1), device=dev), last, neg)
    loss = -last.logsumexp(1) + _log_softmax_term(lp, il)
    feasible = make(_feasible(padded, il, tl), device=dev)
    loss = where(feasible, loss, 0.0 if zero_infinity else float("inf"))
    if not batched:
        loss = loss.squeeze(0)
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    return (loss / make(np.maximum(tl, 1).astype(np.float32), device=dev).reshape(loss.shape)).mean()


def _stack3(a: Tensor, b: Tensor, c: Tensor) -> Tensor:
    from .shape import stack
    return stack([a, b, c], 0)


def _log_softmax_term(lp: Tensor, il: np.ndarray) -> Tensor:
    """Zero, with gradient ``exp(lp)`` for t below each input length: PyTorch's ctc gradient is the one
    through the log_softmax that made ``lp``."""
    from .creation import tensor as make
    keep = make((np.arange(lp.shape[0])[:, None] < il[None, :]).astype(np.float32), device=lp.device)
    e = lp.exp() * keep.unsqueeze(2).to(lp.dtype)
    s = e.sum((0, 2))
    return s - s.detach()


def _feasible(padded: np.ndarray, il: np.ndarray, tl: np.ndarray) -> np.ndarray:
    """Whether each target fits its input: one step per label, one more between equal neighbours."""
    out = np.zeros(il.size, bool)
    for b in range(il.size):
        row = padded[b, :tl[b]]
        out[b] = il[b] >= tl[b] + int((row[1:] == row[:-1]).sum())
    return out
