"""bfloat16 values in float32 arrays (numpy has no bfloat16; the design is in borch_webgpu/_dtype.py).

A bfloat16 is the upper 16 bits of a float32. PyTorch rounds a float32 to it to the nearest value, ties
to even, and turns every NaN into 0x7FC0 (c10's ``round_to_nearest_even``); its CPU kernels compute
bfloat16 ops in float32 and round each result so. ``round_bf16`` is that rounding; the cpu backend
applies it to every bfloat16 result it stores, so results are PyTorch's bit for bit.
"""
from __future__ import annotations

import numpy as np


def round_bf16(a) -> np.ndarray:
    """float32 values rounded to the nearest bfloat16 (ties to even; NaN -> 0x7FC0), as a new float32
    array. float64 input is first rounded to float32, as PyTorch converts double -> float -> bfloat16."""
    f = np.array(a, dtype=np.float32, copy=True)
    u = f.view(np.uint32)
    nan = np.isnan(f)
    with np.errstate(over="ignore"):
        u += np.uint32(0x7FFF) + ((u >> np.uint32(16)) & np.uint32(1))
    u &= np.uint32(0xFFFF0000)
    if nan.any():
        f[nan] = np.uint32(0x7FC00000).view(np.float32)
    return f


def round_inplace(a: np.ndarray) -> None:
    """Round a float32 array to bfloat16 values where it lies (storages of bfloat16 tensors)."""
    a[...] = round_bf16(a)


def to_bits(a) -> np.ndarray:
    """The bfloat16 bit patterns (uint16) of values already rounded to bfloat16 (files: BF16, BFloat16Storage)."""
    return (np.ascontiguousarray(a, dtype=np.float32).view(np.uint32) >> np.uint32(16)).astype(np.uint16)


def from_bits(bits) -> np.ndarray:
    """float32 values of bfloat16 bit patterns (uint16): exact."""
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << np.uint32(16)).view(np.float32)
