"""Record the catalog's parity results for the models page: ``python tests/golden/record_parity.py
[--device cpu|webgpu] [--group base|convnets|vit|small] [case id ...]`` replays the catalog's goldens
(replay_catalog.py, replay_small_models.py with ``--record``) on ``cpu`` here and on ``webgpu`` in headless
Chromium (the runner's BrowserSession), and merges what they printed into tests/golden/catalog_parity.json:
per device and case id, whether it passed, the logits' relative error and largest absolute difference, the
tolerance, build and forward times, the pipelines the case created and the kernels its forward used, the
adapter and the date, and a digest of the golden it was checked against (tests/unit/test_models_parity.py
fails when a golden changed after its record, or a listed name has no passing record). Nothing here is
typed by hand: the figures are the replays' own output lines.

Without arguments: every case on cpu, then the four browser groups on webgpu (the cases each group's
browser test runs: runs_on_webgpu). Case ids replay just those (on webgpu too when the group skips them,
e.g. ``--device webgpu timm/efficientnet_b3``).
"""
from __future__ import annotations

import argparse
import contextlib
import datetime
import hashlib
import io
import json
import os
import platform
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
OUT = HERE / "catalog_parity.json"
# what the browser needs of tests/golden for the two replays
FILES = ("replay_catalog.py", "replay_small_models.py", "catalog_cases.py", "small_models_cases.py", "catalog.json",
         "small_models.json", "golden_io.py", "resnet_weights.py")
GROUPS = ("base", "convnets", "vit", "small")
TAG = "catalog record "


def golden_digests() -> dict[str, str]:
    """Per case id, a digest of its spec (catalog_cases.py / small_models_cases.py) and its golden entry."""
    from catalog_cases import CASES
    from small_models_cases import CASES as SMALL
    out = {}
    for cases, file in ((CASES, "catalog.json"), (SMALL, "small_models.json")):
        gold = {c["id"]: c for c in json.loads((HERE / file).read_text())["cases"]}
        for spec in cases:
            blob = json.dumps([spec, gold[spec["id"]]], sort_keys=True, separators=(",", ":"))
            out[spec["id"]] = hashlib.sha256(blob.encode()).hexdigest()[:16]
    return out


def parse(out: str) -> list[dict]:
    return [json.loads(line[len(TAG):]) for line in out.splitlines() if line.startswith(TAG)]


def _argv(group: str, ids: list[str], device: str) -> tuple[str, list[str]]:
    if group == "small":
        return "replay_small_models.py", ["--device", device, "--record"]
    sel = list(ids) if ids else ([] if device == "cpu" and group == "all" else ["--group", group])
    return "replay_catalog.py", ["--device", device, "--record", "--no-transforms", *sel]


def run_cpu(groups: list[str], ids: list[str]) -> tuple[list[dict], str]:
    import replay_catalog
    import replay_small_models
    buf = io.StringIO()
    scripts = {"replay_catalog.py": replay_catalog.main, "replay_small_models.py": replay_small_models.main}
    for g in groups:
        script, argv = _argv(g, ids, "cpu")
        with contextlib.redirect_stdout(buf):
            scripts[script](argv)
    import numpy
    return parse(buf.getvalue()), f"CPython {platform.python_version()}, numpy {numpy.__version__}"


def run_webgpu(groups: list[str], ids: list[str]) -> tuple[list[dict], str]:
    from borch_webgpu.run import BrowserSession, describe, mount_list
    out: list[str] = []
    sess = BrowserSession(on_stdout=out.append, on_stderr=lambda s: (sys.stderr.write(s), sys.stderr.flush()))
    try:
        where = f"Chromium {sess.browser.version} (headless), adapter {describe(sess.boot['gpu'])}"
        cwd = os.getcwd()
        os.chdir(ROOT)
        try:
            sess.mount(mount_list([f"tests/golden/{f}" for f in FILES]))
            for g in groups:
                script, argv = _argv(g, ids, "webgpu")
                print(f"webgpu: {script} {' '.join(argv)}", file=sys.stderr)
                sess.run((HERE / script).read_text(), f"/home/pyodide/tests/golden/{script}", argv, 1800)
        finally:
            os.chdir(cwd)
    finally:
        sess.close()
    return parse("".join(out)), where


def merge(records: list[dict], where: str, doc: dict) -> dict:
    digests = golden_digests()
    today = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    for r in records:
        dev = doc.setdefault("records", {}).setdefault(r.pop("device"), {})
        dev[r["id"]] = {**r, "golden": digests[r["id"]], "where": where, "date": today}
    for dev in doc.get("records", {}).values():   # cases that no longer exist
        for k in [k for k in dev if k not in digests]:
            del dev[k]
    return doc


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", choices=("cpu", "webgpu"), default=None, help="only this device (default: both)")
    ap.add_argument("--group", choices=GROUPS, action="append", default=None, help="only these browser groups")
    ap.add_argument("ids", nargs="*")
    ns = ap.parse_args(argv)
    doc = json.loads(OUT.read_text()) if OUT.exists() else {}
    doc["about"] = ("The catalog's parity results per device and case, as the replays printed them "
                    "(tests/golden/record_parity.py); the models page shows them.")
    failed = 0
    for device in (ns.device,) if ns.device else ("cpu", "webgpu"):
        groups = ns.group or (["all", "small"] if device == "cpu" else list(GROUPS))
        if ns.ids:
            groups = ["ids"]
        records, where = (run_cpu if device == "cpu" else run_webgpu)(groups, ns.ids)
        for r in records:
            print(f"{device} {r['id']}: {'passed' if r['passed'] else 'FAILED'}"
                  + (f", relative error {r['err']:.2e}" if "err" in r else ""))
        failed += sum(not r["passed"] for r in records)
        merge(records, where, doc)
    OUT.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    print(f"{OUT.relative_to(ROOT)}: {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
