"""torch.load on files it must refuse (each with SafetensorError naming the file, the check, the
tensor and the numbers), the limits, and files that real safetensors writes and reads."""
from __future__ import annotations

import importlib
import io
import struct

import numpy as np
import pytest

import borch_webgpu as torch
from _hostile_files import cases, outcome, saved, st_file, st_save
from borch_webgpu.serialization import SafetensorError

CASES = cases()


@pytest.mark.parametrize("name", list(CASES))
def test_a_hostile_file_raises_safetensor_error_naming_what_is_wrong(name):
    data, kind, message = CASES[name]
    with pytest.raises(SafetensorError) as info:
        torch.load(io.BytesIO(data))
    assert info.value.kind == kind
    assert message in str(info.value)
    assert str(info.value).startswith(f"load: <BytesIO>: {kind}: ")
    assert isinstance(info.value, RuntimeError)
    assert outcome(data) == ("borch_webgpu.serialization.SafetensorError", kind, str(info.value))


def test_the_error_survives_copy_and_pickle():
    import copy
    import pickle
    e = SafetensorError("InvalidOffset", "'a.safetensors'", "tensor 'w' has data_offsets [-8, 0]")
    for back in (copy.copy(e), pickle.loads(pickle.dumps(e))):
        assert (type(back), str(back), back.kind, back.file) == (SafetensorError, str(e), e.kind, e.file)


def test_the_message_names_the_file_it_was_given(tmp_path):
    p = tmp_path / "bad.safetensors"
    p.write_bytes(CASES["negative offset"][0])
    with pytest.raises(SafetensorError, match=r"^load: '.*bad\.safetensors': InvalidOffset: tensor 'w'"):
        torch.load(p)
    with pytest.raises(SafetensorError, match=r"^load: '.*bad\.safetensors': InvalidOffset"):
        torch.serialization.load_file(p)
    with open(p, "rb") as fh, pytest.raises(SafetensorError, match=r"^load: '.*bad\.safetensors'"):
        torch.load(fh)


def test_the_deep_header_is_refused_before_it_is_parsed(monkeypatch):
    import json

    def boom(*a, **k):
        raise AssertionError("json.loads ran on a 10,000-deep header")
    monkeypatch.setattr(json, "loads", boom)
    with pytest.raises(SafetensorError, match="HeaderTooDeep"):
        torch.load(CASES["deep header"][0])


def test_bracket_depth_ignores_brackets_inside_strings_and_is_exact():
    from borch_webgpu._safetensors import json_depth
    assert json_depth(b'{"a": [[1], {"b": "[[[[{{{{\\"[[["}]}') == 3
    assert json_depth(b"[" * 300 + b"]" * 300) == 300
    assert json_depth(b'"[[["') == 0


def test_bracket_depth_takes_linear_time_on_unterminated_strings_full_of_escaped_quotes():
    import time

    from borch_webgpu._safetensors import json_depth
    t = time.perf_counter()
    assert json_depth(b'{"a": "' + b'\\"' * 2_000_000) == 1  # a pattern for whole strings took 15 s for 40,000
    assert time.perf_counter() - t < 2


def test_tensor_names_full_of_brackets_and_a_nest_at_the_limit_load():
    sd = {"[[[[[[{{{{" * 20: torch.ones(2), 'a"b\\': torch.zeros(1)}
    back = torch.load(io.BytesIO(st_save(sd)))
    assert list(back) == list(sd)
    nest = torch.ones(1)
    for _ in range(21):  # 3 brackets per dict, 1 for the tensor: 64
        nest = {"k": nest}
    back = torch.load(io.BytesIO(st_save(nest)))
    for _ in range(21):
        back = back["k"]
    assert back.tolist() == [1.0]


@pytest.mark.parametrize("length", [0x80, 0x180, 0x4B50])  # first bytes 0x80 (a pickle's) and "PK" (a zip's)
def test_a_safetensors_file_whose_length_field_looks_like_a_pickle_or_zip_loads(length):
    bare = st_save({"": torch.ones(2)})
    name = "w" * (length - len(bare[8:-8].rstrip()))  # the header with an empty name, without its padding
    data = st_save({name: torch.ones(2)})
    assert data[:8] == struct.pack("<Q", length)
    assert torch.load(data)[name].tolist() == [1.0, 1.0]


def test_a_pickle_is_refused_with_an_explanation():
    with pytest.raises(SafetensorError, match="PickleCheckpoint: this looks like PyTorch's legacy checkpoint format"):
        torch.load(b"\x80\x02}q\x00(X\x01\x00\x00\x00aq\x01K\x01u.")


def test_header_length_limit_is_safetensors_own():
    from borch_webgpu.serialization import MAX_HEADER_BYTES
    assert MAX_HEADER_BYTES == 100_000_000
    with pytest.raises(SafetensorError, match="HeaderTooLarge: the header length field says 100000001 bytes"):
        torch.load(st_file(b"{}", length=MAX_HEADER_BYTES + 1))


def test_the_checks_accept_what_the_format_allows():
    # an empty file, zero-size tensors sharing an offset, metadata null, extra keys in an entry
    assert torch.load(st_file(b"{}      ")) == {}
    f = st_file({"__metadata__": None, "a": {**{"dtype": "F32", "shape": [0, 3], "data_offsets": [0, 0]}, "x": 1},
                 "b": {"dtype": "F32", "shape": [], "data_offsets": [0, 4]},
                 "c": {"dtype": "BOOL", "shape": [2], "data_offsets": [4, 6]}}, np.float32(2).tobytes() + b"\x01\x07")
    out = torch.load(f)
    assert out["a"].shape == (0, 3) and out["b"].item() == 2.0 and out["c"].tolist() == [True, True]


def test_files_written_here_load_in_safetensors_and_back():
    st = importlib.import_module("safetensors.numpy")
    sd = {"w": torch.arange(6.).reshape(2, 3), "i": torch.tensor([1, -2]), "m": torch.tensor([True, False]),
          "h": torch.ones(3, dtype=torch.float16)}
    theirs = st.load(st_save(sd))
    for k, t in sd.items():
        np.testing.assert_array_equal(theirs[k], t.numpy())
    nested = st.load(saved())
    assert set(nested) == {"w", "b"}
    blob = st.save({"a": np.arange(5, dtype=np.float64), "b": np.ones((2, 2), np.int8)}, metadata={"format": "pt"})
    back = torch.load(blob)
    np.testing.assert_array_equal(back["a"].numpy(), np.arange(5, dtype=np.float64))
    assert back["a"].dtype == torch.float64 and back["b"].dtype == torch.int8  # F64 stays float64, I8 int8


def test_safetensors_refuses_the_malformed_files_too():
    st = importlib.import_module("safetensors.numpy")
    ours_only = {"HeaderTooDeep", "UnsupportedDtype", "UnsupportedValue", "InvalidStructure", "PickleCheckpoint"}
    for name, (data, kind, _) in CASES.items():
        if kind in ours_only:
            continue
        with pytest.raises(Exception) as info:
            st.load(data)
        assert type(info.value).__name__ == "SafetensorError", (name, info.value)
