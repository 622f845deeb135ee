"""Hostile PyTorch checkpoints (zip format) and what ``torch.load`` must say about each: name ->
(file bytes, exception type, CheckpointError kind or "", a part of the message). Shared by the CPython
tests (test_ptzip_files.py, test_ptzip_fuzz.py): stdlib and borch_webgpu only."""
from __future__ import annotations

import io
import pickle
import struct
import zipfile

import borch_webgpu as torch
from borch_webgpu._ptzip import write_archive


def records(data: bytes) -> dict:
    z = zipfile.ZipFile(io.BytesIO(data))
    return {n.split("/", 1)[1]: z.read(n) for n in z.namelist()
            if n.split("/", 1)[1] not in ("version", ".data/serialization_id")}


def rezip(recs: dict, name: str = "archive") -> bytes:
    """A checkpoint of these records (version and serialization id added), CRCs right."""
    return write_archive(list(recs.items()), name)


def base() -> bytes:
    buf = io.BytesIO()
    x = torch.arange(6.0, device="cpu")
    torch.save({"x": x, "v": x[2:]}, buf)
    return buf.getvalue()


def _pkl(x_size=b"K\x06", off=b"K\x00", size=b"K\x06\x85", stride=b"K\x01\x85", numel=b"K\x06",
         stype=b"FloatStorage", key=b"0"):
    """data.pkl of {"x": a tensor over storage key} with these pieces of the pickle."""
    return (b"\x80\x02}X\x01\x00\x00\x00xctorch._utils\n_rebuild_tensor_v2\n((X\x07\x00\x00\x00storagectorch\n"
            + stype + b"\nX" + struct.pack("<I", len(key)) + key + b"X\x03\x00\x00\x00cpu" + numel + b"tQ" + off
            + size + stride + b"\x89ccollections\nOrderedDict\n)RtRs.")


def _pid(stype: bytes) -> bytes:
    return b"(X\x07\x00\x00\x00storagectorch\n" + stype + b"\nX\x01\x00\x00\x000X\x03\x00\x00\x00cpuK\x06t"


def _zip_deflated(recs: dict) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for n, v in recs.items():
            z.writestr("archive/" + n, v)
        z.writestr("archive/version", b"3\n")
    return out.getvalue()


def cases() -> dict:
    good = records(base())
    f24 = struct.pack("<6f", *range(6))
    with_pkl = lambda p, **extra: rezip({**good, "data.pkl": p, "data/0": f24, **extra})  # noqa: E731
    no_storage = dict(good)
    del no_storage["data/0"]
    no_pickle = dict(good)
    del no_pickle["data.pkl"]
    cut = rezip(good)
    crc = bytearray(rezip(good))
    crc[crc.index(b"storage") + 1] ^= 1
    overlap = bytearray(rezip(good))
    cd = overlap.rindex(b"PK\x01\x02")  # the last central entry points at the first local header
    overlap[cd + 42:cd + 46] = struct.pack("<I", 0)
    deep = b"\x80\x02)" + b"\x85" * 5000 + b"."
    cyclic = b"\x80\x02]q\x00h\x00a."
    wide = b"\x80\x02" + b"(" * 200 + b")" * 0 + b"."
    n = struct.pack("<i", (70 << 20) // 4)
    bomb = _zip_deflated({"data.pkl": _pkl(numel=b"J" + n, size=b"J" + n + b"\x85"), "data/0": bytes(70 << 20)})
    return {
        "not a zip": (b"PK\x03\x04" + bytes(60), torch.serialization.CheckpointError, "BadZip",
                      "not a readable zip archive"),
        "truncated": (cut[:len(cut) // 2], torch.serialization.CheckpointError, "BadZip", "not a readable zip"),
        "storage record missing": (rezip(no_storage), torch.serialization.CheckpointError, "MissingRecord",
                                   "the archive has no 'archive/data/0'"),
        "data.pkl missing": (rezip(no_pickle), torch.serialization.CheckpointError, "MissingRecord",
                             "the archive has no 'archive/data.pkl'"),
        "CRC mismatch": (bytes(crc), torch.serialization.CheckpointError, "BadZip", "fails its CRC-32 check"),
        "overlapping entries": (bytes(overlap), torch.serialization.CheckpointError, "OverlappingEntries",
                                "starts at byte 0, inside entry"),
        "record size is not numel x itemsize": (
            with_pkl(_pkl(numel=b"K\x07")), torch.serialization.CheckpointError, "InvalidStorage",
            "record size (24 bytes) does not match expected size (28 bytes = 7 elements * 4 bytes/element)"),
        "offset past the storage": (
            with_pkl(_pkl(off=b"K\x04", size=b"K\x03\x85")), torch.serialization.CheckpointError, "InvalidTensor",
            "sizes [3], strides [1], storage offset 4, and itemsize 4 requiring a storage size of 28 are out of "
            "bounds for storage of size 24"),
        "stride past the storage": (
            with_pkl(_pkl(size=b"K\x03\x85", stride=b"K\x03\x85")), torch.serialization.CheckpointError,
            "InvalidTensor", "requiring a storage size of 28"),
        "negative size": (with_pkl(_pkl(size=b"J\xff\xff\xff\xff\x85")), torch.serialization.CheckpointError,
                          "InvalidTensor", "the size is -1, not an integer from 0 to 2**63-1"),
        "negative offset": (with_pkl(_pkl(off=b"J\xfe\xff\xff\xff")), torch.serialization.CheckpointError,
                            "InvalidTensor", "the storage offset is -2"),
        "size and stride lengths differ": (
            with_pkl(_pkl(stride=b"K\x01K\x01\x86")), torch.serialization.CheckpointError, "InvalidTensor",
            "size [6] and stride [1, 1] differ in length"),
        "33 dims": (with_pkl(_pkl(size=b"(" + b"K\x01" * 33 + b"t", stride=b"(" + b"K\x01" * 33 + b"t")),
                    torch.serialization.CheckpointError, "InvalidTensor", "not a tuple of at most 32 integers"),
        "quantized storage": (with_pkl(_pkl(stype=b"QInt8Storage")), torch.serialization.CheckpointError,
                              "UnsupportedDtype", "QInt8Storage (torch.qint8)"),
        # complex storages load (complex64 / complex128); a record too short for its elements is refused
        "short complex storage": (with_pkl(_pkl(stype=b"ComplexFloatStorage")), torch.serialization.CheckpointError,
                                  "InvalidStorage", "record size (24 bytes) does not match expected size (48 bytes = "
                                  "6 elements * 8 bytes/element)"),
        "storage key named twice with two types": (
            with_pkl(b"\x80\x02](" + _pid(b"FloatStorage") + b"Q" + _pid(b"IntStorage") + b"Qe."),
            torch.serialization.CheckpointError, "InvalidStorage",
            "storage '0' is named as 6 x FloatStorage and as 6 x IntStorage"),
        "tuple nesting bomb": (with_pkl(deep), torch.serialization.CheckpointError, "TooDeep",
                               "nests containers 101 deep; the limit is 100"),
        "list containing itself": (with_pkl(cyclic), torch.serialization.CheckpointError, "TooDeep",
                                   "holds a container that contains itself"),
        "MARK nesting bomb": (with_pkl(wide), torch.serialization.CheckpointError, "InvalidPickle",
                              "MARKs nest past 100"),
        "memo read before written": (with_pkl(b"\x80\x02h\x05."), torch.serialization.CheckpointError,
                                     "InvalidPickle", "memo entry 5 is read before it is written"),
        "truncated string": (with_pkl(b"\x80\x02X\xff\x00\x00\x00ab."), torch.serialization.CheckpointError,
                             "InvalidPickle", "the pickle ends inside an opcode (255 bytes wanted at byte 7, 3 left)"),
        "no STOP": (with_pkl(b"\x80\x02K\x01"), torch.serialization.CheckpointError, "InvalidPickle",
                    "without a STOP opcode"),
        "empty stack": (with_pkl(b"\x80\x02\x86."), torch.serialization.CheckpointError, "InvalidPickle",
                        "pops more values than the stack holds"),
        "unhashable key": (with_pkl(b"\x80\x02}]K\x01s."), torch.serialization.CheckpointError, "InvalidPickle",
                           "unhashable type: 'list'"),
        "huge bytearray": (with_pkl(b"\x80\x02cbuiltins\nbytearray\nJ\xff\xff\xff\x7f\x85R."),
                           torch.serialization.CheckpointError, "InvalidValue", "only bytearray(bytes) is read"),
        "quantized tensor": (with_pkl(b"\x80\x02ctorch._utils\n_rebuild_qtensor\n)R."),
                             torch.serialization.CheckpointError, "UnsupportedTensor",
                             "qtensors (torch._utils._rebuild_qtensor) are not supported"),
        "deflate bomb": (bomb, torch.serialization.CheckpointError, "InflateLimit",
                         "'archive/data/0' is deflated to 73400320 bytes; deflated records may inflate to at most "
                         "67108864 bytes in all"),
        "unsupported version": (rezip({**good, "version": b"99\n"}), torch.serialization.CheckpointError,
                                "UnsupportedVersion", "the archive's version record is b'99\\n'; PyTorch reads versions 1 to 10"),
        "TorchScript": (rezip({**good, "constants.pkl": b"\x80\x02)."}), torch.serialization.CheckpointError,
                        "TorchScript", "this is a TorchScript archive"),
        "os.system": (with_pkl(b"\x80\x02cposix\nsystem\nX\x02\x00\x00\x00id\x85R."), pickle.UnpicklingError, "",
                      "Trying to load unsupported GLOBAL posix.system whose module posix is blocked."),
    }


def deflated_ok() -> bytes:
    """A small checkpoint with deflated records: read (PyTorch's reader inflates them too)."""
    return _zip_deflated(records(base()))

