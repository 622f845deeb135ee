"""The manifest: a versioned JSON schema, checked field by field (an unknown field is refused), names
that cannot leave their folder, and weights that come from the manifest's own origin.

A manifest (schema ``borch_webgpu.hub/1``) is an object with exactly these fields::

    schema      "borch_webgpu.hub/1"
    name        a file-safe name: letters, digits, ".", "_", "-" (no "..")
    model       {library, factory, args}: a catalog name and every architecture argument
    weights     {url, bytes, sha256, dtype, format}: a URL relative to the manifest (or on its origin),
                the exact byte count, the full sha256 (64 hex digits), "float32", "safetensors"
    limits      {largest_buffer, total_bytes}: the largest tensor and all tensors, in bytes
    input       {size, mean, std, classes}: what the model takes ([C, H, W], per-channel mean and std
                of the normalization) and what its outputs mean
    sample      {input, logits, labels, tolerance}: a normalized input batch and the logits PyTorch
                computed for it ({shape, dtype: "float32", data: base64 of the little-endian
                values}), the labels of those inputs, the relative error allowed
    license     the weights' license (SPDX identifier)
    provenance  {dataset, source, script, framework, seed, epochs, test_accuracy}: where the weights
                came from
"""
from __future__ import annotations

import base64
import binascii
import difflib
import math
import re
import urllib.parse
from typing import Any

import numpy as np

from .._safetensors import SafetensorError, parse_json
from ._errors import CrossOriginURL, ManifestError, UnknownManifestField, UnsafeName

__all__ = ["SCHEMA", "MAX_MANIFEST_BYTES", "check_manifest", "parse_manifest", "encode_array", "decode_array",
           "check_name", "resolve_weights"]

SCHEMA = "borch_webgpu.hub/1"
MAX_MANIFEST_BYTES = 1 << 20   # a manifest with its sample is a few kB; a larger one is refused unread
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
_HEX64 = re.compile(r"[0-9a-f]{64}")

# the schema as data: a field is a type, a nested object (a dict), or a checker function
_ARRAY = {"shape": "shape", "dtype": "float32", "data": "base64"}
FIELDS: dict[str, Any] = {
    "schema": "schema",
    "name": "name",
    "model": {"library": str, "factory": str, "args": "args"},
    "weights": {"url": "url", "bytes": "count", "sha256": "sha256", "dtype": "float32", "format": "safetensors"},
    "limits": {"largest_buffer": "count", "total_bytes": "count"},
    "input": {"size": "shape", "mean": "floats", "std": "floats", "classes": "strings"},
    "sample": {"input": _ARRAY, "logits": _ARRAY, "labels": "ints", "tolerance": "tolerance"},
    "license": str,
    "provenance": {"dataset": str, "source": str, "script": str, "framework": str, "seed": int, "epochs": int,
                   "test_accuracy": float},
}


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v) -> bool:
    return (_is_int(v) or isinstance(v, float)) and math.isfinite(v)


def check_name(name, what: str, where: str) -> str:
    """``name`` if it is a safe file name (letters, digits, ``.``, ``_``, ``-``; no ``..``), else UnsafeName."""
    if not isinstance(name, str) or not _NAME.fullmatch(name) or ".." in name:
        raise UnsafeName(f"{where}: {what} {name!r} is not a safe name: it must be 1-128 letters, digits, '.', '_' "
                         "or '-', start with a letter or digit and contain no '..' (nothing may leave its folder)")
    return name


def _check_url(url, where: str) -> str:
    if not isinstance(url, str) or not url:
        raise ManifestError(f"{where}: weights.url must be a non-empty string, got {url!r}")
    parts = urllib.parse.urlsplit(url)
    path = urllib.parse.unquote(parts.path)
    if "\\" in url or any(ord(c) < 32 for c in path) or ".." in path.split("/") or parts.query or parts.fragment:
        raise UnsafeName(f"{where}: weights.url {url!r} is not a safe path: no '..' segments, backslashes, control "
                         "characters, query or fragment")
    check_name(path.rsplit("/", 1)[-1], "the weights file name", where)
    return url


_CHECKS = {
    "schema": lambda v: v == SCHEMA,
    "name": lambda v: True,   # check_name below gives the message
    "url": lambda v: True,    # _check_url below
    "count": lambda v: _is_int(v) and v >= 0,
    "sha256": lambda v: isinstance(v, str) and bool(_HEX64.fullmatch(v)),
    "float32": lambda v: v == "float32",
    "safetensors": lambda v: v == "safetensors",
    "shape": lambda v: isinstance(v, list) and all(_is_int(d) and d > 0 for d in v) and 0 < len(v) <= 8,
    "base64": lambda v: isinstance(v, str),
    "floats": lambda v: isinstance(v, list) and bool(v) and all(_is_num(x) for x in v),
    "strings": lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
    "ints": lambda v: isinstance(v, list) and all(_is_int(x) for x in v),
    "tolerance": lambda v: _is_num(v) and 0 < v < 1,
    "args": lambda v: isinstance(v, dict) and all(isinstance(k, str) and _is_int(x) for k, x in v.items()),
}
_WANT = {"schema": f"the string {SCHEMA!r}", "count": "a non-negative integer", "sha256": "64 lowercase hex digits "
         "(the full sha256)", "float32": "'float32'", "safetensors": "'safetensors'", "shape": "a list of 1-8 positive "
         "integers", "base64": "a base64 string", "floats": "a non-empty list of finite numbers", "strings": "a list of "
         "strings", "ints": "a list of integers", "tolerance": "a number in (0, 1)", "args": "an object of integer "
         "arguments", "name": "a string", "url": "a string"}


def _walk(obj, spec: dict, path: str, where: str) -> None:
    if not isinstance(obj, dict):
        raise ManifestError(f"{where}: {path or 'the manifest'} must be a JSON object, got {type(obj).__name__}")
    unknown = [k for k in obj if k not in spec]
    if unknown:
        k = unknown[0]
        close = difflib.get_close_matches(str(k), list(spec), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise UnknownManifestField(f"{where}: unknown field {path + str(k)!r}{hint}; schema {SCHEMA} has "
                                   f"{', '.join(path + f for f in spec)} and nothing else")
    missing = [k for k in spec if k not in obj]
    if missing:
        raise ManifestError(f"{where}: missing field{'s' if len(missing) > 1 else ''} "
                            f"{', '.join(repr(path + k) for k in missing)} (schema {SCHEMA})")
    for k, kind in spec.items():
        v = obj[k]
        if isinstance(kind, dict):
            _walk(v, kind, f"{path}{k}.", where)
        elif isinstance(kind, type):
            ok = isinstance(v, str) if kind is str else (_is_int(v) if kind is int else _is_num(v))
            if not ok:
                raise ManifestError(f"{where}: {path}{k} must be {'a string' if kind is str else 'a number'}, got "
                                    f"{v!r}")
        elif not _CHECKS[kind](v):
            raise ManifestError(f"{where}: {path}{k} must be {_WANT[kind]}, got {str(v)[:80]!r}")


def check_manifest(m, where: str = "hub manifest") -> dict:
    """``m`` if it follows the schema; else ManifestError (UnknownManifestField, UnsafeName) naming the field."""
    if isinstance(m, dict) and m.get("schema") != SCHEMA and "schema" in m:
        raise ManifestError(f"{where}: schema {m['schema']!r} is not one this version reads ({SCHEMA!r})")
    _walk(m, FIELDS, "", where)
    check_name(m["name"], "name", where)
    _check_url(m["weights"]["url"], where)
    s = m["sample"]
    x, y = decode_array(s["input"], "sample.input", where), decode_array(s["logits"], "sample.logits", where)
    if x.shape[1:] != tuple(m["input"]["size"]) or y.shape[0] != x.shape[0] or len(s["labels"]) != x.shape[0]:
        raise ManifestError(f"{where}: sample.input {list(x.shape)}, sample.logits {list(y.shape)} and "
                            f"{len(s['labels'])} sample.labels do not agree with input.size {m['input']['size']}")
    if m["limits"]["largest_buffer"] > m["limits"]["total_bytes"]:
        raise ManifestError(f"{where}: limits.largest_buffer {m['limits']['largest_buffer']} exceeds "
                            f"limits.total_bytes {m['limits']['total_bytes']}")
    return m


def parse_manifest(raw: bytes, where: str) -> dict:
    """The checked manifest from JSON bytes (at most MAX_MANIFEST_BYTES, nesting checked before parsing)."""
    if len(raw) > MAX_MANIFEST_BYTES:
        raise ManifestError(f"{where}: the manifest is {len(raw)} bytes; the limit is {MAX_MANIFEST_BYTES}")
    try:
        m = parse_json(raw, "InvalidManifest", "the manifest", where)
    except SafetensorError as e:
        raise ManifestError(f"{where}: {e.detail}") from None
    return check_manifest(m, where)


def encode_array(a) -> dict:
    """``{shape, dtype, data}`` of a float32 array, as a manifest's sample stores it."""
    a = np.ascontiguousarray(a, dtype="<f4")
    return {"shape": list(a.shape), "dtype": "float32", "data": base64.b64encode(a.tobytes()).decode("ascii")}


def decode_array(spec: dict, what: str, where: str) -> np.ndarray:
    try:
        raw = base64.b64decode(spec["data"], validate=True)
    except (binascii.Error, ValueError):
        raise ManifestError(f"{where}: {what}.data is not valid base64") from None
    n = math.prod(spec["shape"])
    if len(raw) != 4 * n:
        raise ManifestError(f"{where}: {what} has shape {spec['shape']} ({n} float32 values, {4 * n} bytes) but its "
                            f"data holds {len(raw)} bytes")
    a = np.frombuffer(raw, dtype="<f4").reshape(spec["shape"]).astype(np.float32)
    if not np.isfinite(a).all():
        raise ManifestError(f"{where}: {what} holds NaN or infinite values")
    return a


def origin(url: str) -> tuple[str, str]:
    p = urllib.parse.urlsplit(url)
    return p.scheme.lower(), p.netloc.lower()


def resolve_weights(base: str, url: str, where: str, is_url: bool) -> str:
    """Where the weights are: ``url`` relative to the manifest's location ``base`` (a URL, or a file
    path when ``is_url`` is False). An absolute URL must be on ``base``'s origin (CrossOriginURL)."""
    p = urllib.parse.urlsplit(url)
    if not is_url:
        if p.scheme or p.netloc or url.startswith("/"):
            raise CrossOriginURL(f"{where}: weights.url {url!r}: a manifest read from a file names its weights by a "
                                 "path relative to it")
        import os.path
        return os.path.join(os.path.dirname(base), *urllib.parse.unquote(p.path).split("/"))
    full = urllib.parse.urljoin(base, url)
    if origin(full) != origin(base):
        raise CrossOriginURL(f"{where}: weights.url {url!r} is on {'://'.join(origin(full))}, not on the manifest's "
                             f"origin {'://'.join(origin(base))}: weights come from the manifest's own origin")
    return full
