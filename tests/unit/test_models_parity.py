"""The parity records the models page shows (tests/golden/catalog_parity.json, written by
tests/golden/record_parity.py from the replays' output): current for every catalog name and case, and
passing, on cpu and on WebGPU where the browser tests replay the case."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

from borch_webgpu import models  # noqa: E402

import record_parity  # noqa: E402
from catalog_cases import CASES, runs_on_webgpu  # noqa: E402
from small_models_cases import CASES as SMALL_CASES  # noqa: E402

RECORDS = json.loads((GOLDEN / "catalog_parity.json").read_text())["records"]
DIGESTS = record_parity.golden_digests()
# the cases each device's records must hold: every case on cpu; on WebGPU the ones the browser tests
# replay (test_models_webgpu.py's groups, and test_hub_browser.py's small models)
WANT = {"cpu": [c["id"] for c in [*CASES, *SMALL_CASES]],
        "webgpu": [c["id"] for c in CASES if runs_on_webgpu(c)] + [c["id"] for c in SMALL_CASES]}


@pytest.mark.parametrize("device", ["cpu", "webgpu"])
def test_every_case_has_a_current_passing_record(device):
    recs = RECORDS.get(device, {})
    missing = [i for i in WANT[device] if i not in recs]
    assert not missing, f"no {device} record: run tests/golden/record_parity.py --device {device} ({missing})"
    assert set(recs) <= set(DIGESTS), f"records of cases that no longer exist: {sorted(set(recs) - set(DIGESTS))}"
    # every record the page shows, also those of cases replayed by id only
    stale = [i for i in recs if recs[i]["golden"] != DIGESTS[i]]
    assert not stale, f"the golden changed after these {device} records: rerun record_parity.py ({stale})"
    failed = [i for i in recs if not recs[i]["passed"] or not recs[i]["err"] <= recs[i]["tol"]]
    assert not failed, failed


def test_every_listed_name_has_records_on_both_devices_or_says_why():
    for name in map(str, models.list_models()):
        case = next(c for c in [*CASES, *SMALL_CASES] if c["id"] == name)
        assert name in RECORDS["cpu"], name
        assert (name in RECORDS["webgpu"]) or case.get("webgpu") is False, name


def test_webgpu_records_count_pipelines_and_name_the_adapter():
    for i in WANT["webgpu"]:
        r = RECORDS["webgpu"][i]
        assert r["kernels"] is not None and 0 < r["kernels"] <= 100, (i, r["kernels"])
        assert r["where"].startswith(("Chromium", "Node")) and "adapter" in r["where"], r["where"]
    b7 = RECORDS["webgpu"]["timm/efficientnet_b7"]
    assert b7["passed"] and b7["kernels"] <= 100
