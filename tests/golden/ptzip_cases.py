"""The objects of the torch.save / torch.load goldens, built from one recipe by real torch (the generator,
generate_ptzip.py) and by borch_webgpu (its twin, and the CI test tests/unit/test_ptzip_files.py): the same
module calls on ``T`` = ``torch`` or ``borch_webgpu``. ``describe`` turns what torch.load returned into
JSON (tensors with dtype, shape, stride, offset, values and which storage they share)."""
from __future__ import annotations

import math
from collections import Counter, OrderedDict

DTYPES = ("float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8", "bool")


def _model(T):
    m = T.nn.Sequential(T.nn.Linear(3, 4), T.nn.BatchNorm1d(4), T.nn.ReLU(), T.nn.Linear(4, 2))
    with T.no_grad():
        for i, p in enumerate(m.parameters()):
            n = p.numel()
            p.copy_(((T.arange(float(n)) - n / 2) / (8 + i)).reshape(p.shape))
    return m


def _trained(T):
    m = _model(T)
    opt = T.optim.Adam(m.parameters(), lr=0.01)
    x = ((T.arange(15.0) - 7) / 7).reshape(5, 3)
    for _ in range(2):
        opt.zero_grad()
        m(x).pow(2).mean().backward()
        opt.step()
    return m, opt


def build(T, f16_device=None) -> dict:
    """name -> the object saved under that name (``f16_device``: where the float16 tensor is made, for
    adapters without shader-f16; a file records every tensor as a cpu tensor, so the bytes are the same)."""
    base = T.arange(24.0).reshape(4, 6)
    views = {"base": base, "row": base[1], "col": base[:, 2], "t": base.t(), "strided": base[1:3, ::2],
             "scalar": base[2, 3], "tail": base.reshape(-1)[20:], "expand": T.arange(3.0).reshape(3, 1).expand(3, 4),
             "own": T.ones(2, 3), "empty": T.zeros(0, 3)}
    vals = [0, 1, 7, 100, 3]
    dtypes = {}
    for name in DTYPES:
        dt = getattr(T, name)
        if name == "bool":
            dtypes[name] = T.tensor([True, False, True, True, False])
        elif name in ("float32", "float64", "float16"):
            dtypes[name] = T.tensor([0.1, -2.5, 1e-3, 65504.0 if name == "float16" else 1e30, -0.0], dtype=dt,
                                    device=f16_device if name == "float16" else None)
        else:
            lo = {"uint8": 255, "int8": -128, "int16": -32768, "int32": -2 ** 31, "int64": -2 ** 31}[name]
            dtypes[name] = T.tensor(vals[:4] + [lo], dtype=dt)
    dtypes["int64_2d"] = T.arange(12).reshape(3, 4)[:, 1:]
    model = _model(T).state_dict()
    m, opt = _trained(T)
    p = T.nn.Parameter(T.tensor([1.0, 2.0]))
    checkpoint = {"model": m.state_dict(), "optimizer": opt.state_dict(), "epoch": 3, "best": math.inf,
                  "lr": [0.1, 0.01], "name": "run [1]", "flags": (True, False, None), "size": T.Size([2, 3]),
                  "dtype": T.float16, "bytes": b"\x00ab\xff", "set": {1, 2}, "counter": Counter({"a": 2}),
                  "ordered": OrderedDict([("b", 1), ("a", 2)]), "param": p, "big": 2 ** 40, "neg": -7,
                  "grad": T.tensor([1.5, -2.0], requires_grad=True), "tied": [p, p]}
    return {"views": views, "dtypes": dtypes, "model": model, "optimizer": opt.state_dict(), "checkpoint": checkpoint}


def _float(x):
    return x if math.isfinite(x) else repr(x)


def describe(obj, storage_of) -> object:
    """JSON for a loaded object; ``storage_of(t)`` is a hashable identity of tensor t's storage."""
    groups: dict = {}

    def go(o):
        if hasattr(o, "storage_offset") and hasattr(o, "stride"):
            flat = o.detach().reshape(-1).tolist() if o.numel() else []
            return {"tensor": repr(o.dtype), "shape": list(o.shape), "stride": list(o.stride()),
                    "offset": o.storage_offset(), "requires_grad": o.requires_grad,
                    "parameter": type(o).__name__ == "Parameter",
                    "storage": groups.setdefault(storage_of(o), len(groups)),
                    "values": [_float(float(v)) if isinstance(v, float) else v for v in flat]}
        if isinstance(o, OrderedDict) or type(o).__name__ == "OrderedDict":
            return {"OrderedDict": [[go(k), go(v)] for k, v in o.items()],
                    "attrs": {k: go(v) for k, v in sorted(vars(o).items())}}
        if isinstance(o, Counter):
            return {"Counter": sorted([go(k), go(v)] for k, v in o.items())}
        if isinstance(o, dict):
            return {"dict": [[go(k), go(v)] for k, v in o.items()]}
        if isinstance(o, (list, tuple)) and type(o).__name__ == "Size":
            return {"Size": list(o)}
        if isinstance(o, (list, tuple)):
            return {type(o).__name__: [go(v) for v in o]}
        if isinstance(o, set):
            return {"set": sorted((go(v) for v in o), key=repr)}
        if isinstance(o, (bytes, bytearray)):
            return {type(o).__name__: o.hex()}
        if isinstance(o, complex):
            return {"complex": [o.real, o.imag]}
        if isinstance(o, float):
            return {"float": _float(o)}
        if o is None or isinstance(o, (bool, int, str)):
            return o
        if type(o).__name__ == "dtype":
            return {"dtype": repr(o)}
        raise TypeError(f"describe: {type(o).__name__}")

    return go(obj)
