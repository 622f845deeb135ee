"""Resampling matrices for ``transforms.Resize``: PyTorch's bilinear and bicubic interpolation, with and
without antialiasing (``F.interpolate(..., antialias=True)``, what torchvision's Resize uses on
tensors), as an (out, in) matrix per axis. Resizing is then ``Wh @ img @ Ww.T``, on the image's device.

Antialiased filters follow PyTorch's ``_compute_indices_min_size_weights_aa`` (PIL's): the filter's
support widens with the downscale factor and the taps are normalised to sum to 1; the bicubic filter
is Keys' with a = -0.5 there and a = -0.75 without antialiasing (PyTorch's two constants).
"""
from __future__ import annotations

import numpy as np

__all__ = ["MODES", "resize_matrix"]

MODES = ("bilinear", "bicubic")


def _cubic(x: np.ndarray, a: float) -> np.ndarray:
    x = np.abs(x)
    near = ((a + 2) * x - (a + 3)) * x * x + 1
    far = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return np.where(x < 1, near, np.where(x < 2, far, 0.0))


def _triangle(x: np.ndarray) -> np.ndarray:
    return np.maximum(1.0 - np.abs(x), 0.0)


def resize_matrix(n_in: int, n_out: int, mode: str, antialias: bool) -> np.ndarray:
    """The (n_out, n_in) float32 matrix that resamples one axis (align_corners=False). Positions and
    weights are computed in float32, as PyTorch computes them for float32 images: the scale's
    rounding moves the taps of a large image by up to ~1e-5 of a pixel, visible at 1e-5 tolerance."""
    f32 = np.float32
    scale = f32(n_in) / f32(n_out)
    w = np.zeros((n_out, n_in), f32)
    rows = np.arange(n_out)
    if antialias:
        interp = 2 if mode == "bilinear" else 4
        support = f32(interp / 2) * scale if scale >= 1.0 else f32(interp / 2)
        invscale = f32(1.0) / scale if scale >= 1.0 else f32(1.0)
        for i in rows:
            center = scale * f32(i + 0.5)
            lo = max(int(center - support + f32(0.5)), 0)
            hi = min(int(center + support + f32(0.5)), n_in)
            x = (np.arange(lo, hi).astype(f32) - center + f32(0.5)) * invscale
            taps = (_triangle(x) if mode == "bilinear" else _cubic(x, -0.5)).astype(f32)
            total = taps.sum(dtype=f32)
            w[i, lo:hi] = taps / total if total != 0 else taps
        return w
    rows = rows.astype(f32)
    if mode == "bilinear":
        src = np.maximum(scale * (rows + f32(0.5)) - f32(0.5), f32(0.0))
        i0 = np.minimum(np.floor(src).astype(np.int64), n_in - 1)
        i1 = np.minimum(i0 + 1, n_in - 1)
        lam = src - i0.astype(f32)
        r = np.arange(n_out)
        np.add.at(w, (r, i0), f32(1.0) - lam)
        np.add.at(w, (r, i1), lam)
        return w
    src = scale * (rows + f32(0.5)) - f32(0.5)
    i0 = np.minimum(np.floor(src).astype(np.int64), n_in - 1)
    t = np.clip(src - i0.astype(f32), 0.0, 1.0).astype(f32)
    coeffs = (_cubic(t + 1, -0.75), _cubic(t, -0.75), _cubic(1 - t, -0.75), _cubic(2 - t, -0.75))
    r = np.arange(n_out)
    for k, c in enumerate(coeffs):
        np.add.at(w, (r, np.clip(i0 - 1 + k, 0, n_in - 1)), c.astype(f32))
    return w
