"""Vision models with torchvision's names and parameter names (a torchvision state dict loads)."""
from .resnet import BasicBlock, Bottleneck, ResNet, resnet18, resnet18_cifar, resnet34, resnet50

__all__ = ["ResNet", "BasicBlock", "Bottleneck", "resnet18", "resnet34", "resnet50", "resnet18_cifar"]
