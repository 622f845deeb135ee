"""``SyncBatchNorm`` (one process: BatchNorm over any rank, with ``convert_sync_batchnorm``) and
``CrossMapLRN2d`` (the legacy cross-channel LRN, whose forward and backward PyTorch writes by hand: both
are reproduced, including the forward's window that always keeps channel 0 once it slides past it)."""
from __future__ import annotations

from ...autograd import Function
from ...tensor import Tensor
from .. import functional as F
from .batchnorm import _BatchNorm
from .module import Module

__all__ = ["SyncBatchNorm", "CrossMapLRN2d"]


class SyncBatchNorm(_BatchNorm):
    """Batch normalisation whose statistics would be reduced over a process group. In one process (the
    only kind here: no ``torch.distributed`` group is ever initialized) it is :class:`BatchNorm2d` for inputs
    of any rank >= 2, as in PyTorch without a group.

    Example::

        >>> import borch_webgpu as torch
        >>> net = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 1), torch.nn.BatchNorm2d(4))
        >>> torch.nn.SyncBatchNorm.convert_sync_batchnorm(net)[1]
        SyncBatchNorm(4, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
    """

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, process_group=None, device=None, dtype=None, *,
                 bias: bool = True) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias)
        self.process_group = process_group

    def _check_input_dim(self, input) -> None:
        if input.dim() < 2:
            raise ValueError(f"expected at least 2D input (got {input.dim()}D input)")

    def _check_non_zero_input_channels(self, input) -> None:
        if input.size(1) == 0:
            raise ValueError("SyncBatchNorm number of input channels should be non-zero")

    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        self._check_non_zero_input_channels(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats:
            self.num_batches_tracked.add_(1)
            factor = 1.0 / self.num_batches_tracked.item() if self.momentum is None else self.momentum
        bn_training = True if self.training else (self.running_mean is None and self.running_var is None)
        use_stats = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if use_stats else None, self.running_var if use_stats else None,
                            self.weight, self.bias, bn_training, factor, self.eps)

    @classmethod
    def convert_sync_batchnorm(cls, module, process_group=None):
        """Replace every BatchNorm*d in ``module`` (or ``module`` itself) by a SyncBatchNorm holding the same
        parameters and buffers."""
        module_output = module
        if isinstance(module, _BatchNorm):
            module_output = SyncBatchNorm(module.num_features, module.eps, module.momentum, module.affine,
                                          module.track_running_stats, process_group, bias=module.bias is not None)
            if module.affine:
                module_output.weight = module.weight
                module_output.bias = module.bias
            module_output.running_mean = module.running_mean
            module_output.running_var = module.running_var
            module_output.num_batches_tracked = module.num_batches_tracked
            module_output.training = module.training
            if hasattr(module, "qconfig"):
                module_output.qconfig = module.qconfig
        for name, child in module.named_children():
            module_output.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        return module_output


def _channel_window_sum(x: Tensor, lo: list[int], hi: list[int]) -> Tensor:
    """sum(x[:, lo[c]:hi[c]]) for each channel c (a prefix sum over dim 1, then two gathers)."""
    from ...ops.creation import tensor
    from ...ops.shape import cat
    zero = x[:, :1] * 0
    pre = cat([zero, x.cumsum(1)], 1)
    shape = (1, len(lo)) + (1,) * (x.dim() - 2)
    lo_t = tensor(lo, device=x.device).reshape(shape).expand(x.shape[0], len(lo), *x.shape[2:])
    hi_t = tensor(hi, device=x.device).reshape(shape).expand(x.shape[0], len(lo), *x.shape[2:])
    return pre.gather(1, hi_t) - pre.gather(1, lo_t)


class _CrossMapLRN2dFn(Function):
    @staticmethod
    def forward(ctx, input, size, alpha=1e-4, beta=0.75, k=1):
        if input.dim() != 4:
            raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {input.dim()}D instead.")
        channels = input.size(1)
        pre_pad = int((size - 1) / 2 + 1)
        sq = input * input
        # PyTorch's running window: channel c sums [lo, hi) and, once lo > 0, channel 0 as well
        hi = [min(c + pre_pad, channels) for c in range(channels)]
        lo = [c - pre_pad + 1 if c > pre_pad else 0 for c in range(channels)]
        scale = _channel_window_sum(sq, lo, hi)
        keep0 = [1.0 if c > pre_pad else 0.0 for c in range(channels)]
        from ...ops.creation import tensor
        scale = scale + sq[:, :1] * tensor(keep0, dtype=input.dtype, device=input.device).reshape(1, channels, 1, 1)
        scale = scale * (alpha / size) + k
        output = scale.pow(-beta) * input
        ctx.size, ctx.alpha, ctx.beta = size, alpha, beta
        ctx.save_for_backward(input, output, scale)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, output, scale = ctx.saved_tensors
        size, channels = ctx.size, input.size(1)
        inverse_pre_pad = int(size - (size - 1) / 2)
        ratio = grad_output * output / scale
        # PyTorch's accum_ratio(c) = sum of ratio over channels [c - inverse_pre_pad, c - inverse_pre_pad + size)
        lo = [min(max(c - inverse_pre_pad, 0), channels) for c in range(channels)]
        hi = [min(max(c - inverse_pre_pad + size, 0), channels) for c in range(channels)]
        accum = _channel_window_sum(ratio, lo, hi)
        grad_input = scale.pow(-ctx.beta) * grad_output - (2 * ctx.alpha * ctx.beta / size) * input * accum
        return grad_input, None, None, None, None


class CrossMapLRN2d(Module):
    """Local response normalisation across channels of (N, C, H, W) inputs (the legacy form:
    ``x / (k + alpha / size * sum of x^2 over the channel window)^beta``), with PyTorch's own forward and
    backward formulas.

    Example::

        >>> import borch_webgpu as torch
        >>> m = torch.nn.CrossMapLRN2d(3, alpha=0.1)
        >>> m, m(torch.ones(1, 4, 2, 2)).shape
        (CrossMapLRN2d(3, alpha=0.1, beta=0.75, k=1), torch.Size([1, 4, 2, 2]))
    """

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1) -> None:
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input: Tensor) -> Tensor:
        return _CrossMapLRN2dFn.apply(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return "{size}, alpha={alpha}, beta={beta}, k={k}".format(**self.__dict__)
