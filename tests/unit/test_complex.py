"""complex64 / complex128, torch.fft and the complex linear algebra on the cpu device, against PyTorch's
answers frozen in tests/golden/complex.json (tests/golden/generate_complex.py): creation, views,
promotion, arithmetic, printing, fft/ifft/rfft/... with n/dim/norm, eig/eigvals, gradients of real
losses through complex ops and PyTorch's errors. The same file is replayed on WebGPU in Chromium by
tests/browser/test_complex_webgpu.py."""
from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import borch_webgpu as torch

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import replay_complex  # noqa: E402

CASES = replay_complex.load()


def test_every_case_is_frozen():
    import complex_cases
    assert [tuple(c[:2]) for c in complex_cases.CASES] == [(c["id"], c["expr"]) for c in CASES], \
        "complex_cases.py changed: run tests/golden/generate_complex.py with torch 2.13.0"


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_matches_pytorch_cpu(case):
    err = replay_complex.check(case, "cpu")
    assert err is None, err


def test_placement_on_cpu():
    assert replay_complex.placement_failures("cpu") == []


def test_the_comparison_catches_a_lost_imaginary_part():
    import complex_cases
    want = {"tensor": {"dtype": "torch.complex64", "shape": [1], "values": [[1.0, 2.0]]}}
    got = {"tensor": {"dtype": "torch.complex64", "shape": [1], "values": [[1.0, 0.0]]}}
    assert complex_cases.close(got, want) is not None
    assert complex_cases.close(want, want) is None


def test_complex128_is_computed_in_double():
    # a complex64 step anywhere would show at ~1e-8 relative
    z = torch.tensor([1 / 3 + 1j / 7], dtype=torch.complex128)
    w = (z * z).exp().sqrt()
    ref = np.sqrt(np.exp(np.complex128(1 / 3 + 1j / 7) ** 2))
    assert w.dtype is torch.complex128 and abs(w.item() - ref) < 1e-15
    f = torch.fft.fft(torch.tensor([0.1, 0.2, 0.3], dtype=torch.float64))
    assert f.dtype is torch.complex128 and abs(f[0].item() - 0.6) < 1e-15


def test_double_backward_through_complex_is_refused():
    z = torch.tensor([1 + 1j], requires_grad=True)
    (g,) = torch.autograd.grad((z * z).abs().sum(), z)
    assert abs(g.item() - 2 * (1 + 1j) / abs(1 + 1j) * abs(1 + 1j)) < 1e-6
    with pytest.raises(RuntimeError, match="create_graph=True through complex ops"):
        torch.autograd.grad((z * z).abs().sum(), z, create_graph=True)


def test_eig_is_not_differentiable_here():
    A = torch.tensor([[2.0, 1.0], [0.5, 3.0]], requires_grad=True)
    with pytest.raises(NotImplementedError, match="linalg.eig"):
        torch.linalg.eig(A)
    w, V = torch.linalg.eig(A.detach())
    assert w.dtype is torch.complex64 and V.dtype is torch.complex64


def test_save_and_load_keep_complex(tmp_path):
    z = torch.tensor([1 + 2j, -0.5j])
    path = tmp_path / "z.pt"
    torch.save({"z": z}, str(path))
    back = torch.load(str(path))["z"]
    assert back.dtype is torch.complex64 and back.tolist() == z.tolist()


def test_cast_warning_is_a_user_warning():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = torch.tensor([1 + 2j]).float()
    assert r.tolist() == [1.0] and [x.category for x in w] == [UserWarning]
