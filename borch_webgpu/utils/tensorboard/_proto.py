"""The few protocol-buffer encoders TensorBoard's event files need, written by hand (Pyodide has no
``protobuf``). A message is built as ``bytes`` from its fields; proto3 rules: a scalar field that holds
its default (0, "", b"") is not written, unless it belongs to a ``oneof`` (``force=True``), and repeated
numbers are packed. Field numbers are tensorboard's (``tensorboard/compat/proto/*.proto``)."""
from __future__ import annotations

import math
import struct

from ..._protobuf import I32 as _I32, I64 as _I64, LEN as _LEN, VARINT as _VARINT, key as _key, varint


def int_field(number: int, value: int, force: bool = False) -> bytes:
    """int32 / int64 / enum / bool."""
    value = int(value)
    return _key(number, _VARINT) + varint(value) if value or force else b""


def double_field(number: int, value: float, force: bool = False) -> bytes:
    value = float(value)
    if not value and not force and struct.pack("<d", value) == b"\0" * 8:   # -0.0 is not the default
        return b""
    return _key(number, _I64) + struct.pack("<d", value)


def _f32(value: float) -> bytes:
    """float32 bytes of ``value`` rounded to nearest, as a C cast does (past the float32 range: inf)."""
    value = float(value)
    try:
        return struct.pack("<f", value)
    except OverflowError:   # the rounded value is infinite
        return struct.pack("<f", math.copysign(math.inf, value))


def float_field(number: int, value: float, force: bool = False) -> bytes:
    raw = _f32(value)
    if raw == b"\0" * 4 and not force:
        return b""
    return _key(number, _I32) + raw


def bytes_field(number: int, value: bytes | str, force: bool = False) -> bytes:
    """string / bytes / an encoded sub-message."""
    if isinstance(value, str):
        value = value.encode("utf-8")
    if not value and not force:
        return b""
    return _key(number, _LEN) + varint(len(value)) + value


def message_field(number: int, value: bytes) -> bytes:
    """A sub-message is written when it is set, even when all its fields are defaults (empty)."""
    return _key(number, _LEN) + varint(len(value)) + value


def packed_doubles(number: int, values) -> bytes:
    values = [float(v) for v in values]
    if not values:
        return b""
    return bytes_field(number, struct.pack(f"<{len(values)}d", *values))


def packed_floats(number: int, values) -> bytes:
    values = [float(v) for v in values]
    if not values:
        return b""
    return bytes_field(number, b"".join(_f32(v) for v in values))
