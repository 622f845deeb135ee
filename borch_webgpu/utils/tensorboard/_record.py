"""TFRecord framing and the event file: what ``tensorboard.summary.writer`` does, in pure Python.

A record is ``uint64 length | masked crc32c(length) | data | masked crc32c(data)``, little endian;
crc32c is the Castagnoli CRC (reflected polynomial 0x82F63B78), masked as TensorFlow masks it. Events are
kept in memory and written when ``max_queue`` of them wait, when ``flush_secs`` have passed since the last
write (checked at each add: there is no background thread, Pyodide has none), at ``flush()`` and at
``close()``."""
from __future__ import annotations

import os
import struct
import time

from . import _proto

_POLY = 0x82F63B78


def _table() -> list[int]:
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ _POLY if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = _table()


def crc32c(data: bytes) -> int:
    """CRC-32C (Castagnoli) of ``data``, table-driven, one byte a step."""
    crc = 0xFFFFFFFF
    table = _TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc32c(data: bytes) -> int:
    """TensorFlow's masked CRC: rotate right by 15 bits, add 0xA282EAD8 (mod 2^32)."""
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def frame(data: bytes) -> bytes:
    """One TFRecord holding ``data``."""
    header = struct.pack("<Q", len(data))
    return (header + struct.pack("<I", masked_crc32c(header)) + data
            + struct.pack("<I", masked_crc32c(data)))


def hostname() -> str:
    import socket
    try:
        return socket.gethostname()
    except OSError:   # a runtime without a network stack
        return "localhost"


WRITER_NAME = "borch_webgpu.utils.tensorboard"
_uid = [0]


def event(wall_time: float, step: int | None = None, file_version: str | None = None,
          summary: bytes | None = None, source_writer: str | None = None,
          session_log_status: int | None = None) -> bytes:
    """An encoded ``tensorboard.Event``: wall_time 1, step 2, file_version 3 (oneof), summary 5 (oneof),
    session_log 7 (oneof; status 1), source_metadata 10 (writer 1)."""
    out = _proto.double_field(1, wall_time) + _proto.int_field(2, step or 0)
    if file_version is not None:
        out += _proto.bytes_field(3, file_version, force=True)
    if summary is not None:
        out += _proto.message_field(5, summary)
    if session_log_status is not None:
        out += _proto.message_field(7, _proto.int_field(1, session_log_status))
    if source_writer is not None:
        out += _proto.message_field(10, _proto.bytes_field(1, source_writer))
    return out


class EventFileWriter:
    """Writes encoded ``Event`` messages to ``logdir/events.out.tfevents.<time>.<host>.<pid>.<n><suffix>``
    (tensorboard's name; ``n`` counts the writers made in this process). The first record is the
    ``file_version = "brain.Event:2"`` event, written at once."""

    def __init__(self, logdir: str, max_queue_size: int = 10, flush_secs: float = 120,
                 filename_suffix: str = ""):
        self._logdir = str(logdir)
        os.makedirs(self._logdir, exist_ok=True)
        uid = _uid[0]
        _uid[0] += 1
        name = "events.out.tfevents.%010d.%s.%s.%s" % (time.time(), hostname(), os.getpid(), uid)
        self._file_name = os.path.join(self._logdir, name) + filename_suffix
        self._file = open(self._file_name, "wb")
        self._queue: list[bytes] = []
        self._max_queue = max_queue_size
        self._flush_secs = flush_secs
        self._last_flush = time.time()
        self._closed = False
        self.add_event(event(time.time(), file_version="brain.Event:2", source_writer=WRITER_NAME))
        self.flush()

    def get_logdir(self) -> str:
        return self._logdir

    def add_event(self, encoded_event: bytes) -> None:
        if self._closed:
            raise IOError("Writer is closed")
        self._queue.append(frame(encoded_event))
        if len(self._queue) >= self._max_queue or time.time() - self._last_flush >= self._flush_secs:
            self.flush()

    def flush(self) -> None:
        if self._closed:
            return
        if self._queue:
            self._file.write(b"".join(self._queue))
            self._queue.clear()
        self._file.flush()
        self._last_flush = time.time()

    def close(self) -> None:
        if self._closed:
            return
        self.flush()
        self._file.close()
        self._closed = True
