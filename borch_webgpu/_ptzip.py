"""PyTorch's checkpoint container (``torch.save`` since 1.6): a zip archive, read and written here.

Reading trusts nothing: the central directory is parsed by ``zipfile``, then every entry's local header,
span and CRC-32 are checked by us; entries must not overlap (an overlapping-entry zip bomb multiplies one
stretch of bytes); only stored and deflated entries are read, and deflated ones inflate to at most
``MAX_INFLATED_BYTES`` in all (``torch.save`` writes stored entries). Every refusal is a
:class:`CheckpointError` naming the file, the entry and the numbers.

Writing follows the layout of PyTorch's writer (miniz, ``caffe2/serialize/inline_container.cc``): stored
entries under one folder (``archive/`` for a file object, the file name without its extension for a path),
each entry's data 64-byte aligned by an ``FB`` extra field of ``Z`` bytes, a data descriptor after each,
zip64 end records, and ``.data/serialization_id`` computed from the record names and CRCs as PyTorch does
(its hash of the names, libstdc++'s, in the order its unordered_set iterates), so a file saved here is
byte for byte the one PyTorch saves for the same tensors.
"""
from __future__ import annotations

import bisect
import io
import math
import struct
import zipfile
import zlib

__all__ = ["CheckpointError", "MAX_INFLATED_BYTES", "Archive", "read_archive", "write_archive", "archive_name"]

MAX_INFLATED_BYTES = 64 << 20
ALIGNMENT = 64
_M64 = (1 << 64) - 1


class CheckpointError(RuntimeError):
    """A PyTorch checkpoint (zip) that ``torch.load`` refuses: malformed, truncated, or holding what
    borch_webgpu cannot build. ``kind`` names the check, ``file`` the file."""

    def __init__(self, kind: str, file: str, detail: str):
        super().__init__(f"load: {file}: {kind}: {detail}")
        self.kind, self.file, self.detail = kind, file, detail

    def __reduce__(self):
        return type(self), (self.kind, self.file, self.detail)


CheckpointError.__module__ = "borch_webgpu.serialization"  # where it is public


class Archive:
    """The records of one checkpoint, read on demand and checked."""

    def __init__(self, data: bytes, file: str):
        self.data, self.file, self.inflated = data, file, 0
        try:
            infos = zipfile.ZipFile(io.BytesIO(data)).infolist()
        except Exception as e:  # BadZipFile, and struct/Value/Overflow errors on odd directories
            raise CheckpointError("BadZip", file, f"not a readable zip archive ({type(e).__name__}: {e})") from None
        if not infos:
            raise CheckpointError("BadZip", file, "the zip archive holds no entries")
        first = infos[0].filename
        if "/" not in first:
            raise CheckpointError("BadZip", file, f"the first entry {first!r} is not in a folder (a torch.save "
                                                  "archive keeps its records in one)")
        self.prefix = first[:first.index("/") + 1]
        self.entries: dict[str, tuple[zipfile.ZipInfo, int]] = {}
        spans = []
        for info in infos:
            start = self._data_start(info)
            spans.append((info.header_offset, start + info.compress_size, info.filename))
            if info.filename.startswith(self.prefix):
                self.entries.setdefault(info.filename[len(self.prefix):], (info, start))
        spans.sort()
        for (a0, a1, an), (b0, _, bn) in zip(spans, spans[1:]):
            if b0 < a1:
                raise CheckpointError("OverlappingEntries", file, f"entry {bn!r} starts at byte {b0}, inside entry "
                                                                  f"{an!r} (bytes {a0} to {a1})")

    def _data_start(self, info: zipfile.ZipInfo) -> int:
        off, file = info.header_offset, self.file
        head = self.data[off:off + 30]
        if len(head) < 30 or head[:4] != b"PK\x03\x04":
            raise CheckpointError("BadZip", file, f"entry {info.filename!r}: no local header at byte {off}")
        name_len, extra_len = struct.unpack("<HH", head[26:30])
        start = off + 30 + name_len + extra_len
        if start + info.compress_size > len(self.data):
            raise CheckpointError("BadZip", file, f"entry {info.filename!r}: its {info.compress_size} bytes from "
                                                  f"byte {start} run past the end of the file ({len(self.data)} "
                                                  "bytes)")
        return start

    def has(self, name: str) -> bool:
        return name in self.entries

    def size(self, name: str) -> int:
        return self._info(name)[0].file_size

    def _info(self, name: str):
        if name not in self.entries:
            raise CheckpointError("MissingRecord", self.file, f"the archive has no {self.prefix + name!r}")
        return self.entries[name]

    def read(self, name: str, limit: int | None = None, what: str = "") -> bytes:
        """The bytes of record ``name`` (CRC-checked); ``limit`` caps its size."""
        info, start = self._info(name)
        full, file = self.prefix + name, self.file
        if limit is not None and info.file_size > limit:
            raise CheckpointError("RecordTooLarge", file, f"{full!r} is {info.file_size} bytes; {what} may be at "
                                                          f"most {limit}")
        if info.flag_bits & 1:
            raise CheckpointError("UnsupportedCompression", file, f"{full!r} is encrypted")
        raw = self.data[start:start + info.compress_size]
        if info.compress_type == zipfile.ZIP_STORED:
            if info.compress_size != info.file_size:
                raise CheckpointError("BadZip", file, f"{full!r} is stored with {info.compress_size} bytes but "
                                                      f"declares {info.file_size}")
            out = raw
        elif info.compress_type == zipfile.ZIP_DEFLATED:
            if self.inflated + info.file_size > MAX_INFLATED_BYTES:
                raise CheckpointError("InflateLimit", file, f"{full!r} is deflated to {info.file_size} bytes; "
                                      f"deflated records may inflate to at most {MAX_INFLATED_BYTES} bytes in all "
                                      "(torch.save writes stored records: re-save the file with torch.save)")
            self.inflated += info.file_size
            try:
                out = zlib.decompressobj(-15).decompress(raw, info.file_size + 1)
            except zlib.error as e:
                raise CheckpointError("BadZip", file, f"{full!r} does not inflate ({e})") from None
            if len(out) != info.file_size:
                raise CheckpointError("BadZip", file, f"{full!r} inflates to {len(out)}"
                                      f"{'+' if len(out) > info.file_size else ''} bytes, not the {info.file_size} "
                                      "it declares")
        else:
            raise CheckpointError("UnsupportedCompression", file, f"{full!r} uses zip compression method "
                                  f"{info.compress_type}; only stored (0) and deflated (8) records are read")
        if zlib.crc32(out) != info.CRC:
            raise CheckpointError("BadZip", file, f"{full!r} fails its CRC-32 check (the file is corrupted)")
        return out


def read_archive(data: bytes, file: str) -> Archive:
    return Archive(data, file)


def archive_name(path: str) -> str:
    """PyTorch's folder name for a path: its base name without the last extension."""
    base = path.replace("\\", "/").rsplit("/", 1)[-1]
    name = base[:base.rindex(".")] if "." in base else base
    if not name:
        raise RuntimeError(f"save: invalid file name: {path} (PyTorch names the archive's folder after the file "
                           "name without its extension, which is empty here)")
    return name


def _hash_bytes(b: bytes, seed: int = 0xC70F6907) -> int:
    """libstdc++'s std::hash of a string (64-bit _Hash_bytes), which PyTorch's serialization id uses."""
    mul = (0xC6A4A793 << 32) + 0x5BD1E995
    n, aligned = len(b), len(b) & ~7
    h = (seed ^ (n * mul)) & _M64
    for i in range(0, aligned, 8):
        d = (int.from_bytes(b[i:i + 8], "little") * mul) & _M64
        h = ((h ^ (((d ^ (d >> 47)) * mul) & _M64)) * mul) & _M64
    if n & 7:
        h = ((h ^ int.from_bytes(b[aligned:], "little")) * mul) & _M64
    h = ((h ^ (h >> 47)) * mul) & _M64
    return h ^ (h >> 47)


def _combine(seed: int, v: int) -> int:  # c10::hash_combine
    return (seed ^ ((v + 0x9E3779B9 + (seed << 6) + (seed >> 2)) & _M64)) & _M64


# libstdc++'s bucket counts (_Prime_rehash_policy: the small-size table, then its list of primes)
_FAST_BUCKETS = (2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13)
_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 103, 109,
           113, 127, 137, 139, 149, 157, 167, 179, 193, 199, 211, 227, 241, 257, 277, 293, 313, 337, 359, 383, 409,
           439, 467, 503, 541, 577, 619, 661, 709, 761, 823, 887, 953, 1031, 1109, 1193, 1289, 1381, 1493, 1613,
           1741, 1879, 2029, 2179, 2357, 2549, 2753, 2971, 3209, 3469, 3739, 4027, 4349, 4703, 5087, 5503, 5953,
           6427, 6949, 7517, 8123, 8783, 9497, 10273, 11113, 12011, 12983, 14033, 15173, 16411, 17749, 19183,
           20753, 22447, 24281, 26267, 28411, 30727, 33223, 35933, 38873, 42043, 45481, 49201, 53201, 57557,
           62233, 67307, 72817, 78779, 85229, 92203, 99733)


def _next_buckets(n: int) -> int:
    if n < len(_FAST_BUCKETS):
        return _FAST_BUCKETS[n]
    i = bisect.bisect_left(_PRIMES, n, 6)
    if i < len(_PRIMES):
        return _PRIMES[i]
    while any(n % d == 0 for d in range(2, math.isqrt(n) + 1)):  # past the table (~50,000 records): any prime
        n += 1
    return n


def _set_order(names: list[str]) -> list[str]:
    """The order a libstdc++ ``unordered_set<string>`` filled with ``names`` iterates in: PyTorch's writer
    combines the record names' hashes in that order (``files_written_``). Buckets are singly linked
    lists in one chain; a name goes first in its bucket, or first in the chain when its bucket is empty,
    and a rehash rebuilds the chain from the old one's order."""
    names = list(dict.fromkeys(names))  # a set holds each name once
    code = {n: _hash_bytes(n.encode()) for n in names}
    nxt: dict = {None: None}          # None is the chain's head (_M_before_begin)
    buckets: list = [False]           # per bucket: the node before its first (False: empty)
    resize_at = 0
    for count, name in enumerate(names):
        if count + 1 > resize_at:
            want = max(count + 1, 0 if resize_at else 11)
            if want >= len(buckets):
                nb = _next_buckets(max(want + 1, len(buckets) * 2))
                resize_at = nb
                new, p, first = [False] * nb, nxt[None], 0
                nxt[None] = None
                while p is not None:
                    q, b = nxt[p], code[p] % nb
                    if new[b] is False:
                        nxt[p], nxt[None], new[b] = nxt[None], p, None
                        if nxt[p] is not None:
                            new[first] = p
                        first = b
                    else:
                        nxt[p], nxt[new[b]] = nxt[new[b]], p
                    p = q
                buckets = new
            else:
                resize_at = len(buckets)
        b = code[name] % len(buckets)
        if buckets[b] is not False:
            nxt[name], nxt[buckets[b]] = nxt[buckets[b]], name
        else:
            nxt[name], nxt[None] = nxt[None], name
            if nxt[name] is not None:
                buckets[code[nxt[name]] % len(buckets)] = name
            buckets[b] = None
    out, p = [], nxt[None]
    while p is not None:
        out.append(p)
        p = nxt[p]
    return out


def write_archive(records: list[tuple[str, bytes]], name: str) -> bytes:
    """A zip of ``records`` (name, bytes) under folder ``name``, laid out as PyTorch's writer lays it out,
    with ``version`` and ``.data/serialization_id`` appended."""
    names_hash = crcs = 0
    for rec, data in records:
        if data:  # miniz writes an empty record without a CRC pass or a data descriptor
            crcs = _combine(crcs, zlib.crc32(data))
    records = records + [("version", b"3\n")]
    crcs = _combine(crcs, zlib.crc32(b"3\n"))
    for rec in _set_order([r for r, _ in records]):
        names_hash = _combine(names_hash, _hash_bytes(rec.encode()))
    records.append((".data/serialization_id", f"{names_hash:020d}{crcs:020d}".encode()))
    out, central = bytearray(), bytearray()
    for rec, data in records:
        full = f"{name}/{rec}".encode()
        if len(data) >= 0xFFFFFFFF or len(out) >= 0xFFFFFFFF:
            raise RuntimeError(f"save: record {rec!r} ({len(data)} bytes at byte {len(out)}) needs zip64 entries, "
                               "which this writer does not make (4 GiB per file at most)")
        start = len(out) + 30 + len(full) + 4
        pad = -start % ALIGNMENT
        crc = zlib.crc32(data)
        offset = len(out)
        flags = 0x0808 if data else 0x0800  # bit 3: a data descriptor follows; bit 11: UTF-8 names
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 0, flags, 0, 0, 0, 0, 0, 0, len(full), pad + 4)
        out += full + b"FB" + struct.pack("<H", pad) + b"Z" * pad + data
        if data:
            out += struct.pack("<IIII", 0x08074B50, crc, len(data), len(data))
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0, 0, flags, 0, 0, 0, crc, len(data), len(data),
                               len(full), 0, 0, 0, 0, 0, offset) + full
    cd_offset, n = len(out), len(records)
    out += central
    eocd64 = len(out)
    out += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 0x031E, 45, 0, 0, n, n, len(central), cd_offset)
    out += struct.pack("<IIQI", 0x07064B50, 0, eocd64, 1)
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, n, n, len(central), cd_offset, 0)
    return bytes(out)
