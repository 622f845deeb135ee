"""Freeze what timm 1.0.31 (and torchvision 0.28.0) say about the catalog's architectures:
``PYTHONPATH= /tmp/torchenv/bin/python tests/golden/generate_catalog.py`` writes
tests/golden/catalog.json.

Needs torch 2.13.0 (CPU), and ``pip install --no-deps timm==1.0.31 torchvision==0.28.0 pillow pyyaml``
(torchvision's compiled ops need not load: only models and transforms are used). No weight file is
written: for each case of catalog_cases.py the model is built (timm.create_model, or torchvision's
ResNet-18 with the CIFAR stem for borchvision/resnet18_cifar), its state-dict layout recorded (keys,
shapes, dtypes, in order), the formula weights loaded with ``load_state_dict(strict=True)``, and the
eval-mode outputs recorded on the case's input: logits (in full), forward_features and
forward_head(pre_logits=True) (shape, sums and a sample), the features_only maps, timm's
pretrained_cfg / resolve_data_config / feature_info and, per case, the defaults the timm model's class
(ResNet, EfficientNet, MobileNetV3, VisionTransformer) documents in its signature for the case's
arguments; for the ViTs also the other token pools and forward_intermediates' options. Plus the eval
transforms (timm.data.create_transform) and torchvision Resize cases.
"""
from __future__ import annotations

import inspect
import json
import sys
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import torch  # noqa: E402

# torchvision's compiled ops (nms, ...) may not match this torch build; the models do not use them
sys.modules.setdefault("torchvision._meta_registrations", types.ModuleType("torchvision._meta_registrations"))
import timm  # noqa: E402
import timm.data  # noqa: E402
import torchvision  # noqa: E402
from torchvision import transforms as T  # noqa: E402

from catalog_cases import CASES, RESIZES, TRANSFORMS, case_input, image, state_dict_values, summarize, \
    value_for  # noqa: E402
from golden_io import encode  # noqa: E402

VERSIONS = {"torch": "2.13.0", "timm": "1.0.31", "torchvision": "0.28.0"}
# the pretrained_cfg fields the catalog mirrors (not the weight locations: the catalog fetches nothing)
CFG_FIELDS = ("architecture", "tag", "input_size", "test_input_size", "fixed_input_size", "interpolation",
              "crop_pct", "test_crop_pct", "crop_mode", "mean", "std", "num_classes", "pool_size", "first_conv",
              "classifier", "license", "origin_url", "paper_ids")


def cifar_resnet18(num_classes: int) -> torch.nn.Module:
    """vision.models.resnet18_cifar as torchvision users write it: a 3x3 stride-1 stem, no max-pool."""
    m = torchvision.models.resnet18(num_classes=num_classes)
    m.conv1 = torch.nn.Conv2d(3, 64, kernel_size=3, stride=1, padding=1, bias=False)
    m.maxpool = torch.nn.Identity()
    return m


def build(case: dict) -> torch.nn.Module:
    if case["library"] == "timm":
        return timm.create_model(case["factory"], pretrained=False, **case["args"])
    assert case["factory"] == "resnet18_cifar"
    return cifar_resnet18(**case["args"])


def features_of(model, x, case):
    """(forward_features, pre-logits, [feature maps at the five points])."""
    if case["library"] == "timm":
        feats = model.forward_features(x)
        pre = model.forward_head(feats, pre_logits=True)
        points = model.forward_intermediates(x, intermediates_only=True)
        return feats, pre, points
    h = model.relu(model.bn1(model.conv1(x)))
    points = [h]
    h = model.maxpool(h)
    for name in ("layer1", "layer2", "layer3", "layer4"):
        h = getattr(model, name)(h)
        points.append(h)
    return h, torch.flatten(model.avgpool(h), 1), points


def layout(model) -> list:
    return [[k, list(v.shape), str(v.dtype).replace("torch.", "")] for k, v in model.state_dict().items()]


def load_formula(model, values: dict) -> None:
    sd = model.state_dict()
    model.load_state_dict({k: torch.from_numpy(value_for(values, k)).to(v.dtype) for k, v in sd.items()}, strict=True)


def jsonable(v):
    if isinstance(v, tuple):
        return [jsonable(x) for x in v]
    return v


def model_case(case: dict) -> dict:
    torch.manual_seed(0)
    model = build(case)
    lay = layout(model)
    values = state_dict_values(lay, case["seed"])
    load_formula(model, values)
    model.eval()
    x = torch.from_numpy(case_input(case))
    with torch.no_grad():
        y32 = model(x)
        feats, pre, points = features_of(model, x, case)
        y64 = model.double()(x.double())
        model.float()
    floor = float((y32.double() - y64).norm() / y64.norm())
    out = {"id": case["id"], "state_dict": lay, "logits": encode(y32.numpy()), "float64_floor": floor,
           "forward_features": summarize(feats.numpy()), "pre_logits": summarize(pre.numpy())}
    if case["library"] == "timm":
        cfg = model.pretrained_cfg
        out["pretrained_cfg"] = {k: jsonable(cfg[k]) for k in CFG_FIELDS if k in cfg}
        out["num_features"] = model.num_features
        out["feature_info"] = model.feature_info
        out["get_classifier"] = type(model.get_classifier()).__name__
        sig = inspect.signature(type(model).__init__).parameters   # the defaults timm documents for the args
        out["timm_defaults"] = {k: sig[k].default for k in case["args"]}
    if isinstance(model, timm.models.vision_transformer.VisionTransformer):   # the other token pools, and
        # forward_intermediates' options
        with torch.no_grad():
            out["pools"] = {p: summarize(model.pool(feats, pool_type=p).numpy()) for p in ("avg", "max", "avgmax")}
            if case.get("variant"):
                inter = model.forward_intermediates(x, indices=2, norm=True, output_fmt="NLC",
                                                    return_prefix_tokens=True, intermediates_only=True)
                out["intermediates"] = [[summarize(a.numpy()), summarize(b.numpy())] for a, b in inter]
    if "features" in case:
        kw = {} if case["features"] is None else {"out_indices": tuple(case["features"])}
        if case["library"] == "timm":
            fm = timm.create_model(case["factory"], pretrained=False, features_only=True, **case["args"], **kw)
            load_formula(fm, values)
            fm.eval()
            with torch.no_grad():
                maps = fm(x)
            info = {"channels": fm.feature_info.channels(), "reduction": fm.feature_info.reduction(),
                    "module": fm.feature_info.module_name(), "state_dict_keys": len(fm.state_dict())}
            for a, b in zip(maps, [points[i] for i in fm.feature_info.out_indices]):
                assert torch.equal(a, b)
        else:   # what features_only must give for the borchvision tree: the same five points
            idx = list(range(5)) if case["features"] is None else case["features"]
            maps = [points[i] for i in idx]
            info = {"channels": [int(m.shape[1]) for m in maps],
                    "reduction": [x.shape[-1] // m.shape[-1] for m in maps],
                    "module": [["relu", "layer1", "layer2", "layer3", "layer4"][i] for i in idx]}
        info["maps"] = [summarize(m.numpy()) for m in maps]
        out["features_only"] = info
    print(f"{case['id']}: {len(lay)} entries, logits |y| {float(y32.norm()):.3g}, "
          f"float32 vs float64 {floor:.2e}")
    return out


def transform_case(t: dict) -> dict:
    model = timm.create_model(t["model"], pretrained=False)
    args = {k: tuple(v) if isinstance(v, list) else v for k, v in t["args"].items()}
    cfg = timm.data.resolve_data_config(args, model=model)
    tf = timm.data.create_transform(**cfg)
    y = tf(torch.from_numpy(image(t)))
    return {"id": t["id"], "config": {k: jsonable(v) for k, v in cfg.items()}, "repr": repr(tf),
            "out": summarize(y.numpy())}


def resize_case(r: dict) -> dict:
    mode = {"bilinear": T.InterpolationMode.BILINEAR, "bicubic": T.InterpolationMode.BICUBIC,
            "nearest": T.InterpolationMode.NEAREST}[r["interpolation"]]
    size = r["size"] if isinstance(r["size"], int) else tuple(r["size"])
    y = T.Resize(size, interpolation=mode, antialias=r["antialias"])(torch.from_numpy(image(r)))
    return {"id": r["id"], "out": summarize(y.numpy())}


def main() -> None:
    got = {"torch": torch.__version__, "timm": timm.__version__, "torchvision": torchvision.__version__}
    for k, v in VERSIONS.items():
        if got[k].split("+")[0] != v:
            sys.exit(f"catalog.json comes from {k} {v}; this is {got[k]}")
    doc = {**got, "cases": [model_case(c) for c in CASES], "transforms": [transform_case(t) for t in TRANSFORMS],
           "resizes": [resize_case(r) for r in RESIZES]}
    (HERE / "catalog.json").write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    print(f"{len(doc['cases'])} model cases, {len(doc['transforms'])} transforms, {len(doc['resizes'])} resizes "
          f"written to {HERE / 'catalog.json'}")


if __name__ == "__main__":
    main()
