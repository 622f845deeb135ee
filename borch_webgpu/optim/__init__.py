"""``torch.optim``: optimizers and learning-rate schedulers with PyTorch's names, signatures,
defaults, exceptions and update formulas.

Example::

    >>> import borch_webgpu as torch
    >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
    >>> opt = torch.optim.Adam([w], lr=0.1)
    >>> sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10)
    >>> for _ in range(3):
    ...     opt.zero_grad(); (w * w).sum().backward(); opt.step(); sched.step()
"""
from . import lr_scheduler
from .adagrad import Adagrad
from .adam import Adam
from .adamw import AdamW
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["Adagrad", "Adam", "AdamW", "Optimizer", "RMSprop", "SGD", "lr_scheduler"]
