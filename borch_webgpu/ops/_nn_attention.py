"""Attention: ``scaled_dot_product_attention`` and ``multi_head_attention_forward`` (what
``nn.MultiheadAttention`` calls), written with matmul, softmax and masks."""
from __future__ import annotations

import math
import warnings

from .. import _dtype
from ..tensor import Tensor
from ._registry import OpDef, register
from .nn_ops import dropout, linear

__all__ = ["scaled_dot_product_attention", "multi_head_attention_forward"]

# two GEMMs (q @ k^T over head_dim, weights @ v over the keys) around a softmax: the matmul bound
register(OpDef("scaled_dot_product_attention", "nn", None, None, tol=(1e-5, 1e-4),
               doc="softmax(q @ k^T * scale + mask) @ v; fully masked rows give 0"))


def _safe_softmax(scores: Tensor) -> Tensor:
    """Softmax over the last dim that gives 0 (not NaN) on rows where every score is -inf, as
    PyTorch's attention does; differentiable (its gradient there is 0)."""
    from .elementwise import where
    m = scores.detach().amax(-1, keepdim=True)
    m = where(m == float("-inf"), 0.0, m)
    e = (scores - m).exp()
    s = e.sum(-1, keepdim=True)
    return e / where(s == 0, 1.0, s)


def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None = None,
                                 dropout_p: float = 0.0, is_causal: bool = False, scale: float | None = None,
                                 enable_gqa: bool = False) -> Tensor:
    """``softmax(query @ key^T * scale + mask) @ value`` over (..., L, E), (..., S, E), (..., S, Ev).
    A bool ``attn_mask`` marks the positions that may be attended (True = keep); a float one is added.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> q = k = v = torch.ones(1, 2, 3, 4)
        >>> F.scaled_dot_product_attention(q, k, v, is_causal=True).shape
        torch.Size([1, 2, 3, 4])
    """
    from .creation import ones
    if min(query.dim(), key.dim(), value.dim()) < 2:
        raise RuntimeError(f"Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: "
                           f"{query.dim()} key.dim: {key.dim()} and value.dim: {value.dim()} instead.")
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
    if dropout_p > 1.0:  # PyTorch's dropout check; a negative p means no dropout there, as here
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {dropout_p}")
    if attn_mask is not None and attn_mask.dtype is not _dtype.bool_ and attn_mask.dtype is not query.dtype:
        names = {"float32": "float", "float16": "c10::Half", "bfloat16": "c10::BFloat16", "float64": "double", "int64": "long int", "int32": "int",
                 "int16": "short int", "int8": "signed char", "uint8": "unsigned char"}
        raise RuntimeError(f"Expected attn_mask dtype to be bool or float or to match query dtype, but got "
                           f"attn_mask.dtype: {names.get(attn_mask.dtype.name, attn_mask.dtype.name)} and  "
                           f"query.dtype: {names.get(query.dtype.name, query.dtype.name)} instead.")
    L, S = query.shape[-2], key.shape[-2]
    if enable_gqa and query.dim() >= 3 and key.shape[-3] != query.shape[-3]:
        hq, hk = query.shape[-3], key.shape[-3]
        if hq % hk != 0:
            raise RuntimeError(f"scaled_dot_product_attention: number of heads in query ({hq}) must be a multiple "
                               f"of the number of heads in key/value ({hk}) with enable_gqa=True")
        key, value = _repeat_heads(key, hq // hk), _repeat_heads(value, hq // hk)
    s = 1.0 / math.sqrt(query.shape[-1]) if scale is None else float(scale)
    scores = (query @ key.transpose(-2, -1)) * s
    if is_causal:
        keep = ones((L, S), dtype=_dtype.bool_, device=query.device).tril()
        scores = scores.masked_fill(~keep, float("-inf"))
    if attn_mask is not None:
        _check_mask_fits(tuple(scores.shape), tuple(attn_mask.shape))
        if attn_mask.dtype is _dtype.bool_:
            scores = scores.masked_fill(~attn_mask, float("-inf"))
        else:
            scores = scores + attn_mask
    attn = _safe_softmax(scores)
    if dropout_p > 0.0:
        attn = dropout(attn, dropout_p, training=True)
    return attn @ value


def _check_mask_fits(scores: tuple, mask: tuple) -> None:
    """PyTorch adds the mask to the scores in place: it must broadcast to them, not grow them."""
    nd = max(len(scores), len(mask))
    out = [1] * (nd - len(scores)) + list(scores)
    m = [1] * (nd - len(mask)) + list(mask)
    for i in reversed(range(nd)):
        if m[i] != 1 and out[i] != 1 and m[i] != out[i]:
            raise RuntimeError(f"The size of tensor a ({out[i]}) must match the size of tensor b ({m[i]}) at "
                               f"non-singleton dimension {i}")
    if nd > len(scores) or any(o == 1 and k != 1 for o, k in zip(out, m)):
        grown = [max(o, k) for o, k in zip(out, m)]
        raise RuntimeError(f"output with shape {list(scores)} doesn't match the broadcast shape {grown}")


def _repeat_heads(x: Tensor, n: int) -> Tensor:
    """(..., H, S, E) -> (..., H * n, S, E), each head repeated n times in a row (repeat_interleave)."""
    shape = tuple(x.shape)
    lead, h = shape[:-3], shape[-3]
    return x.unsqueeze(-3).expand(lead + (h, n) + shape[-2:]).reshape(lead + (h * n,) + shape[-2:])


def _canonical_mask(mask, mask_name: str, other_type, other_name: str, target_type, check_other: bool = True):
    """A bool mask as a float one (-inf where True), as F._canonical_mask."""
    if mask is None:
        return None
    if mask.dtype is not _dtype.bool_ and not mask.dtype.is_floating_point:
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype is not other_type:
        warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. Use same type for both "
                      "instead.", stacklevel=3)
    if not mask.dtype.is_floating_point:
        from .creation import zeros
        mask = zeros(tuple(mask.shape), dtype=target_type, device=mask.device).masked_fill(mask, float("-inf"))
    return mask


def _none_or_dtype(t):
    return None if t is None else t.dtype


def _shape_check(query, key, value, key_padding_mask, attn_mask, num_heads) -> bool:
    """True when batched (3-D inputs), False for unbatched 2-D ones; PyTorch's checks and messages."""
    if query.dim() == 3:
        if key.dim() != 3 or value.dim() != 3:
            raise AssertionError("For batched (3-D) `query`, expected `key` and `value` to be 3-D but found "
                                 f"{key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 2:
            raise AssertionError("For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D but "
                                 f"found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None and attn_mask.dim() not in (2, 3):
            raise AssertionError("For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but "
                                 f"found {attn_mask.dim()}-D tensor instead")
        return True
    if query.dim() == 2:
        if key.dim() != 2 or value.dim() != 2:
            raise AssertionError("For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but found "
                                 f"{key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 1:
            raise AssertionError("For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D but "
                                 f"found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None:
            if attn_mask.dim() not in (2, 3):
                raise AssertionError("For unbatched (2-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D "
                                     f"but found {attn_mask.dim()}-D tensor instead")
            if attn_mask.dim() == 3:
                expected = (num_heads, query.shape[0], key.shape[0])
                if tuple(attn_mask.shape) != expected:
                    raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got "
                                         f"{attn_mask.shape}")
        return False
    raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received {query.dim()}-D query "
                         "tensor")


def _in_projection_packed(q: Tensor, k: Tensor, v: Tensor, w: Tensor, b: Tensor | None):
    """q, k and v through the packed (3E, E) in-projection as PyTorch does it: one GEMM for self-attention,
    two when key is value (so a bad key shape fails in the same GEMM, with PyTorch's message), else three."""
    e = q.shape[-1]
    if k is v:
        if q is k:
            return linear(q, w, b).chunk(3, dim=-1)
        w_q, w_kv = w.split([e, 2 * e])
        b_q, b_kv = b.split([e, 2 * e]) if b is not None else (None, None)
        return (linear(q, w_q, b_q), *linear(k, w_kv, b_kv).chunk(2, dim=-1))
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = b.chunk(3) if b is not None else (None, None, None)
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def multi_head_attention_forward(query, key, value, embed_dim_to_check: int, num_heads: int, in_proj_weight,
                                 in_proj_bias, bias_k, bias_v, add_zero_attn: bool, dropout_p: float,
                                 out_proj_weight, out_proj_bias, training: bool = True, key_padding_mask=None,
                                 need_weights: bool = True, attn_mask=None, use_separate_proj_weight: bool = False,
                                 q_proj_weight=None, k_proj_weight=None, v_proj_weight=None, static_k=None,
                                 static_v=None, average_attn_weights: bool = True, is_causal: bool = False):
    """Multi-head attention on (L, N, E) inputs (or unbatched (L, E)), PyTorch's algorithm step for step:
    in-projection, optional bias_k/bias_v and zero attention, masks merged as -inf, then attention
    (explicit weights when ``need_weights``, else scaled_dot_product_attention), out-projection.
    Returns ``(output, weights or None)``."""
    from .creation import zeros
    from .reduce import softmax
    from .shape import cat, pad
    is_batched = _shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask", _none_or_dtype(attn_mask), "attn_mask",
                                       query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                           "method `generate_square_subsequent_mask` to create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if key_padding_mask is not None:
            is_causal = False
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if tuple(key.shape[:2]) != tuple(value.shape[:2]):
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match value's "
                                 f"{value.shape[:2]}")
        b_q = b_k = b_v = None
        if in_proj_bias is not None:
            b_q, b_k, b_v = in_proj_bias.chunk(3)
        q, k, v = linear(query, q_proj_weight, b_q), linear(key, k_proj_weight, b_k), linear(value, v_proj_weight,
                                                                                              b_v)
    else:
        if tuple(key.shape) != tuple(value.shape):
            raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    if attn_mask is not None:
        if attn_mask.dim() == 2:
            if tuple(attn_mask.shape) != (tgt_len, src_len):
                raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be "
                                   f"{(tgt_len, src_len)}.")
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            if tuple(attn_mask.shape) != (bsz * num_heads, tgt_len, src_len):
                raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                                   f"{(bsz * num_heads, tgt_len, src_len)}.")
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")
    if bias_k is not None and bias_v is not None:
        k = cat([k, bias_k.repeat(1, bsz, 1)])
        v = cat([v, bias_v.repeat(1, bsz, 1)])
        if attn_mask is not None:
            attn_mask = pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = pad(key_padding_mask, (0, 1))
    q = q.reshape(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = (k.reshape(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1) if static_k is None else static_k)
    v = (v.reshape(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1) if static_v is None else static_v)
    if add_zero_attn:
        z = zeros((bsz * num_heads, 1, head_dim), dtype=k.dtype, device=k.device)
        k, v = cat([k, z], dim=1), cat([v, z], dim=1)
        if attn_mask is not None:
            attn_mask = pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = pad(key_padding_mask, (0, 1))
    src_len = k.shape[1]
    if key_padding_mask is not None:
        for d, want in enumerate((bsz, src_len)):
            if key_padding_mask.shape[d] != want:
                raise AssertionError(f"Expected key_padded_mask.shape[{d}] to be {want}, but got "
                                     f"{key_padding_mask.shape[d]}")
        kpm = key_padding_mask.reshape(bsz, 1, 1, src_len).expand(bsz, num_heads, 1, src_len).reshape(
            bsz * num_heads, 1, src_len)
        attn_mask = kpm if attn_mask is None else attn_mask + kpm
    if not training:
        dropout_p = 0.0
    if need_weights:
        q_scaled = q * math.sqrt(1.0 / float(head_dim))
        scores = q_scaled @ k.transpose(-2, -1)
        if attn_mask is not None:
            scores = scores + attn_mask
        weights = softmax(scores, dim=-1)
        if dropout_p > 0.0:
            weights = dropout(weights, p=dropout_p)
        out = (weights @ v).transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        out = linear(out, out_proj_weight, out_proj_bias).reshape(tgt_len, bsz, -1)
        weights = weights.reshape(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not is_batched:
            out, weights = out.squeeze(1), weights.squeeze(0)
        return out, weights
    if attn_mask is not None:
        if attn_mask.shape[0] == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.reshape(bsz, num_heads, -1, src_len)
    q = q.reshape(bsz, num_heads, tgt_len, head_dim)
    k = k.reshape(bsz, num_heads, src_len, head_dim)
    v = v.reshape(bsz, num_heads, src_len, head_dim)
    out = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = out.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    out = linear(out, out_proj_weight, out_proj_bias).reshape(tgt_len, bsz, -1)
    if not is_batched:
        out = out.squeeze(1)
    return out, None
