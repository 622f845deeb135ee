"""Convolutions: conv1d, conv2d and conv_transpose2d, forward and backward, with PyTorch's
arguments (int or tuple stride/padding/dilation, ``padding='same'``/``'valid'``, groups, unbatched
inputs) and its error messages.

Everything is built on three differentiable primitives over one :class:`Geometry`
(device/gpu_conv.py; conv1d is conv2d with a height of 1):
- ``_conv_fwd(x, w, b)``: the convolution (bias added in the kernel's epilogue);
- ``_conv_dgrad(dy, w)``: its input gradient, the transposed convolution (conv_transpose2d's forward);
- ``_conv_wgrad(dy, x)``: its weight gradient.
The backward of each is made of the other two, so gradients of any order work. On ``webgpu`` they
are the implicit-GEMM kernels of wgsl/conv.wgsl; on ``cpu`` the numpy references below (im2col and
a float32 matmul).
"""
from __future__ import annotations

import builtins
import numbers

import numpy as np

from .. import autograd
from ..device.gpu_conv import Geometry
from ..tensor import Tensor
from ._registry import OpDef, register

__all__ = ["conv1d", "conv2d", "conv_transpose2d"]

_TYPES = {"float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16", "int64": "Long", "int32": "Int", "bool": "Bool"}


# ---- numpy references (the cpu device) ---------------------------------------------------------------
def _ft(a: np.ndarray) -> type:
    """The float type the references compute in: float64 for float64 data, else float32."""
    return np.float64 if a.dtype == np.float64 else np.float32


def _np_padded(x: np.ndarray, g: Geometry) -> np.ndarray:
    """x zero-padded to exactly the rows and columns the output windows reach (from -PH, -PW)."""
    hp = (g.OH - 1) * g.SH + (g.KH - 1) * g.DH + 1
    wp = (g.OW - 1) * g.SW + (g.KW - 1) * g.DW + 1
    out = np.zeros(x.shape[:2] + (max(hp, g.PH + g.H), max(wp, g.PW + g.W)), x.dtype)
    out[:, :, g.PH:g.PH + g.H, g.PW:g.PW + g.W] = x
    return out


def _np_cols(x: np.ndarray, g: Geometry) -> np.ndarray:
    """im2col: (NB, G, CG*KH*KW, OH*OW)."""
    xp = _np_padded(x.astype(_ft(x), copy=False), g)
    s = xp.strides
    win = np.lib.stride_tricks.as_strided(
        xp, (g.NB, g.C, g.KH, g.KW, g.OH, g.OW),
        (s[0], s[1], s[2] * g.DH, s[3] * g.DW, s[2] * g.SH, s[3] * g.SW))
    return np.ascontiguousarray(win).reshape(g.NB, g.G, (g.C // g.G) * g.KH * g.KW, g.OH * g.OW)


def np_conv_fwd(x: np.ndarray, w: np.ndarray, b: np.ndarray | None, g: Geometry) -> np.ndarray:
    cols = _np_cols(x, g)
    wr = w.astype(cols.dtype).reshape(g.G, g.CO // g.G, cols.shape[2])
    y = np.matmul(wr[None], cols).reshape(g.NB, g.CO, g.OH, g.OW)
    if b is not None:
        y = y + b.astype(cols.dtype).reshape(1, -1, 1, 1)
    return y


def np_conv_dgrad(dy: np.ndarray, w: np.ndarray, g: Geometry) -> np.ndarray:
    ft = _ft(dy)
    wr = w.astype(ft).reshape(g.G, g.CO // g.G, (g.C // g.G) * g.KH * g.KW)
    d = dy.astype(ft).reshape(g.NB, g.G, g.CO // g.G, g.OH * g.OW)
    cols = np.matmul(np.swapaxes(wr, 1, 2)[None], d).reshape(g.NB, g.C, g.KH, g.KW, g.OH, g.OW)
    xp = np.zeros((g.NB, g.C) + _np_padded(np.zeros((0, 0, g.H, g.W), ft), g).shape[2:], ft)
    for kh in range(g.KH):
        for kw in range(g.KW):
            h0, w0 = kh * g.DH, kw * g.DW
            xp[:, :, h0:h0 + (g.OH - 1) * g.SH + 1:g.SH, w0:w0 + (g.OW - 1) * g.SW + 1:g.SW] += cols[:, :, kh, kw]
    return xp[:, :, g.PH:g.PH + g.H, g.PW:g.PW + g.W]


def np_conv_wgrad(dy: np.ndarray, x: np.ndarray, g: Geometry) -> np.ndarray:
    cols = _np_cols(x, g)                                                  # (NB, G, K, P)
    d = dy.astype(cols.dtype).reshape(g.NB, g.G, g.CO // g.G, g.OH * g.OW)
    P = g.NB * g.OH * g.OW
    a = d.transpose(1, 2, 0, 3).reshape(g.G, g.CO // g.G, P)               # (G, COG, NB*P)
    b = cols.transpose(1, 0, 3, 2).reshape(g.G, P, cols.shape[2])          # (G, NB*P, K)
    return np.matmul(a, b).reshape(g.CO, g.C // g.G, g.KH, g.KW)


# Tolerance against PyTorch's CPU (float32): every output is a sum of K = C/groups * kh * kw float32
# products (the weight gradient: K = batch * output pixels), added in another order than PyTorch's,
# exactly as for matmul (see ops/linalg.py): about u * |partial sums| * sqrt(K) of rounding error,
# ~2e-5 absolute at K = 1024 with values in [-1, 1). Same (rtol, atol) as matmul.
TOL = (1e-5, 1e-4)
_DOC = "implicit GEMM (forward, input gradient as a transposed conv per stride phase, split-K weight gradient)"
CONV1D = register(OpDef("conv1d", "nn", ("conv.wgsl", "fwd"), np_conv_fwd, tol=TOL, doc="conv2d with a height of 1"))
CONV2D = register(OpDef("conv2d", "nn", ("conv.wgsl", "fwd"), np_conv_fwd, tol=TOL, doc=_DOC,
                        extra={"blocks": ("gemm", "fwd", "dgrad", "wgrad", "wgrad_sum")}))
CONV_T2D = register(OpDef("conv_transpose2d", "nn", ("conv.wgsl", "dgrad"), np_conv_dgrad, tol=TOL,
                          doc="the input gradient of conv2d"))
_DGRAD = register(OpDef("_conv_input_grad", "nn", ("conv.wgsl", "dgrad"), np_conv_dgrad, tol=TOL,
                        extra={"golden": "conv2d"}))
_WGRAD = register(OpDef("_conv_weight_grad", "nn", ("conv.wgsl", "wgrad"), np_conv_wgrad, tol=TOL,
                        extra={"golden": "conv2d"}))
_WGRAD_SUM = register(OpDef("_conv_weight_grad_sum", "nn", ("conv.wgsl", "wgrad_sum"), None, tol=TOL,
                            extra={"golden": "conv2d"}))
# ---- the differentiable primitives -------------------------------------------------------------------
def _cpu(t: Tensor) -> np.ndarray:
    from ..device.cpu import BACKEND
    return BACKEND.view(t)


def _wrap(arr_or_storage, shape, like: Tensor) -> Tensor:
    if like._device.type == "cpu":
        from ..device.cpu import CPUStorage
        arr = np.ascontiguousarray(arr_or_storage, dtype=like.dtype.storage_np).reshape(-1)
        return Tensor._make(CPUStorage(arr), shape, like.dtype, like.device)
    return Tensor._make(arr_or_storage, shape, like.dtype, like.device)


def _conv_fwd(x: Tensor, w: Tensor, b: Tensor | None, g: Geometry) -> Tensor:
    xd, wd, bd = x.detach(), w.detach(), (b.detach() if b is not None else None)
    shape = (g.NB, g.CO, g.OH, g.OW)
    if x._device.type == "webgpu":
        from ..device import gpu_conv
        out = _wrap(gpu_conv.forward(xd, wd, bd, g, x.dtype), shape, x)
    else:
        out = _wrap(np_conv_fwd(_cpu(xd), _cpu(wd), _cpu(bd) if bd is not None else None, g), shape, x)

    def back(gy):
        gx = _conv_dgrad(gy, w, g) if x.requires_grad else None
        gw = gb = None
        if w.requires_grad:
            gw, gb = _conv_wgrad(gy, x, g, b is not None and b.requires_grad)
        elif b is not None and b.requires_grad:
            gb = gy.sum((0, 2, 3))
        return gx, gw, gb
    autograd.record("ConvolutionBackward0", [x, w, b], [out], back, [x, w])
    return out


def _conv_dgrad(dy: Tensor, w: Tensor, g: Geometry) -> Tensor:
    dyd, wd = dy.detach(), w.detach()
    shape = (g.NB, g.C, g.H, g.W)
    if dy._device.type == "webgpu":
        from ..device import gpu_conv
        out = _wrap(gpu_conv.input_grad(dyd, wd, g, dy.dtype), shape, dy)
    else:
        out = _wrap(np_conv_dgrad(_cpu(dyd), _cpu(wd), g), shape, dy)

    def back(gg):
        gdy = _conv_fwd(gg, w, None, g) if dy.requires_grad else None
        gw = _conv_wgrad(dy, gg, g)[0] if w.requires_grad else None
        return gdy, gw
    autograd.record("ConvolutionBackward0", [dy, w], [out], back, [dy, w])
    return out


def _conv_wgrad(dy: Tensor, x: Tensor, g: Geometry, with_bias: bool = False) -> tuple[Tensor, Tensor | None]:
    """(dw, db): db (the bias gradient, dy summed over batch and pixels) only when with_bias."""
    dyd, xd = dy.detach(), x.detach()
    shape = (g.CO, g.C // g.G, g.KH, g.KW)
    if dy._device.type == "webgpu":
        from ..device import gpu_conv
        dw_s, db_s = gpu_conv.weight_grad(dyd, xd, g, dy.dtype, with_bias)
        dw = _wrap(dw_s, shape, dy)
        db = _wrap(db_s, (g.CO,), dy) if with_bias else None
    else:
        dw = _wrap(np_conv_wgrad(_cpu(dyd), _cpu(xd), g), shape, dy)
        db = _wrap(_cpu(dyd).astype(_ft(_cpu(dyd))).sum((0, 2, 3)), (g.CO,), dy) if with_bias else None

    def back(gdw, gdb=None):
        gdy = _conv_fwd(x, gdw, None, g) if dy.requires_grad else None
        if gdb is not None and dy.requires_grad:
            gdy = gdy + gdb.reshape(1, -1, 1, 1)
        gx = _conv_dgrad(dy, gdw, g) if x.requires_grad else None
        return gdy, gx
    autograd.record("ConvolutionBackwardBackward0", [dy, x], [dw] + ([db] if with_bias else []), back, [dy, x])
    return dw, db


# ---- argument checks (PyTorch's order and messages) ------------------------------------------------
def _bad_args(op: str, args: str) -> TypeError:
    return TypeError(f"{op}() received an invalid combination of arguments - got ({args}), but expected one of: "
                     f"(Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, "
                     f"tuple of ints padding = 0, tuple of ints dilation = 1, int groups = 1)")


def _is_int(v) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, builtins.bool)


def _ints(op: str, name: str, v, default_len: int) -> list[int]:
    if _is_int(v):
        return [builtins.int(v)] * default_len
    if isinstance(v, (tuple, list)) and all(_is_int(e) for e in v):
        return [builtins.int(e) for e in v]
    raise _bad_args(op, f"Tensor, Tensor, {name}={type(v).__name__}")


def _expand(name: str, vals: list[int], k: int) -> list[int]:
    if len(vals) == 1:
        return vals * k
    if len(vals) != k:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {k} values to match the "
                           f"convolution dimensions, but got {name}={vals}")
    return vals


def _tensor_arg(op: str, name: str, pos: int, v) -> Tensor:
    if not isinstance(v, Tensor):
        raise TypeError(f"{op}(): argument '{name}' (position {pos}) must be Tensor, not {type(v).__name__}")
    return v


def _check_types(x: Tensor, w: Tensor, b: Tensor | None) -> None:
    if x.dtype is not w.dtype:
        raise RuntimeError(f"expected scalar type {_TYPES[x.dtype.name]} but found {_TYPES[w.dtype.name]}")
    if b is not None and b.dtype is not x.dtype:
        names = {"float32": "float", "float16": "c10::Half", "bfloat16": "c10::BFloat16", "int64": "long int", "int32": "int", "bool": "bool"}
        raise RuntimeError(f"Input type ({names[x.dtype.name]}) and bias type ({names[b.dtype.name]}) should be the "
                           f"same")
    if not x.dtype.is_floating_point:
        raise NotImplementedError(f"convolution of {x.dtype.name} tensors is not supported here (WGSL kernels "
                                  f"accumulate in float32); convert with .float()")
    for t in (w, b):
        if t is not None and t.device != x.device:
            raise RuntimeError(f"Expected all tensors to be on the same device, but found at least two devices, "
                               f"{x.device} and {t.device}!")


def _params(op: str, x: Tensor, w: Tensor, b, stride, padding, dilation, groups, transposed=False,
            output_padding=0):
    """Validated (stride, padding pairs (before, after), dilation, output_padding, groups), PyTorch's checks."""
    if w.dim() < 3:
        raise RuntimeError("weight should have at least three dimensions")
    k = w.dim() - 2
    if not _is_int(groups):
        raise _bad_args(op, f"Tensor, Tensor, groups={type(groups).__name__}")
    st = _expand("stride", _ints(op, "stride", stride, k), k)
    same = False
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise RuntimeError(f"Invalid padding string: '{padding}'")
        same = padding == "same"
        pad = [0] * k
    else:
        pad = _expand("padding", _ints(op, "padding", padding, k), k)
    dil = _expand("dilation", _ints(op, "dilation", dilation, k), k)
    opad = _expand("output_padding", _ints(op, "output_padding", output_padding, k), k) if transposed else [0] * k
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if same and any(s != 1 for s in st):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    if any(p < 0 for p in pad):
        raise RuntimeError("negative padding is not supported")
    if any(p < 0 for p in opad):
        raise RuntimeError("negative output_padding is not supported")
    if any(s <= 0 for s in st):
        raise RuntimeError("non-positive stride is not supported")
    ws, xs = list(w._shape), list(x._shape)
    if w.dim() != x.dim():
        raise RuntimeError(f"Expected {w.dim()}-dimensional input for {w.dim()}-dimensional weight {ws}, but got "
                           f"{x.dim()}-dimensional input of size {xs} instead")
    if ws[0] < groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, but got "
                           f"weight of size {ws} instead")
    if ws[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but "
                           f"got weight of size [{ws}] instead")
    if not transposed:
        if xs[1] != ws[1] * groups:
            raise RuntimeError(f"Given groups={groups}, weight of size {ws}, expected input{xs} to have "
                               f"{ws[1] * groups} channels, but got {xs[1]} channels instead")
        if b is not None and (b.dim() != 1 or b._shape[0] != ws[0]):
            raise RuntimeError(f"Given weight of size {ws}, expected bias to be 1-dimensional with {ws[0]} elements, "
                               f"but got bias of size {list(b._shape)} instead")
    else:
        if xs[1] != ws[0]:
            raise RuntimeError(f"Given transposed=1, weight of size {ws}, expected input{xs} to have {ws[0]} "
                               f"channels, but got {xs[1]} channels instead")
        if b is not None and (b.dim() != 1 or b._shape[0] != ws[1] * groups):
            raise RuntimeError(f"Given transposed=1, weight of size {ws}, expected bias to be 1-dimensional with "
                               f"{ws[1] * groups} elements, but got bias of size {list(b._shape)} instead")
    if any(d <= 0 for d in dil):
        if transposed:
            raise RuntimeError(f"dilation should be greater than zero, but got dilation_height: {dil[0]}, "
                               f"dilation_width: {dil[-1]}")
        raise RuntimeError(f"dilation should be greater than zero, but got {dil}")
    if same:
        pads = []
        for d, kk in zip(dil, ws[2:]):
            total = d * (kk - 1)
            pads.append((total // 2, total - total // 2))
    else:
        pads = [(p, p) for p in pad]
    if not transposed:
        padded = [s + a + c for s, (a, c) in zip(xs[2:], pads)]
        kern = [d * (kk - 1) + 1 for d, kk in zip(dil, ws[2:])]
        if any(p < kk for p, kk in zip(padded, kern)):
            raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel "
                               f"size: ({' x '.join(map(str, kern))}). Kernel size can't be greater than actual input "
                               f"size")
    else:
        if any(o >= s and o >= d for o, s, d in zip(opad, st, dil)):
            raise RuntimeError(f"output padding must be smaller than either stride or dilation, but got "
                               f"output_padding_height: {opad[0]} output_padding_width: {opad[-1]} stride_height: "
                               f"{st[0]} stride_width: {st[-1]} dilation_height: {dil[0]} dilation_width: {dil[-1]}")
    _check_types(x, w, b)
    return st, pads, dil, opad


def _batched(op: str, x: Tensor, dims: int) -> bool:
    if x.dim() not in (dims, dims + 1):
        kind = {3: ("2D", "3D"), 4: ("3D", "4D")}[dims + 1]
        raise RuntimeError(f"Expected {kind[0]} (unbatched) or {kind[1]} (batched) input to {op}, but got input of "
                           f"size: {list(x._shape)}")
    return x.dim() == dims + 1


def _geometry(x4, w4, st, pads, dil, groups) -> Geometry:
    NB, C, H, W = x4._shape
    CO, _, KH, KW = w4._shape
    (pt, pb), (pl, pr) = pads
    OH = (H + pt + pb - dil[0] * (KH - 1) - 1) // st[0] + 1
    OW = (W + pl + pr - dil[1] * (KW - 1) - 1) // st[1] + 1
    return Geometry(NB, C, H, W, CO, OH, OW, KH, KW, st[0], st[1], pt, pl, dil[0], dil[1], groups)


# ---- the ops -------------------------------------------------------------------------------------------
def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0, dilation=1,
           groups: int = 1) -> Tensor:
    """2-D convolution over (N, C, H, W) or unbatched (C, H, W) input (``torch.nn.functional.conv2d``).

    Args:
        input: (N, C_in, H, W) or (C_in, H, W).
        weight: (C_out, C_in / groups, kH, kW).
        bias: optional (C_out,).
        stride, padding, dilation: an int or a pair; padding may also be ``'valid'`` (0) or
            ``'same'`` (output as large as the input, stride 1; extra padding goes bottom/right).
        groups: split the channels into this many independent convolutions.

    Shape: output (N, C_out, H_out, W_out), H_out = (H + 2*padding - dilation*(kH - 1) - 1) // stride + 1.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.conv2d(torch.ones(1, 2, 5, 5), torch.ones(4, 2, 3, 3), padding=1).shape
        torch.Size([1, 4, 5, 5])
    """
    _tensor_arg("conv2d", "input", 1, input)
    _tensor_arg("conv2d", "weight", 2, weight)
    if bias is not None:
        _tensor_arg("conv2d", "bias", 3, bias)
    batched = _batched("conv2d", input, 3)
    x = input if batched else input.unsqueeze(0)
    st, pads, dil, _ = _params("conv2d", x, weight, bias, stride, padding, dilation, groups)
    out = _conv_fwd(x, weight, bias, _geometry(x, weight, st, pads, dil, groups))
    return out if batched else out.squeeze(0)


def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0, dilation=1,
           groups: int = 1) -> Tensor:
    """1-D convolution over (N, C, L) or unbatched (C, L) input (``torch.nn.functional.conv1d``).

    weight: (C_out, C_in / groups, k); stride, padding, dilation: an int or a 1-tuple; padding may be
    ``'valid'`` or ``'same'``. Output (N, C_out, L_out), L_out = (L + 2*padding - dilation*(k - 1) - 1) // stride + 1.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.conv1d(torch.ones(1, 1, 5), torch.ones(1, 1, 3)).tolist()
        [[[3.0, 3.0, 3.0]]]
    """
    _tensor_arg("conv1d", "input", 1, input)
    _tensor_arg("conv1d", "weight", 2, weight)
    if bias is not None:
        _tensor_arg("conv1d", "bias", 3, bias)
    batched = _batched("conv1d", input, 2)
    x = input if batched else input.unsqueeze(0)
    st, pads, dil, _ = _params("conv1d", x, weight, bias, stride, padding, dilation, groups)
    g = _geometry(x.unsqueeze(2), weight.unsqueeze(2), [1] + st, [(0, 0)] + pads, [1] + dil, groups)
    out = _conv_fwd(x.unsqueeze(2), weight.unsqueeze(2), bias, g).squeeze(2)
    return out if batched else out.squeeze(0)


def conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
                     output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    """2-D transposed convolution ("deconvolution"): the gradient of conv2d with respect to its input.

    Args:
        input: (N, C_in, H, W) or (C_in, H, W).
        weight: (C_in, C_out / groups, kH, kW).
        bias: optional (C_out,).
        output_padding: extra rows/columns on the bottom/right of the output (smaller than stride or dilation).

    Shape: H_out = (H - 1)*stride - 2*padding + dilation*(kH - 1) + output_padding + 1.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.conv_transpose2d(torch.ones(1, 4, 3, 3), torch.ones(4, 2, 2, 2), stride=2).shape
        torch.Size([1, 2, 6, 6])
    """
    _tensor_arg("conv_transpose2d", "input", 1, input)
    _tensor_arg("conv_transpose2d", "weight", 2, weight)
    if bias is not None:
        _tensor_arg("conv_transpose2d", "bias", 3, bias)
    if isinstance(padding, str):
        raise TypeError("conv_transpose2d(): argument 'padding' must be tuple of ints, not str")
    batched = _batched("conv_transpose2d", input, 3)
    x = input if batched else input.unsqueeze(0)
    st, pads, dil, opad = _params("conv_transpose2d", x, weight, bias, stride, padding, dilation, groups,
                                  transposed=True, output_padding=output_padding)
    NB, _, H, W = x._shape
    CI, COG, KH, KW = weight._shape
    HO = (H - 1) * st[0] - 2 * pads[0][0] + dil[0] * (KH - 1) + opad[0] + 1
    WO = (W - 1) * st[1] - 2 * pads[1][0] + dil[1] * (KW - 1) + opad[1] + 1
    if HO <= 0 or WO <= 0:
        raise RuntimeError(f"Given input size per channel: ({H} x {W}). Calculated output size per channel: "
                           f"({HO} x {WO}). Output size is too small")
    g = Geometry(NB, COG * groups, HO, WO, CI, H, W, KH, KW, st[0], st[1], pads[0][0], pads[1][0], dil[0], dil[1],
                 groups)
    out = _conv_dgrad(x, weight, g)
    if bias is not None:
        out = out + bias.reshape(1, -1, 1, 1)
    return out if batched else out.squeeze(0)
