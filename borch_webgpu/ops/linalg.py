"""Matrix products: matmul (``@``), mm, bmm, mv, dot, outer (ger), addmm, baddbmm (einsum, built on them, is in _einsum.py).

Every product goes through one differentiable core, :func:`_gemm`: ``alpha * a @ b + beta * c``
over broadcast batch dims, whose backward is made of the same products. The ops around it are
shape checks, views and reshapes. On ``webgpu`` the core runs wgsl/matmul.wgsl on the operands'
own strides (device/gpu_matmul.py: transposed or sliced operands are not copied); on ``cpu`` it
runs the numpy reference :func:`_np_gemm`. int32 products accumulate in int32 and wrap, as
PyTorch's do. int64 never wraps below 2**63: the cpu device accumulates in numpy's int64; on webgpu
the products and their sum are exact in two 32-bit words (device/gpu_matmul_int64.py) and a result past
int32 moves to the host at its first read, or raises ``OverflowError`` when a later GPU op used it
first (device/int64_range.py).
"""
from __future__ import annotations

import math
import numbers
import sys

import numpy as np

from .. import autograd
from ..tensor import Tensor
from ._registry import OpDef, api, methods, register

__all__ = ["matmul", "mm", "bmm", "mv", "dot", "outer", "ger", "addmm", "baddbmm"]

# Tolerance against PyTorch's CPU (float32). Both sides add K float32 products, in different orders,
# so each result carries its own rounding error of about u * |partial sums| * sqrt(K) (u = 2^-24):
# for the goldens' values in [-1, 1) and K = 1024 the partial sums reach ~sqrt(K)/3 ~ 10, giving
# ~2e-5 absolute, whatever the size of the result. Measured: results near zero needed atol up to
# 2.0e-5 (numpy's BLAS on cpu), 1.7e-5 (SwiftShader) against PyTorch, all at K = 1024; the relative
# part covers the large results. atol 1e-4 keeps a 5x margin for K up to ~1024 at |x| <= 1 (|x| <= 2
# with K <= 300 gives the same scale). Integers are exact.
TOL = (1e-5, 1e-4)
_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16", "int64": "long int",
          "int32": "int", "bool": "bool", "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}
_SCALAR = {"float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16", "int64": "Long", "int32": "Int",
           "bool": "Bool", "complex64": "ComplexFloat", "complex128": "ComplexDouble"}


def _reg(name: str, block: str, ref, doc: str, file: str = "matmul.wgsl") -> OpDef:
    return register(OpDef(name, "linalg", (file, block), ref, dtype_rule="same", tol=TOL, doc=doc,
                          extra={"blocks": ("gemm", "gemv", "splitk") if file == "matmul.wgsl" else ()}))


MATMUL = _reg("matmul", "gemm", np.matmul, "matrix product with broadcasting (dot, mv, mm, batched)")
MM = _reg("mm", "gemm", np.matmul, "(n, k) @ (k, m)")
BMM = _reg("bmm", "gemm", np.matmul, "(b, n, k) @ (b, k, m)")
MV = _reg("mv", "gemv", np.matmul, "(n, k) @ (k,)")
DOT = _reg("dot", "gemv", np.dot, "(n,) . (n,)")
OUTER = _reg("outer", "mul", np.outer, "(n,) x (m,) -> (n, m) as a broadcast multiply", file="ops_binary.wgsl")
ADDMM = _reg("addmm", "gemm", lambda c, a, b, beta=1, alpha=1: beta * c + alpha * (a @ b),
             "beta * input + alpha * (mat1 @ mat2), fused in the kernel's epilogue")
BADDBMM = _reg("baddbmm", "gemm", lambda c, a, b, beta=1, alpha=1: beta * c + alpha * (a @ b),
               "beta * input + alpha * (batch1 @ batch2), fused in the kernel's epilogue")
EINSUM = _reg("einsum", "gemm", np.einsum, "Einstein summation as diagonals, sums, permutes and batched products")


# ---- the core --------------------------------------------------------------------------------------
def _np_gemm(a: Tensor, b: Tensor, c: Tensor | None, alpha, beta, dtype) -> np.ndarray:
    """The cpu device's kernel (and the reference): float32, int32 or (int64) int64 accumulation."""
    from ..device.cpu import BACKEND
    av, bv = BACKEND.view(a), BACKEND.view(b)
    acc = (np.float64 if dtype.name == "float64" else np.float32) if dtype.is_floating_point else dtype.np.type
    av, bv = av.astype(acc, copy=False), bv.astype(acc, copy=False)
    shape = np.broadcast_shapes(av.shape[:-2], bv.shape[:-2]) + (av.shape[-2], bv.shape[-1])
    with np.errstate(all="ignore"):
        if alpha == 0:
            r = np.zeros(shape, acc)
        elif acc is np.float32 and not (np.isfinite(av).all() and np.isfinite(bv).all()):
            # products rounded one by one (no fused multiply-add), which is what PyTorch's CPU result
            # shows: inf + (2 * -3e38) is NaN there, where numpy's fused 2 * -3e38 + inf stays inf
            r = np.zeros(shape, acc)
            for k in range(av.shape[-1]):
                r += av[..., :, k:k + 1] * bv[..., k:k + 1, :]
        else:
            r = np.matmul(av, bv)
        if alpha not in (0, 1):
            r = r * acc(alpha)
        if c is not None:
            r = r + BACKEND.view(c).astype(acc, copy=False) * acc(beta)
    # writable and contiguous (np.broadcast_to's view is read-only: in-place ops on x @ w must work)
    return np.require(np.broadcast_to(r, shape), dtype=dtype.storage_np, requirements=("C", "W")).reshape(-1)


def _gemm(a: Tensor, b: Tensor, c: Tensor | None = None, alpha=1, beta=1, name: str = "MmBackward0") -> Tensor:
    """``alpha * a @ b + beta * c`` for a (*ba, M, K), b (*bb, K, N), c broadcastable to the result
    (*broadcast(ba, bb), M, N). Shapes and dtypes are checked by the callers. beta == 0 ignores c
    (NaN in it does not propagate) and alpha == 0 ignores a and b, as BLAS does."""
    M, K = a._shape[-2:]
    N = b._shape[-1]
    batch = tuple(np.broadcast_shapes(a._shape[:-2], b._shape[:-2]))
    shape = batch + (M, N)
    dt, dev = a.dtype, a._device  # float64 on webgpu: the host device (borch_webgpu/_dtype.py)
    use_c = c is not None and beta != 0
    ae = a.detach().expand(batch + (M, K))
    be = b.detach().expand(batch + (K, N))
    ce = c.detach().expand(shape) if use_c else None
    if dev.type == "webgpu" and dt.name == "int64":
        return _int64_gemm(ae, be, ce, alpha, beta)
    if dev.type == "webgpu":
        from ..device import gpu_matmul
        storage = gpu_matmul.gemm(ae, be, ce, alpha, beta, dt)
    else:
        from ..device.cpu import CPUStorage
        storage = CPUStorage(_np_gemm(ae, be, ce, alpha, beta, dt))
    out = Tensor._make(storage, shape, dt, dev)
    if dt.is_floating_point:
        need = (a.requires_grad, b.requires_grad, c is not None and c.requires_grad)

        def back(g):
            from .elementwise import sum_to
            ga = sum_to(_gemm(g, b.mT, alpha=alpha, name=name), a._shape) if need[0] else None
            gb = sum_to(_gemm(a.mT, g, alpha=alpha, name=name), b._shape) if need[1] else None
            gc = sum_to(g * beta if beta != 1 else g, c._shape) if need[2] else None
            return ga, gb, gc
        autograd.record(name, [a, b, c], [out], back, [a, b])
    return out


def _int64_gemm(a: Tensor, b: Tensor, c: Tensor | None, alpha, beta) -> Tensor:
    """int64 on webgpu: products and their sum exact in 64 bits (device/gpu_matmul_int64.py), the result
    checked against int32's range (never a wrapped value)."""
    from ..device import gpu_matmul_int64
    batch, (m, k), n = a._shape[:-2], a._shape[-2:], b._shape[-1]
    a3, b3 = a.reshape(-1, m, k), b.reshape(-1, k, n)
    r = Tensor._make(gpu_matmul_int64.gemm(a3, b3), batch + (m, n), a.dtype, a.device)
    if alpha != 1:
        r = r * alpha
    if c is not None:
        r = r + (c * beta if beta != 1 else c)
    return r


# ---- argument checks ---------------------------------------------------------------------------------
def _tensors(op: str, *named) -> None:
    for i, (name, x) in enumerate(named):
        if not isinstance(x, Tensor):
            raise TypeError(f"{op}(): argument '{name}' (position {i + 1}) must be Tensor, not {type(x).__name__}")
    devs = [x.device for _, x in named]
    for d in devs[1:]:
        if d != devs[0]:
            raise RuntimeError(f"Expected all tensors to be on the same device, but found at least two devices, "
                               f"{devs[0]} and {d}!")


def _same_dtype(kernel: str, *ts) -> None:
    for t in ts[1:]:
        if t.dtype is not ts[0].dtype:
            raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {_NAMES[ts[0].dtype.name]} != "
                               f"{_NAMES[t.dtype.name]}")
    if ts[0].dtype.name == "bool":
        raise RuntimeError(f"\"{kernel}\" not implemented for 'Bool'")


def _scalars(op: str, dtype, beta, alpha):
    for name, v in (("beta", beta), ("alpha", alpha)):
        if not isinstance(v, (numbers.Number, np.generic)) or isinstance(v, complex):
            raise TypeError(f"{op}(): argument '{name}' must be Number, not {type(v).__name__}")
        if not dtype.is_floating_point and isinstance(v, (float, np.floating)):
            raise RuntimeError(f"For integral input tensors, argument {name} must not be a floating point number.")
    if dtype.is_floating_point:
        return float(beta), float(alpha)
    return int(beta), int(alpha)


def _mm_shapes(a: Tensor, b: Tensor) -> None:
    if a._shape[1] != b._shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a._shape[0]}x{a._shape[1]} and "
                           f"{b._shape[0]}x{b._shape[1]})")


def _bmm_shapes(a: Tensor, b: Tensor) -> None:
    if b._shape[-2] != a._shape[-1]:
        want = list(a._shape[:-2]) + [a._shape[-1]]
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: {want} but got: "
                           f"{list(b._shape[:-2]) + [b._shape[-2]]}.")


def _broadcast_batch(a, b) -> None:
    sa, sb = a[::-1], b[::-1]
    for i in range(min(len(sa), len(sb))):
        if sa[i] != sb[i] and sa[i] != 1 and sb[i] != 1:
            dim = max(len(a), len(b)) - 1 - i
            raise RuntimeError(f"The size of tensor a ({sa[i]}) must match the size of tensor b ({sb[i]}) at "
                               f"non-singleton dimension {dim}")


def _size(t: Tensor, d: int) -> int:
    n = max(t.dim(), 1)
    if not -n <= d < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")
    return t._shape[d]


def _foldable(x: Tensor) -> bool:
    """Can x's dims before the last merge into one without a copy?"""
    dims = [(s, st) for s, st in zip(x._shape[:-1], x._stride[:-1]) if s != 1]
    return all(dims[i][1] == dims[i + 1][1] * dims[i + 1][0] for i in range(len(dims) - 1))


def to_scalar(r: Tensor) -> Tensor:
    """A one-element tensor as a 0-d tensor, differentiable (its backward expands, which a reshape of
    a 0-d gradient to (1, 1) cannot do here)."""
    shape = r._shape
    out = Tensor._make(r._storage, (), r.dtype, r.device, (), r._offset)
    autograd.record("ViewBackward0", [r], [out], lambda g: (g.expand(shape),))
    return out


def _out(r: Tensor, out) -> Tensor:
    """r written into a caller's ``out=`` tensor; the error names the op that called (mm, matmul, ...)."""
    if out is None:
        return r
    if r.grad_fn is not None:
        op = sys._getframe(1).f_code.co_name
        raise RuntimeError(f"{op}(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")
    from .memory import assign
    if tuple(out._shape) != tuple(r._shape):
        raise RuntimeError(f"out=: expected an out tensor of shape {list(r._shape)}, got {list(out._shape)}")
    assign(out, r)
    return out


# ---- the ops -------------------------------------------------------------------------------------------
def matmul(input: Tensor, other: Tensor, *, out=None) -> Tensor:
    """Matrix product with PyTorch's rules: 1-D . 1-D is a dot product, a 1-D operand is taken as a
    row (left) or a column (right) and its dim removed, and batch dims broadcast.

    Example::

        >>> import borch_webgpu as torch
        >>> (torch.ones(2, 1, 3, 4) @ torch.ones(5, 4, 2)).shape
        torch.Size([2, 5, 3, 2])
    """
    _tensors("matmul", ("input", input), ("other", other))
    a, b = input, other
    if isinstance(a, Tensor) and isinstance(b, Tensor) and (a.dtype.is_complex or b.dtype.is_complex):
        from . import _complex_linalg   # numpy on the host (complex tensors are held there)
        return _out(_complex_linalg.matmul(a, b), out)
    da, db = a.dim(), b.dim()
    if da == 0 or db == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D")
    if da == 1 and db == 1:
        return _out(dot(a, b), out)
    _same_dtype("addmm_impl_cpu_", a, b)
    if da == 2 and db == 1:
        return _out(mv(a, b), out)
    if da <= 2 and db == 2:
        a2 = a.unsqueeze(0) if da == 1 else a
        _mm_shapes(a2, b)
        r = _gemm(a2, b)
        return _out(r.squeeze(0) if da == 1 else r, out)
    K = a._shape[-1]
    b2 = b.unsqueeze(-1) if db == 1 else b
    if db <= 2 and _foldable(a):
        # (..., M, K) @ (K, N): one (batch * M, K) @ (K, N) product, whose weight gradient is one product too
        lead = math.prod(a._shape[:-1])
        _mm_shapes(a.reshape(lead, K), b2)
        r = _gemm(a.reshape(lead, K), b2)
        return _out(r.reshape(a._shape[:-1] + ((b._shape[-1],) if db == 2 else ())), out)
    a2 = a.unsqueeze(0) if da == 1 else a
    _broadcast_batch(a2._shape[:-2], b2._shape[:-2])
    _bmm_shapes(a2, b2)
    r = _gemm(a2, b2, name="BmmBackward0")
    if da == 1:
        r = r.squeeze(-2)
    if db == 1:
        r = r.squeeze(-1)
    return _out(r, out)


def mm(input: Tensor, mat2: Tensor, *, out=None) -> Tensor:
    """(n, k) @ (k, m) -> (n, m); no broadcasting.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.mm(torch.ones(2, 3), torch.ones(3, 4)).tolist()[0]
        [3.0, 3.0, 3.0, 3.0]
    """
    _tensors("mm", ("input", input), ("mat2", mat2))
    if input.dim() != 2:
        raise RuntimeError("self must be a matrix")
    if mat2.dim() != 2:
        raise RuntimeError("mat2 must be a matrix")
    _same_dtype("addmm_impl_cpu_", input, mat2)
    _mm_shapes(input, mat2)
    return _out(_gemm(input, mat2), out)


def _check_bmm(a: Tensor, b: Tensor) -> None:
    if a.dim() != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b.dim() != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if a._shape[0] != b._shape[0]:
        raise RuntimeError(f"batch1 and batch2 must have same number of batches, got {a._shape[0]} and "
                           f"{b._shape[0]}")
    _bmm_shapes(a, b)


def bmm(input: Tensor, mat2: Tensor, *, out=None) -> Tensor:
    """(b, n, k) @ (b, k, m) -> (b, n, m); no broadcasting.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.bmm(torch.ones(5, 2, 3), torch.ones(5, 3, 4)).shape
        torch.Size([5, 2, 4])
    """
    _tensors("bmm", ("input", input), ("mat2", mat2))
    _check_bmm(input, mat2)
    _same_dtype("bmm", input, mat2)
    return _out(_gemm(input, mat2, name="BmmBackward0"), out)


def mv(input: Tensor, vec: Tensor, *, out=None) -> Tensor:
    """(n, k) @ (k,) -> (n,).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.mv(torch.tensor([[1., 2.], [3., 4.]]), torch.tensor([1., 1.])).tolist()
        [3.0, 7.0]
    """
    _tensors("mv", ("input", input), ("vec", vec))
    if input.dim() != 2 or vec.dim() != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {input.dim()}, {vec.dim()}")
    if input._shape[1] != vec._shape[0]:
        raise RuntimeError(f"size mismatch, got input ({input._shape[0]}), mat ({input._shape[0]}x{input._shape[1]}), "
                           f"vec ({vec._shape[0]})")
    _same_dtype("addmv_impl_cpu", input, vec)
    return _out(_gemm(input, vec.unsqueeze(-1), name="MvBackward0").squeeze(-1), out)


def dot(input: Tensor, tensor: Tensor, *, out=None) -> Tensor:
    """The inner product of two 1-D tensors (a 0-d tensor).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.dot(torch.tensor([1., 2., 3.]), torch.tensor([4., 5., 6.])).item()
        32.0
    """
    _tensors("dot", ("input", input), ("tensor", tensor))
    a, b = input, tensor
    if a.dim() != 1 or b.dim() != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.dim()}D and {b.dim()}D tensors")
    if a.dtype is not b.dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {_SCALAR[a.dtype.name]} and "
                           f"{_SCALAR[b.dtype.name]}")
    if a._shape[0] != b._shape[0]:
        n, m = a._shape[0], b._shape[0]
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to have the same number "
                           f"of elements, but got {n} and {m} elements respectively")
    if a.dtype.is_complex:
        from . import _complex_linalg   # numpy on the host, with PyTorch's complex gradient
        return _out(_complex_linalg.matmul(a, b), out)
    _same_dtype("dot", a, b)
    r = _gemm(a.detach().unsqueeze(0), b.detach().unsqueeze(-1))
    r = Tensor._make(r._storage, (), r.dtype, r.device)
    if r.dtype.is_floating_point:
        need = (a.requires_grad, b.requires_grad)
        autograd.record("DotBackward0", [a, b], [r], lambda g: (g * b if need[0] else None, g * a if need[1] else None),
                        [a, b])
    return _out(r, out)


def outer(input: Tensor, vec2: Tensor, *, out=None) -> Tensor:
    """(n,) x (m,) -> (n, m): ``input[i] * vec2[j]``, with type promotion (PyTorch's definition).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.outer(torch.tensor([1, 2]), torch.tensor([1., 10.])).tolist()
        [[1.0, 10.0], [2.0, 20.0]]
    """
    _tensors("outer", ("input", input), ("vec2", vec2))
    for name, x in (("self", input), ("vec2", vec2)):
        if x.dim() != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {x.dim()}-D")
    from .elementwise import mul
    return _out(mul(input.reshape(input._shape[0], 1), vec2), out)


ger = outer


def addmm(input: Tensor, mat1: Tensor, mat2: Tensor, *, beta=1, alpha=1, out=None) -> Tensor:
    """``beta * input + alpha * (mat1 @ mat2)``; input broadcasts to (n, m). beta == 0 ignores input;
    the sum is the product kernel's epilogue, not a second pass.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.addmm(torch.tensor([1., 2.]), torch.ones(1, 3), torch.ones(3, 2), beta=2).tolist()
        [[5.0, 7.0]]
    """
    _tensors("addmm", ("input", input), ("mat1", mat1), ("mat2", mat2))
    for name, x in (("mat1", mat1), ("mat2", mat2)):
        if x.dim() != 2:
            raise RuntimeError(f"{name} must be a matrix, got {x.dim()}-D tensor")
    _mm_shapes(mat1, mat2)
    _same_dtype("addmm_impl_cpu_", mat1, mat2, input)
    beta, alpha = _scalars("addmm", mat1.dtype, beta, alpha)
    input.detach().expand(mat1._shape[0], mat2._shape[1])  # PyTorch's error when input does not broadcast
    return _out(_gemm(mat1, mat2, input, alpha, beta, name="AddmmBackward0"), out)


def baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta=1, alpha=1, out=None) -> Tensor:
    """``beta * input + alpha * (batch1 @ batch2)``; input broadcasts to (b, n, m). beta == 0 ignores input.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.baddbmm(torch.zeros(2, 1), torch.ones(4, 2, 3), torch.ones(4, 3, 1), alpha=0.5).shape
        torch.Size([4, 2, 1])
    """
    _tensors("baddbmm", ("input", input), ("batch1", batch1), ("batch2", batch2))
    # PyTorch's order: the result's size from the operands (IndexError on too few dims), input's
    # broadcast to it, then the checks of bmm
    input.detach().expand(_size(batch1, 0), _size(batch1, 1), _size(batch2, 2))
    _check_bmm(batch1, batch2)
    _same_dtype("baddbmm", batch1, batch2, input)
    beta, alpha = _scalars("baddbmm", batch1.dtype, beta, alpha)
    return _out(_gemm(batch1, batch2, input, alpha, beta, name="BaddbmmBackward0"), out)


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
def _mat(reflected):
    def f(self, other):
        if not isinstance(other, Tensor):
            return NotImplemented
        return matmul(other, self) if reflected else matmul(self, other)
    return f


methods(("matmul", matmul), ("mm", mm), ("bmm", bmm), ("mv", mv), ("dot", dot))
api("outer", outer, aliases=("ger",))
methods(("addmm", addmm), ("baddbmm", baddbmm), inplace=True)
api("__matmul__", method=_mat(False))
api("__rmatmul__", method=_mat(True))
