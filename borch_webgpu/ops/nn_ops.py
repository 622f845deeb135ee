"""``torch.nn.functional``'s layers written with other ops (so autograd differentiates them):
linear, bilinear, dropout, embedding, one_hot here; normalisations in _nn_norm.py, attention in
_nn_attention.py, losses in _nn_loss.py (nn/functional.py gathers them). One OpDef per public op (family "nn", no kernel of its own)."""
from __future__ import annotations

import builtins
import dataclasses
import math

from .. import _dtype, autograd
from ..tensor import Tensor
from ._registry import OpDef, register

# GEMM-based ops: float32 dot products of length K summed in another order than PyTorch's BLAS
# (the same bound as ops/linalg.py's matmul: ~2e-5 absolute at K = 1024 for |x| <= 1, 5x margin).
_GEMM_TOL = (1e-5, 1e-4)
register(OpDef("linear", "nn", None, None, tol=_GEMM_TOL, doc="input @ weight.T + bias, bias in the GEMM epilogue"))
register(OpDef("bilinear", "nn", None, None, tol=_GEMM_TOL, doc="x1 @ W_k @ x2 + b_k: one GEMM, a multiply, a sum"))
# dropout multiplies by a mask of 0 and 1/(1-p) (computed in float32 as PyTorch does): exact
register(OpDef("dropout", "nn", None, None, tol=(0, 0), doc="input * bernoulli(1-p) mask / (1-p)"))
register(OpDef("dropout2d", "nn", None, None, tol=(0, 0), doc="dropout of whole channels"))
# embedding copies rows (exact); its gradient adds rows with atomics (order-dependent, see replay's grad tol)
register(OpDef("embedding", "nn", None, None, tol=(0, 0), doc="weight rows at the indices"))
register(OpDef("one_hot", "nn", None, None, tol=(0, 0), doc="int64 one-hot rows (a scatter of ones)"))

__all__ = ["linear", "bilinear", "dropout", "dropout1d", "dropout2d", "embedding", "one_hot"]


def _check_tensor(op: str, name: str, pos: int, x) -> None:
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}(): argument '{name}' (position {pos}) must be Tensor, not {type(x).__name__}")


# ---- linear layers ----------------------------------------------------------------------------------------
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``input @ weight.T + bias``: input (*, in_features), weight (out_features, in_features).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.linear(torch.ones(2, 3), torch.ones(4, 3), torch.zeros(4)).tolist()[0]
        [3.0, 3.0, 3.0, 3.0]
    """
    from .linalg import _foldable, _gemm, _mm_shapes, _same_dtype, matmul
    _check_tensor("linear", "input", 1, input)
    _check_tensor("linear", "weight", 2, weight)
    if input.dim() >= 1 and weight.dim() == 2 and _foldable(input) and not (
            input.dtype.is_complex or weight.dtype.is_complex):   # complex: matmul's numpy path below
        lead, k = input.shape[:-1], input.shape[-1]
        a = input.reshape(math.prod(lead), k) if input.dim() != 2 else input
        wt = weight.t()
        _mm_shapes(a, wt)
        _same_dtype("addmm_impl_cpu_", a, wt)
        if bias is not None:
            _check_tensor("linear", "bias", 3, bias)
            bias.detach().expand(a.shape[0], wt.shape[1])  # PyTorch's error when bias does not broadcast
        out = _gemm(a, wt, bias, name="AddmmBackward0" if bias is not None else "MmBackward0")
        return out if input.dim() == 2 else _linear_out(out, tuple(lead) + (wt.shape[1],), bias is None)
    out = matmul(input, weight.t())
    return out + bias if bias is not None else out


def _linear_out(out: Tensor, shape: tuple, no_bias: bool) -> Tensor:
    """The (B, out_features) GEMM result seen as ``shape``, with the grad_fn PyTorch's linear gives it:
    ViewBackward0 after addmm; after mm, SqueezeBackward4 for a 1-D input and UnsafeViewBackward0 above 2-D."""
    if not no_bias:
        return out.reshape(shape)
    from .views import make_view
    from ..device.gpu_backend import contiguous_strides
    res = make_view(out, shape, contiguous_strides(shape), out._offset)
    res._base = None  # _unsafe_view and this squeeze give a tensor of its own, not a view of the GEMM output
    gemm_shape = out._shape
    autograd.record("SqueezeBackward4" if len(shape) == 1 else "UnsafeViewBackward0", [out], [res],
                    lambda g: (g.reshape(gemm_shape),))
    return res


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``y_k = input1 @ weight[k] @ input2 + bias[k]``: inputs (*, in1) and (*, in2), weight (out, in1, in2)."""
    x1, x2 = input1, input2
    if x1.dim() != x2.dim():
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {x1.dim()} and {x2.dim()}")
    for i in range(x1.dim() - 1):
        if x1.shape[i] != x2.shape[i]:
            raise RuntimeError(f"bilinear(): input batch dimensions do not match at dim {i}: got {x1.shape[i]} and "
                               f"{x2.shape[i]}")
    if x1.shape[-1] != weight.shape[1]:
        raise RuntimeError(f"bilinear(): input1 size does not match weight size: got {x1.shape[-1]} but expected "
                           f"{weight.shape[1]}")
    if x2.shape[-1] != weight.shape[2]:
        raise RuntimeError(f"bilinear(): input2 size does not match weight size: got {x2.shape[-1]} but expected "
                           f"{weight.shape[2]}")
    if bias is not None and bias.shape[0] != weight.shape[0]:
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got {bias.shape[0]} but expected "
                           f"{weight.shape[0]}")
    o, i, j = weight.shape
    lead = tuple(x1.shape[:-1])
    t = x1.reshape(-1, i) @ weight.permute(1, 0, 2).reshape(i, o * j)       # (B, O * J)
    y = (t.reshape(-1, o, j) * x2.reshape(-1, 1, j)).sum(-1)                # (B, O)
    if bias is not None:
        y = y + bias
    return y.reshape(lead + (o,))


# ---- dropout ------------------------------------------------------------------------------------------------
def _check_p(p) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _apply_mask(input: Tensor, mask_shape, p: float, inplace: bool) -> Tensor:
    from .random import rand
    if p == 1.0:
        mask = 0.0
    else:
        keep = rand(tuple(mask_shape), device=input.device) < (1.0 - p)
        mask = keep.to(input.dtype) / (1.0 - p)
    if inplace:
        return input.mul_(mask)
    return input * mask


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)`` (only when ``training``).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> x = torch.ones(1000)
        >>> y = F.dropout(x, 0.5)
        >>> sorted(set(y.tolist()))
        [0.0, 2.0]
        >>> F.dropout(x, 0.5, training=False) is x
        True
    """
    _check_p(p)
    if not training or p == 0.0 or input.numel() == 0:
        return input
    return _apply_mask(input, input.shape, p, inplace)


def _feature_dropout(input: Tensor, p: float, training: bool, inplace: bool) -> Tensor:
    if not training or p == 0.0 or input.numel() == 0:
        return input
    if input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    shape = tuple(input.shape[:2]) + (1,) * (input.dim() - 2)
    return _apply_mask(input, shape, p, inplace)


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero whole channels of (N, C, L) or (C, L) inputs with probability ``p``."""
    _check_p(p)
    if input.dim() not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {input.dim()}D input. Note that "
                           "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial dimension, a "
                           "channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs).")
    if input.dim() == 2:  # unbatched (C, L)
        if not training or p == 0.0 or input.numel() == 0:
            return input
        return _feature_dropout(input.unsqueeze(0), p, training, inplace).squeeze(0)
    return _feature_dropout(input, p, training, inplace)


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero whole channels of (N, C, H, W) inputs with probability ``p`` (a 3-D input is taken as (N, C, L),
    as PyTorch does, with its warning)."""
    import warnings
    _check_p(p)
    d = input.dim()
    if d not in (3, 4):
        warnings.warn(f"dropout2d: Received a {d}-D input to dropout2d, which is deprecated and will result in an "
                      "error in a future release. To retain the behavior and silence this warning, please use "
                      "dropout instead. Note that dropout2d exists to provide channel-wise dropout on inputs with 2 "
                      "spatial dimensions, a channel dimension, and an optional batch dimension (i.e. 3D or 4D "
                      "inputs).", stacklevel=2)
    if d == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout "
                      "behavior is desired - input is interpreted as shape (N, C, L), where C is the channel dim. "
                      "This behavior will change in a future release to interpret the input as one without a batch "
                      "dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please "
                      "switch to using dropout1d instead.", stacklevel=2)
    return _feature_dropout(input, p, training, inplace)


# ---- embedding ------------------------------------------------------------------------------------------------
def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None, max_norm: float | None = None,
              norm_type: float = 2.0, scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """The rows of ``weight`` at the integer indices ``input``: output shape ``input.shape + (dim,)``.
    The row at ``padding_idx`` gets no gradient; ``max_norm`` renormalises the rows used, in place.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.embedding(torch.tensor([[0, 2]]), torch.arange(6.).reshape(3, 2)).tolist()
        [[[0.0, 1.0], [4.0, 5.0]]]
    """
    if weight.dim() != 2:
        raise RuntimeError("'weight' must be 2-D")
    num = weight.shape[0]
    if padding_idx is not None:
        if padding_idx > 0 and padding_idx >= num:
            raise AssertionError("Padding_idx must be within num_embeddings")
        if padding_idx < 0:
            if padding_idx < -num:
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx = num + padding_idx
    else:
        padding_idx = -1
    if not isinstance(input, Tensor) or input.dtype.category != 1:
        got = input.type() if isinstance(input, Tensor) else type(input).__name__
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got {got} instead (while checking arguments for embedding)")
    if sparse:
        raise NotImplementedError("embedding: sparse=True needs sparse gradients, which borch_webgpu does not have; "
                                  "use sparse=False")
    idx = input.reshape(-1)
    if max_norm is not None:
        _renorm_rows(weight, idx, float(max_norm), float(norm_type))
    dim = weight.shape[1]
    from .indexing import _index_select
    out = _index_select("embedding", weight.detach(), 0, idx).reshape(tuple(input.shape) + (dim,))

    def back(g):
        from .creation import ones, zeros
        g2 = g.reshape(-1, dim)
        if padding_idx >= 0:
            g2 = g2 * (idx != padding_idx).unsqueeze(1).to(g2.dtype)
        if scale_grad_by_freq:
            counts = zeros(num, dtype=g2.dtype, device=g2.device).index_add(0, idx, ones(idx.shape[0],
                                                                                         dtype=g2.dtype,
                                                                                         device=g2.device))
            g2 = g2 / counts.index_select(0, idx).unsqueeze(1)
        gw = zeros((num, dim), dtype=g2.dtype, device=g2.device).index_add(0, idx, g2)
        return (gw, None)
    autograd.record("EmbeddingBackward0", [weight, None], [out], back)
    return out


def _renorm_rows(weight: Tensor, idx: Tensor, max_norm: float, norm_type: float) -> None:
    """Scale (in place, no autograd) the rows of weight used by idx whose norm exceeds max_norm."""
    from .creation import zeros
    from .elementwise import where
    from .indexing import _put
    from .memory import assign
    with autograd.no_grad():
        w = weight.detach()
        used = zeros(w.shape[0], device=w.device)
        _put(used, 0, idx, idx._stride, 1.0, tuple(idx.shape), False, IndexError, _RenormMessage(tuple(w.shape)),
             op="embedding")
        used = used > 0
        norms = w.reshape(w.shape[0], -1).norm(p=norm_type, dim=1)
        scale = where(used & (norms > max_norm), max_norm / (norms + 1e-7), 1.0)
        assign(w, w * scale.reshape((-1,) + (1,) * (w.dim() - 1)))


@dataclasses.dataclass(frozen=True)
class _RenormMessage:
    """PyTorch's errors for a bad index of embedding(max_norm=...): its renorm selects each row (a
    negative index in range passes there, and fails in the lookup after it)."""
    shape: tuple

    def __call__(self, index: int, size: int) -> str:
        if -size <= index < 0:
            return "index out of range in self"
        return f"select(): index {index} out of range for tensor of size {list(self.shape)} at dimension 0"


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """Int64 rows of zeros with a one at each value of ``tensor`` (shape ``tensor.shape + (num_classes,)``);
    ``num_classes=-1`` takes the largest value + 1 (this reads the values).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.one_hot(torch.tensor([0, 2]), 3).tolist()
        [[1, 0, 0], [0, 0, 1]]
    """
    from .creation import zeros
    from .indexing import _put
    if not isinstance(tensor, Tensor) or tensor.dtype is not _dtype.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    n = tensor.numel()
    if n == 0:
        if num_classes <= 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        return zeros(tuple(tensor.shape) + (num_classes,), dtype=_dtype.int64, device=tensor.device)
    on_cpu = tensor._device.type == "cpu"
    if on_cpu and builtins.int(tensor.min().item()) < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        num_classes = builtins.int(tensor.max().item()) + 1
    elif on_cpu and num_classes <= builtins.int(tensor.max().item()):
        raise RuntimeError("Class values must be smaller than num_classes.")
    out = zeros(tuple(tensor.shape) + (num_classes,), dtype=_dtype.int64, device=tensor.device)
    idx = tensor.reshape(tuple(tensor.shape) + (1,)).contiguous()
    # a bad value inside a WebGPU tensor is found by the kernel (device/gpu_errors.py says when it is raised)
    _put(out, out.dim() - 1, idx, idx._stride, 1, idx.shape, False, RuntimeError, _one_hot_message, op="one_hot")
    return out


def _one_hot_message(index: int, size: int) -> str:
    """PyTorch's one_hot errors (on the cpu device they come from the checks above)."""
    return "Class values must be non-negative." if index < 0 else "Class values must be smaller than num_classes."
