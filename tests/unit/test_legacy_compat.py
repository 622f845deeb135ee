"""``torch.autograd.Variable`` and ``torch.cuda.*Tensor`` as the upstream examples use them (dcgan's
``isinstance(input.data, torch.cuda.FloatTensor)``, the NLP tutorials' ``autograd.Variable(...)``): every case of
tests/golden/legacy_compat.json (PyTorch 2.13, CPU build) on the cpu device, without WebGPU. The same cases, and
the ``torch.cuda.*Tensor`` constructors on the GPU, run on WebGPU in Chromium:
tests/browser/test_legacy_compat_webgpu.py."""
from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import legacy_compat_cases  # noqa: E402
import replay_legacy_compat  # noqa: E402

import borch_webgpu as torch  # noqa: E402

CASES = json.loads((GOLDEN / "legacy_compat.json").read_text())["cases"]


def test_every_case_is_frozen():
    assert [c["id"] for c in CASES] == [c[0] for c in legacy_compat_cases.CASES]
    assert [c["expr"] for c in CASES] == [c[1] for c in legacy_compat_cases.CASES]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case_matches_pytorch_on_cpu(case):
    assert not torch.webgpu.is_available()
    want = {k: v for k, v in case.items() if k not in ("id", "expr", "no_gpu")}
    assert legacy_compat_cases.run(torch, case["expr"], "cpu") == want


def test_replay_reports_every_case(capsys):
    assert replay_legacy_compat.main(["--device", "cpu"]) == 0
    assert f"legacy_compat: cpu: {len(CASES)} passed, 0 failed" in capsys.readouterr().out


def test_variable_shares_data_but_not_history():
    a = torch.ones(3, requires_grad=True)
    b = a * 2
    v = torch.autograd.Variable(b, requires_grad=True)
    (v * v).sum().backward()
    assert v.grad.tolist() == [4.0, 4.0, 4.0] and a.grad is None     # the graph stops at v
    with torch.no_grad():
        v.add_(1)
    assert b.tolist() == [3.0, 3.0, 3.0]                              # one storage


def test_volatile_warns_once_per_call():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.autograd.Variable(torch.ones(1), volatile=True)
    assert [str(w.message) for w in caught] == ["volatile was removed and now has no effect. "
                                                 "Use `with torch.no_grad():` instead."]


def test_cuda_types_are_classes_with_pytorchs_names():
    assert torch.cuda.FloatTensor.__name__ == "FloatTensor" and torch.cuda.LongTensor.dtype is torch.int64
    assert not isinstance(torch.ones(1), torch.cuda.FloatTensor) and isinstance(torch.ones(1), torch.FloatTensor)
