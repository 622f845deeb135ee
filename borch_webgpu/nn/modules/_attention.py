"""``MultiheadAttention`` (PyTorch keeps it in ``nn.modules.activation``, which re-exports it from
here), with PyTorch's parameter names (so state dicts load across), written over ``nn.functional``."""
from __future__ import annotations

from ...ops._nn_attention import _canonical_mask, _none_or_dtype
from ...ops.creation import empty
from ...tensor import Tensor
from .. import functional as F
from ..init import constant_, xavier_normal_, xavier_uniform_
from ..parameter import Parameter
from .linear import NonDynamicallyQuantizableLinear
from .module import Module

__all__ = ["MultiheadAttention"]


class MultiheadAttention(Module):
    """Attention over ``num_heads`` heads of size ``embed_dim // num_heads``: inputs (L, N, E), or
    (N, L, E) with ``batch_first``, or unbatched (L, E). Returns ``(output, weights)``; the weights
    are averaged over the heads unless ``average_attn_weights=False``, None with ``need_weights=False``.

    Masks: ``key_padding_mask`` (N, S) and bool ``attn_mask`` (L, S) or (N * heads, L, S) mark with
    True the positions that may NOT be attended; float masks are added to the scores.

    Example::

        >>> import borch_webgpu as torch
        >>> mha = torch.nn.MultiheadAttention(16, 4, batch_first=True)
        >>> x = torch.randn(2, 5, 16)
        >>> out, w = mha(x, x, x)
        >>> out.shape, w.shape
        (torch.Size([2, 5, 16]), torch.Size([2, 5, 5]))
    """

    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, device=None, dtype=None) -> None:
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} and "
                             f"num_heads={num_heads} instead")
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        fk = {"device": device, "dtype": dtype}
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(empty((embed_dim, embed_dim), **fk))
            self.k_proj_weight = Parameter(empty((embed_dim, self.kdim), **fk))
            self.v_proj_weight = Parameter(empty((embed_dim, self.vdim), **fk))
            self.register_parameter("in_proj_weight", None)
        else:
            self.in_proj_weight = Parameter(empty((3 * embed_dim, embed_dim), **fk))
            self.register_parameter("q_proj_weight", None)
            self.register_parameter("k_proj_weight", None)
            self.register_parameter("v_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(empty(3 * embed_dim, **fk))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, **fk)
        if add_bias_kv:
            self.bias_k = Parameter(empty((1, 1, embed_dim), **fk))
            self.bias_v = Parameter(empty((1, 1, embed_dim), **fk))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self) -> None:
        if self._qkv_same_embed_dim:
            xavier_uniform_(self.in_proj_weight)
        else:
            xavier_uniform_(self.q_proj_weight)
            xavier_uniform_(self.k_proj_weight)
            xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None:
            constant_(self.in_proj_bias, 0.0)
            constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            xavier_normal_(self.bias_v)

    def _fast_path(self, query, key, value, attn_mask, key_padding_mask) -> bool:
        """Whether PyTorch would run its fused inference kernel (``_native_multi_head_attention``) here: the
        same numbers as the general path, except that it ignores ``is_causal``."""
        from ...autograd import is_grad_enabled
        if any(m is not None and m.dtype.is_floating_point for m in (attn_mask, key_padding_mask)):
            return False
        if (query.dim() != 3 or query is not key or key is not value or self.in_proj_weight is None
                or self.in_proj_bias is None or query.dtype is not self.in_proj_weight.dtype or self.training
                or self.num_heads % 2 or not self.batch_first or self.bias_k is not None or self.add_zero_attn):
            return False
        args = (query, self.in_proj_weight, self.in_proj_bias, self.out_proj.weight, self.out_proj.bias)
        return not (is_grad_enabled() and any(t is not None and t.requires_grad for t in args))

    def forward(self, query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Tensor | None = None,
                need_weights: bool = True, attn_mask: Tensor | None = None, average_attn_weights: bool = True,
                is_causal: bool = False):
        is_batched = query.dim() == 3
        if is_causal and attn_mask is None and self._fast_path(query, key, value, attn_mask, key_padding_mask):
            is_causal = False   # PyTorch's fused kernel takes no is_causal: it attends to every position
        key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask", _none_or_dtype(attn_mask),
                                           "attn_mask", query.dtype)
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if self.batch_first and is_batched:  # keeping "query is key is value" for the packed in-projection
            if key is value:
                query, key = (x.transpose(1, 0) for x in (query, key)) if query is not key else (
                    query.transpose(1, 0),) * 2
                value = key
            else:
                query, key, value = (x.transpose(1, 0) for x in (query, key, value))
        separate = not self._qkv_same_embed_dim
        out, weights = F.multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight, self.in_proj_bias, self.bias_k,
            self.bias_v, self.add_zero_attn, self.dropout, self.out_proj.weight, self.out_proj.bias,
            training=self.training, key_padding_mask=key_padding_mask, need_weights=need_weights,
            attn_mask=attn_mask, use_separate_proj_weight=separate, q_proj_weight=self.q_proj_weight,
            k_proj_weight=self.k_proj_weight, v_proj_weight=self.v_proj_weight,
            average_attn_weights=average_attn_weights, is_causal=is_causal)
        if self.batch_first and is_batched:
            return out.transpose(1, 0), weights
        return out, weights
