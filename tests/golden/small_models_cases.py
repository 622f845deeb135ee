"""Parity cases for the catalog's small digit classifiers (``borchvision/mnist_cnn``, ``borchvision/lenet5``),
shared by generate_small_models.py (real PyTorch, small_models_torch.py) and replay_small_models.py
(borch_webgpu.models). Numpy only. Weights from ``resnet_weights.value`` (nothing zeroed, no unit
BatchNorm scale), inputs from ``golden_io.formula``; the weights trained for the hub are checked
separately, by the sample each manifest carries."""
from __future__ import annotations

from catalog_cases import INPUT_SEED
from golden_io import formula

CASES = [
    {"id": "borchvision/mnist_cnn", "library": "borchvision", "factory": "mnist_cnn",
     "args": {"num_classes": 10, "in_chans": 1}, "input": [2, 1, 28, 28], "seed": 7000},
    {"id": "borchvision/mnist_cnn in_chans=3 num_classes=0 8x8", "library": "borchvision", "factory": "mnist_cnn",
     "args": {"num_classes": 0, "in_chans": 3}, "input": [3, 3, 8, 8], "seed": 7100, "variant": True},
    {"id": "borchvision/lenet5", "library": "borchvision", "factory": "lenet5",
     "args": {"num_classes": 10, "in_chans": 1}, "input": [2, 1, 28, 28], "seed": 7200},
]


def case_input(case: dict):
    return formula(tuple(case["input"]), "float32", INPUT_SEED + case["seed"])
