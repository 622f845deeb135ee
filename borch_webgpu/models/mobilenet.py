"""timm's MobileNetV3 class and its catalog names: ``timm/mobilenetv3_large_100`` and
``timm/mobilenetv3_small_100`` (``timm/mobilenetv2_100`` is built by timm's EfficientNet class:
see efficientnet.py).

MobileNet-V3's 'efficient head' pools before its head conv: ``conv_stem``, ``bn1``, ``blocks``, then
``global_pool``, ``conv_head`` (1x1 with bias), ``act2``, ``flatten``, ``classifier``. Hard-swish in
most blocks (ReLU where the architecture string says ``nre``), squeeze-excite with a hard-sigmoid
gate and widths rounded to multiples of 8. Parameter names and order match timm 1.0.31.
"""
from __future__ import annotations

from functools import partial

from .. import nn
from ..tensor import Tensor
from ._arch import EfficientNetBuilder, decode_arch_def
from ._blocks import BatchNormAct2d, SqueezeExcite, create_conv2d, init_weight_goog, round_channels
from ._layers import SelectAdaptivePool2d
from ._registry import register_model
from .efficientnet import TIMM_DEFAULTS, EfficientNetFeatures, TimmSurface, timm_cfg

__all__ = ["MobileNetV3", "MobileNetV3Features", "mobilenetv3_large_100", "mobilenetv3_small_100"]


class MobileNetV3(TimmSurface, nn.Module):
    """timm's MobileNetV3: ``num_features`` is the last stage's channels (forward_features' output),
    ``head_hidden_size`` the head conv's (pre-logits)."""

    def __init__(self, block_args: list, *, num_classes: int, in_chans: int, num_features: int, stem_size: int,
                 act_layer, se_layer, pretrained_cfg: dict) -> None:
        super().__init__()
        norm_layer = BatchNormAct2d
        self.num_classes, self.in_chans, self.drop_rate = num_classes, in_chans, 0.0
        stem_size = round_channels(stem_size)
        self.conv_stem = create_conv2d(in_chans, stem_size, 3, stride=2)
        self.bn1 = norm_layer(stem_size, act_layer=act_layer)
        builder = EfficientNetBuilder(pad_type="", round_chs_fn=round_channels, act_layer=act_layer,
                                      norm_layer=norm_layer, se_layer=se_layer, se_from_exp=True)
        self.blocks = nn.Sequential(*builder(stem_size, block_args))
        self.feature_info = builder.features
        self.num_features = builder.in_chs
        self.head_hidden_size = num_features
        self.global_pool = SelectAdaptivePool2d(pool_type="avg")
        self.conv_head = create_conv2d(self.num_features, num_features, 1, bias=True)
        self.norm_head = nn.Identity()
        self.act2 = act_layer()
        self.flatten = nn.Flatten(1)
        self.classifier = nn.Linear(num_features, num_classes) if num_classes > 0 else nn.Identity()
        self.pretrained_cfg = dict(pretrained_cfg)
        for m in self.modules():
            init_weight_goog(m)

    features_cls: type   # set below

    def forward_features(self, x: Tensor) -> Tensor:
        """The last stage's map (N, num_features, H/32, W/32)."""
        return self.blocks(self.bn1(self.conv_stem(x)))

    def forward_head(self, x: Tensor, pre_logits: bool = False) -> Tensor:
        """Global pool, head conv and activation, flatten (``pre_logits=True`` stops here), classifier."""
        x = self.flatten(self.act2(self.norm_head(self.conv_head(self.global_pool(x)))))
        return x if pre_logits else self.classifier(x)

    def forward(self, x: Tensor) -> Tensor:
        return self.forward_head(self.forward_features(x))

    def reset_classifier(self, num_classes: int, global_pool: str | None = None) -> None:
        """timm's: a new classifier for ``num_classes`` (0: none); the head conv stays (it is sized for
        the pooled features), so ``global_pool`` may be 'avg' or 'max' (None keeps the current one)."""
        if global_pool is None:
            global_pool = self.global_pool.pool_type
        if not global_pool:
            raise ValueError("reset_classifier: MobileNetV3's head conv needs pooled features; global_pool must "
                             "be 'avg' or 'max'")
        self.num_classes = num_classes
        self.global_pool = SelectAdaptivePool2d(pool_type=global_pool)
        fc = nn.Linear(self.head_hidden_size, num_classes) if num_classes > 0 else nn.Identity()
        self.classifier = fc.to(self._device())
        self.global_pool.train(self.training)
        self.classifier.train(self.training)


class MobileNetV3Features(EfficientNetFeatures):
    """timm's MobileNetV3Features: as EfficientNetFeatures, but the stem's norm is a plain BatchNorm2d
    (``bn1``, the same parameters) followed by ``act1``."""

    _stem = ("conv_stem", "bn1", "act1")

    def __init__(self, model: nn.Module, out_indices=None) -> None:
        src = model.bn1
        bn = nn.BatchNorm2d(src.num_features, eps=src.eps).to(src.weight.device)
        bn.load_state_dict(src.state_dict())
        model = _Stem(model, bn, src.act)
        super().__init__(model, out_indices)


class _Stem:
    """A view of ``model`` whose ``bn1`` / ``act1`` are the features model's."""

    def __init__(self, model, bn1, act1) -> None:
        self.conv_stem, self.bn1, self.act1 = model.conv_stem, bn1, act1
        self.blocks, self.feature_info, self.pretrained_cfg = model.blocks, model.feature_info, model.pretrained_cfg


MobileNetV3.features_cls = MobileNetV3Features


# ---- the table's entries -----------------------------------------------------------------------------

_SE = partial(SqueezeExcite, gate_layer=nn.Hardsigmoid, force_act_layer=nn.ReLU, rd_round_fn=round_channels)
_LARGE = [["ds_r1_k3_s1_e1_c16_nre"], ["ir_r1_k3_s2_e4_c24_nre", "ir_r1_k3_s1_e3_c24_nre"],
          ["ir_r3_k5_s2_e3_c40_se0.25_nre"], ["ir_r1_k3_s2_e6_c80", "ir_r1_k3_s1_e2.5_c80", "ir_r2_k3_s1_e2.3_c80"],
          ["ir_r2_k3_s1_e6_c112_se0.25"], ["ir_r3_k5_s2_e6_c160_se0.25"], ["cn_r1_k1_s1_c960"]]
_SMALL = [["ds_r1_k3_s2_e1_c16_se0.25_nre"], ["ir_r1_k3_s2_e4.5_c24_nre", "ir_r1_k3_s1_e3.67_c24_nre"],
          ["ir_r1_k5_s2_e4_c40_se0.25", "ir_r2_k5_s1_e6_c40_se0.25"], ["ir_r2_k5_s1_e3_c48_se0.25"],
          ["ir_r3_k5_s2_e6_c96_se0.25"], ["cn_r1_k1_s1_c576"]]
_LARGE_CFG = timm_cfg("mobilenetv3_large_100", "ra_in1k", 224)
_SMALL_CFG = timm_cfg("mobilenetv3_small_100", "lamb_in1k", 224)


@register_model("timm", pretrained_cfg=_LARGE_CFG, timm_defaults=TIMM_DEFAULTS)
def mobilenetv3_large_100(*, num_classes: int, in_chans: int) -> MobileNetV3:
    """timm's MobileNet-V3 Large (width 1.0): head conv to 1280."""
    return MobileNetV3(decode_arch_def(_LARGE), num_classes=num_classes, in_chans=in_chans, num_features=1280,
                       stem_size=16, act_layer=nn.Hardswish, se_layer=_SE, pretrained_cfg=_LARGE_CFG)


@register_model("timm", pretrained_cfg=_SMALL_CFG, timm_defaults=TIMM_DEFAULTS)
def mobilenetv3_small_100(*, num_classes: int, in_chans: int) -> MobileNetV3:
    """timm's MobileNet-V3 Small (width 1.0): head conv to 1024."""
    return MobileNetV3(decode_arch_def(_SMALL), num_classes=num_classes, in_chans=in_chans, num_features=1024,
                       stem_size=16, act_layer=nn.Hardswish, se_layer=_SE, pretrained_cfg=_SMALL_CFG)
