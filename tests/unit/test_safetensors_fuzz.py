"""Fuzzing torch.load's reader in CPython with hypothesis (derandomized, so CI sees the same files every
run): safetensors files (tests/unit/_hostile_files.py's st_save), with bytes flipped, cut off or
appended, the length field changed, or the header's JSON (or the structure inside its __metadata__)
mutated. Every file either loads or raises SafetensorError (CheckpointError once a mutation makes it
start with a zip's signature); no other exception, no hang; a file whose header and data are unchanged
in meaning loads equal to what was saved. Where real safetensors is installed, the two readers agree."""
from __future__ import annotations

import importlib
import io
import json
import math
import struct
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import borch_webgpu as torch
from borch_webgpu.serialization import CheckpointError, SafetensorError
from _hostile_files import st_save  # noqa: E402

_FUZZ = settings(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))


def fuzz(examples: int) -> settings:
    return settings(_FUZZ, max_examples=examples)


def _bases():
    plain = {"w": torch.arange(6.).reshape(2, 3), "b": torch.ones(3)}
    dtypes = {"i": torch.tensor([1, -2, 3]), "m": torch.tensor([True, False, True]),
              "h": torch.tensor([0.5, -1.0], dtype=torch.float16), "e": torch.zeros(0, 2), "s": torch.tensor(7.0)}
    checkpoint = {"model": {"0.weight": torch.ones(2, 2), "0.bias": torch.zeros(2)},
                  "optim": {"state": {0: {"step": torch.tensor(3.0), "exp_avg": torch.full((2, 2), 0.25)}},
                            "param_groups": [{"lr": 0.1, "params": [0, 1], "betas": (0.9, 0.999), "name": None,
                                              "nesterov": False}]},
                  "epoch": 3, "best": float("inf"), "tag": "run [1]"}
    single = torch.arange(3.)
    out = []
    for obj in (plain, dtypes, checkpoint, single):
        data = st_save(obj)
        (n,) = struct.unpack("<Q", data[:8])
        out.append((obj, data, n))
    return out


BASES = _bases()


def _load(data: bytes):
    """(loaded object or None, SafetensorError.kind or None); any other exception fails the test (a file
    mutated to start with a zip's signature is read as PyTorch's format: CheckpointError)."""
    t = time.perf_counter()
    try:
        return torch.load(io.BytesIO(data)), None
    except SafetensorError as e:
        return None, e.kind
    except CheckpointError as e:
        assert data[:4] == b"PK\x03\x04", e
        return None, e.kind
    finally:
        assert time.perf_counter() - t < 5, "load took more than 5 s"


def _same(a, b) -> bool:
    if isinstance(a, torch.Tensor):
        return (isinstance(b, torch.Tensor) and a.dtype == b.dtype and a.shape == b.shape
                and np.array_equal(a.numpy(), b.numpy(), equal_nan=a.dtype.is_floating_point))
    if isinstance(a, dict):
        return isinstance(b, dict) and list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return type(a) is type(b) and a == b


base_index = st.integers(0, len(BASES) - 1)
json_leaf = (st.none() | st.booleans() | st.integers(-3, 40) | st.integers(-2 ** 70, 2 ** 70)
             | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=6)
             | st.sampled_from(["F32", "I64", "BOOL", "F16", "BF16", "U32", "tensor", "dict", "list", "w", "b"]))
json_value = st.recursive(json_leaf, lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=6), c,
                                                                                           max_size=4), max_leaves=12)


def _slots(v, out):
    """Every (container, key) in a JSON value, for a mutation to pick one."""
    if isinstance(v, dict):
        for k in list(v):
            out.append((v, k))
            _slots(v[k], out)
    elif isinstance(v, list):
        for i in range(len(v)):
            out.append((v, i))
            _slots(v[i], out)
    return out


@st.composite
def mutated_json(draw, value) -> str:
    """The text of value (a parsed JSON) with one to three slots replaced, deleted, or nested inside
    brackets (around the depth limit, and far past it)."""
    value, wraps = json.loads(json.dumps(value)), {}
    for _ in range(draw(st.integers(1, 3))):
        slots = _slots(value, [])
        if not slots:
            value = draw(json_value)
            continue
        box, key = draw(st.sampled_from(slots))
        op = draw(st.sampled_from(["replace", "replace", "delete", "wrap", "near"]))
        if op == "delete":
            del box[key]
        elif op == "wrap":  # a placeholder, replaced in the text: a 10,000-deep list is too deep to build here
            mark = f"<wrap {len(wraps)}>"
            wraps[mark] = (draw(st.sampled_from([1, 30, 60, 62, 63, 64, 65, 200, 10_000])), box[key])
            box[key] = mark
        elif op == "near" and isinstance(box[key], int) and not isinstance(box[key], bool):
            box[key] += draw(st.integers(-9, 9))
        else:
            box[key] = draw(json_value)
    text = json.dumps(value)
    for mark, (depth, inner) in wraps.items():
        text = text.replace(json.dumps(mark), "[" * depth + json.dumps(inner) + "]" * depth)
    return text


def _pack(text: str, pad: int = 0) -> bytes:
    raw = text.encode() + b" " * pad
    return raw + b" " * (-len(raw) % 8)


byte = st.integers(0, 255) | st.sampled_from(b'0123456789-.e"[]{},: ')  # JSON's own characters reach deeper checks


@fuzz(600)
@given(base_index, st.lists(st.tuples(st.integers(0, 10 ** 6), byte), min_size=1, max_size=8))
def test_byte_flips_anywhere(i, flips):
    obj, data, n = BASES[i]
    b = bytearray(data)
    for pos, val in flips:
        b[pos % len(b)] = val
    out, kind = _load(bytes(b))
    if bytes(b) == data:
        assert kind is None and _same(obj, out)


@fuzz(400)
@given(base_index, st.lists(st.tuples(st.integers(0, 10 ** 6), st.integers(0, 255)), min_size=1, max_size=8))
def test_data_flips_load_with_the_same_names_dtypes_and_shapes(i, flips):
    obj, data, n = BASES[i]
    b = bytearray(data)
    base = 8 + n
    for pos, val in flips:
        b[base + pos % (len(b) - base)] = val
    out, kind = _load(bytes(b))
    assert kind is None
    mine = torch.load(io.BytesIO(data))
    flat = lambda o: [(t.dtype, t.shape) for t in _tensors(o)]  # noqa: E731
    assert flat(out) == flat(mine)


def _tensors(o):
    if isinstance(o, torch.Tensor):
        return [o]
    if isinstance(o, dict):
        return [t for v in o.values() for t in _tensors(v)]
    if isinstance(o, (list, tuple)):
        return [t for v in o for t in _tensors(v)]
    return []


@fuzz(300)
@given(base_index, st.integers(0, 10 ** 6), st.binary(max_size=16))
def test_truncated_or_extended_files_are_refused(i, cut, extra):
    obj, data, n = BASES[i]
    blob = data[:cut % len(data)] + extra
    _, kind = _load(blob)
    assert kind is not None


@fuzz(300)
@given(base_index, st.one_of(st.integers(-16, 16), st.integers(0, 2 ** 64 - 1)))
def test_a_wrong_header_length_field(i, length):
    obj, data, n = BASES[i]
    new = n + length if -16 <= length <= 16 else length
    if not 0 <= new < 2 ** 64:
        return
    out, kind = _load(struct.pack("<Q", new) + data[8:])
    if new == n:
        assert kind is None and _same(obj, out)


@fuzz(1200)
@given(base_index, st.data())
def test_header_json_mutations(i, draw):
    obj, data, n = BASES[i]
    header = json.loads(data[8:8 + n])
    target = draw.draw(st.sampled_from(["header", "header", "structure", "whole"]))
    if target == "structure" and "__metadata__" in header:
        structure = json.loads(header["__metadata__"]["borch_webgpu.structure"])
        header["__metadata__"]["borch_webgpu.structure"] = draw.draw(mutated_json(structure))
        text = json.dumps(header)
    elif target == "whole":
        text = json.dumps(draw.draw(json_value))
    else:
        text = draw.draw(mutated_json(header))
    raw = _pack(text)
    _load(struct.pack("<Q", len(raw)) + raw + data[8 + n:])


@fuzz(150)
@given(base_index, st.randoms(use_true_random=False), st.integers(0, 40), st.sampled_from([None, 0, 2]))
def test_a_header_rewritten_without_changing_its_meaning_loads_equal(i, rnd, pad, indent):
    obj, data, n = BASES[i]
    header = json.loads(data[8:8 + n])
    items = list(header.items())
    rnd.shuffle(items)  # key order does not matter; the offsets give the data order
    raw = _pack(json.dumps(dict(items), indent=indent), pad)
    out, kind = _load(struct.pack("<Q", len(raw)) + raw + data[8 + n:])
    assert kind is None and _same(obj, out)


@fuzz(200)
@given(st.binary(max_size=64), st.binary(max_size=32))
def test_random_bytes_as_header_and_data(head, body):
    _load(struct.pack("<Q", len(head)) + head + body)


# ---- against real safetensors, where it is installed -------------------------------------------------------
OURS_ONLY = {"HeaderTooDeep", "UnsupportedDtype", "UnsupportedValue", "InvalidStructure", "PickleCheckpoint"}


@fuzz(400)
@given(base_index, st.data())
def test_we_accept_a_mutated_plain_header_exactly_when_safetensors_does(i, draw):
    st_np = importlib.import_module("safetensors.numpy")
    obj, data, n = BASES[i]
    header = json.loads(data[8:8 + n])
    header.pop("__metadata__", None)
    raw = _pack(draw.draw(mutated_json(header)))
    blob = struct.pack("<Q", len(raw)) + raw + data[8 + n:]
    out, kind = _load(blob)
    try:
        st_np.load(blob)
        theirs = None
    except Exception as e:  # noqa: BLE001  safetensors raises its own SafetensorError (and a few others)
        theirs = type(e).__name__
    if kind is None:
        assert theirs is None, f"safetensors refuses a file we load ({theirs})"
    elif kind not in OURS_ONLY:
        assert theirs is not None, f"we refuse ({kind}) a file safetensors loads"
