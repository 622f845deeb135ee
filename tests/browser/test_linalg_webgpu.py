"""torch.linalg's decompositions on WebGPU in Chromium: their golden cases (values, gradients, PyTorch's
LinAlgError and other exceptions; tests/golden/cases_linalg_decomp.py, cases_linalg_more.py) replayed in
the page, where they run wgsl/linalg.wgsl's kernels (LU, Cholesky, Householder QR, cyclic and one-sided Jacobi)."""
from __future__ import annotations

OPS = ["linalg.inv", "linalg.inv_ex", "linalg.det", "linalg.slogdet", "linalg.solve", "linalg.cholesky",
       "linalg.cholesky_ex", "cholesky_solve", "linalg.matrix_power", "linalg.qr", "linalg.eigh", "linalg.eigvalsh",
       "linalg.svd", "linalg.svdvals", "linalg.pinv", "linalg.matrix_rank", "linalg.lstsq", "linalg.matmul",
       "linalg.diagonal", "linalg.vecdot", "linalg.multi_dot", "linalg.solve_ex", "linalg.solve_triangular",
       "linalg.cond", "linalg.tensorinv", "linalg.tensorsolve", "linalg.vander", "linalg.matrix_exp",
       "linalg.lu_factor", "linalg.lu_factor_ex", "linalg.lu", "linalg.lu_solve", "geqrf",
       "linalg.householder_product"]


def test_linalg_goldens_on_webgpu(replay_on_webgpu):
    replay_on_webgpu("replay.py", "golden:", OPS)
