"""The EfficientNet / MobileNet families of the catalog beyond parity (which test_models_catalog.py checks
against timm for every name): timm's head surface (reset_classifier, pre-logits, global_pool),
features_only's model, from_timm_name, and the builders' errors."""
from __future__ import annotations

import pytest

import borch_webgpu as torch
from borch_webgpu import models
from borch_webgpu.models import _arch, _blocks
from borch_webgpu.models.efficientnet import EfficientNetFeatures
from borch_webgpu.models.mobilenet import MobileNetV3Features


@pytest.fixture(scope="module")
def b0():
    torch.manual_seed(0)
    return models.create_model("timm", "efficientnet_b0", num_classes=10, in_chans=3).eval()


@pytest.fixture(scope="module")
def small():
    torch.manual_seed(0)
    return models.create_model("timm", "mobilenetv3_small_100", num_classes=10, in_chans=3).eval()


def test_efficientnet_head_and_reset_classifier(b0):
    x = torch.randn(1, 3, 32, 32)
    with torch.no_grad():
        feats = b0.forward_features(x)
        assert feats.shape == (1, 1280, 1, 1)
        assert torch.equal(b0.forward_head(feats), b0(x))
        assert b0.forward_head(feats, pre_logits=True).shape == (1, 1280)
    assert b0.default_cfg is b0.pretrained_cfg and b0.get_classifier() is b0.classifier
    fc, pool = b0.classifier, b0.global_pool
    try:
        b0.reset_classifier(3)
        assert b0.get_classifier().out_features == 3 and not b0.classifier.training and b0.num_classes == 3
        b0.reset_classifier(0, global_pool="")
        with torch.no_grad():
            assert b0(x).shape == (1, 1280, 1, 1)     # no pooling, no classifier: the feature map
        b0.reset_classifier(0, global_pool="max")
        with torch.no_grad():
            assert b0(x).shape == (1, 1280)
    finally:
        b0.classifier, b0.global_pool, b0.num_classes = fc, pool, 10


def test_mobilenetv3_efficient_head(small):
    x = torch.randn(2, 3, 32, 32)
    assert (small.num_features, small.head_hidden_size) == (576, 1024)
    with torch.no_grad():
        feats = small.forward_features(x)
        assert feats.shape == (2, 576, 1, 1)
        assert small.forward_head(feats, pre_logits=True).shape == (2, 1024)   # after the head conv
        assert torch.equal(small.forward_head(feats), small(x))
    fc = small.classifier
    try:
        small.reset_classifier(0)
        with torch.no_grad():
            assert small(x).shape == (2, 1024)
        with pytest.raises(ValueError, match="head conv needs pooled features"):
            small.reset_classifier(5, global_pool="")
    finally:
        small.classifier, small.num_classes = fc, 10


def test_features_only_models_are_timms_classes():
    fm = models.create_model("timm", "efficientnet_b0", num_classes=10, in_chans=3, features_only=True,
                             out_indices=(1, 4))
    assert isinstance(fm, EfficientNetFeatures)
    assert [n for n, _ in fm.named_children()] == ["conv_stem", "bn1", "blocks"]
    assert fm.feature_info.channels() == [24, 320] and fm.feature_info.reduction() == [4, 32]
    assert "classifier" not in fm.pretrained_cfg and fm.default_cfg["input_size"] == (3, 224, 224)
    assert fm.catalog.out_indices == (1, 4)
    with torch.no_grad():
        assert [tuple(m.shape) for m in fm.eval()(torch.randn(1, 3, 64, 64))] == [(1, 24, 16, 16), (1, 320, 2, 2)]
    sm = models.create_model("timm", "mobilenetv3_small_100", num_classes=10, in_chans=3, features_only=True)
    assert isinstance(sm, MobileNetV3Features) and type(sm.bn1) is torch.nn.BatchNorm2d
    assert [n for n, _ in sm.named_children()] == ["conv_stem", "bn1", "act1", "blocks"]
    assert sm.feature_info.module_name() == ["bn1", "blocks.0", "blocks.1", "blocks.3", "blocks.5"]
    with pytest.raises(ValueError, match="out of range for 5 stages"):
        models.create_model("timm", "efficientnet_b0", num_classes=1, in_chans=3, features_only=True,
                            out_indices=(5,))


def test_from_timm_name_and_arguments():
    with pytest.warns(models.TimmDefaultsWarning, match="filled timm's defaults num_classes=1000, in_chans=3"):
        m = models.from_timm_name("tf_efficientnet_b0.ns_jft_in1k")
    assert m.catalog.args == {"num_classes": 1000, "in_chans": 3}
    assert type(m.conv_stem) is _blocks.Conv2dSame and m.bn1.eps == 1e-3
    with pytest.raises(TypeError, match="unknown argument 'drop_rate'; timm/efficientnet_b7 takes num_classes, "
                                        "in_chans"):
        models.create_model("timm", "efficientnet_b7", num_classes=1, in_chans=3, drop_rate=0.5)
    with pytest.raises(RuntimeError, match=r"did you mean timm/efficientnet_b7"):
        models.create_model("timm", "efficientnet_b9", num_classes=1, in_chans=3)


def test_builder_errors():
    with pytest.raises(ValueError, match="block kind 'er' in 'er_r1_k3_s1_e4_c24' is not in the catalog"):
        _arch.decode_arch_def([["er_r1_k3_s1_e4_c24"]])
    with pytest.raises(ValueError, match="padding must be '' \\(PyTorch's\\) or 'same'"):
        _blocks.create_conv2d(3, 8, 3, padding="valid")
    with pytest.raises(ValueError, match="unknown activation 'mish'"):
        _blocks.get_act_layer("mish")
