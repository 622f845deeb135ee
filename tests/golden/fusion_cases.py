"""Cases for nn.utils.fusion (fuse_conv_bn_eval, fuse_conv_bn_weights, fuse_linear_bn_eval,
fuse_linear_bn_weights) and their errors; fusion_model_cases.py adds ao.quantization.fuse_modules
(its ALL_CASES are both lists).

Each case is a function ``fn(torch, dev) -> dict`` run with ``torch`` bound to real PyTorch by
generate_fusion.py (``dev`` = "cpu") and to borch_webgpu by replay_fusion.py. It returns named
values: numpy arrays (compared within a tolerance), or strings, numbers, booleans and lists of them
(compared exactly); or it raises (type and message compared; ``match``: see ``case``). Weights are set
from golden_io.formula, BatchNorm statistics non-trivial: running_mean in [-0.5, 0.5), running_var in
[0.5, 2), weight in [0.5, 1.5).
"""
from __future__ import annotations

import numpy as np

from golden_io import formula

CASES: list[tuple[str, object]] = []


def case(name: str, match: str = "exact", into: list | None = None):
    """Register ``fn`` as a case; ``match="contains"``: PyTorch's message is part of ours (which names the op)."""
    def register(fn):
        fn.match = match
        (CASES if into is None else into).append((name, fn))
        return fn
    return register


def values(shape, seed: int, lo: float = -0.5, hi: float = 0.5) -> np.ndarray:
    u = (formula(tuple(shape), "float32", seed).astype(np.float64) + 1.0) / 2.0
    return (u * (hi - lo) + lo).astype(np.float32)


BN_RANGES = {"weight": (0.5, 1.5), "running_var": (0.5, 2.0)}


def setup(torch, model, dev, seed: int):
    """``model`` on ``dev`` with every float tensor of its state dict from the formula; returns it."""
    model = model.to(dev)
    sd = model.state_dict()
    new = {}
    for i, (key, v) in enumerate(sd.items()):
        prefix, leaf = key.rpartition(".")[0], key.rpartition(".")[2]
        if not v.dtype.is_floating_point:
            new[key] = v
            continue
        is_bn = (prefix + ".running_mean" if prefix else "running_mean") in sd
        lo, hi = BN_RANGES.get(leaf, (-0.5, 0.5)) if is_bn else (-0.5, 0.5)
        new[key] = torch.from_numpy(values(tuple(v.shape), seed * 100 + i, lo, hi)).to(dev)
    model.load_state_dict(new)
    return model


def inp(torch, dev, shape, seed: int):
    return torch.from_numpy(values(shape, 7000 + seed, -1.0, 1.0)).to(dev)


def arr(t) -> np.ndarray:
    return t.detach().cpu().numpy()


def param_facts(torch, p, name: str) -> dict:
    return {f"{name}": arr(p), f"{name} type": type(p).__name__, f"{name} requires_grad": p.requires_grad,
            f"{name} is_leaf": p.is_leaf, f"{name} grad_fn is None": p.grad_fn is None,
            f"{name} is Parameter": isinstance(p, torch.nn.Parameter)}


def fused_facts(torch, original, fused, x, reference) -> dict:
    """What a fused module is: its type, repr, parameters and output, and the unfused output."""
    return {"type": type(fused).__name__, "repr": repr(fused), "training": fused.training,
            "is a new module": fused is not original, "weight is new": fused.weight is not original.weight,
            "original bias is None": original.bias is None, "original repr": repr(original),
            **param_facts(torch, fused.weight, "weight"), **param_facts(torch, fused.bias, "bias"),
            "out": arr(fused(x)), "unfused out": arr(reference(x))}


def _conv_bn(torch, dev, conv, bn, x_shape, seed, transpose=False):
    conv, bn = setup(torch, conv, dev, seed).eval(), setup(torch, bn, dev, seed + 1).eval()
    x = inp(torch, dev, x_shape, seed)
    fused = torch.nn.utils.fuse_conv_bn_eval(conv, bn, transpose=transpose)
    out = fused_facts(torch, conv, fused, x, lambda t: bn(conv(t)))
    out["conv weight after"] = arr(conv.weight)   # the original is untouched
    return out


@case("conv2d bn")
def _(torch, dev):
    nn = torch.nn
    return _conv_bn(torch, dev, nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), (2, 3, 5, 5), 1)


@case("conv2d no bias, bn eps 1e-3")
def _(torch, dev):
    nn = torch.nn
    return _conv_bn(torch, dev, nn.Conv2d(3, 4, 3, stride=2, bias=False), nn.BatchNorm2d(4, eps=1e-3),
                    (2, 3, 7, 7), 2)


@case("conv2d groups dilation bn")
def _(torch, dev):
    nn = torch.nn
    return _conv_bn(torch, dev, nn.Conv2d(4, 6, 3, padding=2, dilation=2, groups=2), nn.BatchNorm2d(6),
                    (1, 4, 6, 6), 3)


@case("conv2d bn affine=False")
def _(torch, dev):
    nn = torch.nn
    return _conv_bn(torch, dev, nn.Conv2d(2, 3, 1), nn.BatchNorm2d(3, affine=False), (2, 2, 3, 3), 4)


@case("conv2d bn momentum=None")
def _(torch, dev):
    nn = torch.nn
    return _conv_bn(torch, dev, nn.Conv2d(2, 3, 2, bias=False), nn.BatchNorm2d(3, momentum=None), (1, 2, 4, 4), 5)


@case("conv1d bn1d")
def _(torch, dev):
    nn = torch.nn
    return _conv_bn(torch, dev, nn.Conv1d(3, 5, 3), nn.BatchNorm1d(5), (2, 3, 8), 6)


@case("convtranspose2d bn transpose=True")
def _(torch, dev):
    nn = torch.nn
    return _conv_bn(torch, dev, nn.ConvTranspose2d(4, 3, 3, stride=2, padding=1, output_padding=1),
                    nn.BatchNorm2d(3), (2, 4, 3, 3), 7, transpose=True)


@case("convtranspose2d groups=2 bn transpose=True (PyTorch refuses: weight dim 1 is out / groups)", "contains")
def _(torch, dev):
    nn = torch.nn
    return _conv_bn(torch, dev, nn.ConvTranspose2d(4, 6, 2, stride=2, groups=2, bias=False), nn.BatchNorm2d(6),
                    (1, 4, 3, 3), 8, transpose=True)


@case("convtranspose1d bn1d transpose=True")
def _(torch, dev):
    nn = torch.nn
    return _conv_bn(torch, dev, nn.ConvTranspose1d(3, 2, 3, stride=2), nn.BatchNorm1d(2), (2, 3, 5), 9,
                    transpose=True)


@case("conv2d weight requires_grad=False")
def _(torch, dev):
    nn = torch.nn
    conv = nn.Conv2d(2, 3, 3)
    conv.weight.requires_grad_(False)
    return _conv_bn(torch, dev, conv, nn.BatchNorm2d(3), (1, 2, 4, 4), 10)


def _linear_bn(torch, dev, linear, bn, x_shape, seed, unfused=True):
    linear, bn = setup(torch, linear, dev, seed).eval(), setup(torch, bn, dev, seed + 1).eval()
    x = inp(torch, dev, x_shape, seed)
    fused = torch.nn.utils.fuse_linear_bn_eval(linear, bn)
    return fused_facts(torch, linear, fused, x, (lambda t: bn(linear(t))) if unfused else fused)


@case("linear bn1d")
def _(torch, dev):
    return _linear_bn(torch, dev, torch.nn.Linear(5, 4), torch.nn.BatchNorm1d(4), (3, 5), 11)


@case("linear no bias bn1d")
def _(torch, dev):
    return _linear_bn(torch, dev, torch.nn.Linear(5, 4, bias=False), torch.nn.BatchNorm1d(4, eps=0.01), (3, 5), 12)


@case("linear bn1d of one feature")
def _(torch, dev):
    # a BatchNorm1d(1) broadcasts over the linear's 4 outputs; the unfused pair would not run on (N, 4)
    return _linear_bn(torch, dev, torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(1), (2, 3), 13, unfused=False)


@case("fuse_conv_bn_weights parameters that require grad")
def _(torch, dev):
    P = torch.nn.Parameter
    t = lambda shape, seed, lo=-0.5, hi=0.5: torch.from_numpy(values(shape, seed, lo, hi)).to(dev)  # noqa: E731
    w, b = torch.nn.utils.fuse_conv_bn_weights(P(t((4, 3, 3, 3), 21)), P(t((4,), 22)), t((4,), 23),
                                               t((4,), 24, 0.5, 2.0), 1e-5, None, t((4,), 25))
    return {**param_facts(torch, w, "weight"), **param_facts(torch, b, "bias")}


@case("fuse_conv_bn_weights transpose=True, no conv bias")
def _(torch, dev):
    t = lambda shape, seed, lo=-0.5, hi=0.5: torch.from_numpy(values(shape, seed, lo, hi)).to(dev)  # noqa: E731
    w, b = torch.nn.utils.fuse_conv_bn_weights(t((3, 4, 2, 2), 31), None, t((4,), 32), t((4,), 33, 0.5, 2.0), 0.1,
                                               t((4,), 34, 0.5, 1.5), None, transpose=True)
    return {**param_facts(torch, w, "weight"), **param_facts(torch, b, "bias")}


@case("fuse_conv_bn_weights conv1d")
def _(torch, dev):
    t = lambda shape, seed, lo=-0.5, hi=0.5: torch.from_numpy(values(shape, seed, lo, hi)).to(dev)  # noqa: E731
    w, b = torch.nn.utils.fuse_conv_bn_weights(t((5, 2, 3), 41), t((5,), 42), t((5,), 43), t((5,), 44, 0.5, 2.0),
                                               1e-5, t((5,), 45, 0.5, 1.5), t((5,), 46))
    return {**param_facts(torch, w, "weight"), **param_facts(torch, b, "bias")}


@case("fuse_linear_bn_weights")
def _(torch, dev):
    P = torch.nn.Parameter
    t = lambda shape, seed, lo=-0.5, hi=0.5: torch.from_numpy(values(shape, seed, lo, hi)).to(dev)  # noqa: E731
    w, b = torch.nn.utils.fuse_linear_bn_weights(P(t((4, 6), 51)), None, t((4,), 52), t((4,), 53, 0.5, 2.0), 1e-5,
                                                 t((4,), 54, 0.5, 1.5), t((4,), 55))
    return {**param_facts(torch, w, "weight"), **param_facts(torch, b, "bias")}


# ---- errors --------------------------------------------------------------------------------------------------

@case("conv in train mode")
def _(torch, dev):
    torch.nn.utils.fuse_conv_bn_eval(torch.nn.Conv2d(2, 3, 1), torch.nn.BatchNorm2d(3).eval())


@case("bn in train mode")
def _(torch, dev):
    torch.nn.utils.fuse_conv_bn_eval(torch.nn.Conv2d(2, 3, 1).eval(), torch.nn.BatchNorm2d(3))


@case("bn without running stats")
def _(torch, dev):
    torch.nn.utils.fuse_conv_bn_eval(torch.nn.Conv2d(2, 3, 1).eval(),
                                     torch.nn.BatchNorm2d(3, track_running_stats=False).eval())


@case("linear in train mode")
def _(torch, dev):
    torch.nn.utils.fuse_linear_bn_eval(torch.nn.Linear(2, 3), torch.nn.BatchNorm1d(3).eval())


@case("linear bn feature mismatch")
def _(torch, dev):
    torch.nn.utils.fuse_linear_bn_eval(torch.nn.Linear(2, 3).eval(), torch.nn.BatchNorm1d(4).eval())


@case("linear bn without running stats")
def _(torch, dev):
    torch.nn.utils.fuse_linear_bn_eval(torch.nn.Linear(2, 3).eval(),
                                       torch.nn.BatchNorm1d(3, track_running_stats=False).eval())

