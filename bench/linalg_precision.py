"""float32 precision of torch.linalg on WebGPU, against the cpu device (float64 numpy, rounded):
``python -m borch_webgpu.run bench/linalg_precision.py``. Inputs as the goldens': well-conditioned
(general: random + 2 sqrt(n) I with shuffled rows; SPD: M M^T / n + I; symmetric and SVD inputs with
values spread over [-2, 3] and [0.5, 3]). Prints, per op and size, the largest error over a batch
of 4 divided by the largest reference entry, and the time per batched call."""
from __future__ import annotations

import time

import numpy as np

import borch_webgpu as torch

rng = np.random.default_rng(0)


def orth(b, n):
    q, r = np.linalg.qr(rng.normal(size=(b, n, n)))
    return q * np.sign(np.diagonal(r, axis1=-2, axis2=-1))[:, None, :]


def inputs(n, b=4):
    g = rng.uniform(-1, 1, (b, n, n)) + 2 * np.sqrt(n) * np.eye(n)
    g = g[:, rng.permutation(n)]
    m = rng.uniform(-1, 1, (b, n, n))
    spd = m @ m.transpose(0, 2, 1) / n + np.eye(n)
    q = orth(b, n)
    sym = (q * np.linspace(-2, 3, n)[None, None]) @ q.transpose(0, 2, 1)
    u, v = orth(b, n), orth(b, n)
    sv = (u * np.linspace(3, 0.5, n)[None, None]) @ v.transpose(0, 2, 1)
    return {k: v.astype(np.float32) for k, v in dict(g=g, spd=spd, sym=(sym + sym.transpose(0, 2, 1)) / 2,
                                                      sv=sv).items()}


def signfix(V, rows=True):
    s = np.sign(V[..., :1, :]) if rows else np.sign(V[..., :, :1])
    return V * s


OPS = {
    "inv": ("g", lambda t: torch.linalg.inv(t), None),
    "det": ("g", lambda t: torch.linalg.det(t / t.shape[-1] ** 0.5), None),
    "slogdet": ("g", lambda t: torch.linalg.slogdet(t).logabsdet, None),
    "solve": ("g", lambda t: torch.linalg.solve(t, t[..., :3].mT.contiguous().mT), None),
    "cholesky": ("spd", lambda t: torch.linalg.cholesky(t), None),
    "qr": ("g", lambda t: torch.linalg.qr(t).R, None),
    "eigh values": ("sym", lambda t: torch.linalg.eigvalsh(t), None),
    "eigh vectors": ("sym", lambda t: torch.linalg.eigh(t).eigenvectors, lambda a: signfix(a)),
    "svd values": ("sv", lambda t: torch.linalg.svdvals(t), None),
    "svd U": ("sv", lambda t: torch.linalg.svd(t).U, lambda a: signfix(a)),
}


def main():
    info = torch.webgpu.adapter_info()
    print(f"adapter {info['vendor']} / {info['architecture'] or info['device']}")
    print(f"{'op':<14}" + "".join(f"{'n=' + str(n):>22}" for n in (4, 16, 40, 64)))
    data = {n: inputs(n) for n in (4, 16, 40, 64)}
    for name, (kind, fn, post) in OPS.items():
        row = f"{name:<14}"
        for n, d in data.items():
            a = d[kind]
            ref = fn(torch.tensor(a, device="cpu")).numpy().astype(np.float64)
            t0 = time.perf_counter()
            got = fn(torch.tensor(a, device="webgpu")).numpy().astype(np.float64)
            dt = time.perf_counter() - t0
            if post is not None:
                ref, got = post(ref), post(got)
            err = np.abs(got - ref).max() / max(np.abs(ref).max(), 1e-30)
            row += f"{err:>12.1e} {dt * 1e3:>7.0f} ms"
        print(row)


main()
