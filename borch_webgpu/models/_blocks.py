"""The blocks timm's EfficientNet and MobileNet families are built from (timm's
``_efficientnet_blocks.py`` and the layers it uses), with timm's module and parameter names:
``make_divisible`` / ``round_channels``, ``create_conv2d`` (``Conv2dSame``: TensorFlow's asymmetric
'SAME' padding), ``BatchNormAct2d``, ``SqueezeExcite``, ``ConvBnAct``, ``DepthwiseSeparableConv``
and ``InvertedResidual``. None of them has a parameter timm's lacks, so timm's state dicts load with
``strict=True``."""
from __future__ import annotations

import math

from .. import nn
from ..nn import functional as F
from ..tensor import Tensor

__all__ = ["make_divisible", "round_channels", "get_act_layer", "create_conv2d", "Conv2dSame", "BatchNormAct2d",
           "SqueezeExcite", "ConvBnAct", "DepthwiseSeparableConv", "InvertedResidual", "init_weight_goog"]

# timm's activation names (get_act_layer) for the ones these families use
_ACTS = {"relu": nn.ReLU, "relu6": nn.ReLU6, "hard_swish": nn.Hardswish, "swish": nn.SiLU, "silu": nn.SiLU,
         "hard_sigmoid": nn.Hardsigmoid, "sigmoid": nn.Sigmoid}


def get_act_layer(name: str):
    """The activation class timm's ``get_act_layer(name)`` gives (``'swish'`` is SiLU)."""
    if name not in _ACTS:
        raise ValueError(f"get_act_layer: unknown activation {name!r}; the catalog has {', '.join(sorted(_ACTS))}")
    return _ACTS[name]


def make_divisible(v: float, divisor: int = 8, min_value: int | None = None, round_limit: float = 0.9) -> int:
    """timm's channel rounding: the nearest multiple of ``divisor`` (at least ``min_value``), one
    ``divisor`` more when rounding down lost more than ``1 - round_limit`` of ``v``.

    Example::

        >>> from borch_webgpu.models._blocks import make_divisible
        >>> make_divisible(32 * 1.1), make_divisible(16 * 0.25), make_divisible(1280 * 1.1)
        (32, 8, 1408)
    """
    min_value = min_value or divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < round_limit * v:
        new_v += divisor
    return new_v


def round_channels(channels: int, multiplier: float = 1.0, divisor: int = 8, channel_min=None,
                   round_limit: float = 0.9) -> int:
    """timm's width scaling: ``make_divisible(channels * multiplier)`` (no multiplier: unchanged)."""
    if not multiplier:
        return channels
    return make_divisible(channels * multiplier, divisor, channel_min, round_limit=round_limit)


def _same_pad(size: int, k: int, s: int, d: int) -> int:
    return max((math.ceil(size / s) - 1) * s + (k - 1) * d + 1 - size, 0)


class Conv2dSame(nn.Conv2d):
    """timm's Conv2dSame: TensorFlow's 'SAME' padding, computed from the input size at each call and
    asymmetric when the total is odd (the extra row / column goes after: bottom and right)."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, dilation=1,
                 groups: int = 1, bias: bool = True) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, 0, dilation, groups, bias)

    def forward(self, input: Tensor) -> Tensor:
        ih, iw = input.shape[-2:]
        (kh, kw), (sh, sw), (dh, dw) = self.kernel_size, self.stride, self.dilation
        ph, pw = _same_pad(ih, kh, sh, dh), _same_pad(iw, kw, sw, dw)
        if ph or pw:
            input = F.pad(input, (pw // 2, pw - pw // 2, ph // 2, ph - ph // 2))
        return F.conv2d(input, self.weight, self.bias, self.stride, 0, self.dilation, self.groups)


def create_conv2d(in_chs: int, out_chs: int, kernel_size: int, stride: int = 1, dilation: int = 1,
                  groups: int = 1, padding: str = "", bias: bool = False) -> nn.Conv2d:
    """timm's create_conv2d for one kernel size: ``padding=''`` is PyTorch's symmetric
    ``((stride - 1) + dilation * (k - 1)) // 2``; ``'same'`` is TensorFlow's, static where it is
    symmetric (stride 1, odd kernel) and a :class:`Conv2dSame` otherwise."""
    sym = ((stride - 1) + dilation * (kernel_size - 1)) // 2
    if padding == "same" and not (stride == 1 and (dilation * (kernel_size - 1)) % 2 == 0):
        return Conv2dSame(in_chs, out_chs, kernel_size, stride, dilation=dilation, groups=groups, bias=bias)
    if padding not in ("", "same"):
        raise ValueError(f"create_conv2d: padding must be '' (PyTorch's) or 'same' (TensorFlow's), got {padding!r}")
    return nn.Conv2d(in_chs, out_chs, kernel_size, stride, sym, dilation, groups, bias)


class BatchNormAct2d(nn.BatchNorm2d):
    """timm's BatchNormAct2d: BatchNorm2d (the same parameters and buffers), then ``drop`` (Identity)
    and ``act`` (Identity when ``apply_act=False``)."""

    def __init__(self, num_features: int, eps: float = 1e-5, act_layer=nn.ReLU, apply_act: bool = True) -> None:
        super().__init__(num_features, eps=eps)
        self.drop = nn.Identity()
        self.act = act_layer() if apply_act and act_layer is not None else nn.Identity()

    def forward(self, input: Tensor) -> Tensor:
        return self.act(self.drop(super().forward(input)))


class SqueezeExcite(nn.Module):
    """timm's SqueezeExcite for these families: global mean, ``conv_reduce`` (1x1, bias), ``act1``,
    ``conv_expand``, then the input scaled by ``gate`` of it. ``rd_channels = rd_round_fn(in_chs *
    rd_ratio)`` (Python's ``round`` unless given)."""

    def __init__(self, in_chs: int, rd_ratio: float = 0.25, act_layer=nn.ReLU, gate_layer=nn.Sigmoid,
                 force_act_layer=None, rd_round_fn=None) -> None:
        super().__init__()
        rd_channels = (rd_round_fn or round)(in_chs * rd_ratio)
        self.conv_reduce = nn.Conv2d(in_chs, rd_channels, 1, bias=True)
        self.act1 = (force_act_layer or act_layer)()
        self.conv_expand = nn.Conv2d(rd_channels, in_chs, 1, bias=True)
        self.gate = gate_layer()

    def forward(self, x: Tensor) -> Tensor:
        s = self.conv_expand(self.act1(self.conv_reduce(x.mean((2, 3), keepdim=True))))
        return x * self.gate(s)


class _Block(nn.Module):
    """What the three blocks share: timm's ``has_skip`` residual (DropPath is Identity at eval and in the
    catalog, which trains with drop_path_rate 0) and ``feature_info('bottleneck')``."""

    has_skip = False

    def _out(self, x: Tensor, shortcut: Tensor) -> Tensor:
        return self.drop_path(x) + shortcut if self.has_skip else x

    def feature_info(self, location: str = "bottleneck") -> dict:
        return {"module": "", "num_chs": self._out_chs}


class ConvBnAct(_Block):
    """timm's ConvBnAct ('cn' blocks): ``conv``, ``bn1`` (BatchNormAct2d), ``aa``, optional skip."""

    def __init__(self, in_chs: int, out_chs: int, kernel_size: int, stride: int = 1, dilation: int = 1,
                 pad_type: str = "", skip: bool = False, act_layer=nn.ReLU, norm_layer=None) -> None:
        super().__init__()
        self.has_skip = skip and stride == 1 and in_chs == out_chs
        self.conv = create_conv2d(in_chs, out_chs, kernel_size, stride=stride, dilation=dilation, padding=pad_type)
        self.bn1 = norm_layer(out_chs, act_layer=act_layer)
        self.aa = nn.Identity()
        self.drop_path = nn.Identity()
        self._out_chs = out_chs

    def forward(self, x: Tensor) -> Tensor:
        return self._out(self.aa(self.bn1(self.conv(x))), x)


class DepthwiseSeparableConv(_Block):
    """timm's DepthwiseSeparableConv ('ds' blocks): ``conv_dw`` (depthwise), ``bn1``, ``aa``, ``se``,
    ``conv_pw`` (1x1), ``bn2`` (no activation unless ``pw_act``), skip when the shape allows."""

    def __init__(self, in_chs: int, out_chs: int, dw_kernel_size: int = 3, stride: int = 1, dilation: int = 1,
                 pad_type: str = "", noskip: bool = False, pw_kernel_size: int = 1, pw_act: bool = False,
                 act_layer=nn.ReLU, norm_layer=None, se_layer=None) -> None:
        super().__init__()
        self.has_skip = (stride == 1 and in_chs == out_chs) and not noskip
        self.conv_dw = create_conv2d(in_chs, in_chs, dw_kernel_size, stride=stride, dilation=dilation,
                                     groups=in_chs, padding=pad_type)
        self.bn1 = norm_layer(in_chs, act_layer=act_layer)
        self.aa = nn.Identity()
        self.se = se_layer(in_chs, act_layer=act_layer) if se_layer else nn.Identity()
        self.conv_pw = create_conv2d(in_chs, out_chs, pw_kernel_size, padding=pad_type)
        self.bn2 = norm_layer(out_chs, act_layer=act_layer, apply_act=pw_act)
        self.drop_path = nn.Identity()
        self._out_chs = out_chs

    def forward(self, x: Tensor) -> Tensor:
        y = self.se(self.aa(self.bn1(self.conv_dw(x))))
        return self._out(self.bn2(self.conv_pw(y)), x)


class InvertedResidual(_Block):
    """timm's InvertedResidual ('ir' blocks, MBConv): ``conv_pw`` (1x1 expansion to
    ``make_divisible(in_chs * exp_ratio)``), ``bn1``, ``conv_dw`` (depthwise), ``bn2``, ``aa``, ``se``,
    ``conv_pwl`` (1x1 projection), ``bn3`` (no activation), skip when the shape allows."""

    def __init__(self, in_chs: int, out_chs: int, dw_kernel_size: int = 3, stride: int = 1, dilation: int = 1,
                 pad_type: str = "", noskip: bool = False, exp_ratio: float = 1.0, exp_kernel_size: int = 1,
                 pw_kernel_size: int = 1, act_layer=nn.ReLU, norm_layer=None, se_layer=None) -> None:
        super().__init__()
        self.has_skip = (in_chs == out_chs and stride == 1) and not noskip
        mid_chs = make_divisible(in_chs * exp_ratio)
        self.conv_pw = create_conv2d(in_chs, mid_chs, exp_kernel_size, padding=pad_type)
        self.bn1 = norm_layer(mid_chs, act_layer=act_layer)
        self.conv_dw = create_conv2d(mid_chs, mid_chs, dw_kernel_size, stride=stride, dilation=dilation,
                                     groups=mid_chs, padding=pad_type)
        self.bn2 = norm_layer(mid_chs, act_layer=act_layer)
        self.aa = nn.Identity()
        self.se = se_layer(mid_chs, act_layer=act_layer) if se_layer else nn.Identity()
        self.conv_pwl = create_conv2d(mid_chs, out_chs, pw_kernel_size, padding=pad_type)
        self.bn3 = norm_layer(out_chs, act_layer=act_layer, apply_act=False)
        self.drop_path = nn.Identity()
        self._out_chs = out_chs

    def forward(self, x: Tensor) -> Tensor:
        y = self.se(self.aa(self.bn2(self.conv_dw(self.bn1(self.conv_pw(x))))))
        return self._out(self.bn3(self.conv_pwl(y)), x)


def init_weight_goog(m: nn.Module) -> None:
    """timm's ``_init_weight_goog`` (TensorFlow's EfficientNet init): conv weights normal with std
    sqrt(2 / fan_out) (fan_out divided by groups), zero biases; BatchNorm ones and zeros; Linear
    uniform in +-1/sqrt(out_features), zero bias."""
    if isinstance(m, nn.Conv2d):
        fan_out = m.kernel_size[0] * m.kernel_size[1] * m.out_channels // m.groups
        nn.init.normal_(m.weight, 0, math.sqrt(2.0 / fan_out))
        if m.bias is not None:
            nn.init.zeros_(m.bias)
    elif isinstance(m, nn.BatchNorm2d):
        nn.init.ones_(m.weight)
        nn.init.zeros_(m.bias)
    elif isinstance(m, nn.Linear):
        r = 1.0 / math.sqrt(m.weight.shape[0])
        nn.init.uniform_(m.weight, -r, r)
        nn.init.zeros_(m.bias)
