"""The catalog's small digit classifiers: ``borchvision/mnist_cnn`` and ``borchvision/lenet5``.

They are small enough (about 24,000 and 61,000 parameters) that their trained weights are published
on our own site (``web/hub/``, trained by ``tests/golden/train_hub_models.py`` with real PyTorch) and
that ``borch_webgpu.hub`` can download, verify and run them in seconds. ``tests/golden/small_models_torch.py``
holds the same two networks written in PyTorch, key for key; parity is checked against them.

Both have timm's model surface: ``forward_features``, ``forward_head(x, pre_logits=False)``,
``get_classifier``, ``reset_classifier``, ``feature_info`` (for ``features_only=True``) and
``pretrained_cfg``.
"""
from __future__ import annotations

from .. import nn
from ..tensor import Tensor
from ._layers import SelectAdaptivePool2d
from ._registry import register_model

__all__ = ["MnistCNN", "LeNet5", "mnist_cnn", "lenet5"]

# the mean and standard deviation of MNIST's training pixels (in [0, 1]), as MNIST recipes normalize
MNIST_MEAN, MNIST_STD = (0.1307,), (0.3081,)


class _Small(nn.Module):
    """What the two share: the timm surface around ``forward_features`` and ``forward_head``."""

    num_classes: int
    num_features: int

    @property
    def default_cfg(self) -> dict:
        """timm's old name for ``pretrained_cfg``."""
        return self.pretrained_cfg

    def forward(self, x: Tensor) -> Tensor:
        return self.forward_head(self.forward_features(x))

    def get_classifier(self) -> nn.Module:
        """The classifier module (``fc``)."""
        return self.fc

    def _new_fc(self, num_classes: int) -> None:
        device = next(self.parameters()).device
        self.num_classes = num_classes
        self.fc = (nn.Linear(self.num_features, num_classes) if num_classes > 0 else nn.Identity()).to(device)
        self.fc.train(self.training)


class MnistCNN(_Small):
    """Three 3x3 conv - BatchNorm - ReLU stages (16, 32, 64 channels; a 2x2 max-pool after the first
    two), a global average pool and a linear classifier. Any input of at least 4x4 pixels: MNIST's 28x28
    and scikit-learn's 8x8 digits alike."""

    def __init__(self, *, num_classes: int, in_chans: int, pretrained_cfg: dict) -> None:
        super().__init__()
        widths = (16, 32, 64)
        chans = in_chans
        for i, w in enumerate(widths, 1):
            setattr(self, f"conv{i}", nn.Conv2d(chans, w, kernel_size=3, padding=1, bias=False))
            setattr(self, f"bn{i}", nn.BatchNorm2d(w))
            setattr(self, f"act{i}", nn.ReLU())
            if i < len(widths):
                setattr(self, f"pool{i}", nn.MaxPool2d(2))
            chans = w
        self.global_pool = SelectAdaptivePool2d(pool_type="avg", flatten=True)
        self.num_features = self.head_hidden_size = chans
        self._new_fc(num_classes)
        self.pretrained_cfg = dict(pretrained_cfg)
        self.feature_info = [{"num_chs": w, "reduction": 2 ** i, "module": f"act{i + 1}"} for i, w in enumerate(widths)]

    def forward_features(self, x: Tensor) -> Tensor:
        """The last stage's feature map (N, 64, H/4, W/4), before pooling."""
        for i in (1, 2, 3):
            x = getattr(self, f"act{i}")(getattr(self, f"bn{i}")(getattr(self, f"conv{i}")(x)))
            if i < 3:
                x = getattr(self, f"pool{i}")(x)
        return x

    def forward_head(self, x: Tensor, pre_logits: bool = False) -> Tensor:
        """Global average pool, then the classifier (``pre_logits=True``: the pooled features)."""
        x = self.global_pool(x)
        return x if pre_logits else self.fc(x)

    def reset_classifier(self, num_classes: int, global_pool: str | None = None) -> None:
        """A new classifier for ``num_classes`` outputs (0: none), freshly initialised."""
        if global_pool not in (None, "avg"):
            raise ValueError(f"reset_classifier: MnistCNN pools with 'avg' only, got global_pool={global_pool!r}")
        self._new_fc(num_classes)


class LeNet5(_Small):
    """LeNet-5 as PyTorch's tutorials write it: 5x5 convolutions with 6 and 16 channels, each followed
    by ReLU and a 2x2 max-pool, then linear layers 400 -> 120 -> 84 -> classes. The first convolution
    pads by 2, so a 28x28 MNIST digit gives the paper's 32x32 geometry; the input size is fixed."""

    def __init__(self, *, num_classes: int, in_chans: int, pretrained_cfg: dict) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(in_chans, 6, kernel_size=5, padding=2)
        self.act1 = nn.ReLU()
        self.pool1 = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
        self.act2 = nn.ReLU()
        self.pool2 = nn.MaxPool2d(2)
        self.flatten = nn.Flatten(1)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.act3 = nn.ReLU()
        self.fc2 = nn.Linear(120, 84)
        self.act4 = nn.ReLU()
        self.num_features = self.head_hidden_size = 84
        self._new_fc(num_classes)
        self.pretrained_cfg = dict(pretrained_cfg)
        self.feature_info = [{"num_chs": 6, "reduction": 2, "module": "pool1"},
                             {"num_chs": 16, "reduction": 4, "module": "pool2"}]

    def forward_features(self, x: Tensor) -> Tensor:
        """The second stage's feature map (N, 16, 5, 5)."""
        if tuple(x.shape[-2:]) != (28, 28):
            raise ValueError(f"lenet5: expected 28x28 images (N, C, 28, 28), got shape {tuple(x.shape)}")
        return self.pool2(self.act2(self.conv2(self.pool1(self.act1(self.conv1(x))))))

    def forward_head(self, x: Tensor, pre_logits: bool = False) -> Tensor:
        """The two hidden linear layers, then the classifier (``pre_logits=True``: the 84 features)."""
        x = self.act4(self.fc2(self.act3(self.fc1(self.flatten(x)))))
        return x if pre_logits else self.fc(x)

    def reset_classifier(self, num_classes: int, global_pool: str | None = None) -> None:
        """A new classifier for ``num_classes`` outputs (0: none), freshly initialised."""
        if global_pool is not None:
            raise ValueError(f"reset_classifier: LeNet5 has no global pool, got global_pool={global_pool!r}")
        self._new_fc(num_classes)


def _cfg(arch: str, pool_size, fixed: bool) -> dict:
    return {"architecture": arch, "input_size": (1, 28, 28), "fixed_input_size": fixed, "interpolation": "bilinear",
            "crop_pct": 1.0, "crop_mode": "center", "mean": MNIST_MEAN, "std": MNIST_STD, "pool_size": pool_size,
            "first_conv": "conv1", "classifier": "fc"}


_MNIST_CNN_CFG = _cfg("mnist_cnn", (7, 7), False)
_LENET5_CFG = _cfg("lenet5", (5, 5), True)


@register_model("borchvision", pretrained_cfg=_MNIST_CNN_CFG)
def mnist_cnn(*, num_classes: int, in_chans: int) -> MnistCNN:
    """A small BatchNorm CNN for digits (about 24,000 parameters with one input channel and 10 classes)."""
    return MnistCNN(num_classes=num_classes, in_chans=in_chans, pretrained_cfg=_MNIST_CNN_CFG)


@register_model("borchvision", pretrained_cfg=_LENET5_CFG)
def lenet5(*, num_classes: int, in_chans: int) -> LeNet5:
    """LeNet-5 with ReLU and max-pooling, for 28x28 images (about 61,700 parameters for 10 classes)."""
    return LeNet5(num_classes=num_classes, in_chans=in_chans, pretrained_cfg=_LENET5_CFG)
