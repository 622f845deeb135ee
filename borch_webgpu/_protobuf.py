"""The protocol-buffer wire format's two primitives, shared by the encoders written by hand for ONNX files
(``onnx/_proto.py``) and TensorBoard event files (``utils/tensorboard/_proto.py``): Pyodide has no
``protobuf`` package, and each of those writes only the few messages it needs."""
from __future__ import annotations

VARINT, I64, LEN, I32 = 0, 1, 2, 5   # wire types


def varint(n: int) -> bytes:
    """Base-128 varint; a negative int64 is written as its 64-bit two's complement (10 bytes)."""
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(field: int, wire: int) -> bytes:
    """The tag of field number ``field`` with wire type ``wire``."""
    return varint(field << 3 | wire)
