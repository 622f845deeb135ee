"""``torch.optim.swa_utils``: stochastic weight averaging and exponential moving averages of a
model's weights (``AveragedModel``), the SWA learning-rate schedule (``SWALR``) and the BatchNorm
statistics pass (``update_bn``), with PyTorch's names, arguments and numbers."""
from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable
from copy import deepcopy
from typing import Any

from ..autograd.grad_mode import no_grad
from ..nn.modules.batchnorm import _BatchNorm
from ..nn.modules.module import Module
from ..ops.creation import tensor
from ..tensor import Tensor
from .. import _dtype
from ._lr_base import LRScheduler, format_param, warn_get_lr_outside_step
from .optimizer import Optimizer

__all__ = ["AveragedModel", "update_bn", "SWALR", "get_ema_multi_avg_fn", "get_swa_multi_avg_fn",
           "get_ema_avg_fn", "get_swa_avg_fn"]


def _check_decay(decay) -> None:
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in [0,1] range.")


def get_ema_multi_avg_fn(decay: float = 0.999) -> Callable:
    """An in-place EMA over lists of tensors: ``ema = lerp(ema, current, 1 - decay)``.

    Example::

        >>> ema, cur = [torch.tensor([1.0, 2.0])], [torch.tensor([3.0, 4.0])]
        >>> torch.optim.swa_utils.get_ema_multi_avg_fn(0.5)(ema, cur, 1)
        >>> ema[0]
        tensor([2., 3.])
    """
    _check_decay(decay)

    @no_grad()
    def ema_update(ema_param_list, current_param_list, _) -> None:
        if ema_param_list[0].is_floating_point():
            for p_ema, p_model in zip(ema_param_list, current_param_list):
                p_ema.lerp_(p_model, 1 - decay)
        else:
            for p_ema, p_model in zip(ema_param_list, current_param_list):
                p_ema.copy_(p_ema * decay + p_model * (1 - decay))
    return ema_update


def get_swa_multi_avg_fn() -> Callable:
    """An in-place running mean over lists of tensors: ``avg = lerp(avg, current, 1 / (n + 1))``.

    Example::

        >>> avg, cur = [torch.tensor([1.0, 2.0])], [torch.tensor([4.0, 8.0])]
        >>> torch.optim.swa_utils.get_swa_multi_avg_fn()(avg, cur, 2)
        >>> avg[0]
        tensor([2., 4.])
    """
    @no_grad()
    def swa_update(averaged_param_list, current_param_list, num_averaged) -> None:
        if averaged_param_list[0].is_floating_point():
            weight = 1 / (num_averaged + 1)
            weight = weight.item() if isinstance(weight, Tensor) else weight
            for p_avg, p_model in zip(averaged_param_list, current_param_list):
                p_avg.lerp_(p_model, weight)
        else:
            for p_avg, p_model in zip(averaged_param_list, current_param_list):
                diff = p_model - p_avg
                if isinstance(num_averaged, Tensor):
                    p_avg.add_(diff / (num_averaged + 1))
                else:
                    p_avg.add_(diff, alpha=1.0 / (num_averaged + 1))
    return swa_update


def get_ema_avg_fn(decay: float = 0.999) -> Callable:
    """An EMA for one tensor: returns ``decay * ema + (1 - decay) * current``.

    Example::

        >>> torch.optim.swa_utils.get_ema_avg_fn(0.75)(torch.tensor([4.0]), torch.tensor([8.0]), 1)
        tensor([5.])
    """
    _check_decay(decay)

    @no_grad()
    def ema_update(ema_param: Tensor, current_param: Tensor, num_averaged):
        return decay * ema_param + (1 - decay) * current_param
    return ema_update


def get_swa_avg_fn() -> Callable:
    """A running mean for one tensor: returns ``avg + (current - avg) / (n + 1)``.

    Example::

        >>> torch.optim.swa_utils.get_swa_avg_fn()(torch.tensor([1.0]), torch.tensor([4.0]), 2)
        tensor([2.])
    """
    @no_grad()
    def swa_update(averaged_param: Tensor, current_param: Tensor, num_averaged):
        return averaged_param + (current_param - averaged_param) / (num_averaged + 1)
    return swa_update


class AveragedModel(Module):
    r"""A copy of ``model`` whose parameters (and, with ``use_buffers=True``, buffers) are the running
    average of the model's (``torch.optim.swa_utils.AveragedModel``): an equal-weight mean (SWA) by
    default, or ``avg_fn`` / ``multi_avg_fn`` such as :func:`get_ema_multi_avg_fn`. The first
    :meth:`update_parameters` copies the model; ``n_averaged`` (an int64 buffer) counts the updates.
    Without ``use_buffers`` the buffers are copied from the model at every update.

    The default mean is computed as PyTorch computes it on the CPU,
    ``avg + (current - avg) / (n + 1)``, on every device.

    Args:
        model (Module): the model to average.
        device: where the averaged copy lives (default: the model's).
        avg_fn: ``avg_fn(averaged, current, num_averaged) -> Tensor`` per tensor.
        multi_avg_fn: ``multi_avg_fn(averaged_list, current_list, num_averaged)`` updating in place.
        use_buffers (bool): average the buffers too (default: False).

    Example::

        >>> model = torch.nn.Linear(2, 1)
        >>> swa = torch.optim.swa_utils.AveragedModel(model)
        >>> with torch.no_grad():
        ...     _ = model.weight.fill_(1.0); swa.update_parameters(model)
        ...     _ = model.weight.fill_(3.0); swa.update_parameters(model)
        >>> swa.module.weight, swa.n_averaged
        (Parameter containing:
        tensor([[2., 2.]], requires_grad=True), tensor(2))
    """

    def __init__(self, model: Module, device=None, avg_fn: Callable | None = None,
                 multi_avg_fn: Callable | None = None, use_buffers=False) -> None:
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", tensor(0, dtype=_dtype.int64, device=device))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def update_parameters(self, model: Module) -> None:
        """Average ``model``'s current parameters into this copy (the first call copies them)."""
        if self.use_buffers:
            self_param = itertools.chain(self.module.parameters(), self.module.buffers())
            model_param = itertools.chain(model.parameters(), model.buffers())
        else:
            self_param, model_param = self.parameters(), model.parameters()
        self_detached, model_detached = [], []
        copy_param = bool(self.n_averaged == 0)
        for p_averaged, p_model in zip(self_param, model_param):
            p_model_ = p_model.detach().to(p_averaged.device)
            self_detached.append(p_averaged.detach())
            model_detached.append(p_model_)
            if copy_param:
                p_averaged.detach().copy_(p_model_)
        if self.n_averaged > 0:
            if self.multi_avg_fn is not None or self.avg_fn is None:
                groups: dict[Any, tuple[list, list]] = {}
                for a, m in zip(self_detached, model_detached):
                    mine, theirs = groups.setdefault((a.device, a.dtype), ([], []))
                    mine.append(a)
                    theirs.append(m)
                for (device, _), (mine, theirs) in groups.items():
                    n_averaged = self.n_averaged.to(device)
                    if self.multi_avg_fn:
                        self.multi_avg_fn(mine, theirs, n_averaged)
                    else:
                        avg_fn = get_swa_avg_fn()
                        for a, m in zip(mine, theirs):
                            a.copy_(avg_fn(a, m, n_averaged))
            else:
                for a, m in zip(self_detached, model_detached):
                    a.detach().copy_(self.avg_fn(a.detach(), m, self.n_averaged.to(a.device)))
        if not self.use_buffers:
            for b_swa, b_model in zip(self.module.buffers(), model.buffers()):
                b_swa.detach().copy_(b_model.detach().to(b_swa.device))
        self.n_averaged += 1


@no_grad()
def update_bn(loader: Iterable[Any], model: Module, device=None) -> None:
    """Recompute every BatchNorm's running statistics with one pass over ``loader`` (a cumulative
    average: momentum set to None for the pass, restored after). A batch that is a list or tuple
    gives its first element to the model.

    Example::

        >>> model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.BatchNorm1d(2))
        >>> torch.optim.swa_utils.update_bn([torch.ones(4, 2), torch.zeros(4, 2)], model)
        >>> model[1].num_batches_tracked
        tensor(2)
    """
    momenta = {}
    for module in model.modules():
        if isinstance(module, _BatchNorm):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None
    for input in loader:
        if isinstance(input, (list, tuple)):
            input = input[0]
        if device is not None:
            input = input.to(device)
        model(input)
    for bn_module in momenta:
        bn_module.momentum = momenta[bn_module]
    model.train(was_training)


class SWALR(LRScheduler):
    r"""Anneal each group's learning rate to ``swa_lr`` over ``anneal_epochs`` epochs, then hold it
    (``torch.optim.swa_utils.SWALR``).

    Args:
        optimizer (Optimizer): the wrapped optimizer.
        swa_lr (float or list): the SWA learning rate, for all groups or one per group.
        anneal_epochs (int): epochs of annealing (default: 10).
        anneal_strategy (str): ``"cos"`` or ``"linear"`` (default: ``"cos"``).
        last_epoch (int): the index of the last epoch (default: -1).

    Example::

        >>> w = torch.zeros(2, requires_grad=True)
        >>> opt = torch.optim.SGD([w], lr=1.0)
        >>> sched = torch.optim.swa_utils.SWALR(opt, swa_lr=0.5, anneal_epochs=2, anneal_strategy="linear")
        >>> for _ in range(3):
        ...     opt.step(); sched.step(); print(sched.get_last_lr())
        [0.75]
        [0.5]
        [0.5]
    """

    def __init__(self, optimizer: Optimizer, swa_lr: float, anneal_epochs=10, anneal_strategy: str = "cos",
                 last_epoch=-1) -> None:
        swa_lrs = format_param("swa_lr", optimizer, swa_lr)
        for lr, group in zip(swa_lrs, optimizer.param_groups):
            group["swa_lr"] = lr
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}")
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t):
        return t

    @staticmethod
    def _cosine_anneal(t):
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self) -> list:
        """Each group's next learning rate, from its current one (the chainable form)."""
        warn_get_lr_outside_step(self)
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_t = max(0, min(1, (step - 1) / max(1, self.anneal_epochs)))
        prev_alpha = self.anneal_func(prev_t)
        prev_lrs = [self._get_initial_lr(g["lr"], g["swa_lr"], prev_alpha) for g in self.optimizer.param_groups]
        t = max(0, min(1, step / max(1, self.anneal_epochs)))
        alpha = self.anneal_func(t)
        return [g["swa_lr"] * alpha + lr * (1 - alpha) for g, lr in zip(self.optimizer.param_groups, prev_lrs)]

    def _set_anneal_func(self, anneal_strategy: str) -> None:
        self._anneal_strategy = anneal_strategy
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else self._linear_anneal

    def state_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "anneal_func")}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)
