"""borchvision: ``torchvision``'s shape for borch_webgpu (models, transforms, datasets)."""
from . import datasets, models, transforms

__all__ = ["datasets", "models", "transforms"]
