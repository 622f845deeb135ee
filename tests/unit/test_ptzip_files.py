"""torch.save / torch.load in PyTorch's zip format, in CPython: the goldens real torch 2.13 made
(tests/golden/generate_ptzip.py: its files load as real torch loaded them, our writer makes the bytes real
torch verified, state dicts load into models and optimizers, refusals word for word), hostile files
(tests/unit/_ptzip_hostile.py: each a clear exception naming the file, the record and the numbers),
map_location, weights_only=False, the safe-globals API and save's arguments."""
from __future__ import annotations

import argparse
import io
import pickle
import sys
import time
from pathlib import Path

import pytest

import borch_webgpu as torch
from _ptzip_hostile import base, cases, deflated_ok, records, rezip
from borch_webgpu.serialization import CheckpointError

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))
import replay_ptzip  # noqa: E402

CASES = cases()


def test_the_goldens_replay_on_cpu(tmp_path):
    r = replay_ptzip.replay("cpu", str(tmp_path))
    assert r["problems"] == [] and r["training_drift"] == [] and r["checked"] == 27


@pytest.mark.parametrize("name", list(CASES))
def test_a_hostile_checkpoint_raises_a_clear_error(name):
    data, exc, kind, message = CASES[name]
    t = time.perf_counter()
    with pytest.raises(exc) as info:
        torch.load(io.BytesIO(data))
    assert time.perf_counter() - t < 5
    assert message in str(info.value)
    if exc is CheckpointError:
        assert info.value.kind == kind and str(info.value).startswith(f"load: <BytesIO>: {kind}: ")
        assert isinstance(info.value, RuntimeError)


def test_errors_name_the_file_and_survive_pickle(tmp_path):
    p = tmp_path / "bad.pt"
    p.write_bytes(CASES["offset past the storage"][0])
    with pytest.raises(CheckpointError, match=r"^load: '.*bad\.pt': InvalidTensor: archive/data\.pkl at byte \d+: "):
        torch.load(p)
    e = CheckpointError("BadZip", "'a.pt'", "x")
    assert (str(pickle.loads(pickle.dumps(e))), pickle.loads(pickle.dumps(e)).kind) == (str(e), "BadZip")


def test_deflated_records_and_big_endian_files_load():
    assert torch.load(deflated_ok())["v"].tolist() == [2.0, 3.0, 4.0, 5.0]
    recs = records(base())
    big = {**recs, "byteorder": b"big", "data/0": torch.arange(6.0).numpy().astype(">f4").tobytes()}
    assert torch.load(rezip(big))["x"].tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]


def _tagged(location: str) -> bytes:
    recs = records(base())
    tag = location.encode()
    recs["data.pkl"] = recs["data.pkl"].replace(b"X\x03\x00\x00\x00cpu", b"X" + len(tag).to_bytes(4, "little") + tag)
    return rezip(recs)


def test_map_location_forms():
    gpu = _tagged("cuda:0")
    with pytest.raises(RuntimeError, match=r"Attempting to deserialize object on a CUDA device but "
                                           r"torch.cuda.is_available\(\) is False"):
        torch.load(gpu)
    for ml in ("cpu", torch.device("cpu"), {"cuda:0": "cpu"}, lambda s, loc: s, lambda s, loc: s.cpu(),
               lambda s, loc: None if loc == "cpu" else s.cpu()):
        back = torch.load(gpu, map_location=ml)
        assert back["x"].device.type == "cpu" and back["v"].storage_offset() == 2, ml
    seen = []
    torch.load(gpu, map_location=lambda s, loc: seen.append((loc, s.size(), s.dtype)) or s)
    assert seen == [("cuda:0", 6, "float32")]  # once per storage
    with pytest.raises(RuntimeError, match=r"don't know how to restore data location of "
                                           r"torch.storage.UntypedStorage \(tagged with tpu\)"):
        torch.load(_tagged("tpu"))
    with pytest.raises(TypeError, match="map_location returned int"):
        torch.load(gpu, map_location=lambda s, loc: 3)


def test_weights_only_false_and_the_safe_globals():
    ns = pickle.dumps(argparse.Namespace(lr=0.1), protocol=2)
    data = rezip({**records(base()), "data.pkl": ns})
    with pytest.raises(pickle.UnpicklingError, match=r"Unsupported global: GLOBAL argparse.Namespace was not an "
                                                     r"allowed global by default"):
        torch.load(data)
    assert torch.load(data, weights_only=False).lr == 0.1
    assert torch.load(data, pickle_module=pickle).lr == 0.1  # a pickle_module means weights_only=False
    with pytest.raises(RuntimeError, match="Can not safely load weights when explicit pickle_module is specified"):
        torch.load(data, pickle_module=pickle, weights_only=True)
    with torch.serialization.safe_globals([argparse.Namespace]):
        assert torch.serialization.get_safe_globals() == [argparse.Namespace]
        assert torch.load(data).lr == 0.1
    assert torch.serialization.get_safe_globals() == []
    torch.serialization.add_safe_globals([(argparse.Namespace, "argparse.Namespace")])
    try:
        assert torch.load(data).lr == 0.1
    finally:
        torch.serialization.clear_safe_globals()
    with pytest.raises(pickle.UnpicklingError):
        torch.load(data)
    # torch names map to borch_webgpu's with weights_only=False too
    assert torch.load(base(), weights_only=False)["v"].tolist() == [2.0, 3.0, 4.0, 5.0]


def test_save_arguments_and_determinism(tmp_path):
    obj = {"w": torch.ones(2), "n": [1, (2, 3)]}
    torch.save(obj, tmp_path / "my.model.pt")
    import zipfile
    assert zipfile.ZipFile(tmp_path / "my.model.pt").namelist()[0] == "my.model/data.pkl"  # PyTorch's folder name
    a, b = io.BytesIO(), io.BytesIO()
    torch.save(obj, a)
    torch.save(obj, b, pickle_protocol=2, _use_new_zipfile_serialization=True)
    assert a.getvalue() == b.getvalue()
    c = io.BytesIO()
    torch.save(obj, c, pickle_protocol=3)
    with pytest.warns(UserWarning, match="Detected pickle protocol 3"):
        assert torch.load(io.BytesIO(c.getvalue()))["n"] == [1, (2, 3)]
    with pytest.raises(NotImplementedError, match="legacy format"):
        torch.save(obj, io.BytesIO(), _use_new_zipfile_serialization=False)
    with pytest.raises(ValueError, match="f must be a file path in order to use the mmap argument"):
        torch.load(a.getvalue(), mmap=True)
    torch.load(tmp_path / "my.model.pt", mmap=True)


def test_save_refuses_what_load_would_refuse():
    nest = torch.ones(1)
    for _ in range(101):
        nest = [nest]
    with pytest.raises(ValueError, match="save: the object nests 101 containers deep; torch.load reads at most 100"):
        torch.save(nest, io.BytesIO())
    loop: list = []
    loop.append(loop)
    with pytest.raises(ValueError, match="contains itself"):
        torch.save(loop, io.BytesIO())
    x = torch.zeros(3)
    torch.save([x] * 1000, io.BytesIO())  # shared references are not depth
