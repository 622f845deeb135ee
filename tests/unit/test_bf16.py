"""bfloat16 on the cpu device, against PyTorch's answers frozen in tests/golden/bf16.json
(tests/golden/generate_bf16.py): creation and casts (round to nearest even, NaN, overflow, double rounding
through float32), arithmetic bit for bit, promotion, printing, finfo, reductions and matmul to a
tolerance, autograd, layers, save/load and safetensors; and files PyTorch wrote with bfloat16 tensors
(tests/golden/bf16_files). The same json is replayed on WebGPU in Chromium by
tests/browser/test_bf16_webgpu.py."""
from __future__ import annotations

import io
import json
import struct
import sys
from pathlib import Path

import numpy as np
import pytest

import borch_webgpu as torch
from borch_webgpu.device.bf16 import from_bits, round_bf16, to_bits

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import bf16_cases  # noqa: E402
import replay_bf16  # noqa: E402

CASES = replay_bf16.load()
FILES = GOLDEN / "bf16_files"


def test_every_case_is_frozen():
    assert [tuple(c[:2]) for c in bf16_cases.CASES] == [(c["id"], c["expr"]) for c in CASES], \
        "bf16_cases.py changed: run python tests/golden/generate_bf16.py (needs torch==2.13.0)"


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_matches_pytorch_cpu(case):
    err = replay_bf16.check(case, "cpu")
    assert err is None, err


def test_placement_on_cpu():
    assert replay_bf16.placement_failures("cpu") == []


def test_the_comparison_catches_one_bfloat16_step():
    want = {"tensor": {"dtype": "torch.bfloat16", "shape": [1], "values": [1.0]}}
    step = {"tensor": {**want["tensor"], "values": [1.0078125]}}
    assert replay_bf16.close(step, want) is not None
    assert replay_bf16.close(step, want, 1e-2) is None
    assert replay_bf16.close({"tensor": {**want["tensor"], "dtype": "torch.float32"}}, want) is not None
    assert replay_bf16.close(want, want) is None


def test_rounding_every_float32_neighbourhood():
    # ties go to the even bfloat16, one float32 step past a tie goes up, NaN becomes 0x7FC0
    bits = np.array([0x3F808000, 0x3F818000, 0x3F808001, 0x3F817FFF, 0x7F7FFFFF, 0xFF800001, 0x00008000],
                    dtype=np.uint32)
    got = to_bits(round_bf16(bits.view(np.float32)))
    assert got.tolist() == [0x3F80, 0x3F82, 0x3F81, 0x3F81, 0x7F80, 0x7FC0, 0x0000]
    assert np.array_equal(to_bits(from_bits(np.arange(65536, dtype=np.uint16))), np.arange(65536, dtype=np.uint16))


def _file_values():
    return {k: torch.tensor(v).bfloat16().tolist() for k, v in bf16_cases.FILE_TENSORS.items()}


def test_loads_a_file_pytorch_saved():
    d = torch.load(str(FILES / "torch_save.pt"))
    assert {k: v.dtype for k, v in d.items()} == {"w": torch.bfloat16, "b": torch.bfloat16}
    assert {k: v.tolist() for k, v in d.items()} == _file_values()


def test_saves_the_bytes_pytorch_saves():
    import zipfile
    ours = io.BytesIO()
    torch.save({k: torch.tensor(v).bfloat16() for k, v in bf16_cases.FILE_TENSORS.items()}, ours)
    theirs = zipfile.ZipFile(FILES / "torch_save.pt")
    mine = zipfile.ZipFile(io.BytesIO(ours.getvalue()))

    def records(z):
        return sorted(z.read(n) for n in z.namelist() if "/data/" in n)
    assert records(mine) == records(theirs)
    assert b"BFloat16Storage" in mine.read([n for n in mine.namelist() if n.endswith("data.pkl")][0])


def test_safetensors_bf16_both_ways(tmp_path):
    d = torch.load(str(FILES / "torch.safetensors"))
    assert {k: (v.dtype, v.tolist()) for k, v in d.items()} == {k: (torch.bfloat16, v) for k, v in _file_values().items()}
    path = tmp_path / "m.safetensors"
    torch.serialization.save_file(d, str(path))
    data = path.read_bytes()
    n = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + n])
    theirs = (FILES / "torch.safetensors").read_bytes()
    m = struct.unpack("<Q", theirs[:8])[0]
    their_header = json.loads(theirs[8:8 + m])
    for k in d:
        assert header[k]["dtype"] == their_header[k]["dtype"] == "BF16"
        a, b = header[k]["data_offsets"]
        c, e = their_header[k]["data_offsets"]
        assert data[8 + n + a:8 + n + b] == theirs[8 + m + c:8 + m + e]
