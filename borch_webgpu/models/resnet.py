"""The catalog's ResNets: ``borchvision/resnet18_cifar`` and ``timm/resnet18``, ``resnet34``, ``resnet50``,
``resnet101``, ``resnet152``.

Both are borchvision's ResNet (``vision.models.resnet``: torchvision's blocks and stages) with timm's
model surface added: ``forward_features``, ``forward_head(x, pre_logits=False)``,
``get_classifier``, ``reset_classifier``, ``feature_info``, ``pretrained_cfg``. timm's ResNet-18/34/50/101/152
have torchvision's parameters key for key and in the same order (timm kept the names for weight
compatibility), so a state dict saved from timm loads with ``strict=True``. The timm models also
take timm's top-level module names (``act1``, ``global_pool``); inside the blocks the activation
keeps torchvision's name ``relu`` (it has no parameters, so no state-dict key differs).
"""
from __future__ import annotations

from .. import nn
from ..tensor import Tensor
from ..vision.models import resnet as _tv
from ._layers import SelectAdaptivePool2d, create_classifier, reset_head
from ._registry import register_model

__all__ = ["CatalogResNet", "TimmResNet", "resnet18_cifar", "resnet18", "resnet34", "resnet50", "resnet101",
           "resnet152"]


class CatalogResNet(_tv.ResNet):
    """borchvision's ResNet (its module tree and state dict) with timm's model surface.

    ``num_classes=0`` gives no classifier (``fc`` is Identity and ``forward`` returns the pooled
    features), as in timm.
    """

    _stem = ("conv1", "bn1", "relu", "maxpool")

    def __init__(self, block, layers, *, num_classes: int, in_chans: int = 3, cifar: bool = False,
                 zero_init_last: bool = False, pretrained_cfg: dict) -> None:
        super().__init__(block, layers, num_classes=max(num_classes, 1), zero_init_residual=zero_init_last,
                         cifar=cifar)
        if in_chans != 3:
            old = self.conv1
            self.conv1 = nn.Conv2d(in_chans, old.out_channels, kernel_size=old.kernel_size, stride=old.stride,
                                   padding=old.padding, bias=False)
            nn.init.kaiming_normal_(self.conv1.weight, mode="fan_out", nonlinearity="relu")
        self.num_classes = num_classes
        self.num_features = self.head_hidden_size = self.fc.in_features
        if num_classes == 0:
            self.fc = nn.Identity()
        self.pretrained_cfg = dict(pretrained_cfg)
        # timm's feature points: the stem's activation, then each stage (stride w.r.t. the input)
        stem, after_pool = (1, 1) if cifar else (2, 4)
        stages = [self.layer1[-1], self.layer2[-1], self.layer3[-1], self.layer4[-1]]
        self.feature_info = [{"num_chs": self.bn1.num_features, "reduction": stem, "module": self._stem[2]}]
        self.feature_info += [{"num_chs": _out_channels(b), "reduction": after_pool * 2 ** i, "module": f"layer{i + 1}"}
                              for i, b in enumerate(stages)]

    @property
    def default_cfg(self) -> dict:
        """timm's old name for ``pretrained_cfg``."""
        return self.pretrained_cfg

    def forward_features(self, x: Tensor) -> Tensor:
        """The last stage's feature map (N, num_features, H/32, W/32; H/8, W/8 with the CIFAR stem), before
        pooling."""
        for name in self._stem:
            x = getattr(self, name)(x)
        return self.layer4(self.layer3(self.layer2(self.layer1(x))))

    def _pool(self, x: Tensor) -> Tensor:
        return self.avgpool(x).flatten(1)

    def forward_head(self, x: Tensor, pre_logits: bool = False) -> Tensor:
        """Global pool, then the classifier (``pre_logits=True``: the pooled features, no classifier)."""
        x = self._pool(x)
        return x if pre_logits else self.fc(x)

    def forward(self, x: Tensor) -> Tensor:
        return self.forward_head(self.forward_features(x))

    def get_classifier(self) -> nn.Module:
        """The classifier module (``fc``)."""
        return self.fc

    def reset_classifier(self, num_classes: int, global_pool: str | None = None) -> None:
        """A new classifier for ``num_classes`` outputs (0: none), freshly initialised."""
        if global_pool not in (None, "avg"):
            raise ValueError(f"reset_classifier: {type(self).__name__} pools with 'avg' only, got "
                             f"global_pool={global_pool!r}")
        self.num_classes = num_classes
        self.fc = (nn.Linear(self.num_features, num_classes) if num_classes > 0 else nn.Identity()).to(self._device())
        self.fc.train(self.training)

    def _device(self):
        return self.conv1.weight.device


class TimmResNet(CatalogResNet):
    """timm's ResNet: the same parameters, and timm's top-level names (``act1``, ``global_pool``, a
    :class:`SelectAdaptivePool2d`); ``reset_classifier`` takes timm's ``global_pool`` ('avg', 'max', '')."""

    _stem = ("conv1", "bn1", "act1", "maxpool")
    _order = ("conv1", "bn1", "act1", "maxpool", "layer1", "layer2", "layer3", "layer4", "global_pool", "fc")

    def __init__(self, block, layers, *, num_classes: int, in_chans: int, pretrained_cfg: dict) -> None:
        super().__init__(block, layers, num_classes=num_classes, in_chans=in_chans, zero_init_last=True,
                         pretrained_cfg=pretrained_cfg)
        act = self.relu
        del self.relu, self.avgpool
        self.act1 = act
        self.global_pool = SelectAdaptivePool2d(pool_type="avg", flatten=True)
        mods = self._modules
        self.__dict__["_modules"] = {k: mods[k] for k in self._order}

    def _pool(self, x: Tensor) -> Tensor:
        return self.global_pool(x)

    def reset_classifier(self, num_classes: int, global_pool: str | None = None) -> None:
        """timm's: a new classifier for ``num_classes`` (0: none) after ``global_pool`` (None keeps the
        current one; 'avg', 'max', or '' for no pooling)."""
        reset_head(self, num_classes, global_pool, "fc")
        self.head_hidden_size = self.num_features * self.global_pool.feat_mult()


def _out_channels(block) -> int:
    return block.bn3.num_features if isinstance(block, _tv.Bottleneck) else block.bn2.num_features


# ---- the table's entries -----------------------------------------------------------------------------

IMAGENET_MEAN = (0.485, 0.456, 0.406)
IMAGENET_STD = (0.229, 0.224, 0.225)
# the per-channel statistics of CIFAR-10's training images, as CIFAR recipes normalize them
CIFAR10_MEAN = (0.4914, 0.4822, 0.4465)
CIFAR10_STD = (0.2470, 0.2435, 0.2616)


def _timm_cfg(arch: str, tag: str) -> dict:
    """timm 1.0.31's pretrained_cfg for ``arch`` (its default tag), without the weight locations:
    tests/golden/catalog.json holds timm's own to compare with."""
    return {"architecture": arch, "tag": tag, "input_size": (3, 224, 224), "test_input_size": (3, 288, 288),
            "fixed_input_size": False, "interpolation": "bicubic", "crop_pct": 0.95, "test_crop_pct": 1.0,
            "crop_mode": "center", "mean": IMAGENET_MEAN, "std": IMAGENET_STD, "num_classes": 1000,
            "pool_size": (7, 7), "first_conv": "conv1", "classifier": "fc", "license": "apache-2.0",
            "origin_url": "https://github.com/huggingface/pytorch-image-models", "paper_ids": "arXiv:2110.00476"}


TIMM_RESNET_DEFAULTS = {"num_classes": 1000, "in_chans": 3}   # timm's ResNet.__init__ signature


_CIFAR_CFG = {"architecture": "resnet18_cifar", "input_size": (3, 32, 32), "fixed_input_size": False,
              "interpolation": "bilinear", "crop_pct": 1.0, "crop_mode": "center", "mean": CIFAR10_MEAN,
              "std": CIFAR10_STD, "pool_size": (4, 4), "first_conv": "conv1", "classifier": "fc"}
_R18, _R34, _R50 = _timm_cfg("resnet18", "a1_in1k"), _timm_cfg("resnet34", "a1_in1k"), _timm_cfg("resnet50", "a1_in1k")
_R101, _R152 = _timm_cfg("resnet101", "a1h_in1k"), _timm_cfg("resnet152", "a1h_in1k")


@register_model("borchvision", pretrained_cfg=_CIFAR_CFG)
def resnet18_cifar(*, num_classes: int) -> CatalogResNet:
    """borchvision's CIFAR ResNet-18 (``vision.models.resnet18_cifar``'s module tree and state dict):
    a 3x3 stride-1 stem and no max-pool, for 32x32 images."""
    return CatalogResNet(_tv.BasicBlock, [2, 2, 2, 2], num_classes=num_classes, cifar=True, pretrained_cfg=_CIFAR_CFG)


@register_model("timm", pretrained_cfg=_R18, timm_defaults=TIMM_RESNET_DEFAULTS)
def resnet18(*, num_classes: int, in_chans: int) -> TimmResNet:
    """timm's ResNet-18 (BasicBlock, [2, 2, 2, 2])."""
    return TimmResNet(_tv.BasicBlock, [2, 2, 2, 2], num_classes=num_classes, in_chans=in_chans, pretrained_cfg=_R18)


@register_model("timm", pretrained_cfg=_R34, timm_defaults=TIMM_RESNET_DEFAULTS)
def resnet34(*, num_classes: int, in_chans: int) -> TimmResNet:
    """timm's ResNet-34 (BasicBlock, [3, 4, 6, 3])."""
    return TimmResNet(_tv.BasicBlock, [3, 4, 6, 3], num_classes=num_classes, in_chans=in_chans, pretrained_cfg=_R34)


@register_model("timm", pretrained_cfg=_R50, timm_defaults=TIMM_RESNET_DEFAULTS)
def resnet50(*, num_classes: int, in_chans: int) -> TimmResNet:
    """timm's ResNet-50 (Bottleneck, [3, 4, 6, 3])."""
    return TimmResNet(_tv.Bottleneck, [3, 4, 6, 3], num_classes=num_classes, in_chans=in_chans, pretrained_cfg=_R50)


@register_model("timm", pretrained_cfg=_R101, timm_defaults=TIMM_RESNET_DEFAULTS)
def resnet101(*, num_classes: int, in_chans: int) -> TimmResNet:
    """timm's ResNet-101 (Bottleneck, [3, 4, 23, 3])."""
    return TimmResNet(_tv.Bottleneck, [3, 4, 23, 3], num_classes=num_classes, in_chans=in_chans, pretrained_cfg=_R101)


@register_model("timm", pretrained_cfg=_R152, timm_defaults=TIMM_RESNET_DEFAULTS)
def resnet152(*, num_classes: int, in_chans: int) -> TimmResNet:
    """timm's ResNet-152 (Bottleneck, [3, 8, 36, 3])."""
    return TimmResNet(_tv.Bottleneck, [3, 8, 36, 3], num_classes=num_classes, in_chans=in_chans, pretrained_cfg=_R152)
