"""Check borch_webgpu.models against what timm said (catalog.json, from generate_catalog.py):
``python replay_catalog.py [--device cpu|webgpu] [case id ...]``; in the browser through the runner
with ``--mount tests/golden``. For each case: build the catalog model, compare its state-dict layout
with timm's, load the formula weights with ``strict=True``, compare logits, forward_features,
forward_head(pre_logits=True), the features_only maps and the timm metadata; then the eval
transforms and Resize cases. Prints one line per case (relative error, build and run time, and on
WebGPU the pipelines the case created) and ``catalog: N passed, N failed``.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

import borch_webgpu as bw  # noqa: E402
from borch_webgpu import models  # noqa: E402

from catalog_cases import CASES, RESIZES, TRANSFORMS, case_input, check_summary, image, relative_error, \
    state_dict_values  # noqa: E402
from golden_io import decode  # noqa: E402

DTYPE = {"float32": bw.float32, "int64": bw.int64}
# relative error allowed on top of PyTorch's own float32-vs-float64 distance (the floor): a different
# summation order in convolutions and matmuls; features are compared through sums and a sample
FLOOR_FACTOR, MIN_TOL = 4.0, {"cpu": 1e-5, "webgpu": 2e-5}


def load() -> dict:
    return json.loads((HERE / "catalog.json").read_text())


def _pipelines(device: str) -> int | None:
    if device != "webgpu":
        return None
    bw.webgpu.synchronize()
    return int(bw.webgpu.stats()["pipelinesCreated"])


def _state_dict(layout, seed: int, keys, device: str) -> dict:
    values = state_dict_values(layout, seed)
    return {k: bw.from_numpy(values[k]).to(device) for k in keys}


def check_model(spec: dict, want: dict, device: str) -> tuple[list[str], dict]:
    """(problems, measurements) for one model case."""
    bad: list[str] = []
    where = spec["id"]
    p0 = _pipelines(device)
    t0 = time.perf_counter()
    model = models.create_model(spec["library"], spec["factory"], **spec["args"]).to(device)
    layout = [[k, list(v.shape), v.dtype] for k, v in model.state_dict().items()]
    theirs = [[k, shape, DTYPE[dt]] for k, shape, dt in want["state_dict"]]
    if layout != theirs:
        first = next((i for i, (a, b) in enumerate(zip(layout, theirs)) if a != b), min(len(layout), len(theirs)))
        return [f"{where}: state-dict layout differs from timm's at entry {first}: ours "
                f"{layout[first] if first < len(layout) else None}, timm's {theirs[first] if first < len(theirs) else None}"
                f" ({len(layout)} vs {len(theirs)} entries)"], {}
    result = model.load_state_dict(_state_dict(want["state_dict"], spec["seed"], model.state_dict(), device),
                                   strict=True)
    assert not result.missing_keys and not result.unexpected_keys
    model.eval()
    built = time.perf_counter() - t0
    x = bw.from_numpy(case_input(spec)).to(device)
    seen = {}
    hook = getattr(model, "layer4").register_forward_hook(lambda mod, inp, out: seen.setdefault("features", out))
    t1 = time.perf_counter()
    with bw.no_grad():   # one pass: the logits, and forward_features' output (layer4's) through the hook
        logits = model(x).cpu().numpy()
    ran = time.perf_counter() - t1
    hook.remove()
    tol = max(MIN_TOL[device], FLOOR_FACTOR * want["float64_floor"])
    err = relative_error(logits, decode(want["logits"]))
    if not err <= tol:
        bad.append(f"{where}: logits relative error {err:.2e} > {tol:.1e}")
    with bw.no_grad():
        feats = seen["features"]
        pre = model.forward_head(feats, pre_logits=True)
        head = model.forward_head(feats)
        for what, got, key in (("forward_features", feats, "forward_features"),
                               ("forward_head(pre_logits=True)", pre, "pre_logits")):
            why = check_summary(got.cpu().numpy(), want[key], 10 * tol)
            if why:
                bad.append(f"{where}: {what}: {why}")
        if not relative_error(head.cpu().numpy(), logits) <= tol:
            bad.append(f"{where}: forward_head(layer4's output) is not the model's output")
    if "pretrained_cfg" in want:
        ours = json.loads(json.dumps(model.pretrained_cfg))
        if ours != want["pretrained_cfg"]:
            diff = sorted(k for k in set(ours) | set(want["pretrained_cfg"]) if ours.get(k) != want["pretrained_cfg"].get(k))
            bad.append(f"{where}: pretrained_cfg differs from timm's at {diff}")
        for key, ours_v in (("num_features", model.num_features), ("feature_info", model.feature_info),
                            ("get_classifier", type(model.get_classifier()).__name__)):
            if ours_v != want[key]:
                bad.append(f"{where}: {key} {ours_v!r} != timm's {want[key]!r}")
    pipes = None if p0 is None else _pipelines(device) - p0
    out = {"err": err, "tol": tol, "build_s": built, "forward_s": ran, "pipelines": pipes}
    if "features_only" in want and (device == "cpu" or spec.get("webgpu_features")):
        bad += check_features(spec, want, device)
    return bad, out


def check_features(spec: dict, want: dict, device: str) -> list[str]:
    where = f"{spec['id']} features_only"
    f = want["features_only"]
    fm = models.create_model(spec["library"], spec["factory"], features_only=True, out_indices=spec["features"],
                             **spec["args"]).to(device)
    fm.load_state_dict(_state_dict(want["state_dict"], spec["seed"], fm.state_dict(), device), strict=True)
    fm.eval()
    bad = []
    info = {"channels": fm.feature_info.channels(), "reduction": fm.feature_info.reduction(),
            "module": fm.feature_info.module_name()}
    for k, v in info.items():
        if v != f[k]:
            bad.append(f"{where}: feature_info {k} {v} != expected {f[k]}")
    if "state_dict_keys" in f and len(fm.state_dict()) != f["state_dict_keys"]:
        bad.append(f"{where}: {len(fm.state_dict())} state-dict entries, timm's has {f['state_dict_keys']}")
    with bw.no_grad():
        maps = fm(bw.from_numpy(case_input(spec)).to(device))
    if len(maps) != len(f["maps"]):
        return bad + [f"{where}: {len(maps)} feature maps, expected {len(f['maps'])}"]
    for i, (got, w) in enumerate(zip(maps, f["maps"])):
        why = check_summary(got.cpu().numpy(), w, 1e-4)
        if why:
            bad.append(f"{where}: map {i}: {why}")
    return bad


def check_transforms(golden: dict, device: str) -> list[str]:
    bad = []
    for spec, want in zip(TRANSFORMS, golden["transforms"]):
        args = {k: tuple(v) if isinstance(v, list) else v for k, v in spec["args"].items()}
        cfg = models.resolve_data_config(args, pretrained_cfg=models.get_pretrained_cfg("timm", spec["model"]))
        if json.loads(json.dumps(cfg)) != want["config"]:
            bad.append(f"transform {spec['id']}: resolve_data_config {cfg} != timm's {want['config']}")
            continue
        got = models.create_transform(**cfg)(bw.from_numpy(image(spec)).to(device))
        why = check_summary(got.cpu().numpy(), want["out"], 1e-5)
        if why:
            bad.append(f"transform {spec['id']}: {why}")
    from borch_webgpu.vision import transforms as T
    for spec, want in zip(RESIZES, golden["resizes"]):
        got = T.Resize(spec["size"], interpolation=spec["interpolation"], antialias=spec["antialias"])(
            bw.from_numpy(image(spec)).to(device))
        why = check_summary(got.cpu().numpy(), want["out"], 1e-5)
        if why:
            bad.append(f"Resize {spec['id']}: {why}")
    return bad


def report(label: str, spec: dict, bad: list[str], m: dict, device: str) -> bool:
    """Print a case's failures and its line (error, times, pipelines); True when it passed."""
    for b in bad:
        print("FAIL", b)
    if m:
        pipes = "" if m["pipelines"] is None else f", {m['pipelines']} pipelines created"
        print(f"{label} {spec['id']}: logits relative error {m['err']:.2e} (tolerance {m['tol']:.1e}), "
              f"build+load {m['build_s']:.2f} s, forward {m['forward_s']:.2f} s{pipes} [device {device}]")
    return not bad


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default=None)
    ap.add_argument("--no-transforms", action="store_true")
    ap.add_argument("ids", nargs="*")
    ns = ap.parse_args(argv)
    device = ns.device or bw.get_default_device().type
    golden = load()
    passed = failed = 0
    for spec, want in zip(CASES, golden["cases"]):
        assert spec["id"] == want["id"], "catalog.json is stale: rerun generate_catalog.py"
        if ns.ids and spec["id"] not in ns.ids or not ns.ids and device != "cpu" and spec.get("variant"):
            continue
        ok = report("catalog case", spec, *check_model(spec, want, device), device)
        failed, passed = failed + (not ok), passed + ok
    if not ns.no_transforms and not ns.ids:
        bad = check_transforms(golden, device)
        for b in bad:
            print("FAIL", b)
        n = len(TRANSFORMS) + len(RESIZES)
        failed, passed = failed + len(bad), passed + n - len(bad)
    total = None if device != "webgpu" else bw.webgpu.stats()["pipelinesCreated"]
    print(f"catalog: {passed} passed, {failed} failed [device {device}]"
          + ("" if total is None else f", {total} pipelines created in all"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
