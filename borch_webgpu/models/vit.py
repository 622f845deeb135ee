"""The catalog's Vision Transformers: ``timm/vit_tiny_patch16_224``, ``vit_small_patch16_224``,
``vit_base_patch16_224``.

timm 1.0.31's ``VisionTransformer`` with its default options (a class token, a learned position
embedding that covers it, pre-norm blocks, LayerNorm eps 1e-6, exact GELU, ``global_pool='token'``
with the final ``norm`` before the pool and ``fc_norm`` Identity), written with timm's module names
(``patch_embed.proj``, ``cls_token``, ``pos_embed``, ``blocks.N.norm1`` / ``attn.qkv`` / ``attn.proj``
/ ``norm2`` / ``mlp.fc1`` / ``mlp.fc2``, ``norm``, ``head``) and in timm's order, so a timm state dict
loads with ``strict=True``. Attention is ``F.scaled_dot_product_attention`` (timm's fused path).
``features_only=True`` is timm's: a :class:`~borch_webgpu.models.FeatureGetterNet` over
``forward_intermediates`` (the last three blocks by default, as NCHW maps without the class token).
"""
from __future__ import annotations

from .. import nn
from ..nn import functional as F
from ..ops.creation import zeros
from ..ops.shape import cat
from ..tensor import Tensor
from ._features import FeatureGetterNet, out_indices_tuple
from ._registry import register_model

__all__ = ["PatchEmbed", "Attention", "Mlp", "Block", "VisionTransformer", "vit_tiny_patch16_224",
           "vit_small_patch16_224", "vit_base_patch16_224"]

_POOLS = ("", "avg", "avgmax", "max", "token")


def _norm(dim: int) -> nn.LayerNorm:
    return nn.LayerNorm(dim, eps=1e-6)     # timm.layers.LayerNorm's default eps


class PatchEmbed(nn.Module):
    """timm's PatchEmbed: a ``patch_size`` x ``patch_size`` convolution with that stride (``proj``),
    then the (N, C, H', W') map flattened to tokens (N, H'W', C). The image must be ``img_size``."""

    def __init__(self, img_size: int = 224, patch_size: int = 16, in_chans: int = 3, embed_dim: int = 768,
                 bias: bool = True) -> None:
        super().__init__()
        self.patch_size = (patch_size, patch_size)
        self.img_size = (img_size, img_size)
        self.grid_size = (img_size // patch_size, img_size // patch_size)
        self.num_patches = self.grid_size[0] * self.grid_size[1]
        self.flatten = True
        self.strict_img_size = True
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size, bias=bias)
        self.norm = nn.Identity()

    def feat_ratio(self, as_scalar: bool = True):
        """The stride of the token grid with respect to the image."""
        return max(self.patch_size) if as_scalar else self.patch_size

    def dynamic_feat_size(self, img_size: tuple[int, int]) -> tuple[int, int]:
        """The token grid for an image of ``img_size``."""
        return img_size[0] // self.patch_size[0], img_size[1] // self.patch_size[1]

    def forward(self, x: Tensor) -> Tensor:
        if x.dim() != 4:
            raise ValueError(f"PatchEmbed: expected a 4-D input (N, C, H, W), got shape {tuple(x.shape)}")
        _, _, h, w = x.shape
        if h != self.img_size[0]:   # timm's checks (AssertionError, its words)
            raise AssertionError(f"Input height ({h}) doesn't match model ({self.img_size[0]}).")
        if w != self.img_size[1]:
            raise AssertionError(f"Input width ({w}) doesn't match model ({self.img_size[1]}).")
        return self.norm(self.proj(x).flatten(2).transpose(1, 2))


class Attention(nn.Module):
    """timm's multi-head self-attention: one ``qkv`` Linear, ``scaled_dot_product_attention`` per head,
    the heads joined and projected by ``proj``."""

    def __init__(self, dim: int, num_heads: int = 8, qkv_bias: bool = False, proj_bias: bool = True,
                 attn_drop: float = 0.0, proj_drop: float = 0.0) -> None:
        super().__init__()
        if dim % num_heads:
            raise ValueError(f"Attention: dim ({dim}) should be divisible by num_heads ({num_heads})")
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.attn_dim = dim
        self.scale = self.head_dim ** -0.5
        self.fused_attn = True
        self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)
        self.q_norm = nn.Identity()
        self.k_norm = nn.Identity()
        self.attn_drop = nn.Dropout(attn_drop)
        self.norm = nn.Identity()
        self.proj = nn.Linear(dim, dim, bias=proj_bias)
        self.proj_drop = nn.Dropout(proj_drop)

    def forward(self, x: Tensor, attn_mask: Tensor | None = None, is_causal: bool = False) -> Tensor:
        b, n, _ = x.shape
        qkv = self.qkv(x).reshape(b, n, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        q, k = self.q_norm(q), self.k_norm(k)
        x = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, is_causal=is_causal,
                                           dropout_p=self.attn_drop.p if self.training else 0.0)
        x = self.norm(x.transpose(1, 2).reshape(b, n, self.attn_dim))
        return self.proj_drop(self.proj(x))


class Mlp(nn.Module):
    """timm's Mlp: ``fc1``, GELU, ``fc2`` (with their dropouts)."""

    def __init__(self, in_features: int, hidden_features: int, bias: bool = True, drop: float = 0.0) -> None:
        super().__init__()
        self.fc1 = nn.Linear(in_features, hidden_features, bias=bias)
        self.act = nn.GELU()
        self.drop1 = nn.Dropout(drop)
        self.norm = nn.Identity()
        self.fc2 = nn.Linear(hidden_features, in_features, bias=bias)
        self.drop2 = nn.Dropout(drop)

    def forward(self, x: Tensor) -> Tensor:
        return self.drop2(self.fc2(self.norm(self.drop1(self.act(self.fc1(x))))))


class Block(nn.Module):
    """timm's pre-norm transformer block: ``x + attn(norm1(x))``, then ``x + mlp(norm2(x))`` (no layer
    scale and no stochastic depth: ``ls1``/``ls2``/``drop_path1``/``drop_path2`` are Identity)."""

    def __init__(self, dim: int, num_heads: int, mlp_ratio: float = 4.0, qkv_bias: bool = True) -> None:
        super().__init__()
        self.norm1 = _norm(dim)
        self.attn = Attention(dim, num_heads=num_heads, qkv_bias=qkv_bias)
        self.ls1 = nn.Identity()
        self.drop_path1 = nn.Identity()
        self.norm2 = _norm(dim)
        self.mlp = Mlp(dim, int(dim * mlp_ratio))
        self.ls2 = nn.Identity()
        self.drop_path2 = nn.Identity()

    def forward(self, x: Tensor, attn_mask: Tensor | None = None, is_causal: bool = False) -> Tensor:
        x = x + self.drop_path1(self.ls1(self.attn(self.norm1(x), attn_mask=attn_mask, is_causal=is_causal)))
        return x + self.drop_path2(self.ls2(self.mlp(self.norm2(x))))


def _check_pool(op: str, global_pool: str) -> None:
    if global_pool not in _POOLS:
        raise ValueError(f"{op}: global_pool must be one of {', '.join(repr(p) for p in _POOLS)}, got "
                         f"{global_pool!r} (timm's 'map' / 'prr' attention pools are not in the catalog)")


def global_pool_nlc(x: Tensor, pool_type: str = "token", num_prefix_tokens: int = 1,
                    reduce_include_prefix: bool = False) -> Tensor:
    """timm's pool over tokens (N, L, C) -> (N, C): the class token, or the mean / max / their average
    over the patch tokens; ``''`` keeps the tokens."""
    if not pool_type:
        return x
    if pool_type == "token":
        return x[:, 0]
    x = x if reduce_include_prefix else x[:, num_prefix_tokens:]
    if pool_type == "avg":
        return x.mean(dim=1)
    if pool_type == "max":
        return x.amax(dim=1)
    return 0.5 * (x.amax(dim=1) + x.mean(dim=1))


class VisionTransformer(nn.Module):
    """timm's VisionTransformer (its default options; see the module's docstring) with timm's model
    surface: ``forward_features`` (the normalised tokens, N x (1 + H'W') x embed_dim),
    ``forward_head(x, pre_logits=False)``, ``pool``, ``forward_intermediates``,
    ``prune_intermediate_layers``, ``get_classifier``, ``reset_classifier``, ``feature_info`` (one entry
    per block), ``pretrained_cfg``."""

    default_out_indices = 3      # timm's features_only default for ViTs: the last three blocks
    features_cls = FeatureGetterNet   # features_only=True wraps the model in this (timm's feature_cls='getter')

    def __init__(self, *, img_size: int, patch_size: int, in_chans: int, num_classes: int, embed_dim: int,
                 depth: int, num_heads: int, mlp_ratio: float = 4.0, qkv_bias: bool = True,
                 global_pool: str = "token", fc_norm: bool | None = None, pretrained_cfg: dict) -> None:
        super().__init__()
        _check_pool("VisionTransformer", global_pool)
        if img_size % patch_size:
            raise ValueError(f"VisionTransformer: img_size ({img_size}) must be a multiple of the patch size "
                             f"({patch_size})")
        use_fc_norm = global_pool in ("avg", "avgmax", "max") if fc_norm is None else fc_norm
        self.num_classes = num_classes
        self.in_chans = in_chans
        self.global_pool = global_pool
        self.num_features = self.head_hidden_size = self.embed_dim = embed_dim
        self.num_prefix_tokens = 1
        self.num_reg_tokens = 0
        self.has_class_token = True
        self.no_embed_class = False
        self.pool_include_prefix = False
        self.dynamic_img_size = False
        self.patch_embed = PatchEmbed(img_size, patch_size, in_chans, embed_dim)
        self.cls_token = nn.Parameter(zeros(1, 1, embed_dim))
        self.reg_token = None
        self.pos_embed = nn.Parameter(zeros(1, self.patch_embed.num_patches + 1, embed_dim))
        self.pos_drop = nn.Dropout(0.0)
        self.patch_drop = nn.Identity()
        self.norm_pre = nn.Identity()
        self.blocks = nn.Sequential(*[Block(embed_dim, num_heads, mlp_ratio, qkv_bias) for _ in range(depth)])
        reduction = self.patch_embed.feat_ratio()
        self.feature_info = [{"module": f"blocks.{i}", "num_chs": embed_dim, "reduction": reduction}
                             for i in range(depth)]
        self.norm = _norm(embed_dim) if not use_fc_norm else nn.Identity()
        self.attn_pool = None
        self.fc_norm = _norm(embed_dim) if use_fc_norm else nn.Identity()
        self.head_drop = nn.Dropout(0.0)
        self.head = nn.Linear(embed_dim, num_classes) if num_classes > 0 else nn.Identity()
        self.pretrained_cfg = dict(pretrained_cfg)
        self._init_weights()

    def _init_weights(self) -> None:
        """timm's default init: position embedding trunc-normal(0.02), class token normal(1e-6), Linear
        weights trunc-normal(0.02) with zero biases (convolution and LayerNorm keep their own). timm's
        trunc_normal_(std=0.02) keeps its default bounds +-2, i.e. +-100 std: the same distribution as
        normal_(std=0.02), which is what the Linear weights draw (without an inverse-erf per value)."""
        nn.init.trunc_normal_(self.pos_embed, std=0.02)
        nn.init.normal_(self.cls_token, std=1e-6)
        for m in self.modules():
            if isinstance(m, nn.Linear):
                nn.init.normal_(m.weight, std=0.02)
                if m.bias is not None:
                    nn.init.zeros_(m.bias)

    @property
    def default_cfg(self) -> dict:
        """timm's old name for ``pretrained_cfg``."""
        return self.pretrained_cfg

    def _device(self):
        return self.pos_embed.device

    def _pos_embed(self, x: Tensor) -> Tensor:
        """The class token in front of the patch tokens, plus the position embedding."""
        x = cat([self.cls_token.expand(x.shape[0], -1, -1), x], dim=1)
        return self.pos_drop(x + self.pos_embed)

    def _embed(self, x: Tensor) -> Tensor:
        return self.norm_pre(self.patch_drop(self._pos_embed(self.patch_embed(x))))

    def forward_features(self, x: Tensor, attn_mask: Tensor | None = None, is_causal: bool = False) -> Tensor:
        """The tokens after the blocks and the final ``norm``: (N, 1 + H'W', embed_dim)."""
        x = self._embed(x)
        if attn_mask is not None or is_causal:
            for blk in self.blocks:
                x = blk(x, attn_mask=attn_mask, is_causal=is_causal)
        else:
            x = self.blocks(x)
        return self.norm(x)

    def pool(self, x: Tensor, pool_type: str | None = None) -> Tensor:
        """The pooled features (N, embed_dim): ``global_pool`` unless ``pool_type`` is given."""
        pool_type = self.global_pool if pool_type is None else pool_type
        _check_pool("pool", pool_type)
        return global_pool_nlc(x, pool_type=pool_type, num_prefix_tokens=self.num_prefix_tokens,
                               reduce_include_prefix=self.pool_include_prefix)

    def forward_head(self, x: Tensor, pre_logits: bool = False) -> Tensor:
        """Pool, ``fc_norm``, then the classifier (``pre_logits=True``: the features before it)."""
        x = self.head_drop(self.fc_norm(self.pool(x)))
        return x if pre_logits else self.head(x)

    def forward(self, x: Tensor, attn_mask: Tensor | None = None, is_causal: bool = False) -> Tensor:
        return self.forward_head(self.forward_features(x, attn_mask=attn_mask, is_causal=is_causal))

    def forward_intermediates(self, x: Tensor, indices=None, return_prefix_tokens: bool = False, norm: bool = False,
                              stop_early: bool = False, output_fmt: str = "NCHW", intermediates_only: bool = False,
                              output_dict: bool = False, attn_mask: Tensor | None = None, is_causal: bool = False):
        """timm's: the outputs of the blocks in ``indices`` (None: all; an int k: the last k), as NCHW maps
        (``output_fmt='NCHW'``) or tokens (``'NLC'``) without the class token (``return_prefix_tokens``:
        (map, class token) pairs), each through the final norm when ``norm``. Returns the list
        (``intermediates_only``), ``(forward_features, list)``, or timm's dict (``output_dict``)."""
        if output_fmt not in ("NCHW", "NLC"):
            raise ValueError(f"forward_intermediates: output_fmt must be 'NCHW' or 'NLC', got {output_fmt!r}")
        take = out_indices_tuple(indices, len(self.blocks), "forward_intermediates")
        b, _, height, width = x.shape
        x = self._embed(x)
        blocks = list(self.blocks)[:max(take) + 1] if stop_early else list(self.blocks)
        out = []
        for i, blk in enumerate(blocks):
            x = blk(x, attn_mask=attn_mask, is_causal=is_causal)
            if i in take:
                out.append(self.norm(x) if norm else x)
        p = self.num_prefix_tokens
        prefix = [y[:, 0:p] for y in out]
        out = [y[:, p:] for y in out]
        if output_fmt == "NCHW":
            h, w = self.patch_embed.dynamic_feat_size((height, width))
            out = [y.reshape(b, h, w, -1).permute(0, 3, 1, 2).contiguous() for y in out]
        if output_dict:
            result = {"image_intermediates": out}
            if return_prefix_tokens:
                result["image_intermediates_prefix"] = prefix
            if not intermediates_only:
                result["image_features"] = self.norm(x)
            return result
        if return_prefix_tokens:
            out = list(zip(out, prefix))
        return out if intermediates_only else (self.norm(x), out)

    def prune_intermediate_layers(self, indices=1, prune_norm: bool = False, prune_head: bool = True) -> list[int]:
        """timm's: drop the blocks after the last of ``indices`` (and the final norm, and the head), for a
        model that only gives intermediates; returns the block indices kept."""
        take = out_indices_tuple(indices, len(self.blocks), "prune_intermediate_layers")
        self.blocks = self.blocks[:max(take) + 1]
        if prune_norm:
            self.norm = nn.Identity()
        if prune_head:
            self.fc_norm = nn.Identity()
            self.reset_classifier(0, "")
        return list(take)

    def get_classifier(self) -> nn.Module:
        """The classifier module (``head``)."""
        return self.head

    def reset_classifier(self, num_classes: int, global_pool: str | None = None) -> None:
        """timm's: a new ``head`` for ``num_classes`` (0: none), freshly initialised; ``global_pool`` (None
        keeps it) is 'token', 'avg', 'max', 'avgmax' or '' (the norms stay where they were built)."""
        if global_pool is not None:
            _check_pool("reset_classifier", global_pool)
            self.global_pool = global_pool
        self.num_classes = num_classes
        self.head = (nn.Linear(self.embed_dim, num_classes) if num_classes > 0 else nn.Identity()).to(self._device())
        self.head.train(self.training)


# ---- the table's entries -----------------------------------------------------------------------------

INCEPTION_MEAN = INCEPTION_STD = (0.5, 0.5, 0.5)
TIMM_VIT_DEFAULTS = {"num_classes": 1000, "in_chans": 3, "img_size": 224}   # VisionTransformer.__init__'s


def _vit_cfg(arch: str, tag: str) -> dict:
    """timm 1.0.31's pretrained_cfg for ``arch`` (its default tag), without the weight locations:
    tests/golden/catalog.json holds timm's own to compare with."""
    return {"architecture": arch, "tag": tag, "input_size": (3, 224, 224), "fixed_input_size": True,
            "interpolation": "bicubic", "crop_pct": 0.9, "crop_mode": "center", "mean": INCEPTION_MEAN,
            "std": INCEPTION_STD, "num_classes": 1000, "pool_size": None, "first_conv": "patch_embed.proj",
            "classifier": "head", "license": "apache-2.0"}


_TINY = _vit_cfg("vit_tiny_patch16_224", "augreg_in21k_ft_in1k")
_SMALL = _vit_cfg("vit_small_patch16_224", "augreg_in21k_ft_in1k")
_BASE = _vit_cfg("vit_base_patch16_224", "augreg2_in21k_ft_in1k")


def _vit(cfg: dict, *, num_classes: int, in_chans: int, img_size: int, **arch) -> VisionTransformer:
    return VisionTransformer(img_size=img_size, patch_size=16, in_chans=in_chans, num_classes=num_classes,
                             pretrained_cfg=cfg, **arch)


@register_model("timm", pretrained_cfg=_TINY, timm_defaults=TIMM_VIT_DEFAULTS)
def vit_tiny_patch16_224(*, num_classes: int, in_chans: int, img_size: int) -> VisionTransformer:
    """timm's ViT-Tiny/16 (embed_dim 192, 12 blocks, 3 heads); ``img_size`` sets the position embedding's
    grid (timm's default 224)."""
    return _vit(_TINY, num_classes=num_classes, in_chans=in_chans, img_size=img_size, embed_dim=192, depth=12,
                num_heads=3)


@register_model("timm", pretrained_cfg=_SMALL, timm_defaults=TIMM_VIT_DEFAULTS)
def vit_small_patch16_224(*, num_classes: int, in_chans: int, img_size: int) -> VisionTransformer:
    """timm's ViT-Small/16 (embed_dim 384, 12 blocks, 6 heads)."""
    return _vit(_SMALL, num_classes=num_classes, in_chans=in_chans, img_size=img_size, embed_dim=384, depth=12,
                num_heads=6)


@register_model("timm", pretrained_cfg=_BASE, timm_defaults=TIMM_VIT_DEFAULTS)
def vit_base_patch16_224(*, num_classes: int, in_chans: int, img_size: int) -> VisionTransformer:
    """timm's ViT-Base/16 (embed_dim 768, 12 blocks, 12 heads)."""
    return _vit(_BASE, num_classes=num_classes, in_chans=in_chans, img_size=img_size, embed_dim=768, depth=12,
                num_heads=12)

