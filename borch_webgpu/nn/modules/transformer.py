"""``Transformer``, its encoder and decoder stacks and their layers (``MultiheadAttention`` is in _attention.py),
with PyTorch's parameter and submodule names (so state dicts load across), written over ``nn.functional``."""
from __future__ import annotations

import copy
import warnings
from typing import Any, Callable

from ... import _dtype
from ...autograd import is_grad_enabled
from ...ops._nn_attention import _canonical_mask, _none_or_dtype
from ...ops.creation import arange, full
from ...tensor import Tensor
from .. import functional as F
from ..init import xavier_uniform_
from .activation import GELU, ReLU
from ._attention import MultiheadAttention
from .container import ModuleList
from .dropout import Dropout
from .linear import Linear
from .module import Module
from .normalization import LayerNorm

__all__ = ["MultiheadAttention", "Transformer", "TransformerEncoder", "TransformerDecoder",  # MultiheadAttention:
           "TransformerEncoderLayer", "TransformerDecoderLayer"]                          # PyTorch exports it here too


def _generate_square_subsequent_mask(sz: int, device=None, dtype=None) -> Tensor:
    return full((sz, sz), float("-inf"), dtype=dtype if dtype is not None else _dtype.get_default_dtype(),
                device=device).triu(1)


def _get_seq_len(src: Tensor, batch_first: bool) -> int:
    return src.shape[0] if src.dim() == 2 else src.shape[1 if batch_first else 0]


def _detect_is_causal_mask(mask: Tensor | None, is_causal: bool | None = None, size: int | None = None) -> bool:
    """``is_causal`` when given; when None, whether ``mask`` is exactly the square causal mask (a read back)."""
    make_causal = is_causal is True
    if is_causal is None and mask is not None:
        sz = size if size is not None else mask.shape[-2]
        causal = _generate_square_subsequent_mask(sz, device=mask.device, dtype=mask.dtype)
        make_causal = tuple(mask.shape) == tuple(causal.shape) and bool((mask == causal).all())
    return make_causal


def _get_activation_fn(activation: str) -> Callable[[Tensor], Tensor]:
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    raise RuntimeError(f"activation should be relu/gelu, not {activation}")


def _add_feed_forward_and_norms(layer: Module, n: int, d_model: int, dim_feedforward: int, dropout: float,
                                eps: float, norm_first: bool, bias: bool, fk: dict) -> None:
    """The feed-forward block, ``n`` LayerNorms and ``n`` residual dropouts, registered in PyTorch's order (the
    order of the state dict)."""
    layer.linear1 = Linear(d_model, dim_feedforward, bias=bias, **fk)
    layer.dropout = Dropout(dropout)
    layer.linear2 = Linear(dim_feedforward, d_model, bias=bias, **fk)
    layer.norm_first = norm_first
    for i in range(1, n + 1):
        setattr(layer, f"norm{i}", LayerNorm(d_model, eps=eps, bias=bias, **fk))
    for i in range(1, n + 1):
        setattr(layer, f"dropout{i}", Dropout(dropout))


def _get_clones(module: Module, n: int) -> ModuleList:
    return ModuleList([copy.deepcopy(module) for _ in range(n)])


class Transformer(Module):
    """The encoder-decoder model of "Attention Is All You Need": ``num_encoder_layers`` encoder layers and
    ``num_decoder_layers`` decoder layers, each stack followed by a LayerNorm. Inputs (S, N, E) and (T, N, E),
    or (N, S, E) / (N, T, E) with ``batch_first``, or unbatched (S, E) / (T, E); the output has tgt's shape.

    Example::

        >>> import borch_webgpu as torch
        >>> model = torch.nn.Transformer(d_model=16, nhead=4, num_encoder_layers=1, num_decoder_layers=1,
        ...                              dim_feedforward=32, batch_first=True)
        >>> src, tgt = torch.randn(2, 5, 16), torch.randn(2, 3, 16)
        >>> mask = torch.nn.Transformer.generate_square_subsequent_mask(3)
        >>> model(src, tgt, tgt_mask=mask, tgt_is_causal=True).shape
        torch.Size([2, 3, 16])
    """

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6, num_decoder_layers: int = 6,
                 dim_feedforward: int = 2048, dropout: float = 0.1, activation: str | Callable = F.relu,
                 custom_encoder: Any | None = None, custom_decoder: Any | None = None, layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False, bias: bool = True, device=None,
                 dtype=None) -> None:
        fk = {"device": device, "dtype": dtype}
        super().__init__()
        layer_args = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first,
                      bias)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            self.encoder = TransformerEncoder(TransformerEncoderLayer(*layer_args, **fk), num_encoder_layers,
                                              LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **fk))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            self.decoder = TransformerDecoder(TransformerDecoderLayer(*layer_args, **fk), num_decoder_layers,
                                              LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **fk))
        self._reset_parameters()
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(self, src: Tensor, tgt: Tensor, src_mask: Tensor | None = None, tgt_mask: Tensor | None = None,
                memory_mask: Tensor | None = None, src_key_padding_mask: Tensor | None = None,
                tgt_key_padding_mask: Tensor | None = None, memory_key_padding_mask: Tensor | None = None,
                src_is_causal: bool | None = None, tgt_is_causal: bool | None = None,
                memory_is_causal: bool = False) -> Tensor:
        is_batched = src.dim() == 3
        if is_batched and src.shape[0 if self.batch_first else 1] != tgt.shape[0 if self.batch_first else 1]:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask, is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask, tgt_is_causal=tgt_is_causal,
                            memory_is_causal=memory_is_causal)

    @staticmethod
    def generate_square_subsequent_mask(sz: int, device=None, dtype=None) -> Tensor:
        """The (sz, sz) float mask with ``-inf`` above the diagonal and 0 elsewhere: position i attends to 0..i.

        Example::

            >>> import borch_webgpu as torch
            >>> torch.nn.Transformer.generate_square_subsequent_mask(3).tolist()
            [[0.0, -inf, -inf], [0.0, 0.0, -inf], [0.0, 0.0, 0.0]]
        """
        return _generate_square_subsequent_mask(sz, dtype=dtype, device=device)

    def _reset_parameters(self) -> None:
        for p in self.parameters():
            if p.dim() > 1:
                xavier_uniform_(p)


def _why_not_sparsity_fast_path(layer) -> str:
    """Why PyTorch's encoder will not turn padded input into nested tensors (its init-time checks)."""
    name = "encoder_layer"
    if not isinstance(layer, TransformerEncoderLayer):
        return f"{name} was not TransformerEncoderLayer"
    attn = layer.self_attn
    checks = [(layer.norm_first, f"{name}.norm_first was True"),
              (not attn.batch_first, f"{name}.self_attn.batch_first was not True(use batch_first for better "
                                     "inference performance)"),
              (not attn._qkv_same_embed_dim, f"{name}.self_attn._qkv_same_embed_dim was not True"),
              (attn.in_proj_bias is None, f"{name}.self_attn was passed bias=False"),
              (not layer.activation_relu_or_gelu, f"{name}.activation_relu_or_gelu was not True"),
              (layer.norm1.eps != layer.norm2.eps, f"{name}.norm1.eps was not equal to {name}.norm2.eps"),
              (attn.num_heads % 2 == 1, f"{name}.self_attn.num_heads is odd")]
    return next((why for bad, why in checks if bad), "")


class TransformerEncoder(Module):
    """``num_layers`` copies of ``encoder_layer`` (deep copies: independent parameters), then ``norm``.

    As in PyTorch, in eval mode with gradients off, a batch_first stack given a left-aligned
    ``src_key_padding_mask`` (and no ``mask``) returns zeros at the padded positions (before ``norm``): PyTorch
    runs it on nested tensors there (``enable_nested_tensor``), which drop the padding (a float mask pads where
    it is nonzero; with ``mask_check=False`` each sequence is taken as its first ``len`` steps, aligned or not).

    Example::

        >>> import borch_webgpu as torch
        >>> layer = torch.nn.TransformerEncoderLayer(d_model=16, nhead=4, dim_feedforward=32, batch_first=True)
        >>> encoder = torch.nn.TransformerEncoder(layer, num_layers=2)
        >>> encoder(torch.randn(2, 7, 16)).shape
        torch.Size([2, 7, 16])
    """

    def __init__(self, encoder_layer: TransformerEncoderLayer, num_layers: int, norm: Module | None = None,
                 enable_nested_tensor: bool = True, mask_check: bool = True) -> None:
        super().__init__()
        self.layers = _get_clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        why_not = _why_not_sparsity_fast_path(encoder_layer)
        if enable_nested_tensor and why_not:
            warnings.warn(f"enable_nested_tensor is True, but self.use_nested_tensor is False because {why_not}",
                          stacklevel=2)
            self.use_nested_tensor = False

    def forward(self, src: Tensor, mask: Tensor | None = None, src_key_padding_mask: Tensor | None = None,
                is_causal: bool | None = None) -> Tensor:
        src_key_padding_mask = _canonical_mask(src_key_padding_mask, "src_key_padding_mask", _none_or_dtype(mask),
                                               "mask", src.dtype)
        mask = _canonical_mask(mask, "mask", None, "", src.dtype, check_other=False)
        first = self.layers[0]
        padded = self._nested_padding(src, mask, src_key_padding_mask, first)
        is_causal = _detect_is_causal_mask(mask, is_causal, _get_seq_len(src, first.self_attn.batch_first))
        out = src
        if padded is not None:   # each sequence is its first `length` steps: the rest is neither key nor output
            src_key_padding_mask = full(tuple(padded.shape), 0.0, dtype=src.dtype, device=src.device).masked_fill(
                padded, float("-inf"))
        for mod in self.layers:
            out = mod(out, src_mask=mask, is_causal=is_causal, src_key_padding_mask=src_key_padding_mask)
        if padded is not None:
            out = out.masked_fill(padded.unsqueeze(-1), 0.0)
        if self.norm is not None:
            out = self.norm(out)
        return out

    def _nested_padding(self, src, mask, key_padding_mask, first) -> Tensor | None:
        """The (N, S) bool tensor of padded positions where PyTorch would take its nested-tensor path, else None."""
        if (not getattr(self, "use_nested_tensor", False) or first.training or src.dim() != 3
                or key_padding_mask is None or mask is not None):
            return None
        if first._grad_needed(src):
            return None
        keep = key_padding_mask == 0                  # PyTorch: the float mask's logical_not
        if getattr(self, "mask_check", True) and keep.shape[-1] > 1 and bool((keep[:, 1:] > keep[:, :-1]).any()):
            return None                               # not left aligned: PyTorch keeps the padded tensor
        # nested tensors keep the first sum(keep) steps of each sequence (all of keep when it is left aligned;
        # with mask_check=False PyTorch assumes that it is)
        lengths = keep.to(_dtype.int64).sum(-1, keepdim=True)
        return arange(keep.shape[-1], device=keep.device).unsqueeze(0) >= lengths


class TransformerDecoder(Module):
    """``num_layers`` copies of ``decoder_layer`` (deep copies), each attending to ``memory``, then ``norm``.
    ``tgt_is_causal=None`` (the default) means: causal when ``tgt_mask`` is exactly the square causal mask.

    Example::

        >>> import borch_webgpu as torch
        >>> layer = torch.nn.TransformerDecoderLayer(d_model=16, nhead=4, dim_feedforward=32, batch_first=True)
        >>> decoder = torch.nn.TransformerDecoder(layer, num_layers=2)
        >>> decoder(torch.randn(2, 3, 16), torch.randn(2, 7, 16)).shape
        torch.Size([2, 3, 16])
    """

    def __init__(self, decoder_layer: TransformerDecoderLayer, num_layers: int, norm: Module | None = None) -> None:
        super().__init__()
        self.layers = _get_clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor | None = None, memory_mask: Tensor | None = None,
                tgt_key_padding_mask: Tensor | None = None, memory_key_padding_mask: Tensor | None = None,
                tgt_is_causal: bool | None = None, memory_is_causal: bool = False) -> Tensor:
        out = tgt
        seq_len = _get_seq_len(tgt, self.layers[0].self_attn.batch_first)
        tgt_is_causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal, seq_len)
        for mod in self.layers:
            out = mod(out, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                      tgt_key_padding_mask=tgt_key_padding_mask, memory_key_padding_mask=memory_key_padding_mask,
                      tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)
        if self.norm is not None:
            out = self.norm(out)
        return out


class TransformerEncoderLayer(Module):
    """Self-attention and a feed-forward block (``linear2(dropout(activation(linear1(x))))``), each with a
    residual connection and LayerNorm: after the block (default) or before it (``norm_first``).

    Example::

        >>> import borch_webgpu as torch
        >>> layer = torch.nn.TransformerEncoderLayer(d_model=16, nhead=4, dim_feedforward=32, batch_first=True)
        >>> layer(torch.randn(2, 7, 16)).shape
        torch.Size([2, 7, 16])
    """

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation: str | Callable = F.relu, layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        fk = {"device": device, "dtype": dtype}
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias, batch_first=batch_first, **fk)
        _add_feed_forward_and_norms(self, 2, d_model, dim_feedforward, dropout, layer_norm_eps, norm_first, bias, fk)
        if isinstance(activation, str):
            activation = _get_activation_fn(activation)
        if activation is F.relu or isinstance(activation, ReLU):
            self.activation_relu_or_gelu = 1
        elif activation is F.gelu or isinstance(activation, GELU):
            self.activation_relu_or_gelu = 2
        else:
            self.activation_relu_or_gelu = 0
        self.activation = activation

    def forward(self, src: Tensor, src_mask: Tensor | None = None, src_key_padding_mask: Tensor | None = None,
                is_causal: bool = False) -> Tensor:
        src_key_padding_mask = _canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                               _none_or_dtype(src_mask), "src_mask", src.dtype)
        src_mask = _canonical_mask(src_mask, "src_mask", None, "", src.dtype, check_other=False)
        if is_causal and src_mask is None and self._fast_path(src):
            is_causal = False   # PyTorch's fused inference kernel takes no is_causal: it attends to every position
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal))
            x = self.norm2(x + self._ff_block(x))
        return x

    def _fast_path(self, src: Tensor) -> bool:
        """Whether PyTorch would run its fused inference kernel (``_transformer_encoder_layer_fwd``) here."""
        attn = self.self_attn
        if (src.dim() != 3 or self.training or not attn.batch_first or attn.in_proj_bias is None
                or not attn._qkv_same_embed_dim or not self.activation_relu_or_gelu or self.norm1.eps != self.norm2.eps
                or attn.num_heads % 2 or any(m._forward_hooks or m._forward_pre_hooks for m in self.modules())):
            return False
        return not self._grad_needed(src)

    def _grad_needed(self, src: Tensor) -> bool:
        """Grad mode is on and the input or a weight of the fused kernel requires grad (PyTorch's fast paths are
        for inference only)."""
        attn = self.self_attn
        args = (src, attn.in_proj_weight, attn.in_proj_bias, attn.out_proj.weight, attn.out_proj.bias,
                self.norm1.weight, self.norm1.bias, self.norm2.weight, self.norm2.bias, self.linear1.weight,
                self.linear1.bias, self.linear2.weight, self.linear2.bias)
        return is_grad_enabled() and any(t is not None and t.requires_grad for t in args)

    def _sa_block(self, x: Tensor, attn_mask, key_padding_mask, is_causal: bool = False) -> Tensor:
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False,
                           is_causal=is_causal)[0]
        return self.dropout1(x)

    def _ff_block(self, x: Tensor) -> Tensor:
        return self.dropout2(self.linear2(self.dropout(self.activation(self.linear1(x)))))


class TransformerDecoderLayer(Module):
    """Self-attention over ``tgt``, attention from ``tgt`` to ``memory`` (the encoder's output) and a feed-forward
    block, each with a residual connection and LayerNorm: after the block (default) or before it (``norm_first``).

    Example::

        >>> import borch_webgpu as torch
        >>> layer = torch.nn.TransformerDecoderLayer(d_model=16, nhead=4, dim_feedforward=32, batch_first=True)
        >>> mask = torch.nn.Transformer.generate_square_subsequent_mask(3)
        >>> layer(torch.randn(2, 3, 16), torch.randn(2, 7, 16), tgt_mask=mask, tgt_is_causal=True).shape
        torch.Size([2, 3, 16])
    """

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation: str | Callable = F.relu, layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        fk = {"device": device, "dtype": dtype}
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, bias=bias, **fk)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, bias=bias,
                                                 **fk)
        _add_feed_forward_and_norms(self, 3, d_model, dim_feedforward, dropout, layer_norm_eps, norm_first, bias, fk)
        self.activation = _get_activation_fn(activation) if isinstance(activation, str) else activation

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor | None = None, memory_mask: Tensor | None = None,
                tgt_key_padding_mask: Tensor | None = None, memory_key_padding_mask: Tensor | None = None,
                tgt_is_causal: bool = False, memory_is_causal: bool = False) -> Tensor:
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask, memory_is_causal)
            x = x + self._ff_block(self.norm3(x))
        else:
            x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
            x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask, memory_is_causal))
            x = self.norm3(x + self._ff_block(x))
        return x

    def _sa_block(self, x: Tensor, attn_mask, key_padding_mask, is_causal: bool = False) -> Tensor:
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, is_causal=is_causal,
                           need_weights=False)[0]
        return self.dropout1(x)

    def _mha_block(self, x: Tensor, mem: Tensor, attn_mask, key_padding_mask, is_causal: bool = False) -> Tensor:
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                                is_causal=is_causal, need_weights=False)[0]
        return self.dropout2(x)

    def _ff_block(self, x: Tensor) -> Tensor:
        return self.dropout3(self.linear2(self.dropout(self.activation(self.linear1(x)))))
