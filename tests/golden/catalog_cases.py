"""The model catalog's parity cases, shared by the generator (real timm / torchvision,
generate_catalog.py) and the replay (borch_webgpu.models, replay_catalog.py). Numpy only, so it
runs in CPython and in Pyodide.

Weights: every state-dict entry (parameters and BatchNorm running statistics alike) comes from
``resnet_weights.value(key, shape, index, seed)``, a formula both sides compute with numpy; nothing
is zeroed and no BatchNorm scale is 1. Inputs: ``golden_io.formula`` with the case's seed.
"""
from __future__ import annotations

import numpy as np

from golden_io import decode, encode, formula, sample_positions
from resnet_weights import value

# one case per catalog name, plus variants of the arguments. ``input``: (N, C, H, W) at a small size
# where the architecture is valid, so the cases stay cheap on a software WebGPU adapter (timm's
# ResNets reduce by 32, the CIFAR one by 8: 32x32 and 16x16 leave 1x1 and 2x2 last stages; the
# 64x64 case pools a 2x2 map); ``features``: the features_only out_indices to check (None: timm's
# default, all five stages). On WebGPU (a software adapter in CI: each forward costs seconds) the
# replay runs the catalog names, not the ``variant`` cases, and features_only where ``webgpu_features``.
CASES = [
    {"id": "borchvision/resnet18_cifar", "library": "borchvision", "factory": "resnet18_cifar",
     "args": {"num_classes": 10}, "input": [1, 3, 16, 16], "seed": 1000, "features": [1, 3],
     "webgpu_features": True},
    {"id": "timm/resnet18", "library": "timm", "factory": "resnet18",
     "args": {"num_classes": 1000, "in_chans": 3}, "input": [2, 3, 32, 32], "seed": 1000},
    {"id": "timm/resnet18 in_chans=1 num_classes=0", "library": "timm", "factory": "resnet18",
     "args": {"num_classes": 0, "in_chans": 1}, "input": [1, 1, 64, 64], "seed": 3000, "features": None,
     "variant": True},
    {"id": "timm/resnet34", "library": "timm", "factory": "resnet34",
     "args": {"num_classes": 1000, "in_chans": 3}, "input": [1, 3, 32, 32], "seed": 5000},
    {"id": "timm/resnet50", "library": "timm", "factory": "resnet50",
     "args": {"num_classes": 1000, "in_chans": 3}, "input": [1, 3, 32, 32], "seed": 6000},
    # ResNet-101 / -152: resnet50's Bottleneck code with deeper third stages (23 and 36 blocks); on a
    # software WebGPU adapter the cost is in their 44M / 60M weights, not the 32x32 input
    {"id": "timm/resnet101", "library": "timm", "factory": "resnet101",
     "args": {"num_classes": 1000, "in_chans": 3}, "input": [1, 3, 32, 32], "seed": 6100, "features": [1, 4]},
    {"id": "timm/resnet152", "library": "timm", "factory": "resnet152",
     "args": {"num_classes": 1000, "in_chans": 3}, "input": [1, 3, 32, 32], "seed": 6200},
    # the ViTs at their own resolution (224: 196 patches and the class token); ``features_module`` names
    # the module whose output is forward_features' (the final norm); their browser test is the "vit"
    # ``browser_group``. ``features`` None is timm's ViT default, the last three blocks (ViT-Base skips
    # features_only: the same code as the others' at four times the weights to build twice). On WebGPU in
    # CI (SwiftShader) the group runs ViT-Tiny at 224 and the 64x64 variant (timm's img_size argument: a
    # 4x4 grid) with its features_only maps; ViT-Small and -Base at 224 take minutes there (``webgpu:
    # False``; replay them by id: ``replay_catalog.py --device webgpu "timm/vit_base_patch16_224"``).
    {"id": "timm/vit_tiny_patch16_224", "library": "timm", "factory": "vit_tiny_patch16_224",
     "args": {"num_classes": 1000, "in_chans": 3, "img_size": 224}, "input": [1, 3, 224, 224], "seed": 7000,
     "features": None, "features_module": "norm", "browser_group": "vit"},
    {"id": "timm/vit_tiny_patch16_224 img_size=64 in_chans=1 num_classes=0", "library": "timm",
     "factory": "vit_tiny_patch16_224", "args": {"num_classes": 0, "in_chans": 1, "img_size": 64},
     "input": [2, 1, 64, 64], "seed": 7100, "features": [0, 5, -1], "features_module": "norm", "browser_group": "vit",
     "variant": True, "webgpu": True, "webgpu_features": True},
    {"id": "timm/vit_small_patch16_224", "library": "timm", "factory": "vit_small_patch16_224",
     "args": {"num_classes": 1000, "in_chans": 3, "img_size": 224}, "input": [1, 3, 224, 224], "seed": 7200,
     "features": None, "features_module": "norm", "browser_group": "vit", "webgpu": False},
    {"id": "timm/vit_base_patch16_224", "library": "timm", "factory": "vit_base_patch16_224",
     "args": {"num_classes": 1000, "in_chans": 3, "img_size": 224}, "input": [1, 3, 224, 224], "seed": 7300,
     "features_module": "norm", "browser_group": "vit", "webgpu": False},
]

# the EfficientNet / MobileNet families (efficientnet.py, mobilenet.py): every name at 32x32 (they
# reduce by 32), features_only on the first of each class; ``"features_module"`` is the module whose
# output is forward_features' (the replay hooks it); ``"webgpu": False`` names are checked on cpu only
# (on a software WebGPU adapter the whole family would not fit a CI run: b0-b2, b7 and the others
# run there, in their own browser test: ``browser_group``); the full-size cases (``variant``, the
# model's own resolution) run on cpu.
_1K = {"num_classes": 1000, "in_chans": 3}
_EFF = {"library": "timm", "args": _1K, "features_module": "bn2", "browser_group": "convnets"}
_MNV3 = {"library": "timm", "args": _1K, "features_module": "blocks", "browser_group": "convnets"}
CASES += [
    {**_EFF, "id": "timm/mobilenetv2_100", "factory": "mobilenetv2_100", "input": [2, 3, 32, 32], "seed": 7000,
     "features": [0, 2, 4], "webgpu_features": True},
    {**_MNV3, "id": "timm/mobilenetv3_large_100", "factory": "mobilenetv3_large_100", "input": [1, 3, 32, 32],
     "seed": 7100, "features": None},
    {**_MNV3, "id": "timm/mobilenetv3_small_100", "factory": "mobilenetv3_small_100", "input": [2, 3, 32, 32],
     "seed": 7200, "features": [0, 3]},
    {**_EFF, "id": "timm/efficientnet_b0", "factory": "efficientnet_b0", "input": [2, 3, 32, 32], "seed": 7300,
     "features": None},
    {**_EFF, "id": "timm/efficientnet_b1", "factory": "efficientnet_b1", "input": [1, 3, 32, 32], "seed": 7400},
    {**_EFF, "id": "timm/efficientnet_b2", "factory": "efficientnet_b2", "input": [1, 3, 32, 32], "seed": 7500},
    {**_EFF, "id": "timm/efficientnet_b3", "factory": "efficientnet_b3", "input": [1, 3, 32, 32], "seed": 7600,
     "webgpu": False},
    {**_EFF, "id": "timm/efficientnet_b4", "factory": "efficientnet_b4", "input": [1, 3, 32, 32], "seed": 7700,
     "webgpu": False},
    {**_EFF, "id": "timm/efficientnet_b5", "factory": "efficientnet_b5", "input": [1, 3, 32, 32], "seed": 7800,
     "webgpu": False},
    {**_EFF, "id": "timm/efficientnet_b6", "factory": "efficientnet_b6", "input": [1, 3, 32, 32], "seed": 7900,
     "webgpu": False},
    {**_EFF, "id": "timm/efficientnet_b7", "factory": "efficientnet_b7", "input": [1, 3, 32, 32], "seed": 8000},
    {**_EFF, "id": "timm/tf_efficientnet_b0", "factory": "tf_efficientnet_b0", "input": [1, 3, 35, 35], "seed": 8100,
     "features": [1, 2, 3, 4]},
    {**_EFF, "id": "timm/efficientnet_b0 in_chans=1 num_classes=0", "factory": "efficientnet_b0",
     "args": {"num_classes": 0, "in_chans": 1}, "input": [1, 1, 48, 40], "seed": 8200, "variant": True},
    {**_EFF, "id": "timm/efficientnet_b0 224x224", "factory": "efficientnet_b0", "input": [1, 3, 224, 224],
     "seed": 8300, "variant": True},
    {**_EFF, "id": "timm/tf_efficientnet_b0 224x224", "factory": "tf_efficientnet_b0", "input": [1, 3, 224, 224],
     "seed": 8400, "variant": True},
    {**_EFF, "id": "timm/mobilenetv2_100 224x224", "factory": "mobilenetv2_100", "input": [1, 3, 224, 224],
     "seed": 8500, "variant": True},
    {**_MNV3, "id": "timm/mobilenetv3_large_100 224x224", "factory": "mobilenetv3_large_100",
     "input": [1, 3, 224, 224], "seed": 8600, "variant": True},
]
INPUT_SEED = 999

# the eval transform of a timm name with resolve_data_config(args, model=...), applied to a float
# image tensor (C, H, W) in [0, 1)
TRANSFORMS = [
    {"id": "resnet50 default config, downscale", "model": "resnet50", "args": {}, "image": [3, 250, 240],
     "seed": 71},
    {"id": "resnet18 48x48 bilinear crop_pct 0.875", "model": "resnet18",
     "args": {"input_size": [3, 48, 48], "interpolation": "bilinear", "crop_pct": 0.875}, "image": [3, 80, 70],
     "seed": 72},
    {"id": "resnet34 64x64 bicubic, upscale", "model": "resnet34", "args": {"input_size": [3, 64, 64]},
     "image": [3, 40, 52], "seed": 73},
    {"id": "resnet18 40x40 squash", "model": "resnet18", "args": {"input_size": [3, 40, 40], "crop_mode": "squash"},
     "image": [3, 50, 61], "seed": 74},
]

# torchvision.transforms.Resize(size, interpolation, antialias=...) on a float tensor
RESIZES = [
    {"id": "bilinear antialias down", "size": 20, "interpolation": "bilinear", "antialias": True,
     "image": [3, 37, 45], "seed": 81},
    {"id": "bilinear no antialias down", "size": 20, "interpolation": "bilinear", "antialias": False,
     "image": [3, 37, 45], "seed": 81},
    {"id": "bicubic antialias down", "size": [16, 24], "interpolation": "bicubic", "antialias": True,
     "image": [3, 37, 45], "seed": 82},
    {"id": "bicubic no antialias down", "size": [16, 24], "interpolation": "bicubic", "antialias": False,
     "image": [3, 37, 45], "seed": 82},
    {"id": "bicubic antialias up", "size": 50, "interpolation": "bicubic", "antialias": True,
     "image": [1, 13, 17], "seed": 83},
    {"id": "bilinear antialias up, batch", "size": [21, 30], "interpolation": "bilinear", "antialias": True,
     "image": [2, 3, 13, 17], "seed": 84},
    {"id": "nearest down", "size": 11, "interpolation": "nearest", "antialias": True,
     "image": [3, 23, 29], "seed": 85},
    {"id": "bicubic same size", "size": [23, 29], "interpolation": "bicubic", "antialias": True,
     "image": [3, 23, 29], "seed": 86},
]


def runs_on_webgpu(case: dict) -> bool:
    """Whether a WebGPU run without ids replays ``case``: the catalog names, not the variants, unless the
    case's ``webgpu`` says otherwise."""
    return case.get("webgpu", not case.get("variant"))


def browser_group(case: dict) -> str:
    """The browser test that replays ``case`` on WebGPU (tests/browser/test_models_webgpu.py): its
    ``browser_group``; "base" (the ResNets, with the transforms) when it has none."""
    return case.get("browser_group", "base")


def case_input(case: dict) -> np.ndarray:
    return formula(tuple(case["input"]), "float32", INPUT_SEED + case["seed"])


def image(spec: dict) -> np.ndarray:
    """A float32 image in [0, 1)."""
    return ((formula(tuple(spec["image"]), "float32", spec["seed"]).astype(np.float64) + 1.0) / 2.0).astype(
        np.float32)


def state_dict_values(layout, seed: int) -> dict[str, np.ndarray]:
    """The case's weights for a state-dict layout [(key, shape), ...] in state-dict order."""
    return {key: value(key, tuple(shape), i, seed) for i, (key, shape, *_) in enumerate(layout)}


def value_for(values: dict, key: str) -> np.ndarray:
    """The formula value of a state-dict ``key``; a features_only model of timm's FeatureGetterNet (the
    ViTs') holds the model as its child ``model``, so its keys carry that prefix."""
    return values[key] if key in values else values[key.removeprefix("model.")]


SAMPLE = 64


def summarize(a: np.ndarray) -> dict:
    """A large output kept small: its shape, sum, sum of |x| and of x², and SAMPLE values at fixed
    positions (golden_io.sample_positions, recomputed on replay)."""
    a = np.asarray(a, np.float32)
    flat = a.reshape(-1).astype(np.float64)
    return {"shape": list(a.shape), "sum": float(flat.sum()), "abs_sum": float(np.abs(flat).sum()),
            "sq_sum": float((flat * flat).sum()), "sample": encode(a.reshape(-1)[sample_positions(flat.size, SAMPLE)])}


def check_summary(got: np.ndarray, spec: dict, tol: float) -> str | None:
    """None when ``got`` agrees with ``summarize``'s record within relative error ``tol``, else why."""
    got = np.asarray(got)
    if list(got.shape) != spec["shape"]:
        return f"shape {list(got.shape)} != expected {spec['shape']}"
    flat = got.reshape(-1).astype(np.float64)
    if not np.isfinite(flat).all():
        return f"{int((~np.isfinite(flat)).sum())} values are NaN or infinite"
    want = decode(spec["sample"]).astype(np.float64)
    sample = flat[sample_positions(flat.size, SAMPLE)]
    err = float(np.linalg.norm(sample - want) / max(np.linalg.norm(want), 1e-30))
    if err > tol:
        return f"sampled values: relative error {err:.2e} > {tol:.1e}"
    if abs(flat.sum() - spec["sum"]) > tol * spec["abs_sum"] + 1e-30:
        return f"sum {flat.sum()!r} != expected {spec['sum']!r}"
    if abs(np.abs(flat).sum() - spec["abs_sum"]) > tol * spec["abs_sum"]:
        return f"sum of |x| {np.abs(flat).sum()!r} != expected {spec['abs_sum']!r}"
    if abs((flat * flat).sum() - spec["sq_sum"]) > 2 * tol * spec["sq_sum"]:
        return f"sum of squares {(flat * flat).sum()!r} != expected {spec['sq_sum']!r}"
    return None


def relative_error(got: np.ndarray, want: np.ndarray) -> float:
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    if got.shape != want.shape:
        return float("inf")
    return float(np.linalg.norm(got - want) / max(np.linalg.norm(want), 1e-30))
