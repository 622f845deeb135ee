"""borch_webgpu.models' small digit classifiers written in PyTorch, key for key (the parity reference
for ``borchvision/mnist_cnn`` and ``borchvision/lenet5``, and what train_hub_models.py trains).
Imports torch: run with /tmp/torchenv (``PYTHONPATH=``)."""
from __future__ import annotations

import torch
from torch import nn


class MnistCNN(nn.Module):
    def __init__(self, num_classes: int, in_chans: int) -> None:
        super().__init__()
        chans = in_chans
        for i, w in enumerate((16, 32, 64), 1):
            setattr(self, f"conv{i}", nn.Conv2d(chans, w, 3, padding=1, bias=False))
            setattr(self, f"bn{i}", nn.BatchNorm2d(w))
            setattr(self, f"act{i}", nn.ReLU())
            if i < 3:
                setattr(self, f"pool{i}", nn.MaxPool2d(2))
            chans = w
        self.fc = nn.Linear(64, num_classes) if num_classes else nn.Identity()

    def stages(self, x):
        """The three feature maps (after act1, act2, act3)."""
        out = []
        for i in (1, 2, 3):
            x = getattr(self, f"act{i}")(getattr(self, f"bn{i}")(getattr(self, f"conv{i}")(x)))
            out.append(x)
            if i < 3:
                x = getattr(self, f"pool{i}")(x)
        return out

    def pre_logits(self, feats):
        return feats.mean((2, 3))

    def forward(self, x):
        return self.fc(self.pre_logits(self.stages(x)[-1]))


class LeNet5(nn.Module):
    def __init__(self, num_classes: int, in_chans: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(in_chans, 6, 5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(400, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc = nn.Linear(84, num_classes) if num_classes else nn.Identity()

    def stages(self, x):
        """The two feature maps (after pool1, pool2)."""
        a = torch.max_pool2d(torch.relu(self.conv1(x)), 2)
        return [a, torch.max_pool2d(torch.relu(self.conv2(a)), 2)]

    def pre_logits(self, feats):
        return torch.relu(self.fc2(torch.relu(self.fc1(feats.flatten(1)))))

    def forward(self, x):
        return self.fc(self.pre_logits(self.stages(x)[-1]))


ARCHS = {"mnist_cnn": MnistCNN, "lenet5": LeNet5}


def build(factory: str, args: dict) -> nn.Module:
    return ARCHS[factory](**args)
