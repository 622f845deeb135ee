"""``torch.save`` / ``torch.load`` as safetensors: a pure-Python reader and writer, no pickle.

The file is the safetensors format (8-byte little-endian header length, a JSON header naming each
tensor's dtype, shape and byte range, then the raw data), so files written by
``safetensors.torch.save_file`` load here and files written here load there. What ``save`` accepts:
a tensor, or dicts / lists / tuples (nested) of tensors and plain values (numbers, strings, bools,
None): tensors are stored under their path (``"layer1.0.weight"``, ``"state.0.exp_avg"``) and the
structure goes into the header's ``__metadata__``. Loading a plain safetensors file gives a dict
of tensors (an OrderedDict in file order, which is what ``load_state_dict`` takes).
"""
from __future__ import annotations

import io
import json
import os
import struct
from collections import OrderedDict

import numpy as np

from . import _dtype
from .tensor import Tensor

__all__ = ["save", "load", "save_file", "load_file"]

# safetensors dtype names
_ST = {"float32": "F32", "float16": "F16", "int64": "I64", "int32": "I32", "bool": "BOOL"}
_NP = {"F32": np.float32, "F16": np.float16, "F64": np.float64, "I64": np.int64, "I32": np.int32, "I16": np.int16,
       "I8": np.int8, "U8": np.uint8, "BOOL": np.bool_, "BF16": np.uint16}
_STRUCT_KEY = "borch_webgpu.structure"


def _host(t: Tensor) -> np.ndarray:
    return t.detach()._host("save()")


def _flatten(obj, prefix: str, tensors: dict):
    """The JSON structure of obj with tensors replaced by references into ``tensors``."""
    if isinstance(obj, Tensor):
        key = prefix or "tensor"
        tensors[key] = obj
        return {"tensor": key}
    if isinstance(obj, dict):
        return {"dict": [[k if isinstance(k, str) else {"int": k}, _flatten(v, f"{prefix}.{k}" if prefix else str(k),
                                                                              tensors)]
                         for k, v in obj.items()]}
    if isinstance(obj, (list, tuple)):
        return {"list" if isinstance(obj, list) else "tuple": [_flatten(v, f"{prefix}.{i}" if prefix else str(i),
                                                                         tensors) for i, v in enumerate(obj)]}
    if obj is None or isinstance(obj, (bool, int, float, str)):
        if isinstance(obj, float) and not np.isfinite(obj):
            return {"float": repr(obj)}
        return {"value": obj}
    raise TypeError(f"save: cannot store an object of type {type(obj).__name__} (safetensors holds tensors, and "
                    "dicts/lists of tensors and plain values)")


def _unflatten(spec, tensors: dict):
    if "tensor" in spec:
        return tensors[spec["tensor"]]
    if "dict" in spec:
        out = OrderedDict()
        for k, v in spec["dict"]:
            out[k["int"] if isinstance(k, dict) else k] = _unflatten(v, tensors)
        return out
    if "list" in spec:
        return [_unflatten(v, tensors) for v in spec["list"]]
    if "tuple" in spec:
        return tuple(_unflatten(v, tensors) for v in spec["tuple"])
    if "float" in spec:
        return float(spec["float"])
    return spec["value"]


def _encode(tensors: dict, metadata: dict | None) -> bytes:
    header: dict = {}
    chunks, offset = [], 0
    for name, t in tensors.items():
        arr = _host(t)
        if t.dtype is _dtype.int64:
            arr = arr.astype(np.int64)
        raw = np.ascontiguousarray(arr).tobytes()
        header[name] = {"dtype": _ST[t.dtype.name], "shape": list(arr.shape), "data_offsets": [offset, offset + len(raw)]}
        chunks.append(raw)
        offset += len(raw)
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    head = json.dumps(header, separators=(",", ":")).encode()
    head += b" " * (-len(head) % 8)  # the data starts 8-byte aligned
    return struct.pack("<Q", len(head)) + head + b"".join(chunks)


def read_numpy(data: bytes) -> tuple[OrderedDict, dict]:
    """(name -> numpy array in the file's own dtype, metadata) from safetensors bytes."""
    if len(data) < 8:
        raise RuntimeError("load: not a safetensors file (shorter than its 8-byte header length)")
    (n,) = struct.unpack("<Q", data[:8])
    if n > len(data) - 8:
        raise RuntimeError(f"load: not a safetensors file (header of {n} bytes in a {len(data)}-byte file)")
    try:
        header = json.loads(data[8:8 + n])
    except ValueError as e:
        raise RuntimeError(f"load: not a safetensors file (its header is not JSON: {e})") from None
    meta = header.pop("__metadata__", {}) or {}
    base = 8 + n
    out = OrderedDict()
    for name, info in sorted(header.items(), key=lambda kv: kv[1]["data_offsets"][0]):
        dt = info["dtype"]
        if dt not in _NP:
            raise RuntimeError(f"load: tensor {name!r} has dtype {dt}, which borch_webgpu cannot hold")
        a, b = info["data_offsets"]
        arr = np.frombuffer(data[base + a:base + b], dtype=_NP[dt])
        if dt == "BF16":  # bfloat16 is the upper half of a float32
            arr = (arr.astype(np.uint32) << 16).view(np.float32)
        out[name] = arr.reshape(info["shape"])
    return out, meta


def _decode(data: bytes, device=None) -> tuple[OrderedDict, dict]:
    """Tensors (float64 and bfloat16 become float32, small integer types int64) and metadata."""
    from .ops.creation import tensor as make
    arrays, meta = read_numpy(data)
    out = OrderedDict()
    for name, arr in arrays.items():
        target = _dtype.float32 if arr.dtype.kind == "f" and arr.dtype != np.float16 else None
        if arr.dtype in (np.int8, np.int16, np.uint8):
            target = _dtype.int64
        out[name] = make(arr.copy(), dtype=target, device=device)
    return out, meta


def save(obj, f, **kwargs) -> None:
    """Save a tensor or a (nested) dict/list of tensors to ``f`` (a path or a binary file) as safetensors.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.save({"w": torch.ones(2)}, "/tmp/w.safetensors")
        >>> torch.load("/tmp/w.safetensors")["w"]
        tensor([1., 1.])
    """
    tensors: dict = {}
    structure = _flatten(obj, "", tensors)
    plain = isinstance(obj, dict) and all(isinstance(k, str) and isinstance(v, Tensor) for k, v in obj.items())
    meta = None if plain else {_STRUCT_KEY: json.dumps(structure)}
    data = _encode(tensors, meta)
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as fh:
            fh.write(data)
    else:
        f.write(data)


def load(f, map_location=None, weights_only: bool = True, **kwargs):
    """Load what :func:`save` wrote (or any safetensors file) from a path or a binary file."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as fh:
            data = fh.read()
    elif isinstance(f, (bytes, bytearray, memoryview)):
        data = bytes(f)
    else:
        data = f.read()
    if data[:2] == b"PK" or data[:1] == b"\x80":
        raise RuntimeError("load: this is a pickle/zip checkpoint from torch.save; borch_webgpu reads safetensors "
                           "only (no pickle). In PyTorch, save it with safetensors.torch.save_file(model.state_dict(),"
                           " path)")
    device = None if map_location is None or callable(map_location) or isinstance(map_location, dict) else map_location
    tensors, meta = _decode(data, device)
    if _STRUCT_KEY in meta:
        return _unflatten(json.loads(meta[_STRUCT_KEY]), tensors)
    if list(tensors) == ["tensor"]:
        return tensors["tensor"]
    return tensors


def save_file(tensors: dict, filename, metadata: dict | None = None) -> None:
    """safetensors' ``save_file``: a flat dict of tensors, with optional string metadata."""
    with open(filename, "wb") as fh:
        fh.write(_encode(tensors, metadata))


def load_file(filename, device=None) -> OrderedDict:
    """safetensors' ``load_file``: a flat dict of tensors."""
    with open(filename, "rb") as fh:
        return _decode(fh.read(), device)[0]


def to_bytes(obj) -> bytes:
    buf = io.BytesIO()
    save(obj, buf)
    return buf.getvalue()
