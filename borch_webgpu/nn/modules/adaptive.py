"""``AdaptiveLogSoftmaxWithLoss`` (Grave et al., 2016), written after torch/nn/modules/adaptive.py: a head
over the frequent classes plus one entry per cluster, and a low-rank projection per cluster of rare
classes; ``forward`` returns ``_ASMoutput(output, loss)``, with ``log_prob`` and ``predict``. Also the
deprecated ``NLLLoss2d`` and ``Container``, PyTorch's aliases kept for old programs."""
from __future__ import annotations

import warnings
from collections import namedtuple
from collections.abc import Sequence
from itertools import pairwise

from ...tensor import Tensor
from .. import functional as F
from .container import ModuleList, Sequential
from .linear import Linear
from .loss import NLLLoss
from .module import Module

__all__ = ["AdaptiveLogSoftmaxWithLoss", "NLLLoss2d", "Container"]

_ASMoutput = namedtuple("_ASMoutput", ["output", "loss"])


class AdaptiveLogSoftmaxWithLoss(Module):
    """Efficient softmax approximation for many classes: classes ``[0, cutoffs[0])`` in the head, each
    further ``[cutoffs[i], cutoffs[i+1])`` in a cluster behind a projection of ``in_features //
    div_value**(i+1)`` features.

    Args:
        in_features (int): features of the input.
        n_classes (int): number of classes.
        cutoffs (Sequence[int]): increasing cluster boundaries in ``[1, n_classes - 1]``.
        div_value (float): the projection-size divisor. Default: 4.0.
        head_bias (bool): a bias in the head. Default: ``False``.

    Example::

        >>> import borch_webgpu as torch
        >>> asm = torch.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [4, 8], div_value=2.0)
        >>> out = asm(torch.randn(3, 8), torch.tensor([0, 5, 9]))
        >>> out.output.shape, out.loss.shape, asm.log_prob(torch.randn(3, 8)).shape
        (torch.Size([3]), torch.Size([]), torch.Size([3, 10]))
    """

    def __init__(self, in_features: int, n_classes: int, cutoffs: Sequence[int], div_value: float = 4.0,
                 head_bias: bool = False, device=None, dtype=None) -> None:
        super().__init__()
        cutoffs = list(cutoffs)
        if len(cutoffs) == 0:
            raise ValueError("cutoffs should be a sequence of length larger than 0")
        if (cutoffs != sorted(cutoffs) or min(cutoffs) <= 0 or max(cutoffs) > (n_classes - 1)
                or len(set(cutoffs)) != len(cutoffs) or any(int(c) != c for c in cutoffs)):
            raise ValueError("cutoffs should be a sequence of unique, positive integers sorted in an increasing "
                             "order, where each value is between 1 and n_classes-1")
        kw = {"device": device, "dtype": dtype}
        self.in_features = in_features
        self.n_classes = n_classes
        self.cutoffs = cutoffs + [n_classes]
        self.div_value = div_value
        self.head_bias = head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.head = Linear(self.in_features, self.head_size, bias=self.head_bias, **kw)
        self.tail = ModuleList()
        for i in range(self.n_clusters):
            hsz = int(self.in_features // (self.div_value ** (i + 1)))
            osz = self.cutoffs[i + 1] - self.cutoffs[i]
            self.tail.append(Sequential(Linear(self.in_features, hsz, bias=False, **kw),
                                        Linear(hsz, osz, bias=False, **kw)))

    def reset_parameters(self) -> None:
        """Re-initialize the head and every projection."""
        self.head.reset_parameters()
        for i2h, h2o in self.tail:
            i2h.reset_parameters()
            h2o.reset_parameters()

    def forward(self, input_: Tensor, target_: Tensor) -> _ASMoutput:
        """``(output, loss)``: the log-probability of each target and their negative mean."""
        from ...ops.creation import tensor
        targ_dim = target_.dim()
        if targ_dim == 1:
            if input_.size(0) != target_.size(0):
                raise RuntimeError("Input and target should have the same size in the batch dimension.")
            if input_.dim() != 2:
                raise RuntimeError("1D target tensor expects 2D input tensors, but found inputs with size "
                                   f"{input_.size()}")
        elif targ_dim == 0:
            if input_.dim() != 1:
                raise RuntimeError("0D target tensor expects 1D input tensors, but found inputs with size "
                                   f"{input_.size()}")
        else:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        is_batched = targ_dim > 0
        input = input_ if is_batched else input_.unsqueeze(0)
        target = target_ if is_batched else target_.unsqueeze(0)
        batch_size = target.size(0)
        targets = [int(t) for t in target.tolist()]
        gather_inds = list(targets)
        output = input.new_zeros(batch_size)
        used_rows = 0
        cutoff_values = [0] + self.cutoffs
        for i in range(len(cutoff_values) - 1):
            low_idx, high_idx = cutoff_values[i], cutoff_values[i + 1]
            rows = [r for r, t in enumerate(targets) if low_idx <= t < high_idx]
            if not rows:
                continue
            if i > 0:
                row_t = tensor(rows, device=input.device)
                relative = tensor([targets[r] - low_idx for r in rows], device=input.device)
                cluster_output = self.tail[i - 1](input.index_select(0, row_t))
                for r in rows:
                    gather_inds[r] = self.shortlist_size + i - 1
                local = F.log_softmax(cluster_output, dim=1).gather(1, relative.unsqueeze(1)).squeeze(1)
                output = output.index_add(0, row_t, local)
            used_rows += len(rows)
        if used_rows != batch_size:
            raise RuntimeError(f"Target values should be in [0, {self.n_classes - 1}], but values in range "
                               f"[{target.min().item()}, {target.max().item()}] were found. ")
        head_logprob = F.log_softmax(self.head(input), dim=1)
        inds = tensor(gather_inds, device=input.device)
        output = output + head_logprob.gather(1, inds.unsqueeze(1)).squeeze()
        loss = (-output).mean()
        if not is_batched:
            output = output.squeeze(0)
        return _ASMoutput(output, loss)

    def _get_full_log_prob(self, input: Tensor, head_output: Tensor) -> Tensor:
        from ...ops.shape import cat
        head_logprob = F.log_softmax(head_output, dim=1)
        parts = [head_logprob[:, :self.shortlist_size]]
        for i, _ in enumerate(pairwise(self.cutoffs)):
            cluster_logprob = F.log_softmax(self.tail[i](input), dim=1)
            parts.append(cluster_logprob + head_logprob[:, self.shortlist_size + i].unsqueeze(1))
        return cat(parts, 1)

    def log_prob(self, input: Tensor) -> Tensor:
        """The log-probability of every class, (N, n_classes)."""
        return self._get_full_log_prob(input, self.head(input))

    def predict(self, input: Tensor) -> Tensor:
        """The most likely class of each row (the full distribution only where the head's best is a cluster)."""
        head_output = self.head(input)
        output = head_output.argmax(dim=1)
        not_in_shortlist = output >= self.shortlist_size
        if not bool(not_in_shortlist.any()):
            return output
        if bool(not_in_shortlist.all()):
            return self._get_full_log_prob(input, head_output).argmax(dim=1)
        log_prob = self._get_full_log_prob(input[not_in_shortlist], head_output[not_in_shortlist])
        output[not_in_shortlist] = log_prob.argmax(dim=1)
        return output


class NLLLoss2d(NLLLoss):
    """Deprecated alias of :class:`NLLLoss` (a FutureWarning, as in PyTorch).

    Example::

        >>> import borch_webgpu as torch
        >>> import warnings; warnings.simplefilter("ignore")
        >>> torch.nn.NLLLoss2d()(torch.full((1, 3, 2, 2), -1.0), torch.zeros(1, 2, 2, dtype=torch.long))
        tensor(1.)
    """

    def __init__(self, weight: Tensor | None = None, size_average=None, ignore_index: int = -100, reduce=None,
                 reduction: str = "mean") -> None:
        warnings.warn("`NLLLoss2d` has been deprecated. Please use `NLLLoss` instead as a drop-in replacement and "
                      "see https://pytorch.org/docs/main/nn.html#torch.nn.NLLLoss for more details.", FutureWarning,
                      stacklevel=2)
        super().__init__(weight, size_average, ignore_index, reduce, reduction)


class Container(Module):
    """Deprecated: a Module whose keyword arguments become its children (a FutureWarning, as in PyTorch).

    Example::

        >>> import borch_webgpu as torch
        >>> import warnings; warnings.simplefilter("ignore")
        >>> torch.nn.Container(act=torch.nn.ReLU())
        Container(
          (act): ReLU()
        )
    """

    def __init__(self, **kwargs) -> None:
        super().__init__()
        warnings.warn("`nn.Container` is deprecated. All of its functionality is now implemented in `nn.Module`. "
                      "Subclass that instead.", FutureWarning, stacklevel=2)
        for key, value in kwargs.items():
            self.add_module(key, value)
