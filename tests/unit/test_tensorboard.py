"""torch.utils.tensorboard.SummaryWriter against the event files real PyTorch 2.13 writes
(tests/golden/tensorboard.json, from tests/golden/generate_tensorboard.py): ours runs the same scenarios
(tests/golden/tensorboard_cases.py) and its files are read back here by a reader of our own (TFRecord
framing with both crc32c checked, a protobuf wire decoder driven by the schema below, a PNG decoder), so
the check does not lean on the code it checks. The generator also had TensorBoard's own loader read
our files; that count is asserted too."""
from __future__ import annotations

import hashlib
import json
import math
import os
import re
import socket
import struct
import time
import zlib
from pathlib import Path

import numpy as np
import pytest

import borch_webgpu as torch
from borch_webgpu.utils.tensorboard import SummaryWriter
from borch_webgpu.utils.tensorboard._record import crc32c

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = json.loads((ROOT / "tests" / "golden" / "tensorboard.json").read_text())
NAME = re.compile(r"^events\.out\.tfevents\.(\d{10})\.(.+)\.(\d+)\.(\d+)(\.sfx)?$")

import sys  # noqa: E402
sys.path.insert(0, str(ROOT / "tests" / "golden"))
import tensorboard_cases  # noqa: E402

# ---- a reader of our own ---------------------------------------------------------------------------------
# message -> {field number: (name, kind, repeated)}; kind is a wire type name or another message's name
R = True
SCHEMA = {
    "Event": {1: ("wall_time", "double", 0), 2: ("step", "int", 0), 3: ("file_version", "string", 0),
              5: ("summary", "Summary", 0), 7: ("session_log", "SessionLog", 0),
              10: ("source_metadata", "SourceMetadata", 0)},
    "SourceMetadata": {1: ("writer", "string", 0)},
    "SessionLog": {1: ("status", "int", 0), 2: ("checkpoint_path", "string", 0), 3: ("msg", "string", 0)},
    "Summary": {1: ("value", "Value", R)},
    "Value": {1: ("tag", "string", 0), 7: ("node_name", "string", 0), 9: ("metadata", "SummaryMetadata", 0),
              2: ("simple_value", "float", 0), 4: ("image", "Image", 0), 5: ("histo", "Histogram", 0),
              6: ("audio", "Audio", 0), 8: ("tensor", "TensorProto", 0)},
    "Audio": {1: ("sample_rate", "float", 0), 2: ("num_channels", "int", 0), 3: ("length_frames", "int", 0),
              4: ("encoded_audio_string", "bytes", 0), 5: ("content_type", "string", 0)},
    "Image": {1: ("height", "int", 0), 2: ("width", "int", 0), 3: ("colorspace", "int", 0),
              4: ("encoded_image_string", "png", 0)},
    "Histogram": {1: ("min", "double", 0), 2: ("max", "double", 0), 3: ("num", "double", 0),
                  4: ("sum", "double", 0), 5: ("sum_squares", "double", 0),
                  6: ("bucket_limit", "double", R), 7: ("bucket", "double", R)},
    "SummaryMetadata": {1: ("plugin_data", "PluginData", 0), 2: ("display_name", "string", 0),
                        3: ("summary_description", "string", 0), 4: ("data_class", "int", 0)},
    "PluginData": {1: ("plugin_name", "string", 0), 2: ("content", "content", 0)},
    "TensorProto": {1: ("dtype", "int", 0), 2: ("tensor_shape", "TensorShape", 0),
                    5: ("float_val", "float", R), 6: ("double_val", "double", R), 7: ("int_val", "int", R),
                    8: ("string_val", "bytes", R), 9: ("scomplex_val", "float", R), 10: ("int64_val", "int", R),
                    11: ("bool_val", "bool", R), 12: ("dcomplex_val", "double", R), 13: ("half_val", "int", R),
                    16: ("uint32_val", "int", R)},
    "TensorShape": {2: ("dim", "Dim", R)},
    "Dim": {1: ("size", "int", 0), 2: ("name", "string", 0)},
    "HParamsPluginData": {1: ("version", "int", 0), 2: ("experiment", "Experiment", 0),
                          3: ("session_start_info", "SessionStartInfo", 0),
                          4: ("session_end_info", "SessionEndInfo", 0)},
    "Experiment": {6: ("name", "string", 0), 1: ("description", "string", 0), 2: ("user", "string", 0),
                   3: ("time_created_secs", "double", 0), 4: ("hparam_infos", "HParamInfo", R),
                   5: ("metric_infos", "MetricInfo", R)},
    "HParamInfo": {1: ("name", "string", 0), 2: ("display_name", "string", 0), 3: ("description", "string", 0),
                   4: ("type", "int", 0), 5: ("domain_discrete", "ListValue", 0), 7: ("differs", "bool", 0)},
    "ListValue": {1: ("values", "StructValue", R)},
    "StructValue": {1: ("null_value", "int", 0), 2: ("number_value", "double", 0),
                    3: ("string_value", "string", 0), 4: ("bool_value", "bool", 0)},
    "MetricInfo": {1: ("name", "MetricName", 0), 3: ("display_name", "string", 0)},
    "MetricName": {1: ("group", "string", 0), 2: ("tag", "string", 0)},
    "SessionStartInfo": {1: ("hparams", "map:StructValue", R), 2: ("model_uri", "string", 0),
                         5: ("start_time_secs", "double", 0)},
    "SessionEndInfo": {1: ("status", "int", 0), 2: ("end_time_secs", "double", 0)},
    "MapEntry:StructValue": {1: ("key", "string", 0), 2: ("value", "StructValue", 0)},
}


def _crc32c_bitwise(data: bytes) -> int:
    """CRC-32C bit by bit (no table): the reader's own, independent of the writer's."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 & -(crc & 1))
    return crc ^ 0xFFFFFFFF


def masked_crc32c(data: bytes) -> int:
    crc = _crc32c_bitwise(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _varint(buf: bytes, i: int) -> tuple[int, int]:
    shift = n = 0
    while True:
        b = buf[i]
        i += 1
        n |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return n, i


def _fields(buf: bytes):
    """(field number, wire type, raw value) in order; raw is an int (varint), or bytes."""
    i = 0
    while i < len(buf):
        key, i = _varint(buf, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            v, i = _varint(buf, i)
        elif wire == 1:
            v, i = buf[i:i + 8], i + 8
        elif wire == 5:
            v, i = buf[i:i + 4], i + 4
        elif wire == 2:
            n, i = _varint(buf, i)
            v, i = buf[i:i + n], i + n
            assert len(v) == n, "truncated length-delimited field"
        else:
            raise AssertionError(f"wire type {wire}")
        yield number, wire, v


def decode_png(data: bytes) -> np.ndarray:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    i, idat, header = 8, b"", None
    while i < len(data):
        n, kind = struct.unpack(">I4s", data[i:i + 8])
        body = data[i + 8:i + 8 + n]
        assert struct.unpack(">I", data[i + 8 + n:i + 12 + n])[0] == zlib.crc32(kind + body) & 0xFFFFFFFF
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        i += 12 + n
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and interlace == 0 and color in (0, 2, 6)
    channels = {0: 1, 2: 3, 6: 4}[color]
    raw = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(height, 1 + width * channels)
    assert (raw[:, 0] == 0).all(), "only filter 0 is decoded here"
    return raw[:, 1:].reshape(height, width, channels)


def _value(kind: str, wire: int, v, parent: dict):
    if kind == "double":
        assert wire == 1
        return "d:" + struct.unpack("<d", v)[0].hex()
    if kind == "float":
        assert wire == 5
        return "f:%08x" % struct.unpack("<I", v)[0]
    if kind in ("int", "bool"):
        assert wire == 0
        n = v - (1 << 64) if v >= 1 << 63 else v
        return bool(n) if kind == "bool" else n
    assert wire == 2
    if kind == "string":
        return v.decode("utf-8")
    if kind == "bytes":
        return "b:" + v.hex()
    if kind == "png":
        img = decode_png(v)
        return {"png": {"shape": list(img.shape), "sha256": hashlib.sha256(img.tobytes()).hexdigest()}}
    if kind == "content":
        if parent.get("plugin_name") == "hparams":
            return decode(v, "HParamsPluginData")
        return "b:" + v.hex()
    return decode(v, kind)


def _packed(kind: str, v: bytes) -> list:
    size = {"double": 8, "float": 4}[kind]
    wire = {"double": 1, "float": 5}[kind]
    return [_value(kind, wire, v[j:j + size], {}) for j in range(0, len(v), size)]


def decode(buf: bytes, message: str) -> dict:
    schema, out = SCHEMA[message], {}
    for number, wire, v in _fields(buf):
        assert number in schema, f"{message}: unknown field {number}"
        name, kind, repeated = schema[number]
        if kind.startswith("map:"):
            entry = decode(v, "MapEntry:" + kind[4:])
            out.setdefault(name, {})[entry.get("key", "")] = entry.get("value", {})
        elif repeated and wire == 2 and kind in ("double", "float"):
            out.setdefault(name, []).extend(_packed(kind, v))
        elif repeated and wire == 2 and kind in ("int", "bool"):   # packed varints
            j, items = 0, out.setdefault(name, [])
            while j < len(v):
                n, j = _varint(v, j)
                items.append(_value(kind, 0, n, {}))
        elif repeated:
            out.setdefault(name, []).append(_value(kind, wire, v, out))
        else:
            assert name not in out, f"{message}.{name} twice"
            out[name] = _value(kind, wire, v, out)
    maps = {name for name, kind, _ in schema.values() if kind.startswith("map:")}
    return {k: dict(sorted(v.items())) if k in maps else v for k, v in out.items()}


def read_records(path: Path) -> list[bytes]:
    data, i, out = path.read_bytes(), 0, []
    while i < len(data):
        header = data[i:i + 8]
        (length,) = struct.unpack("<Q", header)
        assert struct.unpack("<I", data[i + 8:i + 12])[0] == masked_crc32c(header), f"{path}: header crc"
        body = data[i + 12:i + 12 + length]
        assert len(body) == length, f"{path}: truncated record"
        assert struct.unpack("<I", data[i + 12 + length:i + 16 + length])[0] == masked_crc32c(body), \
            f"{path}: data crc"
        out.append(body)
        i += 16 + length
    return out


def read_dir(root: Path) -> tuple[dict, list[float]]:
    out, times = {}, []
    found: dict[str, list[Path]] = {}
    for p in sorted(root.rglob("events.out.tfevents.*")):
        m = NAME.match(p.name)
        assert m and m.group(2) == socket.gethostname() and int(m.group(3)) == os.getpid(), p.name
        found.setdefault(str(p.parent.relative_to(root)), []).append(p)
    for rel, files in sorted(found.items()):
        scenario, _, sub = rel.partition(os.sep)
        per_file = []
        for f in sorted(files, key=lambda p: int(NAME.match(p.name).group(4))):
            events = []
            for raw in read_records(f):
                e = decode(raw, "Event")
                times.append(float.fromhex(e.pop("wall_time")[2:]))
                events.append(e)
            assert events[0]["source_metadata"] == {"writer": "borch_webgpu.utils.tensorboard"}
            events[0]["source_metadata"] = {"writer": "tensorboard.summary.writer.event_file_writer"}
            per_file.append(events)
        out.setdefault(scenario, {})[sub or "."] = per_file
    return out, times


def other_files(root: Path) -> dict:
    out: dict = {}
    for p in sorted(root.rglob("*")):
        if p.is_file() and not p.name.startswith("events.out.tfevents."):
            scenario, _, rel = str(p.relative_to(root)).partition(os.sep)
            data = p.read_bytes()
            if p.suffix == ".png":
                img = decode_png(data)
                out.setdefault(scenario, {})[rel] = {"png": {"shape": list(img.shape),
                                                             "sha256": hashlib.sha256(img.tobytes()).hexdigest()}}
            else:
                out.setdefault(scenario, {})[rel] = data.decode("utf-8")
    return out


# ---- the tests -------------------------------------------------------------------------------------------

def test_crc32c_check_values():
    assert crc32c(b"123456789") == 0xE3069283          # the standard CRC-32C check value
    assert crc32c(b"") == 0
    assert crc32c(bytes(32)) == 0x8A9136AA              # RFC 3720 B.4 test vectors
    assert crc32c(bytes([0xFF] * 32)) == 0x62A8AB43
    assert crc32c(bytes(range(32))) == 0x46DD794E
    data = bytes(range(256)) * 3
    assert crc32c(data) == _crc32c_bitwise(data)


@pytest.fixture(scope="module")
def ours(tmp_path_factory):
    root = tmp_path_factory.mktemp("tb")
    t0 = time.time()
    tensorboard_cases.run_all(torch, SummaryWriter, root)
    t1 = time.time()
    return read_dir(root), (t0, t1), other_files(root)


def _blas_sum_squares(x, y):
    """y with each histogram's sum_squares replaced by x's where they differ by at most 4 ulps.
    PyTorch's (and our) histograms take it as ``values.dot(values)``: numpy hands that to OpenBLAS,
    whose kernel (chosen per CPU) sums in its own order, so the last bits depend on the machine (the
    goldens' PyTorch ran on another CPU than an AMD EPYC, where the last digit differs). Every other
    field stays bit for bit."""
    if isinstance(x, dict) and isinstance(y, dict):
        out = {k: _blas_sum_squares(x.get(k), v) for k, v in y.items()}
        a, b = x.get("sum_squares"), y.get("sum_squares")
        if isinstance(a, str) and isinstance(b, str) and a.startswith("d:") and b.startswith("d:"):
            fa, fb = float.fromhex(a[2:]), float.fromhex(b[2:])
            if abs(fa - fb) <= 4 * math.ulp(fb):
                out["sum_squares"] = a
        return out
    if isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        return [_blas_sum_squares(a, b) for a, b in zip(x, y)]
    return y


@pytest.mark.parametrize("scenario", sorted(GOLDEN["cases"]))
def test_event_files_match_pytorch(ours, scenario):
    (cases, _), _, _ = ours
    assert set(cases) == set(GOLDEN["cases"])
    mine, theirs = cases[scenario], GOLDEN["cases"][scenario]
    assert sorted(mine) == sorted(theirs), "directories"
    for sub in theirs:
        assert [len(f) for f in mine[sub]] == [len(f) for f in theirs[sub]], f"{sub}: events per file"
        for k, (a, b) in enumerate(zip(mine[sub], theirs[sub])):
            for j, (x, y) in enumerate(zip(a, b)):
                y = _blas_sum_squares(x, y)
                assert x == y, f"{scenario}/{sub} file {k} event {j}:\nours  {x}\ntorch {y}"


def test_projector_files_match_pytorch(ours):
    """add_embedding's tensors.tsv, metadata.tsv, sprite.png (pixels) and projector_config.pbtxt."""
    files = ours[2]
    assert sorted(files) == sorted(GOLDEN["other_files"]) == ["embeddings"]
    assert sorted(files["embeddings"]) == sorted(GOLDEN["other_files"]["embeddings"])
    for rel, content in GOLDEN["other_files"]["embeddings"].items():
        assert files["embeddings"][rel] == content, rel


def test_wall_times(ours):
    (_, times), (t0, t1), _ = ours
    explicit = [t for t in times if t == 1234.5]
    assert len(explicit) == 1                            # add_scalar(..., walltime=1234.5)
    assert all(t0 - 1 <= t <= t1 + 1 for t in times if t != 1234.5)


def test_tensorboard_reads_ours():
    r = GOLDEN["tensorboard_reads_ours"]
    assert r["summary"] == f"tensorboard reads ours: {GOLDEN['events']} events"
    assert r["events"] == GOLDEN["events"] == 116 and r["equal_to_torch"] is True
    assert r["accumulator_tags"] == 91 and r["accumulator_equal_to_torch"] is True


def test_default_log_dir_and_file_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with SummaryWriter(comment="_lr0.1") as w:
        logdir = w.get_logdir()
    m = re.fullmatch(r"runs/([A-Z][a-z]{2}\d{2}_\d{2}-\d{2}-\d{2})_(.+)_lr0\.1", logdir)
    assert m and m.group(2) == socket.gethostname(), logdir
    time.strptime(m.group(1), "%b%d_%H-%M-%S")
    (name,) = os.listdir(logdir)
    m = NAME.match(name)
    assert m and abs(int(m.group(1)) - time.time()) < 60 and m.group(2) == socket.gethostname()
    with SummaryWriter(str(tmp_path / "given"), comment="ignored") as w:
        assert w.get_logdir() == str(tmp_path / "given")
    assert os.listdir(tmp_path / "given")[0].startswith("events.out.tfevents.")


def test_flush_and_max_queue(tmp_path):
    w = SummaryWriter(str(tmp_path), max_queue=3, flush_secs=10000)
    (f,) = tmp_path.iterdir()
    assert len(read_records(f)) == 1                     # the file_version event is written at once
    w.add_scalar("a", 1.0, 0)
    w.add_scalar("a", 2.0, 1)
    assert len(read_records(f)) == 1                     # queued
    w.add_scalar("a", 3.0, 2)
    assert len(read_records(f)) == 4                     # the third fills the queue
    w.add_scalar("a", 4.0, 3)
    w.flush()
    assert len(read_records(f)) == 5
    w.close()


def test_errors_are_pytorchs(tmp_path):
    with SummaryWriter(str(tmp_path)) as w:
        with pytest.raises(NotImplementedError, match="add_graph: PyTorch builds the GraphDef TensorBoard draws from the TorchScript IR"):
            w.add_graph(torch.nn.Linear(2, 2), torch.zeros(1, 2))
        for call in (lambda: w.add_figure("f", None), lambda: w.add_video("v", torch.zeros(1, 2, 3, 4, 4)),
                     lambda: w.add_onnx_graph("m.onnx"),
                     lambda: w.add_image_with_boxes("b", torch.zeros(3, 4, 4), torch.tensor([[0, 0, 2, 2]]))):
            with pytest.raises(NotImplementedError, match="^add_"):
                call()
        with pytest.raises(AssertionError, match="Expected 3 tags, got 2."):
            w.add_custom_scalars_marginchart(["a", "b"])
        with pytest.raises(ValueError, match=r"len\(bucket_limits\) != len\(bucket_counts\)"):
            w.add_histogram_raw("h", 0, 1, 1, 1, 1, [1.0], [1, 2])
        with pytest.raises(AssertionError, match="#labels should equal with #data points"):
            w.add_embedding(torch.zeros(2, 3), metadata=["a"])
        with pytest.raises(AssertionError, match="Tensor should contain one element"):
            w.add_scalar("x", torch.zeros(2))
        with pytest.raises(ValueError, match="The input has no element."):
            w.add_histogram("h", torch.zeros(0))
        with pytest.raises(TypeError, match="hparam_dict and metric_dict should be dictionary."):
            w.add_hparams([1], {})
        with pytest.raises(ValueError, match="value should be one of int, float, str, bool, or torch.Tensor"):
            w.add_hparams({"a": [1]}, {})
        with pytest.raises(TypeError, match=r"hparam_domain_discrete\[a\] should be a list of same type"):
            w.add_hparams({"a": 1.0}, {}, hparam_domain_discrete={"a": ["x"]})
        with pytest.raises(AssertionError, match="size of input tensor and input format are different"):
            w.add_image("i", torch.zeros(3, 4))
        with pytest.raises(NotImplementedError, match="Got <class 'list'>"):
            w.add_histogram("h", [1.0, 2.0])


def test_reachable_as_torch_utils_tensorboard():
    import borch_webgpu.utils.tensorboard as tb
    assert torch.utils.tensorboard is tb and tb.SummaryWriter is SummaryWriter
    assert "tensorboard" in torch.utils.__all__
