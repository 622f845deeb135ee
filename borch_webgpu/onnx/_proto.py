"""The protobuf wire encoding of the ONNX messages the exporter writes (onnx/onnx.proto, proto2).

Pure Python, so it runs inside Pyodide with no dependency: varints, length-delimited fields, and
one function per message. Field numbers are onnx.proto's; repeated scalars are written unpacked
(one tag per element), which every protobuf parser accepts.
"""
from __future__ import annotations

import struct

from .._protobuf import key as _key, varint

# TensorProto.DataType
FLOAT, UINT8, INT8, INT32, INT64, BOOL, FLOAT16, DOUBLE = 1, 2, 3, 6, 7, 9, 10, 11
DTYPES = {"float32": FLOAT, "uint8": UINT8, "int8": INT8, "int32": INT32, "int64": INT64, "bool": BOOL,
          "float16": FLOAT16, "float64": DOUBLE}
# AttributeProto.AttributeType
_A_FLOAT, _A_INT, _A_STRING, _A_TENSOR, _A_FLOATS, _A_INTS = 1, 2, 3, 4, 6, 7


def f_int(field: int, n: int) -> bytes:
    return _key(field, 0) + varint(int(n))


def f_bytes(field: int, data: bytes) -> bytes:
    return _key(field, 2) + varint(len(data)) + data


def f_str(field: int, s: str) -> bytes:
    return f_bytes(field, s.encode("utf-8"))


def f_float(field: int, x: float) -> bytes:
    return _key(field, 5) + struct.pack("<f", x)


def tensor(name: str, dtype: str, dims, raw: bytes) -> bytes:
    """TensorProto: dims (1), data_type (2), name (8), raw_data (9, little-endian)."""
    return (b"".join(f_int(1, d) for d in dims) + f_int(2, DTYPES[dtype]) + f_str(8, name) + f_bytes(9, raw))


def attribute(name: str, value) -> bytes:
    """AttributeProto from a Python value: int, float, str, bytes (a TensorProto), or a list of ints/floats."""
    out = f_str(1, name)
    if isinstance(value, bool) or isinstance(value, int):
        return out + f_int(3, int(value)) + f_int(20, _A_INT)
    if isinstance(value, float):
        return out + f_float(2, value) + f_int(20, _A_FLOAT)
    if isinstance(value, str):
        return out + f_str(4, value) + f_int(20, _A_STRING)
    if isinstance(value, bytes):
        return out + f_bytes(5, value) + f_int(20, _A_TENSOR)
    values = list(value)
    if all(isinstance(v, int) for v in values):
        return out + b"".join(f_int(8, v) for v in values) + f_int(20, _A_INTS)
    return out + b"".join(f_float(7, float(v)) for v in values) + f_int(20, _A_FLOATS)


def node(op_type: str, inputs, outputs, name: str, attrs: dict, domain: str = "") -> bytes:
    """NodeProto: input (1), output (2), name (3), op_type (4), attribute (5), domain (7)."""
    out = b"".join(f_str(1, i) for i in inputs) + b"".join(f_str(2, o) for o in outputs)
    out += f_str(3, name) + f_str(4, op_type)
    out += b"".join(f_bytes(5, attribute(k, v)) for k, v in attrs.items() if v is not None)
    return out + (f_str(7, domain) if domain else b"")


def value_info(name: str, dtype: str, dims) -> bytes:
    """ValueInfoProto: name (1), type (2) = TypeProto.tensor_type (1) {elem_type (1), shape (2)};
    a dim is dim_value (1) for an int and dim_param (2) for a str (a symbolic axis)."""
    shape = b"".join(f_bytes(1, f_str(2, d) if isinstance(d, str) else f_int(1, d)) for d in dims)
    tensor_type = f_int(1, DTYPES[dtype]) + f_bytes(2, shape)
    return f_str(1, name) + f_bytes(2, f_bytes(1, tensor_type))


def graph(name: str, nodes, initializers, inputs, outputs) -> bytes:
    """GraphProto: node (1), name (2), initializer (5), input (11), output (12)."""
    return (b"".join(f_bytes(1, n) for n in nodes) + f_str(2, name) + b"".join(f_bytes(5, t) for t in initializers)
            + b"".join(f_bytes(11, i) for i in inputs) + b"".join(f_bytes(12, o) for o in outputs))


def model(graph_bytes: bytes, opset: int, ir_version: int, producer: str, producer_version: str) -> bytes:
    """ModelProto: ir_version (1), producer_name (2), producer_version (3), graph (7),
    opset_import (8) = OperatorSetIdProto {domain (1), version (2)}."""
    return (f_int(1, ir_version) + f_str(2, producer) + f_str(3, producer_version) + f_bytes(7, graph_bytes)
            + f_bytes(8, f_str(1, "") + f_int(2, opset)))
