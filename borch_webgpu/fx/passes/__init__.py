"""Graph passes of ``torch.fx.passes``: :mod:`.shape_prop`."""
from . import shape_prop

__all__ = ["shape_prop"]
