"""``features_only=True``: timm's FeatureListNet, the model's children up to the last requested stage,
returning the feature map of each requested stage (its state dict is the model's, minus what the
features do not use, so the same checkpoint loads). An architecture with its own timm feature class
names it in the class attribute ``features_cls``, called as ``features_cls(model, out_indices)``
(EfficientNet's EfficientNetFeatures, the ViTs' FeatureGetterNet); the others get FeatureListNet."""
from __future__ import annotations

import copy
from typing import Sequence

from .. import nn
from ..tensor import Tensor

__all__ = ["FeatureInfo", "FeatureListNet", "FeatureGetterNet", "out_indices_tuple", "pretrained_cfg_for_features"]


def out_indices_tuple(out_indices, n: int, op: str = "features_only") -> tuple[int, ...]:
    """timm's out_indices: None for all ``n`` stages, an int k for the last k, or a sequence of indices
    (negative ones count from the end)."""
    if out_indices is None:
        return tuple(range(n))
    if isinstance(out_indices, int) and not isinstance(out_indices, bool):
        if not 1 <= out_indices <= n:
            raise ValueError(f"{op}: out_indices={out_indices} asks for the last {out_indices} of {n} stages")
        return tuple(range(n - out_indices, n))
    if not isinstance(out_indices, Sequence) or not out_indices or \
            not all(isinstance(i, int) and not isinstance(i, bool) for i in out_indices):
        raise TypeError(f"{op}: out_indices must be None, an int or a sequence of ints, got {out_indices!r}")
    out = []
    for i in out_indices:
        if not -n <= i < n:
            raise ValueError(f"{op}: out_indices {tuple(out_indices)} has {i}, out of range for {n} stages "
                             f"(0..{n - 1})")
        out.append(i % n)
    if sorted(set(out)) != out:
        raise ValueError(f"{op}: out_indices {tuple(out_indices)} must name distinct stages in increasing order")
    return tuple(out)


class FeatureInfo:
    """timm's FeatureInfo: per stage ``num_chs``, ``reduction`` (stride w.r.t. the input) and ``module``;
    the accessors answer for ``out_indices`` unless given ``idx``."""

    def __init__(self, feature_info: list[dict], out_indices: tuple[int, ...]) -> None:
        self.info = [dict(fi, index=i) for i, fi in enumerate(feature_info)]
        self.out_indices = tuple(out_indices)

    def get(self, key: str, idx=None):
        """``key`` of each output stage (idx None), of stage ``idx`` (an int) or of each stage in ``idx``."""
        if idx is None:
            return [self.info[i][key] for i in self.out_indices]
        if isinstance(idx, (tuple, list)):
            return [self.info[i][key] for i in idx]
        return self.info[idx][key]

    def get_dicts(self, keys=None, idx=None):
        """The info dicts (or only ``keys`` of them) of the output stages, or of ``idx``."""
        sel = self.out_indices if idx is None else idx
        if isinstance(sel, int):
            return self.info[sel] if keys is None else {k: self.info[sel][k] for k in keys}
        return [self.info[i] if keys is None else {k: self.info[i][k] for k in keys} for i in sel]

    def channels(self, idx=None):
        """Channels of each output feature map."""
        return self.get("num_chs", idx)

    def reduction(self, idx=None):
        """Stride of each output feature map with respect to the input."""
        return self.get("reduction", idx)

    def module_name(self, idx=None):
        """The module whose output each feature map is."""
        return self.get("module", idx)

    def __getitem__(self, item):
        return self.info[item]

    def __len__(self) -> int:
        return len(self.info)


class FeatureListNet(nn.Module):
    """The model's top-level children, in order, up to the last stage in ``out_indices``; ``forward``
    returns the list of the requested stages' outputs (timm's ``features_only=True`` model)."""

    def __init__(self, model: nn.Module, out_indices=None) -> None:
        super().__init__()
        info = model.feature_info
        self.feature_info = FeatureInfo(copy.deepcopy(info), out_indices_tuple(out_indices, len(info)))
        names = [n for n, _ in model.named_children()]
        wanted = {info[i]["module"] for i in self.feature_info.out_indices}
        last = max(names.index(m) for m in wanted)
        for n in names[:last + 1]:
            self.add_module(n, getattr(model, n))
        self._outputs = wanted
        self.pretrained_cfg = getattr(model, "pretrained_cfg", {})

    @property
    def default_cfg(self) -> dict:
        """timm's old name for ``pretrained_cfg``."""
        return self.pretrained_cfg

    def forward(self, x: Tensor) -> list[Tensor]:
        out = []
        for name, module in self.named_children():
            x = module(x)
            if name in self._outputs:
                out.append(x)
        return out


def pretrained_cfg_for_features(cfg: dict) -> dict:
    """timm's: a features_only model's pretrained_cfg has no classifier entries."""
    return {k: v for k, v in cfg.items() if k not in ("num_classes", "classifier", "global_pool")}


class FeatureGetterNet(nn.Module):
    """timm's ``features_only=True`` model for architectures with ``forward_intermediates`` (the ViTs):
    the model, pruned after the last requested block (its final norm and head dropped), as the child
    ``model`` (so the state-dict keys are ``model.<timm's key>``, as timm's); ``forward`` returns the
    requested blocks' outputs as NCHW maps."""

    def __init__(self, model: nn.Module, out_indices=None, norm: bool = False, output_fmt: str = "NCHW") -> None:
        super().__init__()
        if out_indices is None:
            out_indices = model.default_out_indices
        out_indices = model.prune_intermediate_layers(out_indices, prune_norm=not norm)
        self.feature_info = FeatureInfo(copy.deepcopy(model.feature_info), tuple(out_indices))
        self.model = model
        self.out_indices = list(out_indices)
        self.output_fmt = output_fmt
        self.norm = norm
        self.pretrained_cfg = pretrained_cfg_for_features(getattr(model, "pretrained_cfg", {}))

    @property
    def default_cfg(self) -> dict:
        """timm's old name for ``pretrained_cfg``."""
        return self.pretrained_cfg

    def forward(self, x: Tensor) -> list[Tensor]:
        return self.model.forward_intermediates(x, indices=self.out_indices, norm=self.norm,
                                                output_fmt=self.output_fmt, intermediates_only=True)
