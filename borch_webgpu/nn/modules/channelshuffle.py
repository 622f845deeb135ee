"""``ChannelShuffle`` (over ``F.channel_shuffle``)."""
from __future__ import annotations

from ...tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["ChannelShuffle"]


class ChannelShuffle(Module):
    """Interleave the channels of ``groups`` groups (:func:`torch.nn.functional.channel_shuffle`).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.ChannelShuffle(2)(torch.arange(4.).reshape(1, 4, 1)).flatten().tolist()
        [0.0, 2.0, 1.0, 3.0]
    """

    def __init__(self, groups: int) -> None:
        super().__init__()
        self.groups = groups

    def forward(self, input: Tensor) -> Tensor:
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        return f"groups={self.groups}"
