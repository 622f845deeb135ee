"""Complex tensors (``torch.complex64`` / ``complex128``): making them (``complex``, ``polar``,
``view_as_complex``), taking them apart (``.real``, ``.imag``, ``view_as_real``, ``abs``, ``angle``) and
the conjugate (``conj``, ``conj_physical``, ``resolve_conj``, ``is_conj``).

Values are numpy complex arrays on both devices (on ``webgpu`` held on the host, see _dtype.py).
``.real``, ``.imag``, ``view_as_real`` and ``view_as_complex`` are views sharing memory on ``cpu`` as in
PyTorch; on ``webgpu`` a real result lives on the GPU, so they are copies there. ``conj()`` gives a
tensor that reports ``is_conj()`` (as PyTorch's lazy conjugate does) but holds the conjugated values
itself, so writes through it do not reach the original.
"""
from __future__ import annotations

import weakref

import numpy as np

from .. import _dtype
from ..tensor import Tensor
from . import _complex_core as cc
from ._registry import api, methods

__all__ = ["complex", "polar", "view_as_real", "view_as_complex", "real", "imag", "angle", "complex_abs",
           "conj", "conj_physical", "resolve_conj", "is_conj", "is_complex"]

# No OpDefs: these run in numpy on the host (no kernel); tests/golden/complex_cases.py holds their goldens.
class _ConjSet:
    """The tensors conj() made (is_conj() is True), by identity; an entry goes when its tensor dies."""

    def __init__(self):
        self._refs: dict[int, weakref.ref] = {}

    def add(self, t: Tensor) -> None:
        key = id(t)
        self._refs[key] = weakref.ref(t, lambda _r, k=key: self._refs.pop(k, None))

    def __contains__(self, t) -> bool:
        r = self._refs.get(id(t))
        return r is not None and r() is t


_CONJ = _ConjSet()


def _float_pair(op: str, a: Tensor, b: Tensor) -> None:
    for t in (a, b):
        if not isinstance(t, Tensor):
            raise TypeError(f"{op}(): argument must be Tensor, not {type(t).__name__}")
    if a.dtype.name not in ("float32", "float64", "float16") or b.dtype.name not in ("float32", "float64", "float16"):
        raise RuntimeError(f"Expected both inputs to be Half, Float or Double tensors but got "
                           f"{cc.scalar_name(a.dtype)} and {cc.scalar_name(b.dtype)}")
    if a.dtype is not b.dtype:
        raise RuntimeError(f"Expected object of scalar type {cc.scalar_name(a.dtype)} but got scalar type "
                           f"{cc.scalar_name(b.dtype)} for second argument")


def complex(real: Tensor, imag: Tensor) -> Tensor:  # noqa: A001 - torch's name
    """The complex tensor ``real + i * imag`` (float32 -> complex64, float64 -> complex128), broadcast.

    Example::

        >>> torch.complex(torch.tensor([1., 3.]), torch.tensor([2., -1.]))
        tensor([1.+2.j, 3.-1.j])
    """
    _float_pair("complex", real, imag)
    d = real.dtype.to_complex()
    re, im = cc.values(real), cc.values(imag)
    out = cc.make(re + 1j * im, d, real.device)
    cc.record("ComplexBackward0", [real, imag], [out], lambda g: (np.real(g), np.imag(g)))
    return out


def polar(abs: Tensor, angle: Tensor) -> Tensor:  # noqa: A002 - torch's names
    """The complex tensor ``abs * (cos(angle) + i sin(angle))``.

    Example::

        >>> torch.polar(torch.tensor([2.]), torch.tensor([0.]))
        tensor([2.+0.j])
    """
    _float_pair("polar", abs, angle)
    r, th = cc.values(abs), cc.values(angle)
    e = np.exp(1j * th.astype(abs.dtype.to_complex().np))
    out = cc.make(r * e, abs.dtype.to_complex(), abs.device)
    z = r * e
    cc.record("PolarBackward0", [abs, angle], [out],
              lambda g: (np.real(np.conj(g) * e), np.real(np.conj(g) * 1j * z)))
    return out


def _check_complex(op: str, x: Tensor, msg: str) -> None:
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")
    if not x.dtype.is_complex:
        raise RuntimeError(msg)


def _alias(x: Tensor, d, shape, stride, offset) -> Tensor:
    """A cpu tensor of dtype d over x's memory (numpy's view of the storage as d): shares x's version
    counter and base, as PyTorch's views do."""
    from ..device.cpu import CPUStorage
    v = Tensor._make(CPUStorage(x._storage.array.view(d.np)), shape, d, x._device, stride, offset)
    v._base = x._base if x._base is not None else x
    v._ver = x._ver
    return v


def _view_recorded(out: Tensor) -> Tensor:
    """Mark a view made by these ops as recorded against its base's current history (autograd/graph.py's
    edge_of takes a view whose base changed since as an in-place change)."""
    if out._base is not None:
        out._view_src_fn = out._base.grad_fn
    return out


def _part_view(x: Tensor, part: int) -> Tensor:
    """x's real (part 0) or imaginary (part 1) values as a float tensor: a view of x's memory on cpu."""
    rd = x.dtype.to_real()
    if x.device.type == "cpu" and x not in _CONJ:
        return _alias(x, rd, x._shape, tuple(2 * s for s in x._stride), 2 * x._offset + part)
    vals = cc.values(x)
    return cc.make(vals.real if part == 0 else vals.imag, rd, x.device)


def real(input: Tensor) -> Tensor:
    """The real part (a view on ``cpu``; a real tensor is returned itself, as in PyTorch).

    Example::

        >>> torch.tensor([1+2j, 3-1j]).real
        tensor([1., 3.])
    """
    if not input.dtype.is_complex:
        return input
    out = _part_view(input, 0)
    cc.record("RealBackward0", [input], [out], lambda g: (g.astype(input.dtype.np),))
    return _view_recorded(out)


def imag(input: Tensor) -> Tensor:
    """The imaginary part (a view on ``cpu``); complex tensors only, as in PyTorch.

    Example::

        >>> torch.tensor([1+2j, 3-1j]).imag
        tensor([ 2., -1.])
    """
    _check_complex("imag", input, "imag is not implemented for tensors with non-complex dtypes.")
    out = _part_view(input, 1)
    cc.record("ImagBackward0", [input], [out], lambda g: (1j * g,))
    return _view_recorded(out)


def view_as_real(input: Tensor) -> Tensor:
    """A complex tensor as a float tensor with a last dim of 2 (real, imaginary); a view on ``cpu``.

    Example::

        >>> torch.view_as_real(torch.tensor([1+2j]))
        tensor([[1., 2.]])
    """
    _check_complex("view_as_real", input, "view_as_real is only supported for complex tensors")
    if input in _CONJ:
        raise RuntimeError("view_as_real doesn't work on unresolved conjugated tensors.  To resolve the conjugate "
                           "tensor so you can view it as real, use self.resolve_conj(); however, be warned that the "
                           "resulting tensor will NOT alias the original.")
    rd = input.dtype.to_real()
    shape = tuple(input._shape) + (2,)
    if input.device.type == "cpu":
        out = _alias(input, rd, shape, tuple(2 * s for s in input._stride) + (1,), 2 * input._offset)
    else:
        out = cc.make(cc.values(input).view(rd.np).reshape(shape) if cc.values(input).flags.c_contiguous else
                      np.stack([cc.values(input).real, cc.values(input).imag], -1), rd, input.device)
    cc.record("ViewAsRealBackward0", [input], [out], lambda g: (g[..., 0] + 1j * g[..., 1],))
    return _view_recorded(out)


def view_as_complex(input: Tensor) -> Tensor:
    """A float tensor whose last dim is 2 (real, imaginary) as a complex tensor; a view on ``cpu``.

    Example::

        >>> torch.view_as_complex(torch.tensor([[1., 2.], [3., -1.]]))
        tensor([1.+2.j, 3.-1.j])
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"view_as_complex(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if input.dtype.name not in ("float32", "float64", "float16"):
        raise RuntimeError("view_as_complex is only supported for half, float and double tensors, but got a tensor "
                           f"of scalar type: {cc.scalar_name(input.dtype)}")
    if input.dim() == 0 or input._shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    if input._stride[-1] != 1:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if any(s % 2 for s in input._stride[:-1]):
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
    if input._offset % 2:
        raise RuntimeError("Tensor must have a storage_offset divisible by 2")
    if input.dtype.name == "float16":
        raise RuntimeError("view_as_complex: complex32 (a float16 pair) is not supported here; use .float() first")
    cd = input.dtype.to_complex()
    shape = tuple(input._shape[:-1])
    arr = getattr(input._storage, "array", None)
    if input.device.type == "cpu" and arr is not None and arr.size % 2 == 0:
        out = _alias(input, cd, shape, tuple(s // 2 for s in input._stride[:-1]), input._offset // 2)
    else:
        v = cc.values(input)
        out = cc.make(v[..., 0] + 1j * v[..., 1], cd, input.device)
    cc.record("ViewAsComplexBackward0", [input], [out], lambda g: (np.stack([g.real, g.imag], -1),))
    return _view_recorded(out)


def complex_abs(x: Tensor) -> Tensor:
    """|z| of a complex tensor (a real tensor); ops/unary.py's abs hands complex inputs here."""
    z = cc.values(x)
    r = np.abs(z)
    out = cc.make(r, x.dtype.to_real(), x.device)
    cc.record("AbsBackward0", [x], [out], lambda g: (g * _sgn(z),))
    return out


def _sgn(z):
    with np.errstate(all="ignore"):
        a = np.abs(z)
        return np.where(a == 0, 0, z / np.where(a == 0, 1, a))


def angle(input: Tensor) -> Tensor:
    """The argument of each element in radians (``atan2(imag, real)``); for a real tensor 0 or pi.

    Example::

        >>> torch.angle(torch.tensor([1j, -1.]))
        tensor([1.5708, 3.1416])
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"angle(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    z = cc.values(input)
    rd = input.dtype.to_real() if input.dtype.is_complex or input.dtype.is_floating_point else \
        _dtype.get_default_dtype()
    with np.errstate(all="ignore"):
        r = np.angle(z) if input.dtype.is_complex else np.where(np.isnan(z), z, np.where(z < 0, np.pi, 0.0))
    out = cc.make(r, rd, input.device)
    if input.dtype.is_complex:
        with np.errstate(all="ignore"):
            a2 = (z * np.conj(z)).real
            d = np.where(a2 == 0, 0, 1j * z / np.where(a2 == 0, 1, a2))
        cc.record("AngleBackward0", [input], [out], lambda g: (g * d,))
    else:
        cc.record("AngleBackward0", [input], [out], lambda g: (np.zeros_like(g),))
    return out


def is_complex(input: Tensor) -> bool:
    """True for complex dtypes (``complex64``, ``complex128``).

    Example::

        >>> torch.is_complex(torch.tensor([1j])), torch.is_complex(torch.zeros(2))
        (True, False)
    """
    return input.dtype.is_complex


def is_conj(input: Tensor) -> bool:
    """True for a tensor ``conj()`` made from a complex one (PyTorch's conjugate bit).

    Example::

        >>> torch.tensor([1j]).conj().is_conj()
        True
    """
    return input in _CONJ


def conj(input: Tensor) -> Tensor:
    """The complex conjugate; for a complex tensor ``is_conj()`` is True (PyTorch's lazy conjugate; here
    it holds the conjugated values, so writes through it do not reach ``input``); a real tensor itself.

    Example::

        >>> torch.tensor([1+2j]).conj()
        tensor([1.-2.j])
    """
    if not input.dtype.is_complex:
        return input
    out = _conj_copy(input, "ConjBackward0")
    _CONJ.add(out)
    return out


def _conj_copy(x: Tensor, name: str) -> Tensor:
    out = cc.make(np.conj(cc.values(x)), x.dtype, x.device)
    cc.record(name, [x], [out], lambda g: (np.conj(g),))
    return out


def conj_physical(input: Tensor) -> Tensor:
    """The complex conjugate as new memory (``is_conj()`` False); a real tensor itself.

    Example::

        >>> torch.conj_physical(torch.tensor([1+2j]))
        tensor([1.-2.j])
    """
    return _conj_copy(input, "ConjPhysicalBackward0") if input.dtype.is_complex else input


def resolve_conj(input: Tensor) -> Tensor:
    """A tensor with ``is_conj()`` False and the same values (``input`` itself when it has no conjugate bit).

    Example::

        >>> torch.tensor([1j]).conj().resolve_conj().is_conj()
        False
    """
    if input not in _CONJ:
        return input
    out = cc.make(cc.values(input), input.dtype, input.device)
    cc.record("CloneBackward0", [input], [out], lambda g: (g,))
    return out


methods(("complex", complex), ("polar", polar), ("view_as_real", view_as_real),
        ("view_as_complex", view_as_complex), tensor=False)
methods(("angle", angle), ("is_complex", is_complex), ("is_conj", is_conj), ("conj", conj),
        ("conj_physical", conj_physical), ("resolve_conj", resolve_conj))
api("real", real, method=property(real))
api("imag", imag, method=property(imag))


def complex_cast(t: Tensor, dev, dt) -> Tensor:
    """``t.to(dev, dt)`` where t or dt is complex (ops/creation.py's to_copy hands it here). complex -> real
    keeps the real part with PyTorch's UserWarning; real -> complex has a zero imaginary part."""
    v = cc.values(t, "Tensor.to()")
    if t.dtype.is_complex and not dt.is_complex:
        import warnings
        warnings.warn("Casting complex values to real discards the imaginary part", UserWarning, stacklevel=4)
        v = v.real
    if dt.name == "bool":
        v = v != 0
    elif dt.category == 1 and v.dtype.kind == "f":
        from ..device.cpu import f2i64, f2small
        v = f2i64(v) if dt.name == "int64" else (f2small(v, dt) if dt.host else v.astype(np.int64))
    out = cc.make(v, dt, dev)
    if dt.is_floating_point or dt.is_complex:
        src = t.dtype
        cc.record("ToCopyBackward0", [t], [out], lambda g: (g.astype(src.np) if src.is_complex else g,))
    return out
