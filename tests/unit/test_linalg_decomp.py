"""torch.linalg's decompositions on cpu: what the golden cases cannot show (classes, result types, the
gradients PyTorch refuses). Values, gradients and PyTorch's messages are checked by the goldens
(tests/golden/cases_linalg_decomp.py and cases_linalg_more.py, replayed on cpu by test_golden_cpu.py and on
WebGPU in the browser)."""
from __future__ import annotations

import pytest

import borch_webgpu as torch


def test_linalg_error_is_a_runtime_error_named_as_pytorchs():
    assert issubclass(torch.linalg.LinAlgError, RuntimeError)
    assert torch.linalg.LinAlgError.__name__ == "_LinAlgError"   # torch._C._LinAlgError
    with pytest.raises(torch.linalg.LinAlgError, match="The diagonal element 1 is zero"):
        torch.linalg.inv(torch.zeros(2, 2))
    with pytest.raises(RuntimeError, match="not positive-definite"):
        torch.linalg.cholesky(-torch.eye(2))


def test_results_are_pytorchs_named_tuples():
    A = torch.tensor([[2., 1.], [1., 3.]])
    cases = [(torch.linalg.qr(A), "linalg_qr", ("Q", "R")),
             (torch.linalg.eigh(A), "linalg_eigh", ("eigenvalues", "eigenvectors")),
             (torch.linalg.svd(A), "linalg_svd", ("U", "S", "Vh")),
             (torch.linalg.slogdet(A), "linalg_slogdet", ("sign", "logabsdet")),
             (torch.slogdet(A), "slogdet", ("sign", "logabsdet")),
             (torch.linalg.inv_ex(A), "linalg_inv_ex", ("inverse", "info")),
             (torch.linalg.cholesky_ex(A), "linalg_cholesky_ex", ("L", "info")),
             (torch.linalg.solve_ex(A, torch.ones(2)), "linalg_solve_ex", ("result", "info")),
             (torch.linalg.lstsq(A, torch.ones(2, 1)), "linalg_lstsq", ("solution", "residuals", "rank",
                                                                       "singular_values"))]
    for r, name, fields in cases:
        assert type(r).__name__ == name and len(r) == len(fields)
        assert repr(r).startswith(f"torch.return_types.{name}(\n{fields[0]}=tensor(")
        for i, f in enumerate(fields):
            assert getattr(r, f) is r[i]


def test_the_gradients_pytorch_refuses_are_refused():
    A = torch.tensor([[1., 2.], [3., 4.], [5., 7.]], requires_grad=True)
    U, S, Vh = torch.linalg.svd(A)               # full_matrices=True, not square
    with pytest.raises(RuntimeError, match="full_matrices"):
        U.sum().backward()
    R = torch.linalg.qr(A, mode="r").R
    with pytest.raises(RuntimeError, match="mode='r'"):
        R.sum().backward()
    Q, R = torch.linalg.qr(A, mode="complete")
    with pytest.raises(RuntimeError, match="mode='complete' and nrows > ncols"):
        Q.sum().backward()

