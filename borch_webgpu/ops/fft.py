"""``torch.fft``'s transforms, computed by numpy's pocketfft on the host on both devices (complex tensors
are held there; a real result on ``webgpu``, as irfft's, goes back to the GPU). float32 (and integer)
input gives complex64, float64 gives complex128, as in PyTorch. Gradients are PyTorch's: the adjoint
of each transform (an inverse transform with the swapped norm, the zero padding or trimming of ``n``
undone, irfft's one-sided spectrum counted twice where it stands for two bins)."""
from __future__ import annotations

import numpy as np

from .. import _dtype
from ..tensor import Tensor
from . import _complex_core as cc

__all__ = ["c2c", "r2c", "c2r", "hermitian", "shift", "freq"]

# No OpDefs: numpy on the host (no kernel); tests/golden/complex_cases.py holds the goldens.

_SWAP = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def _norm(op: str, norm) -> str:
    if norm is None:
        return "backward"
    if norm not in _SWAP:
        raise RuntimeError(f'Invalid normalization mode: "{norm}"')
    return norm


def _input(op: str, x) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"fft_{op}(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")
    return x


def _cdtype(x: Tensor):
    """The complex dtype of the result: complex128 for float64 / complex128 input, else complex64."""
    if x.dtype.is_complex:
        return x.dtype
    if x.dtype.name == "float64":
        return _dtype.complex128
    if x.dtype.is_floating_point:
        return _dtype.complex64
    return _dtype.get_default_dtype().to_complex()


def _dim(d: int, nd: int) -> int:
    n = max(nd, 1)
    if not -n <= d < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")
    return d % n


def _axes(op: str, x: Tensor, s, dim, default_all: bool):
    """(axes, sizes) as PyTorch resolves s and dim (dim None: the last len(s) dims, or all / the default)."""
    nd = x.dim()
    if dim is None:
        if s is None:
            dims = list(range(nd)) if default_all else [nd - 2, nd - 1]
        else:
            dims = list(range(nd - len(s), nd))
    elif isinstance(dim, int):
        dims = [dim]
    else:
        dims = list(dim)
    dims = [_dim(d, nd) for d in dims]
    if len(set(dims)) != len(dims):
        raise RuntimeError("FFT dims must be unique")
    if s is not None:
        s = [s] if isinstance(s, int) else list(s)
        if len(s) != len(dims):
            raise RuntimeError("When given, dim and shape arguments must have the same length")
        sizes = [x._shape[d] if n == -1 else n for d, n in zip(dims, s)]
    else:
        sizes = [x._shape[d] for d in dims]
    for n in sizes:
        if n < 1:
            raise RuntimeError(f"Invalid number of data points ({n}) specified")
    return dims, sizes


def _resize(a: np.ndarray, axes, sizes) -> np.ndarray:
    """Zero-pad or trim a along axes to sizes (what n / s do to the input)."""
    for ax, n in zip(axes, sizes):
        m = a.shape[ax]
        if m > n:
            a = np.take(a, np.arange(n), axis=ax)
        elif m < n:
            pad = [(0, 0)] * a.ndim
            pad[ax] = (0, n - m)
            a = np.pad(a, pad)
    return a


def _finish(name: str, x: Tensor, arr: np.ndarray, d, back) -> Tensor:
    out = cc.make(arr, d, x.device)
    cc.record(name, [x], [out], back)
    return out


def c2c(op: str, x, s, dim, norm, inverse: bool, default_all: bool = True) -> Tensor:
    """fft / ifft / fft2 / ifft2 / fftn / ifftn: complex to complex over dims, sizes s."""
    x = _input(op, x)
    norm = _norm(op, norm)
    axes, sizes = _axes(op, x, s, dim, default_all)
    d = _cdtype(x)
    v = cc.values(x)
    fwd, adj = (np.fft.ifftn, np.fft.fftn) if inverse else (np.fft.fftn, np.fft.ifftn)
    if not axes:
        res = v.astype(d.np)
    elif x.dtype.is_complex or op not in ("fft", "ifft"):
        res = fwd(_resize(v, axes, sizes), axes=axes, norm=norm)
    else:
        res = _real_full(_resize(v.astype(d.to_real().np), axes, sizes), axes, sizes[-1], norm, inverse)
    shape = x._shape

    def back(g):
        gi = adj(g, axes=axes, norm=_SWAP[norm]) if axes else g
        return (_resize(gi, axes, [shape[a] for a in axes]),)
    return _finish("FftC2CBackward0", x, res, d, back)


def _real_full(v: np.ndarray, axes, n: int, norm: str, inverse: bool) -> np.ndarray:
    """fft / ifft of real input as PyTorch computes it: the one-sided transform (conjugated for the
    inverse), the other half filled by Hermitian symmetry (so the signs of zero imaginary parts are
    PyTorch's)."""
    X = np.fft.rfftn(v, axes=axes, norm=_SWAP[norm] if inverse else norm)
    if inverse:
        X = np.conj(X)
    half, last = X.shape[axes[-1]], axes[-1] % X.ndim
    rev = X
    for a in axes[:-1]:
        rev = np.roll(np.flip(rev, a), 1, a)
    rest = np.conj(np.take(rev, n - np.arange(half, n), axis=last))
    return np.concatenate([X, rest], axis=last)


def _real_input(op: str, x: Tensor) -> None:
    if x.dtype.is_complex and op in ("ihfft2", "ihfftn"):
        raise RuntimeError(f"Only supports floating-point dtypes, but found: {cc.scalar_name(x.dtype)}")
    if x.dtype.is_complex:
        raise RuntimeError(f"{op} expects a real input tensor, but got {cc.scalar_name(x.dtype)}")


def r2c(op: str, x, s, dim, norm, default_all: bool = True) -> Tensor:
    """rfft / rfft2 / rfftn: real to the one-sided complex spectrum (the last dim halved)."""
    x = _input(op, x)
    _real_input(op, x)
    norm = _norm(op, norm)
    axes, sizes = _axes(op, x, s, dim, default_all)
    d = _cdtype(x)
    v = cc.values(x).astype(d.to_real().np)
    res = np.fft.rfftn(_resize(v, axes, sizes), axes=axes, norm=norm)
    shape = x._shape

    def back(g):
        gp = _resize(g, [axes[-1]], [sizes[-1]])   # the dropped half had no gradient
        gi = np.fft.ifftn(gp, axes=axes, norm=_SWAP[norm])
        return (_resize(gi, axes, [shape[a] for a in axes]),)
    return _finish("FftR2CBackward0", x, res, d, back)


def c2r(op: str, x, s, dim, norm, default_all: bool = True) -> Tensor:
    """irfft / irfft2 / irfftn: a one-sided spectrum to real values (the last output size 2 * (m - 1)
    unless given)."""
    x = _input(op, x)
    norm = _norm(op, norm)
    axes, sizes = _axes(op, x, s, dim, default_all)
    if s is None or list(s)[-1] == -1:
        sizes[-1] = 2 * (x._shape[axes[-1]] - 1)
    if sizes[-1] < 1:
        raise RuntimeError(f"Invalid number of data points ({sizes[-1]}) specified")
    d = _cdtype(x)
    v = cc.values(x).astype(d.np)
    n = sizes[-1]
    half = n // 2 + 1
    res = np.fft.irfftn(_resize(v, axes, sizes[:-1] + [half]), s=sizes, axes=axes, norm=norm)
    shape = x._shape

    def back(g):
        G = np.fft.rfftn(g, axes=axes, norm=_SWAP[norm])
        k = np.arange(half)
        twice = ((k > 0) & (2 * k != n)).reshape([-1 if a == axes[-1] % G.ndim else 1 for a in range(G.ndim)])
        G = G * np.where(twice, 2.0, 1.0)
        return (_resize(G, axes, [shape[a] for a in axes]),)
    return _finish("FftC2RBackward0", x, res, d.to_real(), back)


def hermitian(op: str, x, s, dim, norm, default_all: bool = True) -> Tensor:
    """hfft / hfft2 / hfftn (a Hermitian signal given by its one-sided half, to its real spectrum:
    irfft of the conjugate with the swapped norm) and ihfft / ihfft2 / ihfftn (their inverses: the
    conjugate of rfft with the swapped norm)."""
    x = _input(op, x)
    norm = _norm(op, norm)
    if op.startswith("hfft"):
        return c2r(op, conj_tensor(x), s, dim, _SWAP[norm], default_all)
    _real_input(op, x)
    return conj_tensor(r2c(op, x, s, dim, _SWAP[norm], default_all))


def conj_tensor(x: Tensor) -> Tensor:
    """The complex conjugate as new memory, differentiable (a real tensor as complex)."""
    d = _cdtype(x)
    out = cc.make(np.conj(cc.values(x).astype(d.np)), d, x.device)
    cc.record("ConjPhysicalBackward0", [x], [out], lambda g: (np.conj(g),))
    return out


def shift(x, dim, inverse: bool) -> Tensor:
    """fftshift / ifftshift: roll dims by n // 2 (back by n // 2)."""
    x = _input("ifftshift" if inverse else "fftshift", x)
    nd = x.dim()
    dims = list(range(nd)) if dim is None else ([dim] if isinstance(dim, int) else list(dim))
    dims = [_dim(d, nd) for d in dims]
    k = [(-(x._shape[d] // 2)) if inverse else x._shape[d] // 2 for d in dims]
    res = np.roll(cc.values(x), k, axis=dims) if dims else cc.values(x)
    out = cc.make(res, x.dtype, x.device)
    if x.dtype.is_floating_point or x.dtype.is_complex:
        cc.record("RollBackward0", [x], [out], lambda g: (np.roll(g, [-i for i in k], axis=dims) if dims else g,))
    return out


def freq(op: str, n: int, d: float, dtype, device, requires_grad: bool, one_sided: bool) -> Tensor:
    """fftfreq / rfftfreq: the sample frequencies, in the default float dtype unless given."""
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
        raise TypeError(f"fft_{op}(): argument 'n' (position 1) must be int, not {type(n).__name__}")
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    from .creation import _from_host
    dt = dtype if dtype is not None else _dtype.get_default_dtype()
    if one_sided:
        vals = np.arange(n // 2 + 1, dtype=np.float64)
    else:
        vals = np.concatenate([np.arange((n - 1) // 2 + 1), -np.arange(n // 2, 0, -1)]).astype(np.float64)
    # PyTorch: arange in the result dtype, then multiplied by 1 / (n * d) in it
    ft = dt.np.type if dt.is_floating_point else np.float64
    out = vals.astype(ft) * ft(1.0 / (n * d)) if n else vals.astype(ft)
    return _from_host(op, out, dt, device, requires_grad)

