"""PyTorch's fused multiply-add and product helpers, composed of existing ops: addcmul, addcdiv, addmv, addr,
addbmm (each one product kernel with the add as its epilogue: ops/linalg.py's addmm), inner, vdot, dist and
renorm."""
from __future__ import annotations

from ..tensor import Tensor
from ._registry import OpDef, api, register
from .elementwise import _out, where
from .linalg import addmm, dot
from .unary import _tname

__all__ = ["addcmul", "addcdiv", "addmv", "addr", "addbmm", "inner", "vdot", "dist", "renorm"]

for _n, _doc, _tol in (("addcmul", "input + value * tensor1 * tensor2", (1e-6, 1e-6)),
                       ("addcdiv", "input + value * tensor1 / tensor2", (2e-6, 1e-6)),
                       ("addmv", "addmm with a column", (1e-5, 1e-5)),
                       ("addr", "addmm of an outer product", (1e-6, 1e-6)),
                       ("addbmm", "one addmm over the batch laid side by side", (1e-5, 1e-5)),
                       ("inner", "tensordot over the last dims", (1e-5, 1e-5)), ("vdot", "dot", (1e-5, 1e-5)),
                       ("dist", "norm of the difference", (1e-5, 1e-5)),
                       ("renorm", "input * where(norm > maxnorm, maxnorm / (norm + 1e-7), 1)", (1e-5, 1e-6))):
    register(OpDef(_n, "composite", None, None, tol=_tol, doc=_doc))


def _need(name: str, **tensors) -> None:
    for i, (arg, x) in enumerate(tensors.items()):
        if not isinstance(x, Tensor):
            raise TypeError(f"{name}(): argument '{arg}' (position {i + 1}) must be Tensor, not {type(x).__name__}")


def addcmul(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value=1, out=None) -> Tensor:
    """``input + value * tensor1 * tensor2``, broadcasting.

    Example::

        >>> torch.addcmul(torch.tensor([1.0, 2.0]), torch.tensor([2.0, 3.0]), torch.tensor([4.0, 5.0]), value=0.5)
        tensor([5.0000, 9.5000])
    """
    _need("addcmul", input=input, tensor1=tensor1, tensor2=tensor2)
    if not any(t.dtype.is_floating_point for t in (input, tensor1, tensor2)):
        value = int(value)  # PyTorch casts value to the integer result dtype
    if _bf16_result(input, tensor1, tensor2):
        return _out(addcmul(input.float(), tensor1.float(), tensor2.float(), value=value).bfloat16(), out)
    prod = tensor1 * tensor2 if value == 1 else value * tensor1 * tensor2
    return _out(input + prod, out)


def _bf16_result(*tensors) -> bool:
    """Whether a fused op's result is bfloat16: PyTorch computes it in float32 and rounds once."""
    from .._dtype import bfloat16, result_type_of
    return any(t.dtype is bfloat16 for t in tensors) and result_type_of([t.dtype for t in tensors]) is bfloat16


def addcdiv(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value=1, out=None) -> Tensor:
    """``input + value * tensor1 / tensor2``, broadcasting (integer tensor1 and tensor2 raise, as in PyTorch).

    Example::

        >>> torch.addcdiv(torch.tensor([1.0, 2.0]), torch.tensor([2.0, 3.0]), torch.tensor([4.0, 5.0]), value=2)
        tensor([2.0000, 3.2000])
    """
    _need("addcdiv", input=input, tensor1=tensor1, tensor2=tensor2)
    if not tensor1.dtype.is_floating_point and not tensor2.dtype.is_floating_point:
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a "
            "true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + "
            "value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * "
            "tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: "
            "(input + value * tensor1 / tensor2), for all dtypes.")
    if _bf16_result(input, tensor1, tensor2):
        return _out(addcdiv(input.float(), tensor1.float(), tensor2.float(), value=value).bfloat16(), out)
    q = tensor1 / tensor2 if value == 1 else value * tensor1 / tensor2
    return _out(input + q, out)


def addmv(input: Tensor, mat: Tensor, vec: Tensor, *, beta=1, alpha=1, out=None) -> Tensor:
    """``beta * input + alpha * (mat @ vec)``; beta == 0 ignores input (NaN in it too).

    Example::

        >>> torch.addmv(torch.tensor([1.0, 1.0]), torch.ones(2, 3), torch.tensor([1.0, 2.0, 3.0]), alpha=2)
        tensor([13., 13.])
    """
    _need("addmv", input=input, mat=mat, vec=vec)
    if mat.dim() != 2 or vec.dim() != 1 or input.dim() > 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {input.dim()}, {mat.dim()}, {vec.dim()}")
    if mat._shape[1] != vec._shape[0]:
        raise RuntimeError(f"size mismatch, got input ({input._shape[0] if input.dim() else 1}), mat "
                           f"({mat._shape[0]}x{mat._shape[1]}), vec ({vec._shape[0]})")
    col = input.unsqueeze(-1) if input.dim() == 1 else input
    return _out(addmm(col, mat, vec.unsqueeze(1), beta=beta, alpha=alpha).squeeze(1), out)


def addr(input: Tensor, vec1: Tensor, vec2: Tensor, *, beta=1, alpha=1, out=None) -> Tensor:
    """``beta * input + alpha * outer(vec1, vec2)``; beta == 0 ignores input.

    Example::

        >>> torch.addr(torch.zeros(2, 2), torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))
        tensor([[3., 4.],
                [6., 8.]])
    """
    _need("addr", input=input, vec1=vec1, vec2=vec2)
    if vec1.dim() != 1 or vec2.dim() != 1:
        raise RuntimeError(f"addr: Expected 1-D argument vec1, but got {vec1.dim()}-D" if vec1.dim() != 1 else
                           f"addr: Expected 1-D argument vec2, but got {vec2.dim()}-D")
    return _out(addmm(input, vec1.unsqueeze(1), vec2.unsqueeze(0), beta=beta, alpha=alpha), out)


def addbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta=1, alpha=1, out=None) -> Tensor:
    """``beta * input + alpha * sum_b(batch1[b] @ batch2[b])``: the batch is laid side by side, so it is one
    matrix product.

    Example::

        >>> torch.addbmm(torch.ones(2, 2), torch.ones(3, 2, 4), torch.ones(3, 4, 2))
        tensor([[13., 13.],
                [13., 13.]])
    """
    _need("addbmm", input=input, batch1=batch1, batch2=batch2)
    if batch1.dim() != 3 or batch2.dim() != 3:
        raise RuntimeError("batch1 must be a 3D tensor" if batch1.dim() != 3 else "batch2 must be a 3D tensor")
    b, n, k = batch1._shape
    b2, k2, m = batch2._shape
    if b != b2:
        raise RuntimeError(f"batch1 and batch2 must have same number of batches, got {b} and {b2}")
    if k != k2:
        raise RuntimeError(f"Incompatible matrix sizes for bmm ({n}x{k} and {k2}x{m})")
    left = batch1.permute(1, 0, 2).reshape(n, b * k)
    right = batch2.reshape(b * k, m)
    return _out(addmm(input, left, right, beta=beta, alpha=alpha), out)


def inner(input: Tensor, other: Tensor, *, out=None) -> Tensor:
    """Sum of products over the last dim of both (a product when either is 0-d); the free dims of ``input``
    then of ``other`` remain.

    Example::

        >>> torch.inner(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor([1.0, -1.0]))
        tensor([-1., -1.])
    """
    _need("inner", input=input, other=other)
    if input.dim() == 0 or other.dim() == 0:
        return _out(input * other, out)
    if input._shape[-1] != other._shape[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but got shapes "
                           f"{list(input._shape)} and {list(other._shape)}")
    from .combine import tensordot
    return _out(tensordot(input, other, dims=([-1], [-1])), out)


def vdot(input: Tensor, other: Tensor, *, out=None) -> Tensor:
    """The dot product of two 1-D tensors (for real tensors the same as :func:`dot`).

    Example::

        >>> torch.vdot(torch.tensor([2.0, 3.0]), torch.tensor([2.0, 1.0]))
        tensor(7.)
    """
    _need("vdot", input=input, other=other)
    if input.dim() != 1 or other.dim() != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.dim()}D and {other.dim()}D tensors")
    if input.dtype.is_complex:
        input = input.conj_physical()   # vdot conjugates its first argument
    return dot(input, other, out=out)


def dist(input: Tensor, other: Tensor, p=2) -> Tensor:
    """The ``p``-norm of ``input - other`` (broadcasting), a 0-d tensor.

    Example::

        >>> torch.dist(torch.tensor([1.0, 2.0]), torch.tensor([4.0, 6.0]))
        tensor(5.)
    """
    _need("dist", input=input, other=other)
    for t in (input, other):
        if not t.dtype.is_floating_point:
            raise RuntimeError("norm(): input dtype should be either floating point or complex. Got "
                               f"{_tname(t.dtype)} instead.")
    return (input - other).norm(p)


def renorm(input: Tensor, p, dim: int, maxnorm, *, out=None) -> Tensor:
    """Each slice along ``dim`` whose ``p``-norm is above ``maxnorm`` is scaled to norm ``maxnorm``.

    Example::

        >>> torch.renorm(torch.tensor([[3.0, 4.0], [0.3, 0.4]]), 2, 0, 1.0)
        tensor([[0.6000, 0.8000],
                [0.3000, 0.4000]])
    """
    _need("renorm", input=input)
    if not input.dtype.is_floating_point:
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                           + _tname(input.dtype))
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm}")
    nd = input.dim()
    if nd < 2:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {nd} dimensions")
    if not -nd <= dim < nd:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-nd}, {nd - 1}], but got {dim})")
    dims = [d for d in range(nd) if d != dim % nd]
    norm = input.norm(p, dim=dims, keepdim=True)
    factor = where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0)
    return _out(input * factor, out)


def _torch_addmv_(input: Tensor, mat: Tensor, vec: Tensor, *, beta=1, alpha=1) -> Tensor:
    """In-place ``torch.addmv``: the result is written into ``input``, which is returned.

    Example::

        >>> x = torch.zeros(2)
        >>> torch.addmv_(x, torch.ones(2, 2), torch.tensor([1.0, 2.0])) is x
        True
    """
    return input.addmv_(mat, vec, beta=beta, alpha=alpha)


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
for _n, _f in (("addcmul", addcmul), ("addcdiv", addcdiv), ("addmv", addmv), ("addr", addr), ("addbmm", addbmm),
               ("renorm", renorm)):
    api(_n, _f, inplace=True)
for _n, _f in (("inner", inner), ("vdot", vdot), ("dist", dist)):
    api(_n, _f)
api("addmv_", _torch_addmv_, tensor=False)
