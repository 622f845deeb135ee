"""Check borch_webgpu.models against what timm said (catalog.json, from generate_catalog.py):
``python replay_catalog.py [--device cpu|webgpu] [--group NAME] [case id ...]``; in the browser through
the runner with ``--mount tests/golden``. For each case: build the catalog model, compare its state-dict
layout with timm's, load the formula weights with ``strict=True``, compare logits, forward_features,
forward_head(pre_logits=True), the features_only maps and the timm metadata (for the ViTs also the
other token pools and forward_intermediates); then the eval transforms and Resize cases. Prints one
line per case (relative error, build and run time, and on WebGPU the pipelines the case created and
the kernels its forward used) and ``catalog: N passed, N failed``. ``--group vit`` runs only the cases
of one browser test (a case's ``browser_group``, "base" when it has none; "base" also runs the
transforms); on WebGPU a case runs as its ``webgpu`` says (default: the catalog names, not the
variants).
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

from catalog_cases import CASES, RESIZES, TRANSFORMS, browser_group, case_input, check_summary, image, \
    relative_error, runs_on_webgpu, state_dict_values, value_for  # noqa: E402
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


class _KernelsUsed:
    """The kernel keys the dispatches inside ``with`` ask for (webgpu): the pipelines the case needs on
    its own, whatever ran before it and had them compiled already."""

    def __init__(self, device: str) -> None:
        self.keys: set | None = set() if device == "webgpu" else None

    def __enter__(self):
        if self.keys is not None:
            from borch_webgpu.device import webgpu as gpu
            self.rt = gpu.runtime()
            original = type(self.rt).pipeline
            self.rt.pipeline = lambda key, *a: (self.keys.add(key), original(self.rt, key, *a))[1]
        return self

    def __exit__(self, *exc) -> None:
        if self.keys is not None:
            del self.rt.pipeline


def _state_dict(values: dict, keys, device: str) -> dict:
    return {k: bw.from_numpy(value_for(values, k)).to(device) for k in keys}


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
    values = state_dict_values(want["state_dict"], spec["seed"])
    result = model.load_state_dict(_state_dict(values, model.state_dict(), device), strict=True)
    assert not result.missing_keys and not result.unexpected_keys
    model.eval()
    built = time.perf_counter() - t0
    x = bw.from_numpy(case_input(spec)).to(device)
    seen = {}
    at = model.get_submodule(spec.get("features_module", "layer4"))   # the module forward_features ends with
    hook = at.register_forward_hook(lambda mod, inp, out: seen.setdefault("features", out))
    t1 = time.perf_counter()
    with bw.no_grad(), _KernelsUsed(device) as used:   # one pass: the logits, and forward_features' output through the hook
        logits = model(x).cpu().numpy()
    ran = time.perf_counter() - t1
    hook.remove()
    tol = max(MIN_TOL[device], FLOOR_FACTOR * want["float64_floor"])
    want_logits = decode(want["logits"])
    err = relative_error(logits, want_logits)
    max_abs = float(np.abs(logits - want_logits).max()) if logits.shape == want_logits.shape else float("inf")
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
            bad.append(f"{where}: forward_head(forward_features' output) is not the model's output")
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
    out = {"err": err, "max_abs": max_abs, "tol": tol, "build_s": built, "forward_s": ran, "pipelines": pipes,
           "kernels": None if used.keys is None else len(used.keys)}
    bad += _check_tokens(model, feats, x, spec, want, 10 * tol)
    if "features_only" in want and (device == "cpu" or spec.get("webgpu_features")):
        del model, logits, seen, feats, pre, head, x   # the model's buffers go back before the features model
        bad += check_features(spec, want, device, values)
    return bad, out


def _check_tokens(model, feats, x, spec: dict, want: dict, tol: float) -> list[str]:
    """The ViTs' other token pools (pool(x, pool_type)) and forward_intermediates(indices=2, norm=True,
    output_fmt='NLC', return_prefix_tokens=True), where timm's were recorded."""
    bad = []
    with bw.no_grad():
        for p, w in want.get("pools", {}).items():
            why = check_summary(model.pool(feats, pool_type=p).cpu().numpy(), w, tol)
            if why:
                bad.append(f"{spec['id']}: pool(pool_type={p!r}): {why}")
        if "intermediates" in want:
            got = model.forward_intermediates(x, indices=2, norm=True, output_fmt="NLC", return_prefix_tokens=True,
                                              intermediates_only=True)
            if len(got) != len(want["intermediates"]):
                return bad + [f"{spec['id']}: forward_intermediates gave {len(got)} outputs, timm's "
                              f"{len(want['intermediates'])}"]
            for i, (pair, wpair) in enumerate(zip(got, want["intermediates"])):
                for what, a, w in zip(("tokens", "prefix tokens"), pair, wpair):
                    why = check_summary(a.cpu().numpy(), w, tol)
                    if why:
                        bad.append(f"{spec['id']}: forward_intermediates {i} {what}: {why}")
    return bad


def check_features(spec: dict, want: dict, device: str, values: dict) -> list[str]:
    where = f"{spec['id']} features_only"
    f = want["features_only"]
    fm = models.create_model(spec["library"], spec["factory"], features_only=True, out_indices=spec["features"],
                             **spec["args"]).to(device)
    fm.load_state_dict(_state_dict(values, fm.state_dict(), device), strict=True)
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


def _selected(spec: dict, device: str, ids, group) -> bool:
    """Whether a run with these ids / group runs ``spec``: the ids when given; on cpu every case of the
    group; on WebGPU the catalog names, not the variants, unless the case says otherwise (``webgpu``)."""
    if ids:
        return spec["id"] in ids
    if group is not None and browser_group(spec) != group:
        return False
    return device == "cpu" or runs_on_webgpu(spec)


def report(label: str, spec: dict, bad: list[str], m: dict, device: str, record: bool = False) -> bool:
    """Print a case's failures and its line (error, times, and on WebGPU the pipelines it created and,
    where counted, the kernels its forward used); True when it passed. ``record``: also one line
    ``catalog record {json}`` with the same figures, which record_parity.py collects."""
    for b in bad:
        print("FAIL", b)
    if record:
        print("catalog record " + json.dumps({"id": spec["id"], "device": device, "passed": not bad,
                                              "failures": len(bad), **m}))
    if m:
        pipes = "" if m["pipelines"] is None else f", {m['pipelines']} pipelines created"
        if m.get("kernels") is not None:
            pipes += f", {m['kernels']} used by the forward"
        diff = f", largest |difference| {m['max_abs']:.1e}" if "max_abs" in m else ""
        print(f"{label} {spec['id']}: logits relative error {m['err']:.2e} (tolerance {m['tol']:.1e}{diff}), "
              f"build+load {m['build_s']:.2f} s, forward {m['forward_s']:.2f} s{pipes} [device {device}]")
    return not bad


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default=None)
    ap.add_argument("--no-transforms", action="store_true")
    ap.add_argument("--group", default=None, help="only the cases of this browser group (base, convnets, vit; "
                    "cases without one are 'base', which also runs the transforms)")
    ap.add_argument("--record", action="store_true", help="also print a 'catalog record {json}' line per case")
    ap.add_argument("ids", nargs="*")
    ns = ap.parse_args(argv)
    device = ns.device or bw.get_default_device().type
    golden = load()
    passed = failed = 0
    for spec, want in zip(CASES, golden["cases"]):
        assert spec["id"] == want["id"], "catalog.json is stale: rerun generate_catalog.py"
        if not _selected(spec, device, ns.ids, ns.group):
            continue
        ok = report("catalog case", spec, *check_model(spec, want, device), device, ns.record)
        failed, passed = failed + (not ok), passed + ok
    if not ns.no_transforms and not ns.ids and ns.group in (None, "base"):
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
