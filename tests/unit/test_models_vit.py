"""The catalog's Vision Transformers beyond the parity cases (those are in test_models_catalog.py, over
tests/golden/catalog.json): their arguments (img_size, timm's defaults), timm's input checks, the
features_only wrapper (FeatureGetterNet), forward_intermediates' options, reset_classifier. Small
models (img_size=32: a 2x2 grid) so it stays cheap on the cpu device."""
from __future__ import annotations

import pytest

import borch_webgpu as torch
from borch_webgpu import models


@pytest.fixture(scope="module")
def tiny():
    torch.manual_seed(0)
    return models.create_model("timm", "vit_tiny_patch16_224", num_classes=7, in_chans=3, img_size=32).eval()


def test_arguments_include_img_size_and_are_strict():
    assert [a.name for a in models.model_args("timm", "vit_base_patch16_224")] == ["num_classes", "in_chans",
                                                                                    "img_size"]
    with pytest.raises(TypeError, match=r"missing argument 'img_size'; timm/vit_tiny_patch16_224 takes "
                                        "num_classes, in_chans, img_size"):
        models.create_model("timm", "vit_tiny_patch16_224", num_classes=10, in_chans=3)
    with pytest.raises(TypeError, match=r"unknown argument 'img_sz' \(did you mean 'img_size'\?\)"):
        models.create_model("timm", "vit_tiny_patch16_224", num_classes=10, in_chans=3, img_sz=224)
    with pytest.raises(ValueError, match=r"img_size \(40\) must be a multiple of the patch size \(16\)"):
        models.create_model("timm", "vit_tiny_patch16_224", num_classes=10, in_chans=3, img_size=40)
    with pytest.raises(ValueError, match="img_size must be >= 1, got 0"):
        models.create_model("timm", "vit_tiny_patch16_224", num_classes=10, in_chans=3, img_size=0)


def test_from_timm_name_fills_vision_transformers_defaults():
    with pytest.warns(models.TimmDefaultsWarning, match="filled timm's defaults in_chans=3, img_size=224"):
        model = models.from_timm_name("vit_tiny_patch16_224.augreg_in21k_ft_in1k", num_classes=0)
    assert model.catalog.args == {"num_classes": 0, "in_chans": 3, "img_size": 224}
    assert model.pos_embed.shape == (1, 197, 192) and isinstance(model.get_classifier(), torch.nn.Identity)
    assert model.pretrained_cfg["input_size"] == (3, 224, 224) and model.default_cfg is model.pretrained_cfg


def test_input_size_is_checked_as_timm_does(tiny):
    with pytest.raises(AssertionError, match=r"Input height \(48\) doesn't match model \(32\)\."):
        tiny(torch.zeros(1, 3, 48, 32))
    with pytest.raises(AssertionError, match=r"Input width \(16\) doesn't match model \(32\)\."):
        tiny(torch.zeros(1, 3, 32, 16))


def test_features_only_is_timms_feature_getter():
    fm = models.create_model("timm", "vit_tiny_patch16_224", num_classes=7, in_chans=3, img_size=32,
                             features_only=True)
    assert isinstance(fm, models.FeatureGetterNet) and fm.feature_info.out_indices == (9, 10, 11)
    assert fm.catalog.out_indices == (9, 10, 11) and len(fm.model.blocks) == 12
    keys = list(fm.state_dict())
    assert keys[:3] == ["model.cls_token", "model.pos_embed", "model.patch_embed.proj.weight"]
    assert not any(k.startswith(("model.norm.", "model.head.")) for k in keys)
    assert "num_classes" not in fm.pretrained_cfg and fm.pretrained_cfg["input_size"] == (3, 224, 224)
    with torch.no_grad():
        maps = fm(torch.zeros(2, 3, 32, 32))
    assert [tuple(m.shape) for m in maps] == [(2, 192, 2, 2)] * 3
    early = models.create_model("timm", "vit_tiny_patch16_224", num_classes=7, in_chans=3, img_size=32,
                                features_only=True, out_indices=(1, 4))
    assert len(early.model.blocks) == 5 and early.feature_info.module_name() == ["blocks.1", "blocks.4"]
    with pytest.raises(ValueError, match="out of range for 12 stages"):
        models.create_model("timm", "vit_tiny_patch16_224", num_classes=7, in_chans=3, img_size=32,
                            features_only=True, out_indices=(0, 12))


def test_forward_intermediates_options_agree(tiny):
    x = torch.randn(1, 3, 32, 32)
    with torch.no_grad():
        final, maps = tiny.forward_intermediates(x, indices=[2, 5])
        assert torch.equal(final, tiny.forward_features(x)) and [tuple(m.shape) for m in maps] == [(1, 192, 2, 2)] * 2
        early = tiny.forward_intermediates(x, indices=[2, 5], stop_early=True, intermediates_only=True)
        assert all(torch.equal(a, b) for a, b in zip(early, maps))
        nlc = tiny.forward_intermediates(x, indices=1, output_fmt="NLC", intermediates_only=True)
        assert tuple(nlc[0].shape) == (1, 4, 192)
        d = tiny.forward_intermediates(x, indices=[5], output_dict=True, return_prefix_tokens=True)
        assert sorted(d) == ["image_features", "image_intermediates", "image_intermediates_prefix"]
        assert tuple(d["image_intermediates_prefix"][0].shape) == (1, 1, 192)
        assert torch.equal(d["image_intermediates"][0], maps[1])
    with pytest.raises(ValueError, match="output_fmt must be 'NCHW' or 'NLC', got 'NHWC'"):
        tiny.forward_intermediates(x, output_fmt="NHWC")


def test_reset_classifier_and_pools(tiny):
    head, pool = tiny.head, tiny.global_pool
    try:
        tiny.reset_classifier(5, global_pool="avg")
        assert tiny.get_classifier().out_features == 5 and tiny.global_pool == "avg" and not tiny.head.training
        with torch.no_grad():
            assert tiny(torch.zeros(2, 3, 32, 32)).shape == (2, 5)
        tiny.reset_classifier(0, global_pool="")
        with torch.no_grad():
            assert tiny(torch.zeros(1, 3, 32, 32)).shape == (1, 5, 192)   # no pool: every token
        with pytest.raises(ValueError, match="global_pool must be one of .*got 'map'"):
            tiny.reset_classifier(3, global_pool="map")
    finally:
        tiny.head, tiny.global_pool, tiny.num_classes = head, pool, 7


def test_avg_pool_build_moves_the_final_norm_after_the_pool_as_timm():
    from borch_webgpu.models.vit import VisionTransformer
    torch.manual_seed(0)
    m = VisionTransformer(img_size=32, patch_size=16, in_chans=3, num_classes=4, embed_dim=24, depth=2, num_heads=2,
                          global_pool="avg", pretrained_cfg={}).eval()
    keys = list(m.state_dict())
    assert "norm.weight" not in keys and keys[-4:] == ["fc_norm.weight", "fc_norm.bias", "head.weight", "head.bias"]
    x = torch.randn(1, 3, 32, 32)
    with torch.no_grad():
        feats = m.forward_features(x)   # the blocks' tokens, no final norm (fc_norm follows the pool)
        assert torch.equal(feats, m.blocks(m._embed(x)))
        assert torch.equal(m.forward_head(feats, pre_logits=True), m.fc_norm(feats[:, 1:].mean(dim=1)))
    with pytest.raises(ValueError, match="global_pool must be one of"):
        VisionTransformer(img_size=32, patch_size=16, in_chans=3, num_classes=4, embed_dim=24, depth=1, num_heads=2,
                          global_pool="map", pretrained_cfg={})
