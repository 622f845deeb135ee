"""``print(tensor)`` in PyTorch's format (torch/_tensor_str.py's rules, applied to numpy values)."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import _dtype
from .ops._registry import api


@dataclass
class PrintOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


PRINT_OPTS = PrintOptions()


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None):
    """PyTorch's ``torch.set_printoptions``."""
    if profile == "default":
        PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 4, 1000, 3, 80
    elif profile == "short":
        PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 2, 1000, 2, 80
    elif profile == "full":
        PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 4, math.inf, 3, 80
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


class _Formatter:
    def __init__(self, values: np.ndarray, floating: bool):
        self.floating_dtype = floating
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        p = PRINT_OPTS.precision
        flat = values.reshape(-1)
        if not floating:
            for v in flat.tolist():
                self.max_width = max(self.max_width, len(f"{v}"))
        else:
            nz = flat[np.isfinite(flat) & (flat != 0)]
            if nz.size == 0:
                return
            nz_abs = np.abs(nz).astype(np.float64)
            nz_min, nz_max = float(nz_abs.min()), float(nz_abs.max())
            vals = nz.tolist()
            if not np.all(nz == np.ceil(nz)):
                self.int_mode = False
            if self.int_mode:
                if nz_max / nz_min > 1000.0 or nz_max > 1.0e8:
                    self.sci_mode = True
                    for v in vals:
                        self.max_width = max(self.max_width, len(f"{v:.{p}e}"))
                else:
                    for v in vals:
                        self.max_width = max(self.max_width, len(f"{v:.0f}") + 1)
            else:
                if nz_max / nz_min > 1000.0 or nz_max > 1.0e8 or nz_min < 1.0e-4:
                    self.sci_mode = True
                    for v in vals:
                        self.max_width = max(self.max_width, len(f"{v:.{p}e}"))
                else:
                    for v in vals:
                        self.max_width = max(self.max_width, len(f"{v:.{p}f}"))
        if PRINT_OPTS.sci_mode is not None:
            self.sci_mode = PRINT_OPTS.sci_mode

    def width(self) -> int:
        return self.max_width

    def format(self, value) -> str:
        p = PRINT_OPTS.precision
        if self.floating_dtype:
            if self.sci_mode:
                ret = f"{value:{self.max_width}.{p}e}"
            elif self.int_mode:
                ret = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    ret += "."
            else:
                ret = f"{value:.{p}f}"
        else:
            ret = f"{value}"
        return (self.max_width - len(ret)) * " " + ret


def _summarized(a: np.ndarray) -> np.ndarray:
    e = PRINT_OPTS.edgeitems
    if a.ndim == 0:
        return a
    if a.shape[0] > 2 * e:
        parts = [_summarized(x) for x in list(a[:e]) + list(a[-e:])]
    else:
        parts = [_summarized(x) for x in a]
    return np.stack(parts) if parts else a


def _vector_str(a: np.ndarray, indent: int, summarize: bool, fmt: _Formatter) -> str:
    element_length = fmt.width() + 2
    per_line = max(1, int(math.floor((PRINT_OPTS.linewidth - indent) / element_length)))
    e = PRINT_OPTS.edgeitems
    if summarize and not e:
        data = ["..."]
    elif summarize and a.shape[0] > 2 * e:
        data = [fmt.format(v) for v in a[:e].tolist()] + [" ..."] + [fmt.format(v) for v in a[-e:].tolist()]
    else:
        data = [fmt.format(v) for v in a.tolist()]
    lines = [", ".join(data[i:i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_str_with_formatter(a: np.ndarray, indent: int, summarize: bool, fmt: _Formatter) -> str:
    dim = a.ndim
    if dim == 0:
        return fmt.format(a.item())
    if dim == 1:
        return _vector_str(a, indent, summarize, fmt)
    e = PRINT_OPTS.edgeitems
    if summarize and a.shape[0] > 2 * e:
        slices = [_tensor_str_with_formatter(a[i], indent + 1, summarize, fmt) for i in range(e)] + ["..."] + \
                 [_tensor_str_with_formatter(a[i], indent + 1, summarize, fmt) for i in range(len(a) - e, len(a))]
    else:
        slices = [_tensor_str_with_formatter(a[i], indent + 1, summarize, fmt) for i in range(a.shape[0])]
    return "[" + ("," + "\n" * (dim - 1) + " " * (indent + 1)).join(slices) + "]"


class _ComplexFormatter:
    """PyTorch's pair of formatters for complex values: one over the real parts, one over the imaginary."""

    def __init__(self, values: np.ndarray):
        self.re = _Formatter(values.real.astype(np.float64), True)
        self.im = _Formatter(values.imag.astype(np.float64), True)

    def width(self) -> int:
        return self.re.width() + self.im.width() + 1   # and the "j"

    def format(self, value) -> str:
        value = complex(value)
        real_str = self.re.format(value.real)
        imag_str = (self.im.format(value.imag) + "j").lstrip()
        return real_str + imag_str if imag_str[0] in "+-" else real_str + "+" + imag_str


def tensor_body(a: np.ndarray, floating: bool, indent: int) -> str:
    if a.size == 0:
        return "[]"
    summarize = a.size > PRINT_OPTS.threshold
    if a.dtype.kind == "c":
        return _tensor_str_with_formatter(a, indent, summarize, _ComplexFormatter(_summarized(a) if summarize else a))
    fmt = _Formatter(_summarized(a) if summarize else a, floating)
    return _tensor_str_with_formatter(a, indent, summarize, fmt)


def _add_suffixes(tensor_str: str, suffixes: list[str], indent: int) -> str:
    parts = [tensor_str]
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def tensor_repr(t) -> str:
    from .device import default_device

    prefix = "tensor("
    indent = len(prefix)
    suffixes = []
    if t.device.type != default_device().type:
        suffixes.append(f"device='{t.device}'")
    values = t._host("printing a tensor")
    has_default_dtype = t.dtype in (_dtype.get_default_dtype(), _dtype.get_default_dtype().to_complex(),
                                    _dtype.int64, _dtype.bool_)
    if t.numel() == 0:
        if t.dim() != 1:
            suffixes.append("size=" + str(tuple(t._shape)))
        if t.dtype is not _dtype.get_default_dtype():
            suffixes.append("dtype=" + repr(t.dtype))
        body = "[]"
    else:
        if not has_default_dtype:
            suffixes.append("dtype=" + repr(t.dtype))
        floating = t.dtype.is_floating_point
        body = tensor_body(values.astype(np.float64) if floating else
                           values.astype(np.complex128) if t.dtype.is_complex else values, floating, indent)
    if t.grad_fn is not None:
        suffixes.append(f"grad_fn=<{t.grad_fn.name()}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes(prefix + body, suffixes, indent)


def _repr(self, *, tensor_contents=None) -> str:
    return tensor_repr(self)


api("__repr__", method=_repr)
