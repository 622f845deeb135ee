"""timm's EfficientNet class and the catalog names built with it: ``timm/efficientnet_b0`` ...
``efficientnet_b7``, ``timm/tf_efficientnet_b0`` (TensorFlow's asymmetric 'SAME' padding and
BatchNorm eps 1e-3, for weights ported from TensorFlow) and ``timm/mobilenetv2_100`` (timm builds
MobileNet-V2 with this class too).

The module tree is timm's: ``conv_stem``, ``bn1`` (BatchNormAct2d), ``blocks`` (stages of
DepthwiseSeparableConv / InvertedResidual), ``conv_head``, ``bn2``, ``global_pool``, ``classifier``;
parameter names and order match timm 1.0.31, so its state dicts load with ``strict=True``.
``features_only=True`` gives timm's EfficientNetFeatures (stem and blocks, no head; the maps at the
end of each stride level).
"""
from __future__ import annotations

import copy
from functools import partial

from .. import nn
from ..tensor import Tensor
from ._arch import EfficientNetBuilder, decode_arch_def
from ._blocks import BatchNormAct2d, SqueezeExcite, create_conv2d, get_act_layer, init_weight_goog, round_channels
from ._features import FeatureInfo, out_indices_tuple, pretrained_cfg_for_features
from ._layers import create_classifier, reset_head
from ._registry import register_model

__all__ = ["EfficientNet", "EfficientNetFeatures", "efficientnet_b0", "efficientnet_b1", "efficientnet_b2",
           "efficientnet_b3", "efficientnet_b4", "efficientnet_b5", "efficientnet_b6", "efficientnet_b7",
           "tf_efficientnet_b0", "mobilenetv2_100"]


class TimmSurface:
    """What timm's EfficientNet and MobileNetV3 share in the catalog: ``default_cfg``, ``get_classifier``,
    ``features_only`` through the class' ``features_cls``, and the device of the stem."""

    features_cls: type

    @property
    def default_cfg(self) -> dict:
        """timm's old name for ``pretrained_cfg``."""
        return self.pretrained_cfg

    def get_classifier(self) -> nn.Module:
        """The classifier module (``classifier``)."""
        return self.classifier

    def _device(self):
        return self.conv_stem.weight.device


class EfficientNet(TimmSurface, nn.Module):
    """timm's EfficientNet: stem conv (stride 2), the stages, a 1x1 head conv to ``num_features``,
    global average pool and a Linear classifier (Identity when ``num_classes`` is 0)."""

    def __init__(self, block_args: list, *, num_classes: int, in_chans: int, num_features: int, stem_size: int,
                 fix_stem: bool = False, pad_type: str = "", act_layer=nn.ReLU, bn_eps: float = 1e-5, se_layer=None,
                 se_from_exp: bool = False, round_chs_fn=round_channels, pretrained_cfg: dict) -> None:
        super().__init__()
        norm_layer = partial(BatchNormAct2d, eps=bn_eps)
        se_layer = se_layer or SqueezeExcite
        self.num_classes, self.in_chans, self.drop_rate = num_classes, in_chans, 0.0
        if not fix_stem:
            stem_size = round_chs_fn(stem_size)
        self.conv_stem = create_conv2d(in_chans, stem_size, 3, stride=2, padding=pad_type)
        self.bn1 = norm_layer(stem_size, act_layer=act_layer)
        builder = EfficientNetBuilder(pad_type=pad_type, round_chs_fn=round_chs_fn, act_layer=act_layer,
                                      norm_layer=norm_layer, se_layer=se_layer, se_from_exp=se_from_exp)
        self.blocks = nn.Sequential(*builder(stem_size, block_args))
        self.feature_info = builder.features
        self._head(builder.in_chs, num_features, pad_type, norm_layer, act_layer)
        self.pretrained_cfg = dict(pretrained_cfg)
        for m in self.modules():
            init_weight_goog(m)

    features_cls: type   # set below, once EfficientNetFeatures exists

    def _head(self, head_chs, num_features, pad_type, norm_layer, act_layer) -> None:
        self.conv_head = create_conv2d(head_chs, num_features, 1, padding=pad_type)
        self.bn2 = norm_layer(num_features, act_layer=act_layer)
        self.num_features = self.head_hidden_size = num_features
        self.global_pool, self.classifier = create_classifier(num_features, self.num_classes, pool_type="avg")

    def forward_features(self, x: Tensor) -> Tensor:
        """The head conv's activated output (N, num_features, H/32, W/32), before pooling."""
        return self.bn2(self.conv_head(self.blocks(self.bn1(self.conv_stem(x)))))

    def forward_head(self, x: Tensor, pre_logits: bool = False) -> Tensor:
        """Global pool, then the classifier (``pre_logits=True``: the pooled features)."""
        x = self.global_pool(x)
        return x if pre_logits else self.classifier(x)

    def forward(self, x: Tensor) -> Tensor:
        return self.forward_head(self.forward_features(x))

    def reset_classifier(self, num_classes: int, global_pool: str | None = None) -> None:
        """timm's: a new classifier for ``num_classes`` (0: none) after ``global_pool`` (None keeps the
        current one; 'avg', 'max', or '' for no pooling)."""
        reset_head(self, num_classes, global_pool, "classifier")


class EfficientNetFeatures(nn.Module):
    """timm's EfficientNetFeatures, from a built EfficientNet: ``conv_stem``, ``bn1``, every stage in
    ``blocks``; ``forward`` returns the maps of the feature points in ``out_indices`` (a list)."""

    _stem = ("conv_stem", "bn1")

    def __init__(self, model: nn.Module, out_indices=None) -> None:
        super().__init__()
        for name in self._stem:
            setattr(self, name, getattr(model, name))
        self.blocks = model.blocks
        info = copy.deepcopy(model.feature_info)
        self.feature_info = FeatureInfo(info, out_indices_tuple(out_indices, len(info)))
        self._stage_out_idx = {f["stage"]: f["index"] for f in self.feature_info.get_dicts()}
        self.pretrained_cfg = pretrained_cfg_for_features(model.pretrained_cfg)

    @property
    def default_cfg(self) -> dict:
        """timm's old name for ``pretrained_cfg``."""
        return self.pretrained_cfg

    def forward(self, x: Tensor) -> list[Tensor]:
        for name in self._stem:
            x = getattr(self, name)(x)
        out = [x] if 0 in self._stage_out_idx else []
        for i, stage in enumerate(self.blocks):
            x = stage(x)
            if i + 1 in self._stage_out_idx:
                out.append(x)
        return out


EfficientNet.features_cls = EfficientNetFeatures


# ---- the table's entries -----------------------------------------------------------------------------

IMAGENET_MEAN = (0.485, 0.456, 0.406)
IMAGENET_STD = (0.229, 0.224, 0.225)
TIMM_DEFAULTS = {"num_classes": 1000, "in_chans": 3}   # timm's EfficientNet / MobileNetV3 __init__ signatures


def timm_cfg(arch: str, tag: str, size: int, crop_pct: float = 0.875, *, test_size: int | None = None,
             test_crop_pct: float | None = None, crop_mode: str = "center", mean=IMAGENET_MEAN,
             std=IMAGENET_STD) -> dict:
    """timm 1.0.31's pretrained_cfg for ``arch`` (its default tag) without the weight locations (the
    fields timm leaves unset are absent, as in timm); tests/golden/catalog.json holds timm's own."""
    cfg = {"architecture": arch, "tag": tag, "input_size": (3, size, size), "fixed_input_size": False,
           "interpolation": "bicubic", "crop_pct": crop_pct, "crop_mode": crop_mode, "mean": mean, "std": std,
           "num_classes": 1000, "pool_size": (-(-size // 32),) * 2, "first_conv": "conv_stem",
           "classifier": "classifier", "license": "apache-2.0"}
    if test_size is not None:
        cfg["test_input_size"] = (3, test_size, test_size)
    if test_crop_pct is not None:
        cfg["test_crop_pct"] = test_crop_pct
    return cfg


# timm's EfficientNet-B0 stages; B1..B7 scale width (channel_multiplier) and depth (depth_multiplier)
_EFFNET_ARCH = [["ds_r1_k3_s1_e1_c16_se0.25"], ["ir_r2_k3_s2_e6_c24_se0.25"], ["ir_r2_k5_s2_e6_c40_se0.25"],
                ["ir_r3_k3_s2_e6_c80_se0.25"], ["ir_r3_k5_s1_e6_c112_se0.25"], ["ir_r4_k5_s2_e6_c192_se0.25"],
                ["ir_r1_k3_s1_e6_c320_se0.25"]]


def _efficientnet(arch: str, channel_multiplier: float, depth_multiplier: float, *, num_classes: int,
                  in_chans: int, cfg: dict, pad_type: str = "", bn_eps: float = 1e-5) -> EfficientNet:
    """timm's _gen_efficientnet: swish, SE 0.25, widths divisible by 8."""
    chs = partial(round_channels, multiplier=channel_multiplier, divisor=8)
    return EfficientNet(decode_arch_def(_EFFNET_ARCH, depth_multiplier), num_classes=num_classes, in_chans=in_chans,
                        num_features=chs(1280), stem_size=32, round_chs_fn=chs, act_layer=get_act_layer("swish"),
                        pad_type=pad_type, bn_eps=bn_eps, pretrained_cfg=cfg)


def _register_efficientnet(name: str, cm: float, dm: float, cfg: dict, **kw):
    def factory(*, num_classes: int, in_chans: int) -> EfficientNet:
        return _efficientnet(name, cm, dm, num_classes=num_classes, in_chans=in_chans, cfg=cfg, **kw)
    factory.__name__ = factory.__qualname__ = name
    factory.__doc__ = (f"timm's {name} (channel multiplier {cm}, depth multiplier {dm}"
                       f"{', TensorFlow SAME padding, BatchNorm eps 1e-3' if kw else ''}).")
    return register_model("timm", pretrained_cfg=cfg, timm_defaults=TIMM_DEFAULTS)(factory)


efficientnet_b0 = _register_efficientnet("efficientnet_b0", 1.0, 1.0, timm_cfg("efficientnet_b0", "ra_in1k", 224))
efficientnet_b1 = _register_efficientnet("efficientnet_b1", 1.0, 1.1, timm_cfg(
    "efficientnet_b1", "ra4_e3600_r240_in1k", 240, 0.9, test_size=288, test_crop_pct=1.0, mean=(0.5, 0.5, 0.5),
    std=(0.5, 0.5, 0.5)))
efficientnet_b2 = _register_efficientnet("efficientnet_b2", 1.1, 1.2, timm_cfg(
    "efficientnet_b2", "ra_in1k", 256, test_size=288, test_crop_pct=1.0))
efficientnet_b3 = _register_efficientnet("efficientnet_b3", 1.2, 1.4, timm_cfg(
    "efficientnet_b3", "ra2_in1k", 288, test_size=320, test_crop_pct=1.0))
efficientnet_b4 = _register_efficientnet("efficientnet_b4", 1.4, 1.8, timm_cfg(
    "efficientnet_b4", "ra2_in1k", 320, test_size=384, test_crop_pct=1.0))
efficientnet_b5 = _register_efficientnet("efficientnet_b5", 1.6, 2.2, timm_cfg(
    "efficientnet_b5", "sw_in12k_ft_in1k", 448, 1.0, crop_mode="squash"))
efficientnet_b6 = _register_efficientnet("efficientnet_b6", 1.8, 2.6, timm_cfg("efficientnet_b6", "untrained", 528,
                                                                                0.942))
efficientnet_b7 = _register_efficientnet("efficientnet_b7", 2.0, 3.1, timm_cfg("efficientnet_b7", "untrained", 600,
                                                                                0.949))
tf_efficientnet_b0 = _register_efficientnet("tf_efficientnet_b0", 1.0, 1.0,
                                            timm_cfg("tf_efficientnet_b0", "ns_jft_in1k", 224),
                                            pad_type="same", bn_eps=1e-3)

_MNV2_ARCH = [["ds_r1_k3_s1_c16"], ["ir_r2_k3_s2_e6_c24"], ["ir_r3_k3_s2_e6_c32"], ["ir_r4_k3_s2_e6_c64"],
              ["ir_r3_k3_s1_e6_c96"], ["ir_r3_k3_s2_e6_c160"], ["ir_r1_k3_s1_e6_c320"]]
_MNV2_CFG = timm_cfg("mobilenetv2_100", "ra_in1k", 224)


@register_model("timm", pretrained_cfg=_MNV2_CFG, timm_defaults=TIMM_DEFAULTS)
def mobilenetv2_100(*, num_classes: int, in_chans: int) -> EfficientNet:
    """timm's MobileNet-V2 (width 1.0): ReLU6, no squeeze-excite, built by timm's EfficientNet class."""
    return EfficientNet(decode_arch_def(_MNV2_ARCH), num_classes=num_classes, in_chans=in_chans, num_features=1280,
                        stem_size=32, act_layer=nn.ReLU6, pretrained_cfg=_MNV2_CFG)
