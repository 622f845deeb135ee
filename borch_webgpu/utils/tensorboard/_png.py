"""A small PNG writer (zlib from the standard library; no Pillow in Pyodide)."""
from __future__ import annotations

import struct
import zlib

import numpy as np


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def encode_png(pixels: np.ndarray) -> bytes:
    """PNG bytes of a uint8 ``(H, W, C)`` array, C = 1 (gray), 3 (RGB) or 4 (RGBA); 8 bits a channel,
    no interlace, filter 0 on every row."""
    if pixels.dtype != np.uint8 or pixels.ndim != 3 or pixels.shape[2] not in (1, 3, 4):
        raise ValueError(f"encode_png: expected a uint8 (H, W, 1|3|4) array, got {pixels.dtype} "
                         f"{tuple(pixels.shape)}")
    height, width, channels = pixels.shape
    color_type = {1: 0, 3: 2, 4: 6}[channels]
    rows = np.ascontiguousarray(pixels).reshape(height, width * channels)
    raw = np.concatenate([np.zeros((height, 1), np.uint8), rows], axis=1).tobytes()
    header = struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(raw, 6))
            + _chunk(b"IEND", b""))
