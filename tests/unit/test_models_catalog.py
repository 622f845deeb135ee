"""borch_webgpu.models, the catalog, on the cpu device: parity with timm 1.0.31 for every listed name
(tests/golden/catalog.json, written by generate_catalog.py: state-dict layout, logits, forward_features,
pre-logits, features_only, pretrained_cfg, eval transforms), the frozen name table, and the strictness
of the arguments (missing, unknown, mistyped)."""
from __future__ import annotations

import hashlib
import json
import sys
import warnings
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import borch_webgpu as torch  # noqa: E402
from borch_webgpu import models  # noqa: E402

import replay_catalog  # noqa: E402
import replay_small_models  # noqa: E402
from catalog_cases import CASES  # noqa: E402
from small_models_cases import CASES as SMALL_CASES  # noqa: E402

GOLD = replay_catalog.load()
SMALL_GOLD = replay_small_models.load()

# The name table, frozen: names may be added (add them here too), never removed or changed. Each
# name keeps its arguments, and its meaning: a digest of the state-dict layout timm / torchvision
# give for the case's arguments (the parity test ties the catalog's model to that layout).
FROZEN = {
    "borchvision/lenet5": (("num_classes", "in_chans"), "0c1041a05cbef933"),
    "borchvision/mnist_cnn": (("num_classes", "in_chans"), "f7fd8f501d046b4a"),
    "borchvision/resnet18_cifar": (("num_classes",), "7864a1db0e116de5"),
    "timm/resnet18": (("num_classes", "in_chans"), "fee7203e93debf04"),
    "timm/resnet34": (("num_classes", "in_chans"), "a2e3226e9c7a7040"),
    "timm/resnet50": (("num_classes", "in_chans"), "bdfc9e52351bbbb6"),
    "timm/resnet101": (("num_classes", "in_chans"), "50471718b6549fef"),
    "timm/resnet152": (("num_classes", "in_chans"), "272912faf36246db"),
    "timm/mobilenetv2_100": (("num_classes", "in_chans"), "d6104fe8efd25119"),
    "timm/mobilenetv3_large_100": (("num_classes", "in_chans"), "8786ff25a6c5f16e"),
    "timm/mobilenetv3_small_100": (("num_classes", "in_chans"), "25fb818d4094de60"),
    "timm/efficientnet_b0": (("num_classes", "in_chans"), "2a1142ae7aeff1c2"),
    "timm/efficientnet_b1": (("num_classes", "in_chans"), "7bbc92ad6f13fa2b"),
    "timm/efficientnet_b2": (("num_classes", "in_chans"), "1ac73d4eafd8e74b"),
    "timm/efficientnet_b3": (("num_classes", "in_chans"), "e755eb9860b41e79"),
    "timm/efficientnet_b4": (("num_classes", "in_chans"), "9232e46dfb076829"),
    "timm/efficientnet_b5": (("num_classes", "in_chans"), "fea5e6ab3a0cf4a9"),
    "timm/efficientnet_b6": (("num_classes", "in_chans"), "80fa15d4bcfe3f70"),
    "timm/efficientnet_b7": (("num_classes", "in_chans"), "7cb53c64150d0c48"),
    # the same layout as efficientnet_b0 (padding and BatchNorm eps hold no parameters): its parity
    # case is what tells them apart
    "timm/tf_efficientnet_b0": (("num_classes", "in_chans"), "2a1142ae7aeff1c2"),
    "timm/vit_tiny_patch16_224": (("num_classes", "in_chans", "img_size"), "25094eb3a672f574"),
    "timm/vit_small_patch16_224": (("num_classes", "in_chans", "img_size"), "6b386671b1cf4c55"),
    "timm/vit_base_patch16_224": (("num_classes", "in_chans", "img_size"), "c4586939ef273e39"),
}


def _digest(layout) -> str:
    return hashlib.sha256(json.dumps(layout, separators=(",", ":")).encode()).hexdigest()[:16]


def _name_case(name: str) -> dict:
    return next(w for c, w in [*zip(CASES, GOLD["cases"]), *zip(SMALL_CASES, SMALL_GOLD["cases"])] if c["id"] == name)


# ---- parity with timm ------------------------------------------------------------------------------

@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_parity_with_timm_on_cpu(case):
    want = next(w for w in GOLD["cases"] if w["id"] == case["id"])
    bad, m = replay_catalog.check_model(case, want, "cpu")
    assert not bad, "\n".join(bad)
    print(f"{case['id']}: logits relative error {m['err']:.2e} (tolerance {m['tol']:.1e})")


@pytest.mark.parametrize("case", SMALL_CASES, ids=[c["id"] for c in SMALL_CASES])
def test_small_models_parity_with_pytorch_on_cpu(case):
    want = next(w for w in SMALL_GOLD["cases"] if w["id"] == case["id"])
    bad, m = replay_small_models.check_model(case, want, "cpu")
    assert not bad, "\n".join(bad)
    print(f"{case['id']}: logits relative error {m['err']:.2e} (tolerance {m['tol']:.1e})")


def test_eval_transforms_and_resize_match_timm_and_torchvision():
    assert replay_catalog.check_transforms(GOLD, "cpu") == []


def test_every_listed_name_has_a_parity_case_and_timms_defaults():
    listed = {str(n) for n in models.list_models()}
    parity = {f"{c['library']}/{c['factory']}" for c in [*CASES, *SMALL_CASES] if not c.get("variant")}
    assert listed == parity, "every catalog name needs a parity case in tests/golden/catalog_cases.py"
    assert GOLD["timm"] == "1.0.31" and GOLD["torch"].startswith("2.13.0")
    for name in models.list_models(library="timm"):   # the defaults timm's model class documents
        assert models._registry.entry(*name).timm_defaults == _name_case(str(name))["timm_defaults"], name


# ---- the name table -----------------------------------------------------------------------------

def test_name_table_is_frozen():
    table = {str(n): tuple(a.name for a in models.model_args(*n)) for n in models.list_models()}
    removed = sorted(set(FROZEN) - set(table))
    assert not removed, f"catalog names are never removed: {removed}"
    unfrozen = sorted(set(table) - set(FROZEN))
    assert not unfrozen, f"add new names to FROZEN (they can never be removed afterwards): {unfrozen}"
    for name, (args, digest) in FROZEN.items():
        assert table[name] == args, f"{name}'s arguments changed: {table[name]} (frozen: {args})"
        assert _digest(_name_case(name)["state_dict"]) == digest, f"{name}'s architecture changed meaning"


def test_list_models_patterns_and_records():
    names = models.list_models()
    assert names == sorted(names) and all(isinstance(n, models.ModelName) for n in names)
    assert models.list_models("resnet5*") == [models.ModelName("timm", "resnet50")]
    assert models.list_models("timm/resnet1*") == [("timm", "resnet101"), ("timm", "resnet152"), ("timm", "resnet18")]
    assert models.list_models(library="borchvision") == [("borchvision", "lenet5"), ("borchvision", "mnist_cnn"),
                                                         ("borchvision", "resnet18_cifar")]
    assert models.list_models("*", library="nope") == []
    assert str(names[0]) == "borchvision/lenet5" and names[0]._asdict() == {
        "library": "borchvision", "factory": "lenet5"}


def test_registered_factories_take_keyword_only_arguments_without_defaults():
    with pytest.raises(TypeError, match="keyword-only without a default"):
        models._registry.register_model("timm", pretrained_cfg={}, timm_defaults={})(lambda *, num_classes=3: 0)
    with pytest.raises(ValueError, match="registered twice"):
        models._registry.register_model("timm", pretrained_cfg={}, timm_defaults={"num_classes": 1000,
                                                                                  "in_chans": 3})(
            models.resnet.resnet18)


# ---- argument strictness ---------------------------------------------------------------------------

@pytest.mark.parametrize("args, error, message", [
    ({"num_classes": 10}, TypeError,
     "create_model('timm', 'resnet18'): missing argument 'in_chans'; timm/resnet18 takes num_classes, in_chans, "
     "each given explicitly (architecture arguments have no defaults)"),
    ({}, TypeError, "missing arguments 'num_classes', 'in_chans'; timm/resnet18 takes num_classes, in_chans"),
    ({"num_clases": 10, "in_chans": 3}, TypeError,
     "create_model('timm', 'resnet18'): unknown argument 'num_clases' (did you mean 'num_classes'?); "
     "timm/resnet18 takes num_classes, in_chans"),
    ({"num_classes": 10, "in_chans": 3, "drop_rate": 0.1}, TypeError,
     "unknown argument 'drop_rate'; timm/resnet18 takes num_classes, in_chans"),
    ({"num_classes": 10, "in_chans": 3, "pretrained": True}, TypeError, "fetches no weights"),
    ({"num_classes": "10", "in_chans": 3}, TypeError, "num_classes must be int, got str ('10')"),
    ({"num_classes": 10.0, "in_chans": 3}, TypeError, "num_classes must be int, got float (10.0)"),
    ({"num_classes": True, "in_chans": 3}, TypeError, "num_classes must be int, got bool (True)"),
    ({"num_classes": -1, "in_chans": 3}, ValueError, "num_classes must be >= 0, got -1"),
    ({"num_classes": 10, "in_chans": 0}, ValueError, "in_chans must be >= 1, got 0"),
])
def test_architecture_arguments_are_strict(args, error, message):
    with pytest.raises(error) as e:
        models.create_model("timm", "resnet18", **args)
    assert message in str(e.value)


def test_unknown_names_and_options():
    with pytest.raises(RuntimeError, match=r"Unknown model \(timm/resnet51\): did you mean timm/resnet50"):
        models.create_model("timm", "resnet51", num_classes=10, in_chans=3)
    with pytest.raises(RuntimeError, match=r"Unknown model \(torchvision/resnet18\): the libraries are borchvision, "
                                           "timm"):
        models.model_args("torchvision", "resnet18")
    with pytest.raises(TypeError, match="create_model: factory must be a str, got int"):
        models.create_model("timm", 18)
    with pytest.raises(TypeError, match="features_only must be a bool, got str"):
        models.create_model("timm", "resnet18", num_classes=1, in_chans=3, features_only="yes")
    with pytest.raises(ValueError, match=r"out_indices=\(1, 2\) is for features_only=True"):
        models.create_model("timm", "resnet18", num_classes=1, in_chans=3, out_indices=(1, 2))
    for bad, err, msg in (((1, 7), ValueError, "out of range for 5 stages"), ((3, 1), ValueError, "increasing"),
                          ("1", TypeError, "out_indices must be None")):
        with pytest.raises(err, match=msg):
            models._features.out_indices_tuple(bad, 5)
    assert models._features.out_indices_tuple(2, 5) == (3, 4)
    assert models._features.out_indices_tuple((-1, ), 5) == (4,)


def test_model_args_lists_the_accepted_names():
    args = models.model_args("timm", "resnet50")
    assert [(a.name, a.type) for a in args] == [("num_classes", "int"), ("in_chans", "int")]
    assert all(a.doc for a in args)
    assert [a.name for a in models.model_args("borchvision", "resnet18_cifar")] == ["num_classes"]


# ---- from_timm_name ------------------------------------------------------------------------------------

def test_from_timm_name_fills_timms_defaults_and_says_so():
    with pytest.warns(models.TimmDefaultsWarning) as w:
        model = models.from_timm_name("resnet18.a1_in1k", num_classes=0)
    assert str(w[0].message) == ("from_timm_name('resnet18.a1_in1k'): filled timm's defaults in_chans=3; to be "
                                 "explicit: models.create_model('timm', 'resnet18', num_classes=0, in_chans=3)")
    spec = model.catalog
    assert spec.name == ("timm", "resnet18") and spec.args == {"num_classes": 0, "in_chans": 3}
    assert spec.filled == {"in_chans": 3}
    assert isinstance(model.get_classifier(), torch.nn.Identity)
    with pytest.raises(ValueError, match="pretrained=True.*fetches no weights"):
        models.from_timm_name("resnet50", pretrained=True)
    with pytest.raises(ValueError, match="has the pretrained_cfg of resnet50.a1_in1k only"):
        models.from_timm_name("resnet50.tv_in1k")
    with pytest.raises(RuntimeError, match=r"Unknown model \(timm/resnet_50\)"):
        models.from_timm_name("resnet_50")
    with pytest.raises(TypeError, match="unknown argument 'num_clases'"):
        models.from_timm_name("resnet18", num_clases=10)


# ---- timm's model surface ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def cifar():
    torch.manual_seed(0)
    return models.create_model("borchvision", "resnet18_cifar", num_classes=10).eval()


def test_forward_is_forward_head_of_forward_features(cifar):
    x = torch.randn(1, 3, 8, 8)
    with torch.no_grad():
        feats = cifar.forward_features(x)
        assert feats.shape == (1, 512, 1, 1)
        assert torch.equal(cifar.forward_head(feats), cifar(x))
        assert cifar.forward_head(feats, pre_logits=True).shape == (1, 512)
    assert cifar.default_cfg is cifar.pretrained_cfg and cifar.pretrained_cfg["input_size"] == (3, 32, 32)
    assert cifar.catalog == models.CatalogSpec(models.ModelName("borchvision", "resnet18_cifar"), {"num_classes": 10})


def test_reset_classifier(cifar):
    fc = cifar.get_classifier()
    try:
        cifar.reset_classifier(3)
        assert cifar.get_classifier().out_features == 3 and cifar.num_classes == 3
        assert not cifar.get_classifier().training
        cifar.reset_classifier(0)
        with torch.no_grad():
            assert cifar(torch.randn(2, 3, 8, 8)).shape == (2, 512)
        with pytest.raises(ValueError, match="pools with 'avg' only"):
            cifar.reset_classifier(3, global_pool="max")
    finally:
        cifar.fc, cifar.num_classes = fc, 10


def test_timm_head_pieces():
    pool = models.SelectAdaptivePool2d(pool_type="max", flatten=True)
    x = torch.arange(8.0).reshape(1, 2, 2, 2)
    assert pool(x).tolist() == [[3.0, 7.0]]
    assert repr(pool) == "SelectAdaptivePool2d(pool_type=max, flatten=Flatten(start_dim=1, end_dim=-1))"
    assert models.SelectAdaptivePool2d(pool_type="")(x).shape == (1, 2, 2, 2)
    with pytest.raises(ValueError, match="pool_type must be one of 'avg', 'max' or ''"):
        models.SelectAdaptivePool2d(pool_type="catavgmax")


def test_data_config_and_transform_options():
    cfg = models.resolve_data_config({"mean": (0.5,), "crop_pct": 1.0}, pretrained_cfg=models.get_pretrained_cfg(
        "timm", "resnet18"))
    assert cfg["mean"] == (0.5, 0.5, 0.5) and cfg["crop_pct"] == 1.0 and cfg["interpolation"] == "bicubic"
    test = models.resolve_data_config(pretrained_cfg=models.get_pretrained_cfg("timm", "resnet18"), use_test_size=True)
    assert test["input_size"] == (3, 288, 288) and test["crop_pct"] == 1.0
    with pytest.raises(ValueError, match="at least one of model, args, or pretrained_cfg"):
        models.resolve_data_config()
    with pytest.raises(NotImplementedError, match="only the eval transform"):
        models.create_transform(is_training=True)
    with pytest.raises(NotImplementedError, match="crop_mode 'border'"):
        models.create_transform(crop_mode="border")
    with pytest.raises(NotImplementedError, match="use_prefetcher=True not supported"):
        models.create_transform(use_prefetcher=True)
    models.create_transform(hflip=0.5, normalize=True)     # training-only options are ignored, as in timm
    from borch_webgpu.vision import transforms as T
    with pytest.raises(ValueError, match="interpolation must be 'nearest', 'bilinear' or 'bicubic', got 'lanczos'"):
        T.Resize(8, interpolation="lanczos")
    assert T.Resize(8, max_size=10)._target(20, 40) == (5, 10)
