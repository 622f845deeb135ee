"""uint8, int8 and int16 on the cpu device, against PyTorch's answers frozen in tests/golden/smallint.json
(tests/golden/generate_smallint.py): creation, casts with PyTorch's wrap-around, arithmetic, promotion,
comparisons, reductions, printing, numpy interop, byte masks and save/load, compared exactly. The same
file is replayed on WebGPU in Chromium by tests/browser/test_smallint_webgpu.py."""
from __future__ import annotations

import importlib
import sys
from pathlib import Path

import numpy as np
import pytest

import borch_webgpu as torch

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import replay_dtype64  # noqa: E402
import replay_smallint  # noqa: E402
import smallint_cases  # noqa: E402

CASES = replay_dtype64.load("smallint.json")


def test_every_case_is_frozen():
    assert [tuple(c[:2]) for c in smallint_cases.CASES] == [(c["id"], c["expr"]) for c in CASES], \
        "smallint_cases.py changed: run python tests/golden/generate_smallint.py (needs torch==2.13.0)"


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_matches_pytorch_cpu(case):
    err = replay_dtype64.check(case, "cpu", smallint_cases.helpers)
    assert err is None, err


def test_placement_on_cpu():
    assert replay_smallint.placement_failures("cpu") == []


def test_the_comparison_catches_a_wrong_dtype_or_value():
    want = {"tensor": {"dtype": "torch.uint8", "shape": [1], "values": [44]}}
    assert replay_dtype64.close({"tensor": {**want["tensor"], "dtype": "torch.int64"}}, want) is not None
    assert replay_dtype64.close({"tensor": {**want["tensor"], "values": [300]}}, want) is not None
    assert replay_dtype64.close(want, want) is None


def test_safetensors_files_hold_u8_i8_i16(tmp_path):
    st = importlib.import_module("safetensors.numpy")
    path = tmp_path / "m.safetensors"
    # the file format only (the values' arithmetic is in the goldens): the dtypes travel as U8, I8, I16
    u = torch.tensor([200, 7], dtype=torch.uint8)
    ours = {"u": u, "s": u.char(), "h": u.short() * 300}
    torch.serialization.save_file(ours, str(path))
    theirs = st.load(path.read_bytes())
    assert {k: (v.dtype, v.tolist()) for k, v in theirs.items()} == {k: (v.numpy().dtype, v.tolist())
                                                                      for k, v in ours.items()}
    assert [theirs[k].dtype for k in "ush"] == [np.uint8, np.int8, np.int16]
    blob = st.save({"a": np.array([255, 1], np.uint8), "b": np.array([-3], np.int16)})
    back = torch.load(blob)
    assert (back["a"].dtype, back["a"].tolist(), back["b"].dtype) == (torch.uint8, [255, 1], torch.int16)
