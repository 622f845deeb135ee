"""``create_model`` (two-part names, every architecture argument given) and ``from_timm_name`` (timm's
one-part names, timm's defaults filled in, explicitly and with a warning)."""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field

from .. import nn
from ._features import FeatureListNet
from ._registry import ModelName, check_args, entry

__all__ = ["CatalogSpec", "create_model", "from_timm_name", "TimmDefaultsWarning"]


class TimmDefaultsWarning(UserWarning):
    """``from_timm_name`` filled architecture arguments with timm's defaults."""


@dataclass(frozen=True)
class CatalogSpec:
    """What a catalog model was built from: its name, every architecture argument, and which of them
    ``from_timm_name`` filled with timm's defaults (empty for ``create_model``). Set as ``model.catalog``."""
    name: ModelName
    args: dict = field(hash=False)
    filled: dict = field(default_factory=dict, hash=False)
    features_only: bool = False
    out_indices: tuple | None = None


def create_model(library: str, factory: str, *, features_only: bool = False, out_indices=None,
                 **args) -> nn.Module:
    """Build the architecture ``library/factory`` of the catalog with freshly initialised weights.

    Every architecture argument must be given (they have no defaults; ``model_args`` lists them):
    a missing or an unknown one (``num_clases``) raises TypeError naming the accepted ones. Weights
    are not fetched here: load a state dict with ``load_state_dict(strict=True)``.

    Args:
        library (str): where the architecture comes from: ``"timm"`` or ``"borchvision"``.
        factory (str): the architecture's name in that library (``"resnet50"``).
        features_only (bool): timm's feature extractor: ``forward`` returns the feature map of each
            stage in ``out_indices`` (a list), and the classifier is dropped.
        out_indices: the stages for ``features_only`` (None: timm's default, all of them for the
            convnets and the last three blocks for the ViTs; an int k: the last k).
        **args: the architecture's arguments (``num_classes``, ``in_chans``, ...).

    Returns:
        the model, with timm's ``forward_features``, ``forward_head``, ``get_classifier``,
        ``reset_classifier``, ``pretrained_cfg`` (alias ``default_cfg``), ``feature_info``, and
        ``catalog`` (a :class:`CatalogSpec`).

    Example::

        >>> import borch_webgpu as torch
        >>> from borch_webgpu import models
        >>> model = models.create_model("borchvision", "resnet18_cifar", num_classes=10).eval()
        >>> model(torch.zeros(1, 3, 16, 16)).shape
        torch.Size([1, 10])
        >>> models.create_model("timm", "resnet18", num_clases=10)
        Traceback (most recent call last):
        ...
        TypeError: create_model('timm', 'resnet18'): unknown argument 'num_clases' (did you mean 'num_classes'?); timm/resnet18 takes num_classes, in_chans
    """
    return _build(library, factory, args, {}, features_only, out_indices, "create_model")


def _build(library, factory, args, filled, features_only, out_indices, op) -> nn.Module:
    e = entry(library, factory, op)
    check_args(e, args, op)
    if not isinstance(features_only, bool):
        raise TypeError(f"{op}: features_only must be a bool, got {type(features_only).__name__} ({features_only!r})")
    if out_indices is not None and not features_only:
        raise ValueError(f"{op}: out_indices={out_indices!r} is for features_only=True")
    args = {k: int(v) for k, v in args.items()}
    model = e.fn(**args)
    if features_only:   # the architecture's timm feature class (features_cls), else the top-level children
        model = getattr(model, "features_cls", FeatureListNet)(model, out_indices)
        out_indices = model.feature_info.out_indices
    model.catalog = CatalogSpec(e.name, dict(args), dict(filled), features_only, out_indices)
    return model


def from_timm_name(model_name: str, pretrained: bool = False, *, features_only: bool = False, out_indices=None,
                   **kwargs) -> nn.Module:
    """``timm.create_model(model_name, **kwargs)`` for people coming from timm: the catalog's
    ``timm/<model_name>`` with every architecture argument not given filled with the default timm's
    own signature documents (for the ResNets ``num_classes=1000``, ``in_chans=3``; the ViTs add
    ``img_size=224``). What was filled is said in a :class:`TimmDefaultsWarning` and kept in
    ``model.catalog.filled``; pass the arguments (or call ``create_model``) to be explicit.

    A pretrained tag (``"resnet50.a1_in1k"``) names weights, which the catalog does not fetch:
    ``pretrained=True`` raises; build the model, then ``load_state_dict(strict=True)``.

    Example::

        >>> import warnings
        >>> from borch_webgpu import models
        >>> with warnings.catch_warnings(record=True) as w:
        ...     warnings.simplefilter("always")
        ...     model = models.from_timm_name("resnet18", num_classes=10)
        >>> model.catalog.filled
        {'in_chans': 3}
        >>> print(w[0].message)
        from_timm_name('resnet18'): filled timm's defaults in_chans=3; to be explicit: models.create_model('timm', 'resnet18', num_classes=10, in_chans=3)
    """
    if not isinstance(model_name, str):
        raise TypeError(f"from_timm_name: model_name must be a str, got {type(model_name).__name__} ({model_name!r})")
    if pretrained:
        raise ValueError(f"from_timm_name({model_name!r}, pretrained=True): the catalog builds architectures and "
                         "fetches no weights; build it, then load_state_dict(torch.load(path), strict=True)")
    factory, _, tag = model_name.partition(".")
    e = entry("timm", factory, "from_timm_name")
    if tag and tag != e.pretrained_cfg.get("tag"):
        raise ValueError(f"from_timm_name({model_name!r}): the catalog has the pretrained_cfg of "
                         f"{factory}.{e.pretrained_cfg.get('tag')} only (a tag names weights and their data config)")
    filled = {k: v for k, v in e.timm_defaults.items() if k not in kwargs}
    full = {**kwargs, **filled}
    check_args(e, full, "from_timm_name")
    if filled:
        explicit = ", ".join(f"{a.name}={full[a.name]!r}" for a in e.args)
        warnings.warn(f"from_timm_name({model_name!r}): filled timm's defaults "
                      f"{', '.join(f'{k}={v!r}' for k, v in filled.items())}; to be explicit: "
                      f"models.create_model('timm', {factory!r}, {explicit})", TimmDefaultsWarning, stacklevel=2)
    return _build("timm", factory, full, filled, features_only, out_indices, "from_timm_name")
