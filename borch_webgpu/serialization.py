"""``torch.save`` / ``torch.load`` in PyTorch's own file format, and safetensors beside it.

``save`` writes what PyTorch's ``torch.save`` writes (the zip format of PyTorch 1.6 and later: a pickle
``data.pkl`` whose tensors are ``torch._utils._rebuild_tensor_v2`` calls over storages kept as raw
records ``data/0``, ``data/1``, ...), so real PyTorch reads the file with a plain ``torch.load(f)``
(``weights_only=True``, its default). Every tensor is recorded as a ``cpu`` tensor (location ``'cpu'``),
so PyTorch loads it on any machine; tensors that share a storage (views, slices, tied weights) share
it in the file too, with their offsets and strides, as in PyTorch. The bytes are a function of the object
alone: saving the same object twice gives the same file.

``load`` reads such files from PyTorch (and from here) with the rules of PyTorch 2.6+'s
``weights_only=True``: PyTorch's weights-only unpickler rebuilt opcode for opcode
(borch_webgpu/_ptload.py), the same allowlist (``OrderedDict``, ``Counter``, tensors, ``nn.Parameter``,
``torch.Size``, ``torch.device``, dtypes, plain containers and scalars, ``set``, ``bytes``, ``complex``),
the same blocked modules and the same ``pickle.UnpicklingError`` text ("Weights only load failed ...
Unsupported global: GLOBAL ... was not an allowed global by default"); ``add_safe_globals`` /
``safe_globals`` / ``get_safe_globals`` / ``clear_safe_globals`` extend it. ``weights_only=False``
runs Python's own unpickler, as PyTorch does: that imports and runs whatever the file names, so use it
only on files you trust (in a browser tab too: the code runs with the page's rights). ``map_location``
takes a device, a string, a dict of location tags or a callable ``(storage, location)``; tags
``cuda*`` / ``mps*`` mean the WebGPU device. float32, float64, float16, bfloat16, int64, int32, int16,
int8, uint8 and bool storages load as those dtypes (safetensors' BF16 as bfloat16 too). A file starting
with anything but a zip header is read as safetensors
(``safetensors.torch.save_file`` output; ``save_file`` / ``load_file`` write and read those).

Reading trusts nothing: every refusal names the file, the record and the numbers. Zip problems
(truncation, CRC, overlapping entries, compression methods other than stored/deflate, deflated records
inflating past ``MAX_INFLATED_BYTES`` = 64 MiB, missing records, record sizes that are not numel x
itemsize) and tensors the file cannot build (offset + extent past the storage, negative or
mismatched sizes and strides, more than 32 dims, dtypes borch_webgpu lacks, sparse/quantized/nested
tensors) raise :class:`CheckpointError`, a ``RuntimeError``; a malformed pickle (truncated, reading
unset memo entries, popping an empty stack, more than ``MAX_PICKLE_ITEMS`` = 10,000,000 opcodes,
``data.pkl`` over 128 MiB, containers nested more than ``MAX_PICKLE_DEPTH`` = 100 deep or containing
themselves) raises ``CheckpointError`` too; what PyTorch's unpickler refuses raises PyTorch's
``pickle.UnpicklingError``. Safetensors files raise :class:`SafetensorError` (borch_webgpu/_safetensors.py).
Limits on writing: records under 4 GiB each (no zip64 entries); ``_use_new_zipfile_serialization=False``
(the legacy format) is refused.
"""
from __future__ import annotations

import json
import os
import pickle
import struct
import warnings
from collections import OrderedDict

import numpy as np

from . import _dtype
from ._safetensors import (MAX_HEADER_BYTES, MAX_JSON_DEPTH, SafetensorError, parse_json, read_numpy,
                           short_repr)
from . import _ptpickle
from ._ptload import full_unpickler, load_archive
from ._ptpickle import MAX_PICKLE_DEPTH, MAX_PICKLE_ITEMS, wo_message
from ._ptsave import dumps
from ._ptzip import MAX_INFLATED_BYTES, CheckpointError, archive_name
from .device import canonical, device
from .tensor import Tensor

__all__ = ["save", "load", "save_file", "load_file", "add_safe_globals", "get_safe_globals", "clear_safe_globals",
           "safe_globals", "CheckpointError", "SafetensorError", "MAX_HEADER_BYTES", "MAX_JSON_DEPTH",
           "MAX_INFLATED_BYTES", "MAX_PICKLE_DEPTH", "MAX_PICKLE_ITEMS"]

# safetensors dtype names
_ST = {"float32": "F32", "float64": "F64", "float16": "F16", "int64": "I64", "int32": "I32", "bool": "BOOL",
       "uint8": "U8", "int8": "I8", "int16": "I16", "bfloat16": "BF16"}
_STRUCT_KEY = "borch_webgpu.structure"


def _host(t: Tensor) -> np.ndarray:
    return t.detach()._host("save()")


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
        elif t.dtype is _dtype.bfloat16:  # the float32 values' upper halves
            from .device.bf16 import to_bits
            arr = to_bits(arr)
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
    """Tensors (BF16 stays bfloat16; U8, I8, I16 stay uint8, int8, int16) and metadata."""
    from .ops.creation import tensor as make
    bf16: set = set()
    arrays, meta = read_numpy(data, file, bf16)
    out = OrderedDict()
    for name, arr in arrays.items():
        target = _dtype.float32 if arr.dtype.kind == "f" and arr.dtype not in (np.float16, np.float64) else None
        if name in bf16:
            target = _dtype.bfloat16
        out[name] = make(arr.copy(), dtype=target, device=device)   # int64 past int32: held on the host on webgpu
    return out, meta


def save(obj, f, pickle_module=pickle, pickle_protocol: int = 2, _use_new_zipfile_serialization: bool = True,
         _disable_byteorder_record: bool = False) -> None:
    """Save ``obj`` (tensors, state dicts, optimizer state, nested containers of them and plain values)
    to ``f`` (a path or a binary file) in PyTorch's zip format, which PyTorch's ``torch.load`` reads.

    Args:
        obj: what to save; tensors are stored with their storage, offset and strides.
        f: a path (the archive's folder is its name without extension, as in PyTorch) or a file object.
        pickle_module: ``pickle`` (the only one accepted).
        pickle_protocol: 2 (PyTorch's default; ``weights_only`` loading reads 2 and 3).
        _use_new_zipfile_serialization: must be True (the legacy format is not written).

    Example::

        >>> import io
        >>> import borch_webgpu as torch
        >>> buf = io.BytesIO()
        >>> torch.save({"w": torch.ones(2)}, buf)
        >>> buf.getvalue()[:4]
        b'PK\\x03\\x04'
        >>> torch.load(io.BytesIO(buf.getvalue()))["w"]
        tensor([1., 1.])
    """
    if pickle_module is not pickle:
        raise ValueError(f"save: pickle_module must be the pickle module, got {pickle_module!r}")
    if not _use_new_zipfile_serialization:
        raise NotImplementedError("save: _use_new_zipfile_serialization=False (PyTorch's legacy format) is not "
                                  "written here; the zip format (the default) is what PyTorch 1.6+ reads")
    if type(pickle_protocol) is not int or not 2 <= pickle_protocol <= pickle.HIGHEST_PROTOCOL:
        raise ValueError(f"save: pickle_protocol must be from 2 to {pickle.HIGHEST_PROTOCOL}, got {pickle_protocol!r}")
    if isinstance(f, (str, os.PathLike)):
        data = dumps(obj, archive_name(os.fspath(f)), pickle_protocol)
        with open(f, "wb") as fh:
            fh.write(data)
    else:
        f.write(dumps(obj, "archive", pickle_protocol))


def _describe(f) -> str:
    """How error messages name what load() was given."""
    if isinstance(f, (str, os.PathLike)):
        return repr(os.fspath(f))
    name = getattr(f, "name", None)
    return repr(name) if isinstance(name, str) else f"<{type(f).__name__}>"


class _MappedStorage:
    """What a callable ``map_location`` gets: the storage as read (on the cpu), with PyTorch's moves."""

    def __init__(self, numel: int, dtype: str, dev):
        self._numel, self.dtype, self.device = numel, dtype, dev

    def size(self) -> int:
        return self._numel

    def to(self, device):
        return _MappedStorage(self._numel, self.dtype, canonical(device))

    def cpu(self):
        return self.to("cpu")

    def cuda(self, device=None, non_blocking: bool = False):
        return self.to("cuda")


def _tag_device(location: str):
    """Where PyTorch's location tag puts a storage here ('cuda*' and 'mps*' mean the WebGPU device)."""
    if location == "cpu" or location.startswith("cpu:"):
        return canonical("cpu")
    if location.split(":")[0] in ("cuda", "mps", "webgpu"):
        from .webgpu import is_available
        if not is_available():
            raise RuntimeError("Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is "
                               "False. If you are running on a CPU-only machine, please use torch.load with "
                               "map_location=torch.device('cpu') to map your storages to the CPU.")
        return canonical("webgpu")
    raise RuntimeError(f"don't know how to restore data location of torch.storage.UntypedStorage (tagged with "
                       f"{location})")


def _placer(map_location):
    if map_location is None:
        return lambda loc, s: _tag_device(loc)
    if isinstance(map_location, (str, device)):
        dev = canonical(map_location)
        return lambda loc, s: dev
    if isinstance(map_location, dict):
        return lambda loc, s: _tag_device(str(map_location.get(loc, loc)))
    if callable(map_location):
        def place(loc, s):
            got = map_location(_MappedStorage(s.numel(), s.stype.torch_dtype, canonical("cpu")), loc)
            if got is None:
                return _tag_device(loc)
            if not isinstance(got, _MappedStorage):
                raise TypeError(f"load: map_location returned {type(got).__name__}; return the storage it was "
                                "given (storage, storage.cpu(), storage.cuda()) or None")
            return got.device
        return place
    raise TypeError(f"load: map_location must be a device, a string, a dict or a callable, got "
                    f"{type(map_location).__name__}")


def load(f, map_location=None, pickle_module=None, *, weights_only: bool | None = None, mmap: bool | None = None,
         **pickle_load_args):
    """Load what ``torch.save`` wrote (here or in PyTorch), or a safetensors file, from a path, a binary
    file or bytes.

    Args:
        f: a path, a file object or bytes.
        map_location: where tensors go: a device or string (all of them), a dict mapping the file's
            location tags (``'cuda:0'``) to devices, or a callable ``(storage, location)`` returning
            ``storage``, ``storage.cpu()``, ``storage.cuda()`` or None. Default: each tensor where the
            file says (``'cpu'`` on the cpu, ``'cuda*'`` / ``'mps*'`` on WebGPU).
        pickle_module: only with ``weights_only=False``.
        weights_only: True (the default, as in PyTorch 2.6+): only tensors, containers, plain values and
            what :func:`add_safe_globals` allows; False runs the file's pickle unrestricted (trusted files
            only).
        mmap: accepted; the file is read into memory (a path is required, as in PyTorch).

    Raises :class:`CheckpointError` / :class:`SafetensorError` (``RuntimeError``) for files it cannot
    read, naming the file, the record and the numbers; ``pickle.UnpicklingError`` with PyTorch's text for
    what the weights-only rules refuse.

    Example::

        >>> import io
        >>> import borch_webgpu as torch
        >>> buf = io.BytesIO()
        >>> x = torch.arange(6.0, device="cpu")
        >>> torch.save({"x": x, "tail": x[4:]}, buf)
        >>> back = torch.load(io.BytesIO(buf.getvalue()), map_location="cpu")
        >>> back["tail"], back["tail"].storage_offset()
        (tensor([4., 5.]), 4)
        >>> try:
        ...     torch.load(b"PK\\x03\\x04" + bytes(60))
        ... except torch.serialization.CheckpointError as e:
        ...     print(e.kind)
        BadZip
    """
    file = _describe(f)
    if weights_only is None:
        weights_only = pickle_module is None
    if weights_only and pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
    if pickle_load_args and weights_only:
        warnings.warn("pickle_load_args only works if `weights_only=False`.", stacklevel=2)
    is_path = isinstance(f, (str, os.PathLike))
    if mmap and not is_path:
        raise ValueError("f must be a file path in order to use the mmap argument")
    if is_path:
        with open(f, "rb") as fh:
            data = fh.read()
    elif isinstance(f, (bytes, bytearray, memoryview)):
        data = bytes(f)
    else:
        data = f.read()
    if data[:4] == b"PK\x03\x04":
        place = _placer(map_location)
        try:
            if weights_only:
                return load_archive(data, file, place)
            return load_archive(data, file, place, False, full_unpickler)
        except pickle.UnpicklingError as e:
            if not weights_only:
                raise
            raise pickle.UnpicklingError(wo_message(str(e))) from None
    if mmap:
        raise RuntimeError("mmap can only be used with files saved with `torch.save(" + (f"{f}, " if isinstance(f, str)
                           else "") + "_use_new_zipfile_serialization=True), please torch.save your checkpoint "
                           "with this option in order to use mmap.")
    if isinstance(map_location, dict) or (callable(map_location) and not isinstance(map_location, (str, device))):
        raise RuntimeError("Loading safetensors file with dict or callable map_location is not supported. "
                           "Use a device string or torch.device instead.")
    try:
        tensors, meta = _decode(data, map_location, file)
    except SafetensorError as e:
        # asked only when the header is unreadable: a safetensors file with a 128-byte header starts with 0x80 too
        header_bad = e.kind in ("HeaderTooLarge", "InvalidHeaderLength", "InvalidHeader",
                                "InvalidHeaderDeserialization")
        if header_bad and data[:1] == b"\x80" and data[1:2] in (b"\x02", b"\x03", b"\x04", b"\x05"):
            raise SafetensorError("PickleCheckpoint", file, "this looks like PyTorch's legacy checkpoint format "
                                  "(torch.save before PyTorch 1.6, or _use_new_zipfile_serialization=False), which "
                                  "is not read here; in PyTorch, load it and torch.save it again (the zip format)") \
                from e
        raise
    if _STRUCT_KEY in meta:
        spec = parse_json(meta[_STRUCT_KEY], "InvalidStructure", f"the {_STRUCT_KEY!r} metadata", file)
        return _unflatten(spec, tensors, file)
    if list(tensors) == ["tensor"]:
        return tensors["tensor"]
    return tensors


def add_safe_globals(safe_globals: list) -> None:
    """Allow more globals (functions, classes) in ``weights_only`` loads: each a callable, or a tuple
    ``(callable, "module.qualname")`` naming it as the file does (PyTorch's API).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.serialization.add_safe_globals([complex])
        >>> complex in torch.serialization.get_safe_globals()
        True
        >>> torch.serialization.clear_safe_globals()
    """
    _ptpickle.SAFE_GLOBALS |= set(safe_globals)


def get_safe_globals() -> list:
    """The globals that :func:`add_safe_globals` allowed.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.serialization.get_safe_globals()
        []
    """
    return list(_ptpickle.SAFE_GLOBALS)


def clear_safe_globals() -> None:
    """Forget every global :func:`add_safe_globals` allowed.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.serialization.clear_safe_globals()
        >>> torch.serialization.get_safe_globals()
        []
    """
    _ptpickle.SAFE_GLOBALS.clear()


class safe_globals:
    """A context manager allowing ``safe_globals`` in ``weights_only`` loads inside its block.

    Example::

        >>> import borch_webgpu as torch
        >>> with torch.serialization.safe_globals([complex]):
        ...     complex in torch.serialization.get_safe_globals()
        True
        >>> torch.serialization.get_safe_globals()
        []
    """

    def __init__(self, safe_globals: list):
        self.safe_globals = safe_globals

    def __enter__(self):
        add_safe_globals(self.safe_globals)

    def __exit__(self, *exc):
        _ptpickle.SAFE_GLOBALS -= set(self.safe_globals)


def save_file(tensors: dict, filename, metadata: dict | None = None) -> None:
    """safetensors' ``save_file``: a flat dict of tensors, with optional string metadata."""
    with open(filename, "wb") as fh:
        fh.write(_encode(tensors, metadata))


def load_file(filename, device=None) -> OrderedDict:
    """safetensors' ``load_file``: a flat dict of tensors."""
    with open(filename, "rb") as fh:
        return _decode(fh.read(), device, _describe(filename))[0]
