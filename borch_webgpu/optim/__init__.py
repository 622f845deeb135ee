"""``torch.optim``: optimizers and learning-rate schedulers with PyTorch's names, signatures,
defaults, exceptions and update formulas; ``swa_utils`` for weight averaging.

Example::

    >>> import borch_webgpu as torch
    >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
    >>> opt = torch.optim.Adam([w], lr=0.1)
    >>> sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10)
    >>> for _ in range(3):
    ...     opt.zero_grad(); (w * w).sum().backward(); opt.step(); sched.step()
"""
from . import lr_scheduler, swa_utils
from .adadelta import Adadelta
from .adagrad import Adagrad
from .adam import Adam
from .adamax import Adamax
from .adamw import AdamW
from .asgd import ASGD
from .lbfgs import LBFGS
from .nadam import NAdam
from .optimizer import Optimizer
from .radam import RAdam
from .rmsprop import RMSprop
from .rprop import Rprop
from .sgd import SGD
from .sparse_adam import SparseAdam
# PyTorch 2.13's Adafactor (issue 11)
from ._adafactor import Adafactor
from .muon import Muon

__all__ = ["ASGD", "Adadelta", "Adagrad", "Adam", "AdamW", "Adamax", "LBFGS", "NAdam", "Optimizer", "RAdam",
           "RMSprop", "Rprop", "SGD", "SparseAdam", "lr_scheduler", "swa_utils",
           "Adafactor", "Muon"]
