"""``torch.utils``: ``data`` (datasets, samplers, DataLoader), ``tensorboard`` (SummaryWriter)."""
from . import data, tensorboard

__all__ = ["data", "tensorboard"]
