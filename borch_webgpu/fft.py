"""``torch.fft``: discrete Fourier transforms with PyTorch's names, arguments (``n`` / ``s``, ``dim``,
``norm`` = ``"backward"`` (default), ``"forward"`` or ``"ortho"``) and result dtypes (complex64 for
float32 and integer input, complex128 for float64).

They run in numpy (pocketfft) on the host on both devices: complex tensors are held on the host on
``webgpu`` (see ``torch.dtype``), and a real result (irfft, hfft) goes back to the GPU. Gradients follow
PyTorch's convention for complex values (``x.grad`` of a real loss through ``rfft(x).abs()`` is
PyTorch's), first order only.
"""
from __future__ import annotations

from .ops import fft as _f
from .tensor import Tensor

__all__ = ["fft", "ifft", "rfft", "irfft", "fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn", "rfftn", "irfftn",
           "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]


def fft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The 1-D discrete Fourier transform along ``dim``; ``n`` zero-pads or trims the input first.

    Example::

        >>> torch.fft.fft(torch.tensor([0., 1., 2., 3.]))
        tensor([ 6.+0.j, -2.+2.j, -2.+0.j, -2.-2.j])
    """
    return _f.c2c("fft", input, None if n is None else [n], [dim], norm, inverse=False)


def ifft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The 1-D inverse discrete Fourier transform (scaled by ``1 / n`` with the default norm).

    Example::

        >>> torch.fft.ifft(torch.tensor([4., 0., 0., 0.]))
        tensor([1.-0.j, 1.-0.j, 1.-0.j, 1.+0.j])
    """
    return _f.c2c("ifft", input, None if n is None else [n], [dim], norm, inverse=True)


def rfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The 1-D transform of real input: the ``n // 2 + 1`` non-negative frequencies.

    Example::

        >>> torch.fft.rfft(torch.tensor([0., 1., 2., 3.]))
        tensor([ 6.+0.j, -2.+2.j, -2.+0.j])
    """
    return _f.r2c("rfft", input, None if n is None else [n], [dim], norm)


def irfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The inverse of :func:`rfft`: real output of length ``n`` (default ``2 * (m - 1)``).

    Example::

        >>> torch.fft.irfft(torch.tensor([6.+0j, -2.+2j, -2.+0j]))
        tensor([0., 1., 2., 3.])
    """
    return _f.c2r("irfft", input, None if n is None else [n], [dim], norm)


def fft2(input: Tensor, s=None, dim=(-2, -1), norm: str | None = None) -> Tensor:
    """The 2-D transform over ``dim`` (the last two by default); ``s`` sizes each dim.

    Example::

        >>> torch.fft.fft2(torch.ones(2, 2))
        tensor([[4.+0.j, 0.+0.j],
                [0.+0.j, 0.+0.j]])
    """
    return _f.c2c("fft2", input, s, dim, norm, inverse=False, default_all=False)


def ifft2(input: Tensor, s=None, dim=(-2, -1), norm: str | None = None) -> Tensor:
    """The 2-D inverse transform over ``dim``.

    Example::

        >>> torch.fft.ifft2(torch.tensor([[4., 0.], [0., 0.]])).real
        tensor([[1., 1.],
                [1., 1.]])
    """
    return _f.c2c("ifft2", input, s, dim, norm, inverse=True, default_all=False)


def rfft2(input: Tensor, s=None, dim=(-2, -1), norm: str | None = None) -> Tensor:
    """The 2-D transform of real input, one-sided in the last dim.

    Example::

        >>> torch.fft.rfft2(torch.ones(2, 2))
        tensor([[4.+0.j, 0.+0.j],
                [0.+0.j, 0.+0.j]])
    """
    return _f.r2c("rfft2", input, s, dim, norm, default_all=False)


def irfft2(input: Tensor, s=None, dim=(-2, -1), norm: str | None = None) -> Tensor:
    """The inverse of :func:`rfft2`.

    Example::

        >>> torch.fft.irfft2(torch.tensor([[4.+0j, 0j], [0j, 0j]]))
        tensor([[1., 1.],
                [1., 1.]])
    """
    return _f.c2r("irfft2", input, s, dim, norm, default_all=False)


def fftn(input: Tensor, s=None, dim=None, norm: str | None = None) -> Tensor:
    """The N-D transform over ``dim`` (all dims, or the last ``len(s)``, by default).

    Example::

        >>> torch.fft.fftn(torch.ones(2, 2)).real
        tensor([[4., 0.],
                [0., 0.]])
    """
    return _f.c2c("fftn", input, s, dim, norm, inverse=False)


def ifftn(input: Tensor, s=None, dim=None, norm: str | None = None) -> Tensor:
    """The N-D inverse transform.

    Example::

        >>> torch.fft.ifftn(torch.tensor([[4., 0.], [0., 0.]])).real
        tensor([[1., 1.],
                [1., 1.]])
    """
    return _f.c2c("ifftn", input, s, dim, norm, inverse=True)


def rfftn(input: Tensor, s=None, dim=None, norm: str | None = None) -> Tensor:
    """The N-D transform of real input, one-sided in the last transformed dim.

    Example::

        >>> torch.fft.rfftn(torch.ones(2, 2)).shape
        torch.Size([2, 2])
    """
    return _f.r2c("rfftn", input, s, dim, norm)


def irfftn(input: Tensor, s=None, dim=None, norm: str | None = None) -> Tensor:
    """The inverse of :func:`rfftn`.

    Example::

        >>> torch.fft.irfftn(torch.tensor([[4.+0j, 0j], [0j, 0j]]))
        tensor([[1., 1.],
                [1., 1.]])
    """
    return _f.c2r("irfftn", input, s, dim, norm)


def hfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The transform of a Hermitian-symmetric signal given by its one-sided half: a real spectrum of
    length ``n`` (default ``2 * (m - 1)``).

    Example::

        >>> torch.fft.hfft(torch.tensor([1.+0j, 2.+0j]))
        tensor([ 3., -1.])
    """
    return _f.hermitian("hfft", input, None if n is None else [n], [dim], norm)


def ihfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The inverse of :func:`hfft`: the one-sided half of a real signal's inverse transform.

    Example::

        >>> torch.fft.ihfft(torch.tensor([3., -1.]))
        tensor([1.-0.j, 2.-0.j])
    """
    return _f.hermitian("ihfft", input, None if n is None else [n], [dim], norm)


def hfft2(input: Tensor, s=None, dim=(-2, -1), norm: str | None = None) -> Tensor:
    """The 2-D :func:`hfft`: a real spectrum from the one-sided half (in the last dim) of a Hermitian signal.

    Example::

        >>> torch.fft.hfft2(torch.tensor([[1.+0j, 0j], [0j, 0j]]))
        tensor([[1., 1.],
                [1., 1.]])
    """
    return _f.hermitian("hfft2", input, s, dim, norm, default_all=False)


def ihfft2(input: Tensor, s=None, dim=(-2, -1), norm: str | None = None) -> Tensor:
    """The inverse of :func:`hfft2`: the one-sided half of a real signal's 2-D inverse transform.

    Example::

        >>> torch.fft.ihfft2(torch.ones(2, 2)).real
        tensor([[1., 0.],
                [0., 0.]])
    """
    return _f.hermitian("ihfft2", input, s, dim, norm, default_all=False)


def hfftn(input: Tensor, s=None, dim=None, norm: str | None = None) -> Tensor:
    """The N-D :func:`hfft` (all dims, or the last ``len(s)``, by default).

    Example::

        >>> torch.fft.hfftn(torch.tensor([[1.+0j, 0j], [0j, 0j]])).shape
        torch.Size([2, 2])
    """
    return _f.hermitian("hfftn", input, s, dim, norm)


def ihfftn(input: Tensor, s=None, dim=None, norm: str | None = None) -> Tensor:
    """The inverse of :func:`hfftn`.

    Example::

        >>> torch.fft.ihfftn(torch.ones(2, 2)).real
        tensor([[1., 0.],
                [0., 0.]])
    """
    return _f.hermitian("ihfftn", input, s, dim, norm)


def fftfreq(n: int, d: float = 1.0, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """The sample frequencies of :func:`fft` for ``n`` points spaced ``d`` apart: ``[0, 1, ..., -1] / (n * d)``.

    Example::

        >>> torch.fft.fftfreq(4)
        tensor([ 0.0000,  0.2500, -0.5000, -0.2500])
    """
    return _f.freq("fftfreq", n, d, dtype, device, requires_grad, one_sided=False)


def rfftfreq(n: int, d: float = 1.0, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """The sample frequencies of :func:`rfft`: ``[0, 1, ..., n // 2] / (n * d)``.

    Example::

        >>> torch.fft.rfftfreq(4)
        tensor([0.0000, 0.2500, 0.5000])
    """
    return _f.freq("rfftfreq", n, d, dtype, device, requires_grad, one_sided=True)


def fftshift(input: Tensor, dim=None) -> Tensor:
    """Move the zero frequency to the centre: roll each of ``dim`` (all dims by default) by ``n // 2``.

    Example::

        >>> torch.fft.fftshift(torch.fft.fftfreq(4))
        tensor([-0.5000, -0.2500,  0.0000,  0.2500])
    """
    return _f.shift(input, dim, inverse=False)


def ifftshift(input: Tensor, dim=None) -> Tensor:
    """The inverse of :func:`fftshift`.

    Example::

        >>> torch.fft.ifftshift(torch.tensor([-0.5, -0.25, 0.0, 0.25]))
        tensor([ 0.0000,  0.2500, -0.5000, -0.2500])
    """
    return _f.shift(input, dim, inverse=True)
