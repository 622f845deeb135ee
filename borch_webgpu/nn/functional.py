"""``torch.nn.functional``: activations, softmax and padding (layers and losses come with the nn issue)."""
from __future__ import annotations

from ..ops.reduce import log_softmax, softmax
from ..ops.shape import pad
from ..ops.unary import (elu, gelu, hardsigmoid, hardswish, hardtanh, leaky_relu, mish, relu, relu6, selu, sigmoid,
                         silu, softplus, tanh)

__all__ = ["elu", "gelu", "hardsigmoid", "hardswish", "hardtanh", "leaky_relu", "mish", "relu", "relu6", "selu",
           "sigmoid", "silu", "softplus", "tanh", "softmax", "log_softmax", "pad"]
