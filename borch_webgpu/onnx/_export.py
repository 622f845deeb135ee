"""One traced forward -> an ONNX ModelProto (see ``borch_webgpu.onnx.export`` for the arguments)."""
from __future__ import annotations

import inspect
import warnings

from .. import _bind
from ..autograd import enable_grad
from ..nn import functional as F
from ..nn.modules.module import Module
from ..tensor import Tensor
from . import _ops_nn  # noqa: F401 - registers the nn.functional mappings
from ._graph import Graph, dtype_name, tensors
from ._ops_tensor import SYMBOLIC
from .errors import UnsupportedOperatorError

MIN_OPSET, MAX_OPSET = 17, 21
DEFAULT_OPSET = 20   # torch.onnx's ONNX_DEFAULT_OPSET in PyTorch 2.13 (both exporters)
IR_VERSION = {17: 8, 18: 8, 19: 9, 20: 9, 21: 10}   # the IR version each opset came with (onnx 1.12 .. 1.16)


def mapping(name: str):
    """The mapping for an API name; an in-place ``relu_`` / ``__iadd__`` maps like its out-of-place op."""
    if name in SYMBOLIC:
        return name, SYMBOLIC[name]
    if name.endswith("_") and not name.startswith("__") and name[:-1] in SYMBOLIC:
        return name[:-1], SYMBOLIC[name[:-1]]
    return name, None


def _split_args(args, kwargs):
    if isinstance(args, Tensor):
        args = (args,)
    elif not isinstance(args, tuple):
        args = tuple(args) if isinstance(args, list) else (args,)
    kwargs = dict(kwargs or {})
    if args and isinstance(args[-1], dict):   # the TorchScript exporter's convention: a trailing dict is kwargs
        kwargs = {**args[-1], **kwargs}
        args = args[:-1]
    return args, kwargs


def _default_input_names(model, n_args: int, kwargs: dict) -> list[str]:
    fn = model.forward if isinstance(model, Module) else model
    try:
        params = [p.name for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        params = []
    names = [params[i] if i < len(params) else f"input_{i}" for i in range(n_args)]
    return names + list(kwargs)


def _axes(dynamic_axes, names: set[str]) -> dict[str, dict[int, str]]:
    out = {}
    for key, axes in (dynamic_axes or {}).items():
        if key not in names:
            warnings.warn(f"Provided key {key} for dynamic axes is not a valid input/output name", stacklevel=3)
            continue
        if isinstance(axes, dict):
            out[key] = {int(a): str(n) for a, n in axes.items()}
        else:
            out[key] = {int(a): f"{key}_dynamic_axes_{i + 1}" for i, a in enumerate(axes)}
    return out


class _Tracer:
    def __init__(self, g: Graph):
        self.g = g

    def __call__(self, name, fn, args, kwargs, result) -> None:
        g = self.g
        outs = list(tensors(result))
        if not outs:
            return
        ins = list(tensors((args, kwargs)))
        for t in ins:
            g.check_traced(t)
        if not any(g.is_dynamic(t) for t in ins):
            g.fold(result)   # computed from constants only: its value goes into the file if it is used
            return
        if kwargs.get("out") is not None:
            raise RuntimeError(f"onnx.export: {name}(..., out=...) writes into an existing tensor; call it without "
                               "out= inside forward")
        kwargs = {k: v for k, v in kwargs.items() if k != "out"}
        base, sym = mapping(name)
        if sym is None or not isinstance(result, Tensor):
            raise UnsupportedOperatorError(f"aten::{name}", g.opset, None)
        g.result, g.current_name = result, base
        sym(g, *args, **kwargs)
        if id(result) not in g.values:
            raise AssertionError(f"onnx mapping for {name} did not bind its result")


def build(model, args, *, kwargs, input_names, output_names, opset_version, dynamic_axes, export_params,
          keep_initializers_as_inputs, do_constant_folding, producer_version: str, verbose: bool) -> bytes:
    opset = DEFAULT_OPSET if opset_version is None else int(opset_version)   # checked by export()
    args, kwargs = _split_args(args, kwargs)
    params: dict[int, tuple[str, Tensor]] = {}
    if isinstance(model, Module):
        for name, t in list(model.named_parameters()) + list(model.named_buffers()):
            params.setdefault(id(t), (name, t))
    g = Graph(opset, params, params_as_inputs=not export_params,
              params_dynamic=not (export_params and do_constant_folding))
    n_in = sum(isinstance(a, Tensor) for a in args) + sum(isinstance(v, Tensor) for v in kwargs.values())
    names = list(input_names or [])
    defaults = _default_input_names(model, len(args), kwargs)
    tensor_slots = [i for i, a in enumerate(list(args) + list(kwargs.values())) if isinstance(a, Tensor)]
    in_names = [names[j] if j < len(names) else defaults[i] for j, i in enumerate(tensor_slots)][:n_in]
    out_given = list(output_names or [])
    axes = _axes(dynamic_axes, set(in_names) | set(out_given))
    g.reserve(in_names + out_given)

    def graph_input(t: Tensor, name: str) -> Tensor:
        x = t.detach()
        if x.dtype.is_floating_point:   # so a tensor computed from it by an untraced op is caught (grad_fn)
            x = x.requires_grad_(True).clone()
        dims = tuple(axes.get(name, {}).get(i, int(s)) for i, s in enumerate(t.shape))
        g.inputs.append((name, dtype_name(t), dims))
        g.bind(x, name, dims)
        return x

    it = iter(in_names)
    with enable_grad():
        targs = tuple(graph_input(a, next(it)) if isinstance(a, Tensor) else a for a in args)
        tkwargs = {k: graph_input(v, next(it)) if isinstance(v, Tensor) else v for k, v in kwargs.items()}
        with _bind.tracing(_Tracer(g), namespaces=[(F, F.__all__)]):
            result = model(*targs, **tkwargs)
    outs = list(tensors(result))
    if not outs:
        raise RuntimeError("onnx.export: the model returned no tensor")
    out_names = [out_given[i] if i < len(out_given) else ("output" if len(outs) == 1 else f"output_{i}")
                 for i in range(len(outs))]
    outputs = []
    for t, name in zip(outs, out_names):
        src = g.value(t)
        g.output(src, name)
        dims = list(g.dims[name])
        for a, sym in axes.get(name, {}).items():
            dims[a] = sym
        outputs.append((name, dtype_name(t), tuple(dims)))
    if verbose:
        print(g.describe())
    return g.to_bytes(outputs, producer_version, IR_VERSION[opset], keep_initializers_as_inputs)
