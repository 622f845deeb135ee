"""timm's architecture strings for the EfficientNet / MobileNet families, and the builder that turns
them into stages of blocks (timm's ``decode_arch_def`` and ``EfficientNetBuilder``, for the block
kinds the catalog lists).

A stage is a list of block strings such as ``'ir_r2_k3_s2_e6_c24_se0.25'``: the block kind ('ds'
depthwise-separable, 'ir' inverted residual, 'cn' conv-bn-act), then ``r`` repeats, ``k`` depthwise
kernel, ``s`` stride of the first repeat, ``e`` expansion, ``c`` output channels (before width
scaling), ``se`` squeeze-excite ratio, ``n<act>`` an activation override (``nre`` ReLU, ``nr6`` ReLU6,
``nhs`` hard-swish, ``nsw`` swish) and ``noskip``/``skip``.
"""
from __future__ import annotations

import math
import re
from functools import partial

from .. import nn
from ._blocks import ConvBnAct, DepthwiseSeparableConv, InvertedResidual, get_act_layer

__all__ = ["decode_arch_def", "EfficientNetBuilder"]

_N_ACTS = {"re": "relu", "r6": "relu6", "hs": "hard_swish", "sw": "swish"}
_BLOCKS = {"ir": InvertedResidual, "ds": DepthwiseSeparableConv, "cn": ConvBnAct}


def _decode_block_str(block_str: str) -> tuple[dict, int]:
    kind, *ops = block_str.split("_")
    if kind not in _BLOCKS:
        raise ValueError(f"decode_arch_def: block kind {kind!r} in {block_str!r} is not in the catalog "
                         f"(it builds {', '.join(_BLOCKS)})")
    options, skip, act = {}, None, None
    for op in ops:
        if op in ("noskip", "skip"):
            skip = op == "skip"
        elif op.startswith("n"):
            act = get_act_layer(_N_ACTS[op[1:]])
        else:
            key, value, *_ = re.split(r"(\d.*)", op)
            options[key] = value
    args = {"block_type": kind, "out_chs": int(options["c"]), "stride": int(options["s"]), "act_layer": act}
    if kind == "cn":
        args.update(kernel_size=int(options["k"]), skip=skip is True)
    else:
        args.update(dw_kernel_size=int(options["k"]), se_ratio=float(options.get("se", 0.0)), noskip=skip is False)
        if kind == "ir":
            args["exp_ratio"] = float(options["e"])
    return args, int(options["r"])


def _scale_stage_depth(stack_args: list, repeats: list, depth_multiplier: float) -> list:
    """timm's 'ceil' depth scaling: the stage's repeats times the multiplier, rounded up, shared among
    its block strings from the last one back."""
    num_repeat = sum(repeats)
    num_scaled = int(math.ceil(num_repeat * depth_multiplier))
    scaled = []
    for r in repeats[::-1]:
        rs = max(1, round(r / num_repeat * num_scaled))
        scaled.append(rs)
        num_repeat -= r
        num_scaled -= rs
    out = []
    for ba, rep in zip(stack_args, scaled[::-1]):
        out.extend(dict(ba) for _ in range(rep))
    return out


def decode_arch_def(arch_def: list, depth_multiplier: float = 1.0) -> list:
    """timm's decode_arch_def: a list of stages of block strings -> per stage, the block argument dicts.

    Example::

        >>> from borch_webgpu.models._arch import decode_arch_def
        >>> [len(s) for s in decode_arch_def([["ds_r1_k3_s1_c16"], ["ir_r2_k3_s2_e6_c24"]], 1.1)]
        [2, 3]
    """
    out = []
    for stage in arch_def:
        decoded = [_decode_block_str(s) for s in stage]
        out.append(_scale_stage_depth([a for a, _ in decoded], [r for _, r in decoded], depth_multiplier))
    return out


class EfficientNetBuilder:
    """timm's EfficientNetBuilder at output stride 32: ``builder(stem_chs, block_args)`` gives the stages
    (``nn.Sequential`` of blocks); ``features`` then holds timm's feature_info (stem when the first
    block is strided, then the end of every stage followed by a stride or the end), ``in_chs`` the
    last stage's channels."""

    def __init__(self, *, pad_type: str, round_chs_fn, act_layer, norm_layer, se_layer, se_from_exp: bool) -> None:
        self.pad_type, self.round_chs_fn, self.act_layer = pad_type, round_chs_fn, act_layer
        self.norm_layer, self.se_layer, self.se_from_exp = norm_layer, se_layer, se_from_exp
        self.in_chs = 0
        self.features: list[dict] = []

    def _make_block(self, ba: dict) -> nn.Module:
        kind = ba.pop("block_type")
        ba.update(in_chs=self.in_chs, out_chs=self.round_chs_fn(ba["out_chs"]), pad_type=self.pad_type,
                  norm_layer=self.norm_layer)
        ba["act_layer"] = ba["act_layer"] or self.act_layer
        se_ratio = ba.pop("se_ratio", None)
        if se_ratio:
            if not self.se_from_exp:   # the ratio is of the block's input channels, the SE sees the expanded ones
                se_ratio /= ba.get("exp_ratio", 1.0)
            ba["se_layer"] = partial(self.se_layer, rd_ratio=se_ratio)
        block = _BLOCKS[kind](**ba)
        self.in_chs = ba["out_chs"]
        return block

    def __call__(self, in_chs: int, model_block_args: list) -> list[nn.Sequential]:
        self.in_chs = in_chs
        stride = 2
        if model_block_args[0][0]["stride"] > 1:
            self.features.append({"module": "bn1", "num_chs": in_chs, "stage": 0, "reduction": stride})
        stages = []
        for stack_idx, stack_args in enumerate(model_block_args):
            blocks = []
            for block_idx, ba in enumerate(stack_args):
                ba = dict(ba)
                if block_idx >= 1:
                    ba["stride"] = 1
                stride *= ba["stride"]
                blocks.append(self._make_block(ba))
            nxt = stack_idx + 1
            if nxt >= len(model_block_args) or model_block_args[nxt][0]["stride"] > 1:
                self.features.append({"stage": nxt, "reduction": stride, "module": f"blocks.{stack_idx}",
                                      "num_chs": self.in_chs})
            stages.append(nn.Sequential(*blocks))
        return stages
