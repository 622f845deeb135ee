"""The graph that one traced forward builds: values (tensor -> ONNX name), nodes, initializers.

Every tensor a mapped op reads is one of: a value some earlier node produced (or a graph input),
a parameter or buffer of the model (an initializer under its state-dict name), or a constant (a
tensor made from constants only, stored as an initializer). A tensor computed from the input by
something the tracer did not see is refused rather than frozen into the file as a constant.
Each value also carries its dims: ints, or strings for the symbolic axes of ``dynamic_axes``.
"""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor
from . import _proto


def host(t: Tensor) -> np.ndarray:
    """The tensor's values on the host (a blocking read-back on WebGPU)."""
    return np.ascontiguousarray(t.detach().cpu().numpy())


def dtype_name(t: Tensor) -> str:
    return t.dtype.name


class Graph:
    def __init__(self, opset: int, params: dict[int, tuple[str, Tensor]], params_as_inputs: bool,
                 params_dynamic: bool):
        self.opset = opset
        self.nodes: list[tuple] = []           # (op_type, inputs, outputs, name, attrs)
        self.initializers: dict[str, tuple] = {}  # name -> (dtype, dims, raw bytes)
        self.inputs: list[tuple[str, str, tuple]] = []  # (name, dtype, dims)
        self.param_inputs: list[tuple[str, str, tuple]] = []
        self.values: dict[int, str] = {}       # id(tensor) -> name, for values computed in the graph
        self.consts: dict[int, str] = {}       # id(tensor) -> initializer name
        self.dims: dict[str, tuple] = {}
        self.dtypes: dict[str, str] = {}
        self.params = params
        self.params_as_inputs = params_as_inputs
        self.params_dynamic = params_dynamic
        self.folded: set[int] = set()          # tensors computed from constants during the trace
        self.stale: dict[int, str] = {}        # id -> why: overwritten in place through another alias
        self._keep: list = []                  # every tensor seen stays alive, so ids stay unique
        self._count: dict[str, int] = {}
        self._const_cache: dict[tuple, str] = {}
        self._reserved: set[str] = set()
        self._outputs: set[str] = set()
        self.result = None                     # the result of the call being mapped

    # ---- names -----------------------------------------------------------------------------
    def reserve(self, names) -> None:
        """The graph's input and output names: no internal value is given one of them."""
        self._reserved.update(names)

    def fresh(self, base: str) -> str:
        while True:
            n = self._count.get(base, 0)
            self._count[base] = n + 1
            name = f"{base}_{n}" if n else base
            if name not in self._reserved:
                return name

    def symbol(self) -> str:
        """A new symbolic dim, for an axis whose size depends on a dynamic input axis."""
        return self.fresh("unk__dim")

    # ---- what a tensor is --------------------------------------------------------------------
    def is_dynamic(self, t: Tensor) -> bool:
        return id(t) in self.values or (self.params_dynamic and id(t) in self.params)

    def value(self, t: Tensor) -> str:
        """The ONNX name of tensor ``t`` (an initializer is added the first time a parameter or
        constant is read)."""
        k = id(t)
        if k in self.stale:
            raise RuntimeError(f"onnx.export: {self.stale[k]}; the exporter cannot follow an in-place write "
                               "through a view. Write the op out of place (y = f(x)) in forward.")
        if k in self.values:
            return self.values[k]
        if k in self.consts:
            return self.consts[k]
        self._keep.append(t)
        if k in self.params:
            name = self.params[k][0]
            arr = host(t)
            if self.params_as_inputs:
                self.param_inputs.append((name, dtype_name(t), tuple(arr.shape)))
            else:
                self._initializer(name, arr, dtype_name(t))
            self.consts[k] = name
            self.dims[name], self.dtypes[name] = tuple(arr.shape), dtype_name(t)
            return name
        self.check_traced(t)
        name = self.const(host(t), dtype_name(t))
        self.consts[k] = name
        return name

    def check_traced(self, t: Tensor) -> None:
        """Refuse a tensor that came from the input through code the tracer did not see (it has a grad_fn,
        since the traced inputs require grad, but it is neither a value nor computed from constants)."""
        k = id(t)
        if k in self.values or k in self.consts or k in self.params or k in self.folded or t.grad_fn is None:
            return
        raise RuntimeError(
            f"onnx.export: a tensor of shape {tuple(t.shape)} (grad_fn={type(t.grad_fn).__name__}) was computed from "
            "the model's input by code the exporter does not trace (a function imported by name before the export, "
            "or a private helper). Call it as torch.<name>, a Tensor method or torch.nn.functional.<name> inside "
            "forward.")

    def sym(self, t: Tensor) -> tuple:
        """The dims of ``t``: ints, or strings for symbolic axes."""
        if id(t) in self.values:
            return self.dims[self.values[id(t)]]
        return tuple(t.shape)

    def fold(self, result) -> None:
        for t in tensors(result):
            self._keep.append(t)
            if id(t) not in self.values:
                self.folded.add(id(t))

    # ---- building ----------------------------------------------------------------------------
    def _initializer(self, name: str, arr: np.ndarray, dtype: str) -> None:
        raw = np.ascontiguousarray(arr.astype(arr.dtype.newbyteorder("<"), copy=False)).tobytes()
        self.initializers[name] = (dtype, tuple(arr.shape), raw)

    def const(self, value, dtype: str = "float32") -> str:
        """An initializer holding ``value`` (an array or a Python number / list); equal ones share a name."""
        arr = np.asarray(value, dtype=np.dtype(dtype) if dtype != "bool" else np.bool_)
        key = (dtype, arr.shape, arr.tobytes())
        if key not in self._const_cache:
            name = self.fresh("onnx::Constant")
            self._initializer(name, arr, dtype)
            self.dims[name], self.dtypes[name] = tuple(arr.shape), dtype
            self._const_cache[key] = name
        return self._const_cache[key]

    def op(self, op_type: str, *inputs: str, dims: tuple, dtype: str = "float32", **attrs) -> str:
        """Add one node with one output; returns the output's name."""
        name = self.fresh(op_type.lower())
        self.nodes.append((op_type, list(inputs), [name], f"/{op_type}_{len(self.nodes)}", attrs))
        self.dims[name], self.dtypes[name] = tuple(dims), dtype
        return name

    def bind(self, t: Tensor, name: str, dims: tuple | None = None) -> None:
        """``t`` is now the value ``name``; an in-place write makes other aliases of its storage stale."""
        if id(t) in self.values or id(t) in self.consts:   # written in place: its aliases now hold other values
            for other in self._keep:
                if other is not t and id(other) in self.values and other._storage is t._storage:
                    self.stale[id(other)] = (f"a tensor of shape {tuple(other.shape)} shares its storage with one "
                                             "that was written in place")
            self.consts.pop(id(t), None)
        self._keep.append(t)
        self.values[id(t)] = name
        if dims is not None:
            self.dims[name] = tuple(dims)
        self.dtypes[name] = dtype_name(t)

    def emit(self, op_type: str, *inputs: str, dims: tuple, **attrs) -> str:
        """One node whose output is the traced call's (single-tensor) result."""
        out = self.result
        name = self.op(op_type, *inputs, dims=dims, dtype=dtype_name(out), **attrs)
        self.bind(out, name, dims)
        return name

    # ---- dims helpers ------------------------------------------------------------------------
    def same(self, t: Tensor) -> tuple:
        return self.sym(t)

    def per_dim(self, t: Tensor, out: Tensor | None = None) -> tuple:
        """Same rank as ``t``: a symbolic axis stays when its traced size is unchanged, else a new symbol."""
        out = self.result if out is None else out
        d_in = self.sym(t)
        res = []
        for i, s in enumerate(out.shape):
            if i < len(d_in) and isinstance(d_in[i], str):
                res.append(d_in[i] if s == t.shape[i] else self.symbol())
            else:
                res.append(int(s))
        return tuple(res)

    def broadcast(self, *operands) -> tuple:
        out = tuple(self.result.shape)
        res = list(out)
        for x in operands:
            if isinstance(x, Tensor):
                d = self.sym(x)
                for j in range(1, len(d) + 1):
                    if isinstance(d[-j], str) and x.shape[-j] == out[-j]:
                        res[-j] = d[-j]
        return tuple(res)

    def output(self, src: str, name: str) -> None:
        """Make value ``src`` the graph output ``name``: the node that computes it is renamed, or an
        Identity is added (for an input, a constant, or a value that is already an output)."""
        produced = {outs[0] for (_, _, outs, _, _) in self.nodes}
        if src in produced and src not in self._outputs and src != name:
            for (_, ins, outs, _, _) in self.nodes:
                ins[:] = [name if i == src else i for i in ins]
                outs[:] = [name if o == src else o for o in outs]
            self.dims[name], self.dtypes[name] = self.dims.pop(src), self.dtypes.pop(src)
            for k, v in list(self.values.items()):
                if v == src:
                    self.values[k] = name
        elif src != name or src not in produced:
            self.nodes.append(("Identity", [src], [name], f"/Identity_{len(self.nodes)}", {}))
            self.dims[name], self.dtypes[name] = self.dims[src], self.dtypes[src]
        self._outputs.add(name)

    def describe(self) -> str:
        """The graph as text, one node a line (``verbose=True``)."""
        lines = [f"graph(inputs: {', '.join(n for n, _, _ in self.inputs)})"]
        for op, ins, outs, _, attrs in self.nodes:
            extra = ", ".join(f"{k}={v}" for k, v in attrs.items())
            lines.append(f"  %{outs[0]} = {op}({', '.join('%' + i for i in ins)}){' {' + extra + '}' if extra else ''}")
        return "\n".join(lines)

    # ---- the file ----------------------------------------------------------------------------
    def to_bytes(self, outputs: list[tuple[str, str, tuple]], producer_version: str, ir_version: int,
                 initializers_as_inputs: bool = False) -> bytes:
        live = self._live(outputs)
        nodes = [_proto.node(op, ins, outs, name, attrs) for (op, ins, outs, name, attrs) in self.nodes
                 if outs[0] in live]
        inits = [_proto.tensor(n, dt, dims, raw) for n, (dt, dims, raw) in self.initializers.items() if n in live]
        ins = [_proto.value_info(n, dt, d) for n, dt, d in self.inputs]
        ins += [_proto.value_info(n, dt, d) for n, dt, d in self.param_inputs if n in live]
        if initializers_as_inputs:
            ins += [_proto.value_info(n, dt, d) for n, (dt, d, _) in self.initializers.items() if n in live]
        outs = [_proto.value_info(n, dt, d) for n, dt, d in outputs]
        g = _proto.graph("main_graph", nodes, inits, ins, outs)
        return _proto.model(g, self.opset, ir_version, "borch_webgpu", producer_version)

    def _live(self, outputs) -> set[str]:
        """The names the outputs depend on (nodes that feed nothing are dropped)."""
        producer = {outs[0]: ins for (_, ins, outs, _, _) in self.nodes}
        live, stack = set(), [n for n, _, _ in outputs]
        while stack:
            n = stack.pop()
            if n in live:
                continue
            live.add(n)
            stack += [i for i in producer.get(n, ()) if i]
        return live


def tensors(obj):
    """The tensors inside a result or an argument list (tuples, lists, dicts)."""
    if isinstance(obj, Tensor):
        yield obj
    elif isinstance(obj, (tuple, list)):
        for x in obj:
            yield from tensors(x)
    elif isinstance(obj, dict):
        for x in obj.values():
            yield from tensors(x)
