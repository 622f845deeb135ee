"""What is checked after the bytes are proven to be the manifest's: the safetensors header (through the
one hardened reader, ``borch_webgpu._safetensors``) against the manifest and the architecture, every
weight finite, the adapter's limits, and the sample reproduced on the device."""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from .._safetensors import SafetensorError, read_header, read_numpy
from ..device import _ffi
from ._errors import AdapterTooSmall, HeaderMismatch, NonFiniteWeights, SampleMismatch
from ._manifest import decode_array

__all__ = ["Verified", "read_weights", "check_layout", "check_limits", "device_limits", "run_sample",
           "MAX_TOTAL_BYTES_BROWSER"]

# a wasm32 heap addresses 4 GiB, and the weights pass through it twice (the download, then the tensors)
MAX_TOTAL_BYTES_BROWSER = 1 << 31


@dataclass(frozen=True)
class Verified:
    """What ``hub.load`` proved before it returned: set as ``model.hub_verified``."""
    name: str
    sha256: str
    bytes: int
    device: str
    sample_error: float
    tolerance: float
    source: str   # "network" or "cache"


def read_weights(data: bytes, m: dict, where: str) -> "OrderedDict[str, np.ndarray]":
    """The arrays of a safetensors file whose bytes matched the manifest: the header must be valid (every
    refusal of the reader becomes HeaderMismatch), agree with the manifest's dtype and limits, and every
    float finite (NonFiniteWeights)."""
    file = m["weights"]["url"]
    try:
        entries, _, _ = read_header(data, file)
        arrays, _ = read_numpy(data, file)
    except SafetensorError as e:
        raise HeaderMismatch(f"{where}: the weights' safetensors header is invalid: {e}") from e
    for name, dt, shape, a, b in entries:
        if dt not in ("F32", "I64"):
            raise HeaderMismatch(f"{where}: tensor {name!r} has dtype {dt}; the manifest says float32 weights "
                                 "(and int64 counters)")
    sizes = [b - a for _, _, _, a, b in entries]
    total, largest = sum(sizes), max(sizes, default=0)
    lim = m["limits"]
    if (largest, total) != (lim["largest_buffer"], lim["total_bytes"]):
        raise HeaderMismatch(f"{where}: the header describes tensors of {total} bytes, the largest {largest} bytes; "
                             f"the manifest's limits say {lim['total_bytes']} and {lim['largest_buffer']}")
    for name, arr in arrays.items():
        if arr.dtype.kind == "f":
            bad = ~np.isfinite(arr)
            if bad.any():
                first = tuple(int(i) for i in np.argwhere(bad)[0])
                raise NonFiniteWeights(f"{where}: tensor {name!r} {list(arr.shape)} holds {int(bad.sum())} NaN or "
                                       f"infinite value{'s' if bad.sum() > 1 else ''} (the first at index {first}: "
                                       f"{arr[first]!r})")
    return arrays


def check_layout(model, arrays: dict, where: str) -> None:
    """The file's tensors are the model's state dict, key for key and shape for shape (HeaderMismatch)."""
    sd = model.state_dict()
    missing = [k for k in sd if k not in arrays]
    unexpected = [k for k in arrays if k not in sd]
    wrong = [f"{k}: file {list(arrays[k].shape)}, model {list(sd[k].shape)}" for k in sd
             if k in arrays and tuple(arrays[k].shape) != tuple(sd[k].shape)]
    if missing or unexpected or wrong:
        parts = [f"{label} {', '.join(v[:3])}{' ...' if len(v) > 3 else ''}" for label, v in
                 (("missing keys", missing), ("unexpected keys", unexpected), ("shape mismatches", wrong)) if v]
        raise HeaderMismatch(f"{where}: the file's tensors are not the state dict of {model.catalog.name} "
                             f"{model.catalog.args}: {'; '.join(parts)}")


def device_limits(device) -> dict:
    """The limits a model's buffers must fit on ``device`` (none on cpu outside a browser)."""
    out = {}
    if device.type == "webgpu":
        from .. import webgpu
        lim = webgpu.adapter_info()["limits"]
        out["maxStorageBufferBindingSize"] = int(lim["maxStorageBufferBindingSize"])
        out["maxBufferSize"] = int(lim["maxBufferSize"])
    if _ffi.IN_BROWSER:
        out["total_bytes"] = MAX_TOTAL_BYTES_BROWSER
    return out


def check_limits(m: dict, limits: dict, device, where: str) -> None:
    """Before anything is fetched or allocated: the manifest's largest buffer and total size fit
    ``limits`` (AdapterTooSmall, naming the limit)."""
    need = m["limits"]
    for key in ("maxStorageBufferBindingSize", "maxBufferSize"):
        if key in limits and need["largest_buffer"] > limits[key]:
            raise AdapterTooSmall(f"{where}: the model's largest tensor is {need['largest_buffer']} bytes; this "
                                  f"adapter's {key} is {limits[key]} bytes ({device})")
    if "total_bytes" in limits and need["total_bytes"] > limits["total_bytes"]:
        raise AdapterTooSmall(f"{where}: the model's tensors total {need['total_bytes']} bytes; at most "
                              f"{limits['total_bytes']} fit here ({device})")


def run_sample(model, m: dict, device, where: str) -> float:
    """Run the manifest's sample on ``device``; its relative error, or SampleMismatch naming it."""
    from .. import no_grad
    from ..ops.creation import tensor
    s = m["sample"]
    x = decode_array(s["input"], "sample.input", where)
    want = decode_array(s["logits"], "sample.logits", where).astype(np.float64)
    with no_grad():
        got = model(tensor(x, device=device)).cpu().numpy().astype(np.float64)
    tol = float(s["tolerance"])
    if got.shape != want.shape:
        raise SampleMismatch(f"{where}: on {device} the sample gives logits of shape {list(got.shape)}; the manifest's "
                             f"have shape {list(want.shape)}")
    if not np.isfinite(got).all():
        raise SampleMismatch(f"{where}: on {device} the sample's logits hold {int((~np.isfinite(got)).sum())} NaN or "
                             "infinite values")
    diff = np.abs(got - want)
    err = float(np.linalg.norm(got - want) / max(float(np.linalg.norm(want)), 1e-30))
    if not err <= tol:
        at = tuple(int(i) for i in np.unravel_index(int(diff.argmax()), diff.shape))
        raise SampleMismatch(f"{where}: on {device} the sample's logits differ from the manifest's: relative error "
                             f"{err:.3e} > tolerance {tol:.1e} (largest |difference| {diff.max():.4g} at {list(at)}; "
                             f"predicted classes {got.argmax(-1).tolist()}, the manifest's {want.argmax(-1).tolist()})")
    return err
