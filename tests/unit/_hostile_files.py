"""Hostile safetensors files and what ``torch.load`` must say about each. Shared by the CPython test
(tests/unit/test_safetensors_files.py) and the Pyodide one (tests/browser/test_safetensors_browser.py,
which runs this file's source in the page): stdlib and borch_webgpu only."""
from __future__ import annotations

import io
import json
import struct

import borch_webgpu as torch


def st_file(header, data: bytes = b"", length: int | None = None) -> bytes:
    """A safetensors file from a header (a dict, or raw bytes), a data section and its length field."""
    raw = header if isinstance(header, bytes) else json.dumps(header).encode()
    return struct.pack("<Q", len(raw) if length is None else length) + raw + data


def entry(dtype: str, shape, begin, end) -> dict:
    return {"dtype": dtype, "shape": shape, "data_offsets": [begin, end]}


def st_save(obj) -> bytes:
    """A safetensors file as borch_webgpu's torch.save wrote them before it wrote PyTorch's zip format:
    tensors under their path, and the structure of dicts / lists / tuples / plain values in the header's
    ``__metadata__`` (torch.load still reads such files; a flat dict of tensors is plain save_file)."""
    from borch_webgpu.serialization import _STRUCT_KEY, _encode
    tensors: dict = {}

    def flat(o, prefix):
        if isinstance(o, torch.Tensor):
            tensors[prefix or "tensor"] = o
            return {"tensor": prefix or "tensor"}
        if isinstance(o, dict):
            return {"dict": [[k if isinstance(k, str) else {"int": k}, flat(v, f"{prefix}.{k}" if prefix else str(k))]
                             for k, v in o.items()]}
        if isinstance(o, (list, tuple)):
            return {type(o).__name__: [flat(v, f"{prefix}.{i}" if prefix else str(i)) for i, v in enumerate(o)]}
        if isinstance(o, float) and o != o or o in (float("inf"), float("-inf")):
            return {"float": repr(o)}
        return {"value": o}
    spec = flat(obj, "")
    plain = isinstance(obj, dict) and all(isinstance(k, str) and isinstance(v, torch.Tensor) for k, v in obj.items())
    return _encode(tensors, None if plain else {_STRUCT_KEY: json.dumps(spec)})


def saved() -> bytes:
    """save_file's {"w": [0, 1, 2, 3], "b": [1, 1]}: w at [0, 16), b at [16, 24)."""
    return st_save({"w": torch.arange(4.), "b": torch.ones(2)})


def cases() -> dict:
    """name -> (file bytes, SafetensorError.kind, a part of the message)."""
    ok = saved()
    deep = "[" * 10_000 + "]" * 10_000
    z8 = bytes(8)
    return {
        "deep header": (st_file(deep.encode()), "HeaderTooDeep",
                        "the header nests 10000 levels deep (counting [ and {); the limit is 64"),
        "deep structure": (st_file({"__metadata__": {"borch_webgpu.structure": deep}}), "HeaderTooDeep",
                           "the 'borch_webgpu.structure' metadata nests 10000 levels deep"),
        "negative offset": (st_file({"w": entry("F32", [2], -8, 0)}, z8), "InvalidOffset",
                            "tensor 'w' has data_offsets [-8, 0]; they must be two integers 0 <= begin <= end"),
        "reversed offsets": (st_file({"w": entry("F32", [0], 8, 0)}, z8), "InvalidOffset",
                             "tensor 'w' has data_offsets [8, 0]"),
        "overlapping": (st_file({"a": entry("F32", [2], 0, 8), "b": entry("F32", [2], 4, 12)}, bytes(12)),
                        "InvalidOffset", "tensor 'b' has data_offsets [4, 12], but the previous tensor ends at 8: "
                                         "they overlap"),
        "gap": (st_file({"a": entry("F32", [1], 0, 4), "b": entry("F32", [1], 8, 12)}, bytes(12)), "InvalidOffset",
                "bytes [4, 8) belong to no tensor"),
        "negative shape": (st_file({"w": entry("F32", [-2], 0, 8)}, z8), "TensorInvalidInfo",
                           "tensor 'w' has shape [-2]; a shape is a list of non-negative integers"),
        "float shape": (st_file({"w": entry("F32", [2.0], 0, 8)}, z8), "TensorInvalidInfo",
                        "tensor 'w' has shape [2.0]"),
        "shape and bytes disagree": (st_file({"w": entry("F32", [3], 0, 8)}, z8), "TensorInvalidInfo",
                                     "tensor 'w' of dtype F32 and shape [3] needs 12 bytes, but its data_offsets "
                                     "[0, 8] hold 8"),
        "unknown dtype": (st_file({"w": entry("F33", [2], 0, 8)}, z8), "UnsupportedDtype",
                          "tensor 'w' has dtype 'F33', which borch_webgpu cannot hold"),
        "truncated data": (ok[:-3], "MetadataIncompleteBuffer",
                           "tensor 'b' has data_offsets [16, 24], but the data section holds only 21 bytes "
                           "(a truncated file?)"),
        "truncated header": (ok[:20], "InvalidHeaderLength", "but only 12 bytes follow it (a truncated file?)"),
        "trailing bytes": (ok + b"xx", "MetadataIncompleteBuffer",
                           "the tensors cover 24 bytes, but the data section holds 26"),
        "header length 2**63": (struct.pack("<Q", 2 ** 63) + b"{}", "HeaderTooLarge",
                                "the header length field says 9223372036854775808 bytes; the limit is 100000000"),
        "header not an object": (st_file(b"[]"), "InvalidHeaderDeserialization",
                                 "the header is a JSON list, not an object"),
        "header not JSON": (st_file(b'{"w": '), "InvalidHeaderDeserialization", "the header is not valid JSON"),
        "500,000 escaped quotes": (st_file(b'{"a": "' + b'\\"' * 500_000), "InvalidHeaderDeserialization",
                                     "the header is not valid JSON (Unterminated string"),
        "header not UTF-8": (st_file(b'{"\xff": 1}'), "InvalidHeader", "the header is not UTF-8 text"),
        "metadata not strings": (st_file({"__metadata__": {"a": 1}}), "InvalidHeaderDeserialization",
                                 "__metadata__ must map strings to strings, got {'a': 1}"),
        "structure names a missing tensor": (
            st_file({"__metadata__": {"borch_webgpu.structure": '{"tensor": "nope"}'}}), "InvalidStructure",
            "the 'borch_webgpu.structure' metadata refers to tensor 'nope', which the file does not hold"),
        "pickle": (b"\x80\x02\x8a\nl\xfc\x9cF\xf9 j\xa8P\x19." + bytes(28), "PickleCheckpoint",
                   "this looks like PyTorch's legacy checkpoint format"),
        "shorter than 8 bytes": (b"{}", "HeaderTooSmall", "the file is 2 bytes, shorter than the 8-byte header"),
    }


def outcome(data: bytes) -> tuple[str, str, str]:
    """(exception type's qualified name, kind, message) of loading data; ("", "", "") if it loads."""
    try:
        torch.load(io.BytesIO(data))
    except Exception as e:  # noqa: BLE001  (the caller checks the type)
        return f"{type(e).__module__}.{type(e).__qualname__}", getattr(e, "kind", ""), str(e)
    return "", "", ""
