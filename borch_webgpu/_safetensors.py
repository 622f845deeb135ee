"""The safetensors reader behind ``torch.load``: every byte of the file is checked before it is used.

A file is 8 bytes of little-endian header length ``n``, ``n`` bytes of UTF-8 JSON (an object: tensor
name -> ``{"dtype", "shape", "data_offsets"}``, plus an optional ``"__metadata__"`` map of strings to
strings), then the data section. What the real safetensors (Rust) requires, we require: the header
length is at most 100,000,000 bytes and fits in the file; every entry has a known dtype, a shape of
non-negative integers and ``data_offsets`` ``[begin, end)`` into the data section; sorted by offset
the entries are contiguous from 0, none overlaps another, and the last one ends exactly where the
file ends; ``end - begin == prod(shape) * itemsize``. On top of that the JSON may nest at most
``MAX_JSON_DEPTH`` levels, counted on the raw bytes *before* parsing, because a parser recursing
through 10,000 brackets overflows the browser's call stack (Pyodide dies with "Maximum call stack
size exceeded" instead of raising).

Every refusal is a :class:`SafetensorError`, whose ``kind`` is one of safetensors' own error names
(``HeaderTooSmall``, ``HeaderTooLarge``, ``InvalidHeaderLength``, ``InvalidHeader``,
``InvalidHeaderDeserialization``, ``InvalidOffset``, ``TensorInvalidInfo``,
``MetadataIncompleteBuffer``) or one of ours (``HeaderTooDeep``, ``UnsupportedDtype``,
``InvalidStructure``, ``UnsupportedValue``, ``PickleCheckpoint``).
"""
from __future__ import annotations

import json
import math
import re
import struct
from collections import OrderedDict

import numpy as np

__all__ = ["SafetensorError", "MAX_HEADER_BYTES", "MAX_JSON_DEPTH", "MAX_DIMS", "read_header", "read_numpy",
           "json_depth", "parse_json", "short_repr"]

MAX_HEADER_BYTES = 100_000_000  # safetensors' MAX_HEADER_SIZE
MAX_JSON_DEPTH = 64  # brackets; a header needs 3, what save() writes about 3 per nested dict
MAX_DIMS = 32  # numpy 1.x's limit on ndim

# bytes per element of every safetensors dtype whose size is a whole number of bytes
_SIZE = {"BOOL": 1, "U8": 1, "I8": 1, "F8_E5M2": 1, "F8_E4M3": 1, "I16": 2, "U16": 2, "F16": 2, "BF16": 2,
         "I32": 4, "U32": 4, "F32": 4, "I64": 8, "U64": 8, "F64": 8}
# the ones borch_webgpu holds, as numpy reads them (BOOL and BF16 are converted below)
NP = {"F32": np.float32, "F16": np.float16, "F64": np.float64, "I64": np.int64, "I32": np.int32, "I16": np.int16,
      "I8": np.int8, "U8": np.uint8, "BOOL": np.uint8, "BF16": np.uint16}


class SafetensorError(RuntimeError):
    """A file ``torch.load`` refuses: malformed, truncated, or holding what borch_webgpu cannot.

    ``kind`` names the check (safetensors' own error names where there is one), ``file`` the file.
    """

    def __init__(self, kind: str, file: str, detail: str):
        super().__init__(f"load: {file}: {kind}: {detail}")
        self.kind, self.file, self.detail = kind, file, detail

    def __reduce__(self):  # copy and pickle call the class with its own arguments
        return type(self), (self.kind, self.file, self.detail)


SafetensorError.__module__ = "borch_webgpu.serialization"  # where it is public


# linear-time on any input: escapes go first (left to right, as JSON pairs them), then every quote left
# delimits a string. (One pattern matching strings with escapes restarts at each escaped quote of an
# unterminated string: quadratic, a header of '"' + '\\"' * 40,000 took 15 s.)
_JSON_ESCAPE = re.compile(rb"\\.", re.S)
_JSON_STRING = re.compile(rb'"[^"]*"')
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")
_CHUNK = 1 << 22


def json_depth(raw: bytes) -> int:
    """How deep the brackets of JSON text nest (brackets inside strings do not count), found without
    parsing: exact for valid JSON, never an undercount for invalid JSON."""
    brackets = _JSON_STRING.sub(b"", _JSON_ESCAPE.sub(b"", raw)).translate(None, _NOT_BRACKET)
    if len(brackets) <= 256:
        depth = deepest = 0
        for c in brackets:
            depth += 1 if c in b"[{" else -1
            deepest = max(deepest, depth)
        return deepest
    codes = np.frombuffer(brackets, np.uint8)
    carry, deepest = 0, 0
    for i in range(0, len(codes), _CHUNK):  # chunks keep a 100 MB header of brackets to a few MB of memory
        c = codes[i:i + _CHUNK]
        levels = np.cumsum(np.where((c == ord("[")) | (c == ord("{")), 1, -1).astype(np.int64)) + carry
        deepest = max(deepest, int(levels.max()))
        carry = int(levels[-1])
    return deepest


def parse_json(text: bytes | str, kind: str, what: str, file: str):
    """json.loads, after refusing text that nests deeper than MAX_JSON_DEPTH."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    depth = json_depth(raw)
    if depth > MAX_JSON_DEPTH:
        raise SafetensorError("HeaderTooDeep", file, f"{what} nests {depth} levels deep (counting [ and {{); the "
                                                     f"limit is {MAX_JSON_DEPTH}")
    try:
        return json.loads(text)
    except ValueError as e:  # also UnicodeDecodeError, and ints longer than Python parses
        raise SafetensorError(kind, file, f"{what} is not valid JSON ({e})") from None


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _entry(name: str, info, file: str):
    """(dtype, shape, begin, end) of one header entry, each checked."""
    bad = lambda kind, detail: SafetensorError(kind, file, f"tensor {name!r} {detail}")  # noqa: E731
    if not isinstance(info, dict) or not {"dtype", "shape", "data_offsets"} <= info.keys():
        raise bad("InvalidHeaderDeserialization", f"must be described by an object with dtype, shape and "
                                                  f"data_offsets, got {short_repr(info)}")
    dt, shape, offsets = info["dtype"], info["shape"], info["data_offsets"]
    if not isinstance(dt, str):
        raise bad("InvalidHeaderDeserialization", f"has dtype {short_repr(dt)}, not a string")
    if dt not in NP:
        raise bad("UnsupportedDtype", f"has dtype {short_repr(dt)}, which borch_webgpu cannot hold (it reads "
                                      f"{', '.join(NP)})")
    if not (isinstance(shape, list) and all(_is_int(d) and d >= 0 for d in shape)):
        raise bad("TensorInvalidInfo", f"has shape {short_repr(shape)}; a shape is a list of non-negative integers")
    if len(shape) > MAX_DIMS:
        raise bad("TensorInvalidInfo", f"has {len(shape)} dimensions; at most {MAX_DIMS} are supported")
    if math.prod(d or 1 for d in shape) * _SIZE[dt] >= 2 ** 63:
        raise bad("TensorInvalidInfo", f"has shape {short_repr(shape)}, too large for any array")
    if not (isinstance(offsets, list) and len(offsets) == 2 and all(_is_int(o) for o in offsets)
            and 0 <= offsets[0] <= offsets[1]):
        raise bad("InvalidOffset", f"has data_offsets {short_repr(offsets)}; they must be two integers "
                                   "0 <= begin <= end, counted from the start of the data section")
    return dt, shape, offsets[0], offsets[1]


def short_repr(v, n: int = 80) -> str:
    r = repr(v)
    return r if len(r) <= n else r[:n] + "..."


def read_header(data: bytes, file: str = "<bytes>") -> tuple[list, dict, int]:
    """The checked header: ([(name, dtype, shape, begin, end)] in data order, metadata, data start)."""
    if len(data) < 8:
        raise SafetensorError("HeaderTooSmall", file, f"the file is {len(data)} bytes, shorter than the 8-byte "
                                                      "header length that starts a safetensors file")
    (n,) = struct.unpack("<Q", data[:8])
    if n > MAX_HEADER_BYTES:
        raise SafetensorError("HeaderTooLarge", file, f"the header length field says {n} bytes; the limit is "
                                                      f"{MAX_HEADER_BYTES} (safetensors' own)")
    if n > len(data) - 8:
        raise SafetensorError("InvalidHeaderLength", file, f"the header length field says {n} bytes, but only "
                                                           f"{len(data) - 8} bytes follow it (a truncated file?)")
    raw = bytes(data[8:8 + n])
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SafetensorError("InvalidHeader", file, f"the header is not UTF-8 text ({e})") from None
    header = parse_json(raw, "InvalidHeaderDeserialization", "the header", file)
    if not isinstance(header, dict):
        raise SafetensorError("InvalidHeaderDeserialization", file,
                              f"the header is a JSON {type(header).__name__}, not an object")
    meta = header.pop("__metadata__", None)
    meta = {} if meta is None else meta
    if not isinstance(meta, dict) or not all(isinstance(v, str) for v in meta.values()):
        raise SafetensorError("InvalidHeaderDeserialization", file,
                              f"__metadata__ must map strings to strings, got {short_repr(meta)}")
    entries = [(name, *_entry(name, info, file)) for name, info in header.items()]
    entries.sort(key=lambda e: (e[3], e[4]))
    size, end = len(data) - 8 - n, 0
    for name, dt, shape, a, b in entries:
        if a != end:
            prev = f"the previous tensor ends at {end}"
            raise SafetensorError("InvalidOffset", file, f"tensor {name!r} has data_offsets [{a}, {b}], but {prev}: "
                                  + ("they overlap" if a < end else f"bytes [{end}, {a}) belong to no tensor")
                                  + " (tensors must tile the data section, in order, from 0)")
        if b > size:
            raise SafetensorError("MetadataIncompleteBuffer", file,
                                  f"tensor {name!r} has data_offsets [{a}, {b}], but the data section holds only "
                                  f"{size} bytes (a truncated file?)")
        nbytes = math.prod(shape) * _SIZE[dt]
        if b - a != nbytes:
            raise SafetensorError("TensorInvalidInfo", file, f"tensor {name!r} of dtype {dt} and shape {shape} needs "
                                  f"{nbytes} bytes, but its data_offsets [{a}, {b}] hold {b - a}")
        end = b
    if end != size:
        raise SafetensorError("MetadataIncompleteBuffer", file, f"the tensors cover {end} bytes, but the data "
                              f"section holds {size} (the last tensor must end where the file ends)")
    return entries, meta, 8 + n


def read_numpy(data: bytes, file: str = "<bytes>", bf16: set | None = None) -> tuple[OrderedDict, dict]:
    """(name -> numpy array, metadata) from safetensors bytes, in data order. BOOL comes back as bool,
    BF16 as float32 (exactly; the names of those are added to the set ``bf16`` when given), the other
    dtypes as they are stored. Raises SafetensorError for a bad file."""
    entries, meta, base = read_header(data, file)
    out = OrderedDict()
    for name, dt, shape, a, b in entries:
        if dt == "BF16" and bf16 is not None:
            bf16.add(name)
        arr = np.frombuffer(data, dtype=NP[dt], count=(b - a) // _SIZE[dt], offset=base + a)
        if dt == "BF16":  # bfloat16 is the upper half of a float32
            arr = (arr.astype(np.uint32) << 16).view(np.float32)
        elif dt == "BOOL":
            arr = arr != 0
        out[name] = arr.reshape(shape)
    return out, meta
