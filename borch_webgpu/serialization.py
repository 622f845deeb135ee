"""``torch.save`` / ``torch.load`` as safetensors: a pure-Python reader and writer, no pickle.

The file is the safetensors format (8-byte little-endian header length, a JSON header naming each
tensor's dtype, shape and byte range, then the raw data), so files written by
``safetensors.torch.save_file`` load here and files written here load there. What ``save`` accepts:
a tensor, or dicts / lists / tuples (nested) of tensors and plain values (numbers, strings, bools,
None): tensors are stored under their path (``"layer1.0.weight"``, ``"state.0.exp_avg"``) and the
structure goes into the header's ``__metadata__``. Loading a plain safetensors file gives a dict
of tensors (an OrderedDict in file order, which is what ``load_state_dict`` takes).

Reading trusts nothing in the file (borch_webgpu._safetensors checks what the safetensors format
requires: header length, dtypes, shapes, offsets that tile the data section exactly; and it refuses
JSON nested deeper than ``MAX_JSON_DEPTH`` = 64 before parsing it). Every file ``load`` cannot read
raises :class:`SafetensorError`, a ``RuntimeError`` whose message names the file, the check that
failed (``kind``: safetensors' own error names such as ``InvalidOffset``, ``TensorInvalidInfo``,
``MetadataIncompleteBuffer``, ``HeaderTooLarge``; or ``HeaderTooDeep``, ``UnsupportedDtype``,
``InvalidStructure``, ``UnsupportedValue``, ``PickleCheckpoint``), the tensor and the numbers.
Limits: a header of at most ``MAX_HEADER_BYTES`` = 100,000,000 bytes (safetensors' own), JSON at
most 64 brackets deep (header and the structure in ``__metadata__``; ``save`` refuses objects
nested deeper), at most 32 dimensions per tensor.
"""
from __future__ import annotations

import io
import json
import os
import struct
from collections import OrderedDict

import numpy as np

from . import _dtype
from ._safetensors import (MAX_HEADER_BYTES, MAX_JSON_DEPTH, SafetensorError, json_depth, parse_json, read_numpy,
                           short_repr)
from .tensor import Tensor

__all__ = ["save", "load", "save_file", "load_file", "SafetensorError", "MAX_HEADER_BYTES", "MAX_JSON_DEPTH"]

# safetensors dtype names
_ST = {"float32": "F32", "float64": "F64", "float16": "F16", "int64": "I64", "int32": "I32", "bool": "BOOL",
       "uint8": "U8", "int8": "I8", "int16": "I16"}
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


def _unflatten(spec, tensors: dict, file: str):
    """The object _flatten described, every part of the description checked (it comes from a file)."""
    def bad(detail: str) -> SafetensorError:
        return SafetensorError("InvalidStructure", file, f"the {_STRUCT_KEY!r} metadata {detail}")

    if not (isinstance(spec, dict) and len(spec) == 1):
        raise bad(f"holds {short_repr(spec)} where a one-key object was expected")
    (kind, val), = spec.items()
    if kind == "tensor":
        if not isinstance(val, str) or val not in tensors:
            raise bad(f"refers to tensor {short_repr(val)}, which the file does not hold")
        return tensors[val]
    if kind == "dict":
        if not isinstance(val, list) or not all(isinstance(kv, list) and len(kv) == 2 for kv in val):
            raise bad(f"holds a dict as {short_repr(val)}, not a list of [key, value] pairs")
        out = OrderedDict()
        for k, v in val:
            if isinstance(k, dict) and len(k) == 1 and isinstance(k.get("int"), int):
                k = k["int"]
            elif not isinstance(k, str):
                raise bad(f"holds a dict key {short_repr(k)}; keys are strings or {{'int': n}}")
            out[k] = _unflatten(v, tensors, file)
        return out
    if kind in ("list", "tuple"):
        if not isinstance(val, list):
            raise bad(f"holds a {kind} as {short_repr(val)}, not a list")
        items = [_unflatten(v, tensors, file) for v in val]
        return items if kind == "list" else tuple(items)
    if kind == "float" and val in ("inf", "-inf", "nan"):
        return float(val)
    if kind == "value" and (val is None or isinstance(val, (bool, int, float, str))):
        return val
    raise bad(f"holds {short_repr(spec)}, which is not a tensor, dict, list, tuple or plain value")


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


def _decode(data: bytes, device=None, file: str = "<bytes>") -> tuple[OrderedDict, dict]:
    """Tensors (bfloat16 becomes float32; U8, I8, I16 stay uint8, int8, int16) and metadata."""
    from .ops.creation import tensor as make
    arrays, meta = read_numpy(data, file)
    out = OrderedDict()
    for name, arr in arrays.items():
        target = _dtype.float32 if arr.dtype.kind == "f" and arr.dtype not in (np.float16, np.float64) else None
        try:
            out[name] = make(arr.copy(), dtype=target, device=device)
        except OverflowError as e:  # int64 beyond int32's range
            raise SafetensorError("UnsupportedValue", file,
                                  f"tensor {name!r} ({arr.dtype}): {str(e).removeprefix('tensor: ')}") from e
    return out, meta


def _describe(f) -> str:
    """How error messages name what load() was given."""
    if isinstance(f, (str, os.PathLike)):
        return repr(os.fspath(f))
    name = getattr(f, "name", None)
    return repr(name) if isinstance(name, str) else f"<{type(f).__name__}>"


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
    depth = json_depth(meta[_STRUCT_KEY].encode()) if meta else 0
    if depth > MAX_JSON_DEPTH:
        raise ValueError(f"save: the object nests {depth} JSON levels deep once stored (about 3 per nested dict); "
                         f"load() reads at most {MAX_JSON_DEPTH}, so flatten it")
    data = _encode(tensors, meta)
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as fh:
            fh.write(data)
    else:
        f.write(data)


def load(f, map_location=None, weights_only: bool = True, **kwargs):
    """Load what :func:`save` wrote (or any safetensors file) from a path or a binary file.

    Raises :class:`SafetensorError` (a ``RuntimeError``) for any file it cannot read, naming the file,
    the failed check, the tensor and the numbers.

    Example::

        >>> import borch_webgpu as torch
        >>> try:
        ...     torch.load(b"\\x08" + bytes(7) + b"[1, 2]  ")
        ... except torch.serialization.SafetensorError as e:
        ...     print(e)
        load: <bytes>: InvalidHeaderDeserialization: the header is a JSON list, not an object
    """
    file = _describe(f)
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as fh:
            data = fh.read()
    elif isinstance(f, (bytes, bytearray, memoryview)):
        data = bytes(f)
    else:
        data = f.read()
    device = None if map_location is None or callable(map_location) or isinstance(map_location, dict) else map_location
    try:
        tensors, meta = _decode(data, device, file)
    except SafetensorError as e:
        # asked only when the header is unreadable: a safetensors file with a 128-byte header starts with 0x80 too
        header_bad = e.kind in ("HeaderTooLarge", "InvalidHeaderLength", "InvalidHeader",
                                "InvalidHeaderDeserialization")
        zip_or_pickle = data[:4] == b"PK\x03\x04" or (data[:1] == b"\x80" and data[1:2] in (b"\x02", b"\x03", b"\x04",
                                                                                         b"\x05"))
        if header_bad and zip_or_pickle:
            raise SafetensorError("PickleCheckpoint", file, "this looks like a pickle/zip checkpoint from torch.save; "
                                  "borch_webgpu reads safetensors only (no pickle). In PyTorch, save it with "
                                  "safetensors.torch.save_file(model.state_dict(), path)") from e
        raise
    if _STRUCT_KEY in meta:
        spec = parse_json(meta[_STRUCT_KEY], "InvalidStructure", f"the {_STRUCT_KEY!r} metadata", file)
        return _unflatten(spec, tensors, file)
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
        return _decode(fh.read(), device, _describe(filename))[0]


def to_bytes(obj) -> bytes:
    buf = io.BytesIO()
    save(obj, buf)
    return buf.getvalue()
