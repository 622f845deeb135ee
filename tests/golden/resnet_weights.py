"""Deterministic weights for a whole torchvision or timm ResNet (the same state-dict keys), computed the
same way by the generators (real torchvision / timm) and the tests (borch_webgpu): numpy only, from
golden_io.formula.

Conv and linear weights are uniform with variance 1/fan_in; BatchNorm weights lie in [0.25, 0.75],
biases and running means in [-0.1, 0.1], running variances in [1, 1.5]; num_batches_tracked is 0.
"""
from __future__ import annotations

import math

import numpy as np

from golden_io import formula


def value(key: str, shape: tuple[int, ...], index: int, seed: int = 1000) -> np.ndarray:
    """The value of the state-dict entry ``key``: its ``index``-th entry, seeding the formula with
    ``seed + index``."""
    if key.endswith("num_batches_tracked"):
        return np.zeros(shape, np.int64)
    u = formula(shape, "float32", seed + index).astype(np.float64)
    leaf = key.rsplit(".", 1)[-1]
    if len(shape) >= 2:  # conv / linear weight
        fan_in = math.prod(shape[1:])
        out = u * math.sqrt(3.0 / fan_in)
    elif leaf == "running_var":
        out = 1.0 + 0.5 * np.abs(u)
    elif leaf == "weight":  # BatchNorm scale
        out = 0.5 + 0.25 * u
    else:  # biases, running means
        out = 0.1 * u
    return out.astype(np.float32)


INPUT_SHAPE = (2, 3, 64, 64)


def input_batch() -> np.ndarray:
    return formula(INPUT_SHAPE, "float32", 999)
