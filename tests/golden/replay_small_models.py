"""Check the catalog's small digit classifiers against PyTorch (small_models.json, from
generate_small_models.py): ``python replay_small_models.py [--device cpu|webgpu]``; in the browser with
``--mount tests/golden``. Per case: the state-dict layout, the formula weights loaded with
``strict=True``, the logits, forward_features, forward_head(pre_logits=True) and the features_only maps
of every stage. Prints one line per case and ``small models: N passed, N failed``."""
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

from catalog_cases import check_summary, relative_error, state_dict_values  # noqa: E402
from golden_io import decode  # noqa: E402
from replay_catalog import DTYPE, FLOOR_FACTOR, MIN_TOL, _KernelsUsed, _pipelines, _state_dict, report  # noqa: E402
from small_models_cases import CASES, case_input  # noqa: E402


def load() -> dict:
    return json.loads((HERE / "small_models.json").read_text())


def check_model(spec: dict, want: dict, device: str) -> tuple[list[str], dict]:
    where = spec["id"]
    p0 = _pipelines(device)
    t0 = time.perf_counter()
    model = models.create_model(spec["library"], spec["factory"], **spec["args"]).to(device)
    layout = [[k, list(v.shape), v.dtype] for k, v in model.state_dict().items()]
    if layout != [[k, shape, DTYPE[dt]] for k, shape, dt in want["state_dict"]]:
        return [f"{where}: state-dict layout {layout} differs from PyTorch's {want['state_dict']}"], {}
    values = state_dict_values(want["state_dict"], spec["seed"])
    model.load_state_dict(_state_dict(values, model.state_dict(), device), strict=True)
    model.eval()
    built = time.perf_counter() - t0
    x = bw.from_numpy(case_input(spec)).to(device)
    t1 = time.perf_counter()
    with bw.no_grad(), _KernelsUsed(device) as used:
        feats = model.forward_features(x)
        logits = model.forward_head(feats).cpu().numpy()
        pre = model.forward_head(feats, pre_logits=True)
        whole = model(x).cpu().numpy()
    ran = time.perf_counter() - t1
    bad = []
    tol = max(MIN_TOL[device], FLOOR_FACTOR * want["float64_floor"])
    want_logits = decode(want["logits"])
    err = relative_error(logits, want_logits)
    max_abs = float(np.abs(logits - want_logits).max()) if logits.shape == want_logits.shape else float("inf")
    if not err <= tol:
        bad.append(f"{where}: logits relative error {err:.2e} > {tol:.1e}")
    if not relative_error(whole, logits) <= tol:
        bad.append(f"{where}: forward(x) is not forward_head(forward_features(x))")
    for what, got, key in (("forward_features", feats, "forward_features"),
                           ("forward_head(pre_logits=True)", pre, "pre_logits")):
        why = check_summary(got.cpu().numpy(), want[key], 10 * tol)
        if why:
            bad.append(f"{where}: {what}: {why}")
    fm = models.create_model(spec["library"], spec["factory"], features_only=True, **spec["args"]).to(device)
    fm.load_state_dict(_state_dict(values, fm.state_dict(), device), strict=True)
    fm.eval()
    with bw.no_grad():
        maps = fm(x)
    if len(maps) != len(want["stages"]):
        bad.append(f"{where} features_only: {len(maps)} maps, expected {len(want['stages'])}")
    for i, (got, w) in enumerate(zip(maps, want["stages"])):
        why = check_summary(got.cpu().numpy(), w, 1e-4)
        if why:
            bad.append(f"{where} features_only map {i}: {why}")
        if got.shape[1] != fm.feature_info.channels()[i]:
            bad.append(f"{where} features_only map {i}: {got.shape[1]} channels, feature_info says "
                       f"{fm.feature_info.channels()[i]}")
    pipes = None if p0 is None else _pipelines(device) - p0
    return bad, {"err": err, "max_abs": max_abs, "tol": tol, "build_s": built, "forward_s": ran, "pipelines": pipes,
                 "kernels": None if used.keys is None else len(used.keys)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default=None)
    ap.add_argument("--record", action="store_true", help="also print a 'catalog record {json}' line per case")
    ns = ap.parse_args(argv)
    device = ns.device or bw.get_default_device().type
    golden = load()
    passed = failed = 0
    for spec, want in zip(CASES, golden["cases"]):
        assert spec["id"] == want["id"], "small_models.json is stale: rerun generate_small_models.py"
        ok = report("small models case", spec, *check_model(spec, want, device), device, ns.record)
        failed, passed = failed + (not ok), passed + ok
    print(f"small models: {passed} passed, {failed} failed [device {device}]")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
