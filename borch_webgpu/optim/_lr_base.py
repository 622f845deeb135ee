"""``LRScheduler``: the base of ``torch.optim.lr_scheduler``, and its helpers."""
from __future__ import annotations

import warnings
from functools import wraps
from typing import Any
from weakref import ref

from ..tensor import Tensor
from .optimizer import Optimizer

__all__ = ["LRScheduler", "EPOCH_DEPRECATION_WARNING"]

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being "
    "deprecated where possible. Please use `scheduler.step()` to step the "
    "scheduler. During the deprecation, if epoch is different from None, the "
    "closed form is used instead of the new chainable form, where available. "
    "Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose."
)


def format_param(name: str, optimizer: Optimizer, param) -> list:
    """One value per param group: a list/tuple as given (checked), a scalar repeated."""
    if isinstance(param, (list, tuple)):
        if len(param) != len(optimizer.param_groups):
            raise ValueError(f"{name} must have the same length as optimizer.param_groups. {name} has {len(param)} "
                             f"values, param_groups has {len(optimizer.param_groups)}.")
    else:
        param = [param] * len(optimizer.param_groups)
    return [p.clone() if isinstance(p, Tensor) else p for p in param]


def group_values(optimizer: Optimizer, key: str) -> list:
    """``group[key]`` for every param group (tensors copied, so they never alias the group's)."""
    return [g[key].clone() if isinstance(g[key], Tensor) else g[key] for g in optimizer.param_groups]


def set_group_value(group: dict, key: str, val) -> None:
    """Set ``group[key]``; a tensor there is filled in place instead of replaced."""
    if isinstance(group[key], Tensor):
        group[key].fill_(val.reshape(()) if isinstance(val, Tensor) and val.dim() else val)
    else:
        group[key] = val


def warn_get_lr_outside_step(sched: "LRScheduler") -> None:
    if not sched._get_lr_called_within_step:
        warnings.warn("To get the last learning rate computed by the scheduler, please use `get_last_lr()`.",
                      UserWarning, stacklevel=3)


class _Flag:
    """Sets ``obj.<name> = True`` inside a ``with`` block (PyTorch's _enable_get_lr_call, _initial_mode)."""

    def __init__(self, obj, name: str):
        self.obj, self.name = obj, name

    def __enter__(self):
        setattr(self.obj, self.name, True)
        return self

    def __exit__(self, *exc):
        setattr(self.obj, self.name, False)


class LRScheduler:
    r"""Base class for learning-rate schedulers (``torch.optim.lr_scheduler.LRScheduler``).

    Subclasses implement ``get_lr()`` (the chainable form, from the groups' current lrs) and may
    give ``_get_closed_form_lr()`` (used by the deprecated ``step(epoch)``). Constructing a
    scheduler records ``initial_lr`` in every param group and takes the first step (epoch 0).

    ``state_dict()`` is every attribute but the optimizer, with PyTorch's attribute names, so a
    state saved here and one saved by PyTorch have the same keys.

    Args:
        optimizer (Optimizer): the optimizer whose learning rates are scheduled.
        last_epoch (int): the index of the last epoch; -1 (default) starts fresh.
    """

    _get_lr_called_within_step: bool = False
    _is_initial: bool = False

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                initial_lr = group["lr"]
                if isinstance(initial_lr, Tensor):
                    initial_lr = initial_lr.clone()
                group.setdefault("initial_lr", initial_lr)
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        f"param 'initial_lr' is not specified in param_groups[{i}] when resuming scheduler with "
                        "last_epoch >= 0.\nThis typically happens when:\n1. You're trying to resume training from a "
                        "checkpoint but haven't properly loaded the optimizer state\n2. You're using last_epoch >= 0 "
                        "for a fresh training run (not recommended)")
        self.base_lrs: list = group_values(optimizer, "initial_lr")
        self.last_epoch = last_epoch
        _mark_optimizer_steps(self.optimizer)
        self._initial_step()

    def _initial_step(self) -> None:
        """Reset the step count and take the first step."""
        self._step_count = 0
        with _Flag(self, "_is_initial"):
            self.step()

    def state_dict(self) -> dict[str, Any]:
        """The scheduler's state: every attribute except the optimizer."""
        return {key: v for key, v in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Load a state from :meth:`state_dict`."""
        self.__dict__.update(state_dict)

    def get_last_lr(self) -> list:
        """The learning rates the last ``step()`` set, one per param group."""
        return self._last_lr

    def get_lr(self) -> list:
        """The next learning rate of every param group (implemented by each scheduler)."""
        raise NotImplementedError

    def step(self, epoch: int | None = None) -> None:
        """Advance one epoch (call it after ``optimizer.step()``)."""
        if self._step_count == 1:
            if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):
                warnings.warn("Seems like `optimizer.step()` has been overridden after learning rate scheduler "
                              "initialization. Please, make sure to call `optimizer.step()` before "
                              "`lr_scheduler.step()`. See more details at "
                              "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate",
                              UserWarning, stacklevel=2)
            elif not getattr(self.optimizer, "_opt_called", False):
                warnings.warn("Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 "
                              "and later, you should call them in the opposite order: `optimizer.step()` before "
                              "`lr_scheduler.step()`.  Failure to do this will result in PyTorch skipping the first "
                              "value of the learning rate schedule. See more details at "
                              "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate",
                              UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch: int | None = None) -> None:
        with _Flag(self, "_get_lr_called_within_step"):
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                closed = getattr(self, "_get_closed_form_lr", None)
                values = closed() if closed is not None else self.get_lr()
        for group, lr in zip(self.optimizer.param_groups, values, strict=True):
            set_group_value(group, "lr", lr)
        self._last_lr = group_values(self.optimizer, "lr")


def _mark_optimizer_steps(opt: Optimizer) -> None:
    """Wrap ``opt.step`` so the scheduler can tell whether it ran before its own first step."""
    if hasattr(opt.step, "_wrapped_by_lr_sched"):
        return
    opt_ref = ref(opt)
    func = opt.step.__func__

    @wraps(func)
    def wrapper(*args, **kwargs):
        o = opt_ref()
        o._opt_called = True
        return func.__get__(o, o.__class__)(*args, **kwargs)

    wrapper._wrapped_by_lr_sched = True
    opt.step = wrapper
