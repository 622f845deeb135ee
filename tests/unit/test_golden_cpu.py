"""The frozen PyTorch goldens replayed on the numpy cpu device, and print(tensor) against torch's repr."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import casefile  # noqa: E402
import replay  # noqa: E402

import borch_webgpu as bw  # noqa: E402


def _cases():
    for f in casefile.files():
        doc = casefile.read(f)
        for c in doc["cases"]:
            yield pytest.param(doc["op"], c, id=f"{doc['op']}-{c['id']}")


@pytest.mark.parametrize("op,case", list(_cases()))
def test_golden_cpu(op, case):
    err = replay.run_case(op, case, bw.device("cpu"))
    assert err is None, err


REPRS = json.loads((GOLDEN / "reprs.json").read_text())["reprs"]


@pytest.mark.parametrize("expr,want", REPRS, ids=[e for e, _ in REPRS])
def test_repr_matches_pytorch(expr, want):
    got = repr(eval(expr, {"torch": bw}))  # noqa: S307 - our own list of expressions
    assert got == want


def test_bad_input_raises_pytorchs_exception_types_cpu():
    import replay_errors
    assert replay_errors.main(["--device", "cpu"]) == 0


def test_writes_into_expanded_tensors_as_pytorch_cpu():
    import replay_overlap
    assert replay_overlap.main(["--device", "cpu"]) == 0


def test_autograd_scenarios_match_pytorch_cpu():
    import replay_autograd
    assert replay_autograd.main(["--device", "cpu"]) == 0


def test_training_trajectory_follows_pytorch_cpu():
    import replay_training
    assert replay_training.main(["--device", "cpu"]) == 0
