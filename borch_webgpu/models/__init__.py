"""The model catalog (timm's shape, two-part names): architectures you call by name.

``create_model(library, factory, **args)`` builds ``library/factory`` (``"timm"``/``"resnet50"``,
``"borchvision"``/``"resnet18_cifar"``): the library says where the architecture comes from, not
where the code lives; torchvision's and timm's resnet18 are different models, so names have two
parts. Every architecture argument must be given (``model_args`` lists them; a missing or unknown
one raises TypeError); ``from_timm_name("resnet50", num_classes=10)`` fills timm's own defaults and
says so. Names can be added, never removed or changed in meaning.

The models have timm's surface: ``forward_features``, ``forward_head(x, pre_logits=False)``,
``get_classifier``, ``reset_classifier``, ``features_only=True``, ``pretrained_cfg`` /
``default_cfg``, with ``resolve_data_config`` and ``create_transform`` for the matching input.
Parameter names and order are timm's: a state dict saved from timm loads with ``strict=True``.
The catalog fetches no weights (that is the hub's work, and the catalog never imports it).

Example::

    >>> from borch_webgpu import models
    >>> [str(n) for n in models.list_models(library="borchvision")]
    ['borchvision/lenet5', 'borchvision/mnist_cnn', 'borchvision/resnet18_cifar']
    >>> [str(n) for n in models.list_models("*resnet*")]
    ['borchvision/resnet18_cifar', 'timm/resnet101', 'timm/resnet152', 'timm/resnet18', 'timm/resnet34', 'timm/resnet50']
    >>> [str(n) for n in models.list_models("efficientnet_b[0-2]")]
    ['timm/efficientnet_b0', 'timm/efficientnet_b1', 'timm/efficientnet_b2']
    >>> [str(n) for n in models.list_models("vit_*")]
    ['timm/vit_base_patch16_224', 'timm/vit_small_patch16_224', 'timm/vit_tiny_patch16_224']
"""
from . import resnet  # noqa: F401 - registers the ResNets
from . import efficientnet, mobilenet  # noqa: F401 - registers the EfficientNets and MobileNets
from . import small  # noqa: F401 - registers the digit classifiers (mnist_cnn, lenet5)
from . import vit  # noqa: F401 - registers the Vision Transformers
from ._data import MaybeToTensor, create_transform, resolve_data_config, resolve_model_data_config
from ._factory import CatalogSpec, TimmDefaultsWarning, create_model, from_timm_name
from ._features import FeatureGetterNet, FeatureInfo, FeatureListNet
from ._layers import SelectAdaptivePool2d
from ._registry import ModelArg, ModelEntry, ModelName, get_pretrained_cfg, list_models, model_args

__all__ = ["create_model", "list_models", "model_args", "get_pretrained_cfg", "from_timm_name", "resolve_data_config",
           "resolve_model_data_config", "create_transform", "ModelName", "ModelArg", "ModelEntry", "CatalogSpec",
           "TimmDefaultsWarning", "FeatureInfo", "FeatureListNet", "FeatureGetterNet", "SelectAdaptivePool2d",
           "MaybeToTensor"]
